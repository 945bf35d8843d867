// Section 7's "Compare runs" panel: the run library (pick up to four runs to overlay), "Run
// across seeds" (N seeds in parallel workers, mean with a min-max band, a per-seed before/after
// table, a paired comparison when two configs ran on the same seeds), the config-diff table and
// the exports (JSON, CSV, the chart as PNG). The math is in compare.js, the workers in seed-batch.js.
import { h, dataTable, downloadBlob as download, fmt, nextTask } from '../dom.js';
import { chartFigure, makeChart, lineStyle, axis, savePng, thinSeries, thinBuckets, THINNED_SEGMENT, COLORS } from '../charts.js';
import * as library from './run-library.js';
import { libraryNotes } from './library-notes.js';
import { getState } from './controller.js';
import { saveAgain } from './run-saver.js';
import { LinkError, batchLabels, comparisonCsv, comparisonLink, configDiff, pairedComparison, parseComparisonLink, runName, seedBand } from './compare.js';
import { LINK_BUDGET_SECONDS, formatWork, linkPlan } from './link-plan.js';
import { MAX_RUNS } from './run-library.js';
import { plainText } from '../quote.js';
import { SEEDS_MAX, SEEDS_MIN, runSeeds, runSeedsForEach, seedList, workerCount } from './seed-batch.js';
import { errorText } from '../core-errors.js';
import { ESTIMATORS } from './run-config.js';
import { MAX_OVERLAY, pickColor, setOverlays } from './overlays.js';
import { LESSONS, armOptions, benchSentence, lessonById, lessonClaim, lessonText, lessonVerdict, questionParams } from './lessons.js';

const METRICS = [
  { key: 'evalAccuracy', label: 'HIST_ACCURACY' },
  { key: 'evalEntropy', label: 'HIST_ENTROPY' },
  { key: 'informativeFraction', label: 'HIST_INFO' },
  { key: 'loss', label: 'train.series.loss' },
  // The lessons gallery's charts (lessons.js `chart`).
  { key: 'entropy', label: 'lesson.metric.entropy' },
  { key: 'meanLength', label: 'lesson.metric.meanLength' },
  { key: 'truncatedFraction', label: 'lesson.metric.truncatedFraction' },
  { key: 'meanLengthIncorrect', label: 'lesson.metric.meanLengthIncorrect' },
];
// The latest seed batches, [{config, seeds, runs: [{seed, result}], group}], the latest last:
// kept here, outside the panel, because a URL or language change re-mounts the sections. One
// click makes one group: one batch ("Run across seeds") or one per estimator (the ancestors).
let batches = [];
let groups = 0;
const KEPT_BATCHES = ESTIMATORS.length + 1;
// Each lesson's latest pair of batches (arm A, arm B), by id: kept apart from `batches` so that
// every lesson run keeps its verdict however many batches ran after it.
const lessonRuns = new Map();

