// Section 7's "Compare runs" panel: the run library (pick up to four runs to overlay), "Run
// across seeds" (N seeds in parallel workers, mean with a min-max band, a per-seed before/after
// table, a paired comparison when two configs ran on the same seeds), the config-diff table and
// the exports (JSON, CSV, the chart as PNG). The math is in compare.js, the workers in seed-batch.js.
import { h, dataTable, fmt } from '../dom.js';
import { chartFigure, makeChart, lineStyle, axis, thinSeries, thinBuckets, THINNED_SEGMENT, COLORS } from '../charts.js';
import * as training from './controller.js';
import * as library from './run-library.js';
import { comparisonCsv, configDiff, pairedComparison, runName, seedBand } from './compare.js';
import { SEEDS_MAX, SEEDS_MIN, runSeeds, seedList, workerCount } from './seed-batch.js';

export const MAX_OVERLAY = 4;
const METRICS = [
  { key: 'evalAccuracy', label: 'HIST_ACCURACY' },
  { key: 'evalEntropy', label: 'HIST_ENTROPY' },
  { key: 'informativeFraction', label: 'HIST_INFO' },
  { key: 'loss', label: 'train.series.loss' },
];
// The last two seed batches, [{config, seeds, runs: [{seed, result}]}], the latest last: kept
// here, outside the panel, because a URL or language change re-mounts the sections.
let batches = [];
const RECORDED = new Set(['finished', 'stopped', 'precomputed', 'imported']);
const SOURCE_OF = { finished: 'live', stopped: 'live', precomputed: 'precomputed', imported: 'imported' };

function download(name, blob) {
  const url = URL.createObjectURL(blob);
  const link = h('a', { href: url, download: name, hidden: true });
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10000);
}

