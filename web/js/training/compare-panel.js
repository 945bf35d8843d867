// Section 7's "Compare runs" panel: the run library (pick up to four runs to overlay), "Run
// across seeds" (N seeds in parallel workers, mean with a min-max band, a per-seed before/after
// table, a paired comparison when two configs ran on the same seeds), the config-diff table and
// the exports (JSON, CSV, the chart as PNG). The math is in compare.js, the workers in seed-batch.js.
import { h, dataTable, downloadBlob as download, fmt } from '../dom.js';
import { chartFigure, makeChart, lineStyle, axis, savePng, thinSeries, thinBuckets, THINNED_SEGMENT, COLORS } from '../charts.js';
import * as library from './run-library.js';
import { comparisonCsv, comparisonLink, configDiff, pairedComparison, parseComparisonLink, runName, seedBand } from './compare.js';
import { SEEDS_MAX, SEEDS_MIN, runSeeds, runSeedsForEach, seedList, workerCount } from './seed-batch.js';
import { errorText } from '../core-errors.js';
import { ESTIMATORS } from './run-config.js';
import { MAX_OVERLAY, pickColor, setOverlays } from './overlays.js';

const METRICS = [
  { key: 'evalAccuracy', label: 'HIST_ACCURACY' },
  { key: 'evalEntropy', label: 'HIST_ENTROPY' },
  { key: 'informativeFraction', label: 'HIST_INFO' },
  { key: 'loss', label: 'train.series.loss' },
];
// The latest seed batches, [{config, seeds, runs: [{seed, result}], group}], the latest last:
// kept here, outside the panel, because a URL or language change re-mounts the sections. One
// click makes one group: one batch ("Run across seeds") or one per estimator (the ancestors).
let batches = [];
let groups = 0;
const KEPT_BATCHES = ESTIMATORS.length + 1;