/** Mounts the panel into `host`; getConfig() gives the validated config to run or throws. */
export function comparePanel(host, ctx, { getConfig, onInspect = null }) {
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
  // Set-aside records, a run too large to keep, a database this page cannot use (library-notes.js).
  // After a reset the run on display is saved again, as it was before the library broke.
  const notes = libraryNotes(ctx, { refresh: () => saveAgain(getState()).then(refresh) });
  const seedsHost = h('div', { class: 'seed-table' });
  const pairedHost = h('div', { class: 'paired' });
  const exportButtons = [
    h('button', { type: 'button', class: 'button-quiet', dataset: { action: 'export-json' }, text: t('compare.exportJson') }),
    h('button', { type: 'button', class: 'button-quiet', dataset: { action: 'export-csv' }, text: t('compare.exportCsv') }),
    h('button', { type: 'button', class: 'button-quiet', dataset: { action: 'export-png' }, text: t('compare.exportPng') }),
  ];
  // The lessons gallery (lessons.js): one entry per lesson, its button runs both arms on the
  // seeds 0..N-1 of the Seeds field; the verdict is computed from those runs.
  const lessonButtons = [];
  const lessonEntries = new Map();
  const setupText = (lesson) => {
    const defaults = defaultsOf({ profile: lesson.profile ?? 'smoke' });
    const base = core.experimentConfig({ profile: lesson.profile ?? 'smoke', ...lesson.base, seed: 0 });
    const rows = configDiff([defaults, base]).filter((d) => d.field !== 'seed');
    const arms = batchLabels([core.experimentConfig(armOptions(lesson, 'a', 0)), core.experimentConfig(armOptions(lesson, 'b', 0))]).labels;
    return t('lesson.setup', { setup: rows.length ? rows.map((d) => `${d.label} = ${d.values[1]}`).join(', ') : t('lesson.none'), a: arms[0], b: arms[1] });
  };
  const gallery = h(
    'section',
    { class: 'lesson-gallery', dataset: { testid: 'lessons' } },
    h('h4', { text: t('lesson.title') }),
    h('p', { text: t('lesson.explain') }),
    h('ol', { class: 'lessons' }, ...LESSONS.map((lesson) => {
      const button = h('button', { type: 'button', class: 'button-run', dataset: { action: 'run-lesson', lesson: lesson.id }, text: t('lesson.run') });
      lessonButtons.push(button);
      const verdict = h('p', { class: 'lesson-verdict' });
      const values = h('p', { class: 'lesson-values' });
      lessonEntries.set(lesson.id, { verdict, values });
      button.addEventListener('click', () => start(() => [core.experimentConfig(armOptions(lesson, 'a', 0)), core.experimentConfig(armOptions(lesson, 'b', 0))], lesson));
      return h(
        'li',
        { class: 'lesson', dataset: { lesson: lesson.id } },
        h('h5', { text: t(`lesson.${lesson.id}.name`) }),
        h('p', { class: 'lesson-question', text: t(`lesson.${lesson.id}.question`, questionParams(lesson)) }),
        h('p', { class: 'lesson-setup', text: setupText(lesson) + (lesson.maxSeeds ? ` ${t('lesson.maxSeeds', { max: lesson.maxSeeds })}` : '') }),
        h('p', { class: 'lesson-rule', text: t('lesson.rule', { rule: lessonText(t, lessonClaim(lesson)) }) }),
        h('p', { class: 'lesson-measured muted', text: lessonText(t, benchSentence(lesson)) }),
        h('p', {}, button),
        verdict,
        values,
      );
    })),
  );
  // Each lesson's latest run (kept in the batches, so a re-mount draws it again).
  const drawLessons = () => {
    for (const [id, { verdict, values }] of lessonEntries) {
      const [a, b] = lessonRuns.get(id) ?? [];
      const item = verdict.closest('li');
      if (!a || !b) {
        verdict.textContent = values.textContent = '';
        delete item.dataset.count;
        continue;
      }
      const lesson = lessonById(id);
      const result = (batch, seed) => batch.runs.find((r) => r.seed === seed)?.result ?? null;
      const v = lessonVerdict(lesson, a.seeds.map((seed) => ({ seed, a: result(a, seed), b: result(b, seed) })));
      verdict.textContent = lessonText(t, v.sentence);
      values.textContent = lessonText(t, v.values);
      Object.assign(item.dataset, { count: String(v.count), n: String(v.n), kind: v.kind });
    }
  };
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
    gallery,
    h('h4', { text: t('compare.libraryTitle') }),
    listHost,
    notes.el,
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
        heldLink = null;
        if (box.checked) selected.add(entry.key);
        else selected.delete(entry.key);
        draw();
      });
      // The step inspector on this run's updates (section 7, inspector-launcher.js).
      const inspect = onInspect && entry.run.history?.length ? h('button', { type: 'button', class: 'button-quiet', dataset: { action: 'inspect-run' }, text: t('inspector.inspectRun') }) : null;
      inspect?.addEventListener('click', () => onInspect(entry));
      return h('li', {}, h('label', {}, box, ` ${entry.name} `, h('span', { class: 'run-source', text: `(${t(`compare.source.${entry.source}`)})` })), inspect ? ' ' : null, inspect);
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
      const suffix = shown.length === 1 ? '' : ` (${batchLabels(shown.map((b) => b.config)).labels[i]})`;
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
      // Several batches (the ancestors, a link's): held-out accuracy after RL per seed, one
      // column per batch, named by what differs between them (batchLabels).
      const named = batchLabels(shown.map((b) => b.config));
      seedsHost.replaceChildren(
        dataTable({
          caption: named.estimatorsOnly ? t('compare.estimatorCaption', { n: batch.seeds.length }) : t('compare.batchesCaption', { n: batch.seeds.length, fields: named.fields.join(', ') || '—' }),
          className: 'seed-before-after seed-estimators',
          columns: [{ label: t('compare.seed') }, { label: t('compare.heldoutBefore'), numeric: true }, ...named.labels.map((label) => ({ label, numeric: true }))],
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
      const { labels } = batchLabels(shown.map((b) => b.config));
      pairedHost.replaceChildren(
        h('ul', { class: 'paired-estimators' }, ...others.map((other, j) => {
          const paired = pairedComparison(finals(grpo), finals(other));
          return h('li', { class: 'paired-summary', text: t('compare.pairedSummary', { a: labels[0], b: labels[j + 1], favourA: paired.favourA, favourB: paired.favourB, ties: paired.ties, n: paired.pairs.length, mean: fmt(paired.meanDiff ?? NaN, 3) }) });
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
  // A link not opened (declined, refused) stays in the address until the reader changes the picks.
  let heldLink = null;
  const writeLink = () => {
    if (opening || (heldLink !== null && ctx.get('cmp') === heldLink)) return;
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
    drawLessons();
  };

  const refresh = async () => {
    try {
      entries = await library.list();
      notes.failed(null);
    } catch (error) {
      notes.failed(error);
      entries = [];
    }
    for (const key of [...selected]) if (!entries.some((e) => e.key === key)) selected.delete(key);
    draw();
  };

  const record = (result, source, measured = null) => {
    const entry = library.libraryEntry(result, { source, defaults: defaultsOf(result.config), measured });
    return library.add(entry).catch((error) => notes.failed(error));
  };

  // One click: the configs, each across the same seeds (one after another, each in parallel workers).
  const start = (makeConfigs, lesson = null) => {
    if (running) return;
    heldLink = null;
    let seeds;
    let configs;
    try {
      configs = makeConfigs(getConfig());
      // A lesson with maxSeeds (the scratch task's: lessons.js) runs on at most that many.
      const count = Number(seedsInput.value);
      seeds = seedList(configs[0].seed, lesson?.maxSeeds ? Math.min(lesson.maxSeeds, count) : count);
    } catch (error) {
      status.textContent = t('train.refused', { message: error.message });
      return;
    }
    if (lesson) metric = METRICS.some((m) => m.key === lesson.chart) ? lesson.chart : metric;
    metricSelect.value = metric;
    groups += 1;
    const group = groups;
    const workers = workerCount(seeds.length);
    const n = seeds.length * configs.length;
    status.textContent = lesson ? t('lesson.running', { name: t(`lesson.${lesson.id}.name`), n, seeds: seeds.length, workers }) : t('compare.running', { n, workers });
    root.dataset.lesson = lesson?.id ?? '';
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
    for (const button of lessonButtons) button.disabled = true;
    running.promise
      .then(async (all) => {
        const made = all.map((runs, i) => ({ config: configs[i], seeds, runs, group }));
        batches = [...batches, ...made].slice(-KEPT_BATCHES);
        if (lesson && made.length === 2) lessonRuns.set(lesson.id, made);
        for (const runs of all) for (const run of runs) if (run.result) await record(run.result, 'seeds');
        status.textContent = t('compare.done', { n: all.reduce((sum, runs) => sum + runs.length, 0) });
        return 'finished';
      })
      .catch((error) => {
        status.textContent = t('compare.failed', { message: error.message });
        return 'error';
      })
      .then(async (phase) => {
        running = null;
        paused = false;
        pauseButton.disabled = true;
        stopButton.disabled = true;
        runButton.disabled = false;
        ancestorsButton.disabled = false;
        for (const button of lessonButtons) button.disabled = false;
        pauseButton.textContent = t('train.pause');
        // The phase is said after the tables are drawn: a reader (or a test) that sees
        // "finished" sees the runs.
        await refresh();
        root.dataset.phase = phase;
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
  clearButton.addEventListener('click', () => library.clear().catch((error) => notes.failed(error)));
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

  // A link with a comparison: its plan first (every run read by the core, the work of the runs
  // the library lacks priced, link-plan.js); those train only after the reader's click on a
  // question that says how much work it is, and more when it is beyond the budget or the
  // library's run cap; then the single runs are picked and the batches charted, from the runs
  // trained now (kept here, even those the library cannot keep) and the library's.
  const linkHost = h('div', { class: 'link-confirm', hidden: true });
  root.querySelector('.run-progress-row').after(linkHost);
  let answerLink = null;
  const refuseLink = (text, error) => {
    const message = error instanceof LinkError ? t(`compare.link.${error.code}`, error.params) : errorText(error);
    status.textContent = t('compare.linkRefused', { message: plainText(message) });
    root.dataset.phase = 'refused';
    heldLink = text;
  };
  /** Asks whether to train the plan's runs; resolves true (Train) or false (Not now). */
  const askLink = (plan) =>
    new Promise((resolve) => {
      const lines = [t('compare.link.ask', { items: plan.items.length, runs: plan.runs, toTrain: plan.toTrain, time: formatWork(plan.seconds, ctx.lang) })];
      if (plan.overBudget) lines.push(t('compare.link.overBudget', { budget: formatWork(LINK_BUDGET_SECONDS, ctx.lang) }));
      if (plan.runs > MAX_RUNS) lines.push(t('compare.link.overCap', { max: MAX_RUNS, runs: plan.runs }));
      const train = h('button', { type: 'button', class: 'button-run', dataset: { action: 'train-link' }, text: t(plan.overBudget ? 'compare.link.trainAnyway' : 'compare.link.train', { n: plan.toTrain }) });
      const cancel = h('button', { type: 'button', dataset: { action: 'decline-link' }, text: t('compare.link.cancel') });
      const answer = (yes) => {
        answerLink = null;
        linkHost.hidden = true;
        linkHost.replaceChildren();
        resolve(yes);
      };
      train.addEventListener('click', () => answer(true));
      cancel.addEventListener('click', () => answer(false));
      answerLink = answer;
      linkHost.replaceChildren(...lines.map((line) => h('p', { text: line })), h('p', {}, train, ' ', cancel));
      linkHost.dataset.overBudget = String(plan.overBudget);
      linkHost.dataset.overCap = String(plan.runs > MAX_RUNS);
      linkHost.dataset.toTrain = String(plan.toTrain);
      linkHost.dataset.seconds = String(Math.round(plan.seconds));
      linkHost.hidden = false;
      root.dataset.phase = 'asking';
    });

  const openLink = async (text) => {
    let parsed;
    try {
      parsed = parseComparisonLink(text);
    } catch (error) {
      refuseLink(text, error);
      return;
    }
    opening = true;
    root.dataset.phase = 'opening';
    let keep = false; // the link stays in the address (not opened)
    let endPhase = null; // said once the tables are drawn (finally)
    try {
      const keyOf = (config) => JSON.stringify(config);
      // A run the library holds whole (a stopped one does not stand in for the link's run).
      const whole = (entry) => (entry.run.updatesDone ?? entry.run.config.updates) === entry.run.config.updates;
      const found = () => new Map(entries.filter(whole).map((entry) => [keyOf(entry.run.config), entry]));
      entries = await library.list().catch(() => []);
      let plan;
      try {
        const stored = found();
        const started = performance.now();
        plan = await linkPlan(core, parsed, (config) => stored.has(keyOf(config)), { between: nextTask });
        performance.measure('grpo:link-plan', { start: started }); // read in short tasks (bench_hostile.mjs)
      } catch (error) {
        refuseLink(text, error);
        keep = true;
        return;
      }
      const fresh = new Map(); // the runs trained now, by config
      let stopped = false;
      if (plan.toTrain) {
        if (!(await askLink(plan))) {
          status.textContent = t('compare.link.declined');
          root.dataset.phase = 'declined';
          heldLink = text;
          keep = true;
          return;
        }
        let done = 0;
        const total = plan.toTrain;
        const busy = (on) => {
          pauseButton.disabled = stopButton.disabled = !on;
          runButton.disabled = ancestorsButton.disabled = on;
        };
        busy(true);
        root.dataset.phase = 'running';
        for (const job of plan.todo) {
          status.textContent = t('compare.linkRunning', { done, total });
          running = runSeeds(job.config, job.seeds, {
            keepStopped: false, // a stopped seed is not the link's run: Stop drops it at once
            onProgress: ({ done: updates, total: all }) => {
              progress.value = (done + (updates / all) * job.seeds.length) / total;
            },
          });
          const runs = await running.promise;
          for (const run of runs) {
            if (!run.result || run.stopped) continue; // a stopped seed is not the link's run
            fresh.set(keyOf({ ...job.config, seed: run.seed }), run.result);
            await record(run.result, 'seeds');
          }
          done += job.seeds.length;
          stopped = runs.some((run) => run.stopped) || runs.length < job.seeds.length;
          if (stopped) break; // Stop: the rest stays untrained
        }
        running = null;
        busy(false);
      }
      entries = await library.list().catch(() => entries);
      const byConfig = found();
      const resultOf = (config) => fresh.get(keyOf(config)) ?? byConfig.get(keyOf(config))?.run ?? null;
      groups += 1;
      const made = [];
      for (const item of plan.items) {
        if (item.n === 1) {
          const entry = byConfig.get(keyOf(item.config));
          if (entry && selected.size < MAX_OVERLAY) selected.add(entry.key);
          continue;
        }
        const runs = item.configs.map((config) => ({ seed: config.seed, result: resultOf(config) }));
        made.push({ config: item.config, seeds: item.seeds, runs, group: groups });
      }
      if (made.length) batches = [...batches, ...made].slice(-KEPT_BATCHES);
      progress.value = plan.toTrain ? 1 : progress.value;
      status.textContent = stopped ? t('compare.link.stopped', { n: fresh.size, total: plan.toTrain }) : t('compare.linkOpened', { n: plan.items.length, computed: plan.toTrain });
      endPhase = stopped ? 'stopped' : 'finished';
      keep = stopped;
      if (stopped) heldLink = text;
    } catch (error) {
      running = null;
      pauseButton.disabled = stopButton.disabled = true;
      runButton.disabled = ancestorsButton.disabled = false;
      status.textContent = t('compare.failed', { message: plainText(errorText(error)) });
      root.dataset.phase = 'error';
    } finally {
      opening = false;
      if (!keep) heldLink = null;
      await refresh();
      if (endPhase) root.dataset.phase = endPhase;
    }
  };

  const offLibrary = library.onChange(refresh);
  if (ctx.get('cmp')) openLink(ctx.get('cmp'));
  else refresh();
  return {
    el: root,
    destroy() {
      offLibrary();
      answerLink?.(false);
      running?.stop();
    },
  };
}