/** Mounts the panel into `host`; getConfig() gives the validated config to run or throws. */
export function comparePanel(host, ctx, { getConfig }) {
  const { t, core } = ctx;
  const defaultsOf = (config) => core.experimentConfig({ profile: config.profile ?? 'smoke' });
  const selected = new Set(); // library keys
  let entries = [];
  let running = null;
  let metric = METRICS[0].key;

  const seedsInput = h('input', { type: 'number', min: SEEDS_MIN, max: SEEDS_MAX, step: 1, value: 8, id: 'compare-seeds', class: 'compare-seeds' });
  const runButton = h('button', { type: 'button', class: 'button-run', dataset: { action: 'run-seeds' }, text: t('compare.runSeeds') });
  const pauseButton = h('button', { type: 'button', dataset: { action: 'pause-seeds' }, text: t('train.pause'), disabled: true });
  const stopButton = h('button', { type: 'button', dataset: { action: 'stop-seeds' }, text: t('train.stop'), disabled: true });
  const progress = h('progress', { class: 'seeds-progress', max: 1, value: 0, 'aria-label': t('compare.progressLabel') });
  const status = h('p', { class: 'seeds-status', role: 'status', 'aria-live': 'polite' });
  const listHost = h('div', { class: 'library-list' });
  const clearButton = h('button', { type: 'button', dataset: { action: 'clear-library' }, text: t('compare.clear') });
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
    h('button', { type: 'button', dataset: { action: 'export-json' }, text: t('compare.exportJson') }),
    h('button', { type: 'button', dataset: { action: 'export-csv' }, text: t('compare.exportCsv') }),
    h('button', { type: 'button', dataset: { action: 'export-png' }, text: t('compare.exportPng') }),
  ];
  const root = h(
    'div',
    { class: 'compare-panel', dataset: { testid: 'compare' } },
    h('h3', { text: t('compare.title') }),
    h('p', { text: t('compare.explain') }),
    h('div', { class: 'seeds-row' }, h('label', { for: 'compare-seeds', text: t('compare.seedsLabel') }), seedsInput, runButton, pauseButton, stopButton),
    h('div', { class: 'run-progress-row' }, progress, status),
    h('h4', { text: t('compare.libraryTitle') }),
    listHost,
    h('p', {}, clearButton),
    h('p', {}, h('label', { for: 'compare-metric', text: t('compare.metric') }), ' ', metricSelect),
    figure.figure,
    diffHost,
    seedsHost,
    pairedHost,
    h('p', { class: 'export-row' }, ...exportButtons),
  );
  host.append(root);

  const chosen = () => entries.filter((e) => selected.has(e.key));
  const latestBatch = () => batches.at(-1) ?? null;

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
    const datasets = [];
    const buckets = thinBuckets(figure.canvas);
    chosen().forEach((entry, i) => {
      const rows = entry.run.history;
      // A long run in the library (an import of up to 100 000 rows) is drawn thinned, as section 7 draws it.
      const long = rows.length > 4 * buckets;
      const data = long ? thinSeries(rows, (row) => row.update, (row) => row[metric], buckets) : rows.map((row) => ({ x: row.update, y: row[metric] ?? NaN }));
      datasets.push({ label: entry.name, data, ...lineStyle(i), ...(long ? { segment: THINNED_SEGMENT } : {}) });
    });
    const batch = latestBatch();
    if (batch) {
      const band = seedBand(batch.runs.filter((r) => r.result).map((r) => r.result.history), metric);
      const color = COLORS[5];
      const name = t('compare.batchName', { name: runName({ ...batch.config, seed: `${batch.seeds[0]}-${batch.seeds.at(-1)}` }, defaultsOf(batch.config)), n: batch.runs.length });
      datasets.push({ label: t('compare.bandMax'), data: band.map((b) => ({ x: b.update, y: b.max })), borderColor: 'transparent', backgroundColor: 'rgba(51, 65, 85, 0.18)', pointRadius: 0, fill: false });
      datasets.push({ label: t('compare.bandMin'), data: band.map((b) => ({ x: b.update, y: b.min })), borderColor: 'transparent', backgroundColor: 'rgba(51, 65, 85, 0.18)', pointRadius: 0, fill: '-1' });
      datasets.push({ label: name, data: band.map((b) => ({ x: b.update, y: b.mean })), ...lineStyle(5, { borderColor: color }) });
    }
    const chart = makeChart(figure.canvas, {
      type: 'line',
      data: { datasets },
      options: { parsing: false, animation: false, scales: { x: axis(t('HIST_X'), { type: 'linear' }), y: axis(t(METRICS.find((m) => m.key === metric).label)) } },
    });
    figure.setAria(t('compare.chartAria', { n: chosen().length, seeds: batch ? batch.runs.length : 0 }));
    return chart;
  };

  const drawDiff = () => {
    const runs = chosen().map((e) => ({ name: e.name, config: e.run.config }));
    const batch = latestBatch();
    if (batch) runs.push({ name: t('compare.batchShort', { n: batch.runs.length }), config: { ...batch.config, seed: `${batch.seeds[0]}–${batch.seeds.at(-1)}` } });
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
    const batch = latestBatch();
    if (!batch) {
      seedsHost.replaceChildren();
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
  const drawPaired = () => {
    const [a, b] = batches.slice(-2);
    if (!a || !b || JSON.stringify(a.seeds) !== JSON.stringify(b.seeds) || JSON.stringify(a.config) === JSON.stringify(b.config)) {
      pairedHost.replaceChildren();
      return;
    }
    const finals = (batch) => batch.runs.filter((r) => r.result).map((r) => ({ seed: r.seed, value: r.result.afterHeldout.accuracy }));
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

  const draw = () => {
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

  // Every finished run on display goes into the library (once per run: runKey).
  let recordedKey = null;
  const onRun = (s) => {
    if (!RECORDED.has(s.phase) || !s.result?.history || !s.config || recordedKey === s.runKey) return;
    recordedKey = s.runKey;
    record({ ...s.result, config: s.result.config ?? s.config }, SOURCE_OF[s.phase], s.source === 'imported' ? s.libraryMeasure : null);
  };

  runButton.addEventListener('click', () => {
    if (running) return;
    let seeds;
    let config;
    try {
      config = getConfig();
      seeds = seedList(config.seed, Number(seedsInput.value));
    } catch (error) {
      status.textContent = t('train.refused', { message: error.message });
      return;
    }
    const batch = { config, seeds, runs: [] };
    const workers = workerCount(seeds.length);
    status.textContent = t('compare.running', { n: seeds.length, workers });
    progress.value = 0;
    running = runSeeds(config, seeds, {
      workers,
      onProgress: ({ done, total, finished }) => {
        progress.value = done / total;
        status.textContent = t('compare.progress', { done, total, finished, n: seeds.length, workers });
      },
    });
    root.dataset.phase = 'running';
    pauseButton.disabled = false;
    stopButton.disabled = false;
    runButton.disabled = true;
    running.promise
      .then(async (runs) => {
        batch.runs = runs;
        batches = [...batches.slice(-1), batch];
        for (const run of runs) if (run.result) await record(run.result, 'seeds');
        status.textContent = t('compare.done', { n: runs.length });
        root.dataset.phase = 'finished';
      })
      .catch((error) => {
        status.textContent = t('compare.failed', { message: error.message });
        root.dataset.phase = 'error';
      })
      .finally(() => {
        running = null;
        pauseButton.disabled = true;
        stopButton.disabled = true;
        runButton.disabled = false;
        pauseButton.textContent = t('train.pause');
        refresh();
      });
  });
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
    ...(latestBatch()?.runs ?? []).filter((r) => r.result).map((r) => ({ name: runName(r.result.config, defaultsOf(r.result.config)), source: 'seeds', ...r.result })),
  ];
  exportButtons[0].addEventListener('click', () => {
    const runs = comparisonRuns().map(({ name, source, config, history, beforeTrain, afterTrain, beforeHeldout, afterHeldout }) => ({ name, source, config, history, beforeTrain, afterTrain, beforeHeldout, afterHeldout }));
    download('grpo-lab-comparison.json', new Blob([`${JSON.stringify({ format: 'grpo-lab-comparison', version: 1, runs })}\n`], { type: 'application/json' }));
  });
  exportButtons[1].addEventListener('click', () => download('grpo-lab-comparison.csv', new Blob([comparisonCsv(comparisonRuns())], { type: 'text/csv' })));
  exportButtons[2].addEventListener('click', () => figure.canvas.toBlob((blob) => blob && download('grpo-lab-comparison.png', blob), 'image/png'));

  const offLibrary = library.onChange(refresh);
  const offTraining = training.subscribe(onRun);
  onRun(training.getState());
  refresh();
  return {
    el: root,
    destroy() {
      offLibrary();
      offTraining();
      running?.stop();
    },
  };
}