/** Mounts the panel into `host`; getConfig() gives the validated config to run or throws. */
export function comparePanel(host, ctx, { getConfig }) {
  const { t, core } = ctx;
  const defaultsOf = (config) => core.experimentConfig({ profile: config.profile ?? 'smoke' });
  const selected = new Set(); // library keys
  let entries = [];
  let running = null;
  let metric = METRICS[0].key;

  const seedsInput = h('input', { type: 'number', min: SEEDS_MIN, max: SEEDS_MAX, step: 1, value: 8, id: 'compare-seeds', class: 'compare-seeds' });
  // The run bar's buttons (run-bar.js), the primary one first; the rest of the panel's are quiet.
  const runButton = h('button', { type: 'button', class: 'button-run button-primary', dataset: { action: 'run-seeds' }, text: t('compare.runSeeds') });
  const ancestorsButton = h('button', { type: 'button', class: 'button-run', dataset: { action: 'run-ancestors' }, text: t('compare.runAncestors') });
  const pauseButton = h('button', { type: 'button', class: 'button-run', dataset: { action: 'pause-seeds' }, text: t('train.pause'), disabled: true });
  const stopButton = h('button', { type: 'button', class: 'button-run', dataset: { action: 'stop-seeds' }, text: t('train.stop'), disabled: true });
  const progress = h('progress', { class: 'seeds-progress', max: 1, value: 0, 'aria-label': t('compare.progressLabel') });
  const status = h('p', { class: 'seeds-status', role: 'status', 'aria-live': 'polite' });
  const listHost = h('div', { class: 'library-list' });
  const clearButton = h('button', { type: 'button', class: 'button-quiet', dataset: { action: 'clear-library' }, text: t('compare.clear') });
  const metricSelect = h('select', { id: 'compare-metric' }, ...METRICS.map((m) => h('option', { value: m.key, text: t(m.label) })));
  const figure = chartFigure({ title: t('compare.chartTitle'), aria: '', dataLabel: t('common.chartData'), className: 'chart-compare' });
  // Not a `figure.chart`: the history charts' twin-table contract (chart-twins.test.mjs) is theirs;
  // this chart's numbers are the per-seed and paired tables below it.
  figure.figure.classList.replace('chart', 'compare-figure');
  figure.figure.querySelector('details.chart-data').remove();
  figure.figure.dataset.chart = 'compare';
  const diffHost = h('div', { class: 'config-diff' });
  const seedsHost = h('div', { class: 'seed-table' });
  const pairedHost = h('div', { class: 'paired' });
  const exportButtons = [
    h('button', { type: 'button', class: 'button-quiet', dataset: { action: 'export-json' }, text: t('compare.exportJson') }),
    h('button', { type: 'button', class: 'button-quiet', dataset: { action: 'export-csv' }, text: t('compare.exportCsv') }),
    h('button', { type: 'button', class: 'button-quiet', dataset: { action: 'export-png' }, text: t('compare.exportPng') }),
  ];
  // Nothing picked and no batch: what to do, in place of an empty chart.
  const empty = h('p', { class: 'callout compare-empty', role: 'note' });
  const metricRow = h('p', { class: 'compare-metric' }, h('label', { for: 'compare-metric', text: t('compare.metric') }), ' ', metricSelect);
  const root = h(
    'div',
    { class: 'compare-panel', dataset: { testid: 'compare' } },
    h('h3', { text: t('compare.title') }),
    h('p', { text: t('compare.explain') }),
    h('div', { class: 'seeds-row' }, h('label', { for: 'compare-seeds', text: t('compare.seedsLabel') }), seedsInput, runButton, ancestorsButton, pauseButton, stopButton),
    h('div', { class: 'run-progress-row' }, progress, status),
    h('h4', { text: t('compare.libraryTitle') }),
    listHost,
    h('p', {}, clearButton),
    empty,
    metricRow,
    figure.figure,
    diffHost,
    seedsHost,
    pairedHost,
    h('p', { class: 'export-row' }, ...exportButtons),
  );
  host.append(root);

  const chosen = () => entries.filter((e) => selected.has(e.key));
  const latestBatch = () => batches.at(-1) ?? null;
  /** The batches of the latest click: one, or one per advantage estimator. */
  const shownBatches = () => batches.filter((b) => b.group === latestBatch()?.group);
  const batchLabel = (batch) => t('compare.batchName', { name: runName({ ...batch.config, seed: `${batch.seeds[0]}-${batch.seeds.at(-1)}` }, defaultsOf(batch.config)), n: batch.runs.length });

  const drawList = () => {
    const items = entries.map((entry) => {
      const box = h('input', { type: 'checkbox', value: entry.key, checked: selected.has(entry.key), disabled: !selected.has(entry.key) && selected.size >= MAX_OVERLAY });
      box.addEventListener('change', () => {
        if (box.checked) selected.add(entry.key);
        else selected.delete(entry.key);
        draw();
      });
      return h('li', {}, h('label', {}, box, ` ${entry.name} `, h('span', { class: 'run-source', text: `(${t(`compare.source.${entry.source}`)})` })));
    });
    listHost.replaceChildren(items.length ? h('ul', { class: 'library' }, ...items) : h('p', { text: t('compare.libraryEmpty') }));
    root.dataset.libraryCount = String(entries.length);
  };

  const drawChart = () => {
    const nothing = !chosen().length && !shownBatches().length;
    empty.hidden = !nothing;
    empty.textContent = nothing ? t(entries.length ? 'compare.empty.pick' : 'compare.empty.noRuns') : '';
    metricRow.hidden = figure.figure.hidden = nothing;
    for (const button of exportButtons) button.disabled = nothing;
    if (nothing) {
      globalThis.Chart?.getChart(figure.canvas)?.destroy();
      return null;
    }
    const datasets = [];
    const buckets = thinBuckets(figure.canvas);
    chosen().forEach((entry, i) => {
      const rows = entry.run.history;
      // A long run in the library (an import of up to 100 000 rows) is drawn thinned, as section 7 draws it.
      const long = rows.length > 4 * buckets;
      const data = long ? thinSeries(rows, (row) => row.update, (row) => row[metric], buckets) : rows.map((row) => ({ x: row.update, y: row[metric] ?? NaN }));
      datasets.push({ label: entry.name, data, ...lineStyle(0, { borderColor: pickColor(i), backgroundColor: pickColor(i) }), ...(long ? { segment: THINNED_SEGMENT } : {}) });
    });
    const shown = shownBatches();
    shown.forEach((batch, i) => {
      const band = seedBand(batch.runs.filter((r) => r.result).map((r) => r.result.history), metric);
      // One batch is drawn in ink; several (the ancestors) take the palette after the picked runs.
      const style = chosen().length + i;
      const color = shown.length === 1 ? '#1f2328' : COLORS[style % COLORS.length];
      const fill = `${color}2e`; // the line's colour at 18% opacity
      const suffix = shown.length === 1 ? '' : ` (${batch.config.advantageEstimator})`;
      datasets.push({ label: `${t('compare.bandMax')}${suffix}`, data: band.map((b) => ({ x: b.update, y: b.max })), borderColor: 'transparent', backgroundColor: fill, pointRadius: 0, fill: false, band: true });
      datasets.push({ label: `${t('compare.bandMin')}${suffix}`, data: band.map((b) => ({ x: b.update, y: b.min })), borderColor: 'transparent', backgroundColor: fill, pointRadius: 0, fill: '-1', band: true });
      datasets.push({ label: shown.length === 1 ? batchLabel(batch) : `${batchLabel(batch)} ${t('compare.bandNote')}`, data: band.map((b) => ({ x: b.update, y: b.mean })), ...lineStyle(style, { borderColor: color }) });
    });
    const chart = makeChart(figure.canvas, {
      type: 'line',
      data: { datasets },
      options: {
        parsing: false,
        animation: false,
        // With several batches the legend names each mean once, and says its shade is the min-max band.
        plugins: { legend: { labels: { filter: (item, data) => shown.length < 2 || !data.datasets[item.datasetIndex].band } } },
        scales: { x: axis(t('HIST_X'), { type: 'linear' }), y: axis(t(METRICS.find((m) => m.key === metric).label)) } },
    });
    figure.setAria(t('compare.chartAria', { n: chosen().length, seeds: shown[0]?.runs.length ?? 0, batches: shown.length }));
    return chart;
  };

  const drawDiff = () => {
    const runs = chosen().map((e) => ({ name: e.name, config: e.run.config }));
    for (const batch of shownBatches()) runs.push({ name: t('compare.batchShort', { n: batch.runs.length }), config: { ...batch.config, seed: `${batch.seeds[0]}–${batch.seeds.at(-1)}` } });
    if (runs.length < 2) {
      diffHost.replaceChildren();
      return;
    }
    const rows = configDiff(runs.map((r) => r.config));
    diffHost.replaceChildren(
      dataTable({
        caption: t('compare.diffCaption'),
        className: 'config-diff-table',
        columns: [{ label: t('compare.field') }, ...runs.map((r, i) => ({ label: `${i + 1}. ${r.name}` }))],
        rows: rows.length ? rows.map((row) => [{ text: row.label, header: true }, ...row.values.map((v) => String(v))]) : [[t('compare.noDiff'), ...runs.map(() => '')]],
      }),
    );
  };

  const drawSeeds = () => {
    const shown = shownBatches();
    const batch = shown[0];
    if (!batch) {
      seedsHost.replaceChildren();
      return;
    }
    if (shown.length > 1) {
      // The ancestors: held-out accuracy after RL per seed, one column per estimator.
      seedsHost.replaceChildren(
        dataTable({
          caption: t('compare.estimatorCaption', { n: batch.seeds.length }),
          className: 'seed-before-after seed-estimators',
          columns: [{ label: t('compare.seed') }, { label: t('compare.heldoutBefore'), numeric: true }, ...shown.map((b) => ({ label: b.config.advantageEstimator, numeric: true }))],
          rows: batch.seeds.map((seed) => {
            const of = (b) => b.runs.find((r) => r.seed === seed)?.result ?? null;
            return [
              { text: String(seed), header: true },
              { text: fmt(of(batch)?.beforeHeldout?.accuracy ?? NaN, 3), value: of(batch)?.beforeHeldout?.accuracy ?? '' },
              ...shown.map((b) => ({ text: fmt(of(b)?.afterHeldout?.accuracy ?? NaN, 3), value: of(b)?.afterHeldout?.accuracy ?? '' })),
            ];
          }),
        }),
      );
      return;
    }
    const done = batch.runs.filter((r) => r.result);
    seedsHost.replaceChildren(
      dataTable({
        caption: t('compare.seedCaption', { n: done.length }),
        className: 'seed-before-after',
        columns: [{ label: t('compare.seed') }, ...['trainBefore', 'trainAfter', 'heldoutBefore', 'heldoutAfter'].map((k) => ({ label: t(`compare.${k}`), numeric: true }))],
        rows: done.map((r) => [
          { text: String(r.seed), header: true },
          ...[r.result.beforeTrain, r.result.afterTrain, r.result.beforeHeldout, r.result.afterHeldout].map((m) => ({ text: fmt(m?.accuracy ?? NaN, 3), value: m?.accuracy ?? '' })),
        ]),
      }),
    );
  };

  // Two batches of different configs over the same seeds: a paired comparison of held-out accuracy.
  const finals = (batch) => batch.runs.filter((r) => r.result).map((r) => ({ seed: r.seed, value: r.result.afterHeldout.accuracy }));
  const drawPaired = () => {
    const shown = shownBatches();
    if (shown.length > 1) {
      // Each ancestor against GRPO (the first), paired by seed.
      const [grpo, ...others] = shown;
      pairedHost.replaceChildren(
        h('ul', { class: 'paired-estimators' }, ...others.map((other) => {
          const paired = pairedComparison(finals(grpo), finals(other));
          return h('li', { class: 'paired-summary', text: t('compare.pairedSummary', { a: grpo.config.advantageEstimator, b: other.config.advantageEstimator, favourA: paired.favourA, favourB: paired.favourB, ties: paired.ties, n: paired.pairs.length, mean: fmt(paired.meanDiff ?? NaN, 3) }) });
        })),
      );
      return;
    }
    const b = latestBatch();
    const a = batches.filter((batch) => batch.group !== b?.group).at(-1);
    if (!a || !b || JSON.stringify(a.seeds) !== JSON.stringify(b.seeds) || JSON.stringify(a.config) === JSON.stringify(b.config)) {
      pairedHost.replaceChildren();
      return;
    }
    const paired = pairedComparison(finals(a), finals(b));
    const nameA = runName({ ...a.config, seed: '…' }, defaultsOf(a.config));
    const nameB = runName({ ...b.config, seed: '…' }, defaultsOf(b.config));
    pairedHost.replaceChildren(
      h('p', { class: 'paired-summary', text: t('compare.pairedSummary', { a: nameA, b: nameB, favourA: paired.favourA, favourB: paired.favourB, ties: paired.ties, n: paired.pairs.length, mean: fmt(paired.meanDiff ?? NaN, 3) }) }),
      dataTable({
        caption: t('compare.pairedCaption'),
        className: 'paired-table',
        columns: [{ label: t('compare.seed') }, { label: 'A', numeric: true }, { label: 'B', numeric: true }, { label: 'B − A', numeric: true }],
        rows: paired.pairs.map((p) => [{ text: String(p.seed), header: true }, fmt(p.a, 3), fmt(p.b, 3), fmt(p.diff, 3)]),
      }),
    );
  };

  // The page's link carries the comparison (`cmp`): the picks, then the batches on the chart.
  let opening = false;
  const writeLink = () => {
    if (opening) return;
    const items = [...chosen().map((entry) => ({ config: entry.run.config })), ...shownBatches().map((batch) => ({ config: batch.config, n: batch.seeds.length }))];
    const text = comparisonLink(items, defaultsOf) || null;
    if (text !== (ctx.get('cmp') ?? null)) ctx.commit({ cmp: text });
  };

  const draw = () => {
    // The picks are drawn over sections 7-8's charts and section 6's table too (overlays.js).
    setOverlays(chosen().map((entry) => ({ key: entry.key, name: entry.name, ...entry.run })));
    writeLink();
    drawList();
    drawChart();
    drawDiff();
    drawSeeds();
    drawPaired();
  };

  const refresh = async () => {
    try {
      entries = await library.list();
    } catch (error) {
      status.textContent = t('compare.libraryError', { message: error.message });
      entries = [];
    }
    for (const key of [...selected]) if (!entries.some((e) => e.key === key)) selected.delete(key);
    draw();
  };

  const record = (result, source, measured = null) => library.add(library.libraryEntry(result, { source, defaults: defaultsOf(result.config), measured })).catch(() => {});

  // One click: the configs, each across the same seeds (one after another, each in parallel workers).
  const start = (makeConfigs) => {
    if (running) return;
    let seeds;
    let configs;
    try {
      configs = makeConfigs(getConfig());
      seeds = seedList(configs[0].seed, Number(seedsInput.value));
    } catch (error) {
      status.textContent = t('train.refused', { message: error.message });
      return;
    }
    groups += 1;
    const group = groups;
    const workers = workerCount(seeds.length);
    const n = seeds.length * configs.length;
    status.textContent = t('compare.running', { n, workers });
    progress.value = 0;
    running = runSeedsForEach(configs, seeds, {
      workers,
      onProgress: ({ done, total, finished }) => {
        progress.value = done / total;
        status.textContent = t('compare.progress', { done, total, finished, n, workers });
      },
    });
    root.dataset.phase = 'running';
    pauseButton.disabled = false;
    stopButton.disabled = false;
    runButton.disabled = true;
    ancestorsButton.disabled = true;
    running.promise
      .then(async (all) => {
        const made = all.map((runs, i) => ({ config: configs[i], seeds, runs, group }));
        batches = [...batches, ...made].slice(-KEPT_BATCHES);
        for (const runs of all) for (const run of runs) if (run.result) await record(run.result, 'seeds');
        status.textContent = t('compare.done', { n: all.reduce((sum, runs) => sum + runs.length, 0) });
        root.dataset.phase = 'finished';
      })
      .catch((error) => {
        status.textContent = t('compare.failed', { message: error.message });
        root.dataset.phase = 'error';
      })
      .finally(() => {
        running = null;
        paused = false;
        pauseButton.disabled = true;
        stopButton.disabled = true;
        runButton.disabled = false;
        ancestorsButton.disabled = false;
        pauseButton.textContent = t('train.pause');
        refresh();
      });
  };
  runButton.addEventListener('click', () => start((config) => [config]));
  // "GRPO and its ancestors": the current config once per advantage estimator, same seeds.
  ancestorsButton.addEventListener('click', () => start((config) => ESTIMATORS.map((advantageEstimator) => ({ ...config, advantageEstimator }))));
  let paused = false;
  pauseButton.addEventListener('click', () => {
    if (!running) return;
    paused = !paused;
    if (paused) running.pause();
    else running.resume();
    pauseButton.textContent = t(paused ? 'train.resume' : 'train.pause');
  });
  stopButton.addEventListener('click', () => running?.stop());
  clearButton.addEventListener('click', () => library.clear().catch(() => {}));
  metricSelect.addEventListener('change', () => {
    metric = metricSelect.value;
    drawChart();
  });

  const comparisonRuns = () => [
    ...chosen().map((e) => ({ name: e.name, source: e.source, ...e.run })),
    ...shownBatches().flatMap((batch) => batch.runs.filter((r) => r.result).map((r) => ({ name: runName(r.result.config, defaultsOf(r.result.config)), source: 'seeds', ...r.result }))),
  ];
  exportButtons[0].addEventListener('click', () => {
    const runs = comparisonRuns().map(({ name, source, config, history, beforeTrain, afterTrain, beforeHeldout, afterHeldout }) => ({ name, source, config, history, beforeTrain, afterTrain, beforeHeldout, afterHeldout }));
    download('grpo-lab-comparison.json', new Blob([`${JSON.stringify({ format: 'grpo-lab-comparison', version: 1, runs })}\n`], { type: 'application/json' }));
  });
  exportButtons[1].addEventListener('click', () => download('grpo-lab-comparison.csv', new Blob([comparisonCsv(comparisonRuns())], { type: 'text/csv' })));
  exportButtons[2].addEventListener('click', () => savePng(figure.canvas, 'grpo-lab-comparison.png'));

  // A link with a comparison: its runs from the library, the missing ones trained now (progress
  // and Pause/Stop as a seed batch), then picked (single runs) or charted (batches).
  const openLink = async (text) => {
    let items;
    try {
      items = parseComparisonLink(text).map(({ options, n }) => ({ config: core.experimentConfig(options), n }));
    } catch (error) {
      status.textContent = t('compare.linkRefused', { message: errorText(error) });
      return;
    }
    opening = true;
    root.dataset.phase = 'opening';
    try {
      entries = await library.list().catch(() => []);
      const keyOf = (config) => JSON.stringify(config);
      const found = () => new Map(entries.map((entry) => [keyOf(entry.run.config), entry]));
      const stored = found();
      const todo = items
        .map((item) => ({ config: item.config, seeds: seedList(item.config.seed, item.n).filter((seed) => !stored.has(keyOf({ ...item.config, seed }))) }))
        .filter((job) => job.seeds.length);
      const total = todo.reduce((sum, job) => sum + job.seeds.length, 0);
      let done = 0;
      const busy = (on) => {
        pauseButton.disabled = stopButton.disabled = !on;
        runButton.disabled = ancestorsButton.disabled = on;
      };
      if (total) busy(true);
      for (const job of todo) {
        status.textContent = t('compare.linkRunning', { done, total });
        running = runSeeds(job.config, job.seeds, {
          onProgress: ({ done: updates, total: all }) => {
            progress.value = (done + updates / all * job.seeds.length) / total;
          },
        });
        const runs = await running.promise;
        for (const run of runs) if (run.result) await record(run.result, 'seeds');
        done += job.seeds.length;
        if (runs.some((run) => run.stopped) || runs.length < job.seeds.length) break; // Stop: the rest stays untrained
      }
      running = null;
      busy(false);
      entries = await library.list();
      const byConfig = found();
      groups += 1;
      const made = [];
      for (const item of items) {
        if (item.n === 1) {
          const entry = byConfig.get(keyOf(item.config));
          if (entry && selected.size < MAX_OVERLAY) selected.add(entry.key);
          continue;
        }
        const seeds = seedList(item.config.seed, item.n);
        const runs = seeds.map((seed) => ({ seed, result: byConfig.get(keyOf({ ...item.config, seed }))?.run ?? null }));
        made.push({ config: item.config, seeds, runs, group: groups });
      }
      if (made.length) batches = [...batches, ...made].slice(-KEPT_BATCHES);
      progress.value = total ? 1 : progress.value;
      status.textContent = t('compare.linkOpened', { n: items.length, computed: total });
      root.dataset.phase = 'finished';
    } catch (error) {
      running = null;
      pauseButton.disabled = stopButton.disabled = true;
      runButton.disabled = ancestorsButton.disabled = false;
      status.textContent = t('compare.failed', { message: errorText(error) });
      root.dataset.phase = 'error';
    } finally {
      opening = false;
      refresh();
    }
  };

  const offLibrary = library.onChange(refresh);
  if (ctx.get('cmp')) openLink(ctx.get('cmp'));
  else refresh();
  return {
    el: root,
    destroy() {
      offLibrary();
      running?.stop();
    },
  };
}
