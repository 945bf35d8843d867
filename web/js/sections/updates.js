// Section 7, what happened inside the updates: live charts of fresh-generation accuracy, entropy
// and informative-group rate, of the probability ratios (with the line at 1), of clip fractions
// and KL, and of loss and gradient norm, per update; the full history as a table, PAGE_ROWS rows
// at a time. Charts grow as the worker streams (drawn at most once per animation frame) and draw a
// thinned series (charts.js thinSeries) once a history is longer than their width can show;
// alone on the embed page the section carries its own run controls.
import { h, dataTable, fmt } from '../dom.js';
import { chartFigure, makeChart, describeChart, lineStyle, axis, axisTitles, runLegend, thinSeries, thinBuckets, THINNED_SEGMENT, DASHES } from '../charts.js';
import { runNotice } from './common.js';
import { updatesSummary, updatesVerdicts, verdictText } from '../training/verdicts.js';
import * as training from '../training/controller.js';
import { AFTER_FRAME, sliced } from '../training/controller.js';
import { sectionRunBar } from '../training/run-dock.js';
import { HISTORY_COLUMNS, trlMetric } from '../training/run-format.js';
import { trlNames, verlNames } from '../training/metric-names.js';
import { validateConfig } from '../training/run-config.js';
import { clipFlatNotes } from '../training/flat-notes.js';
import { comparePanel } from '../training/compare-panel.js';
import { ON_DISPLAY_COLOR, getOverlays, onOverlays, pickColor } from '../training/overlays.js';
import { runName } from '../training/compare.js';
import { profileDefaults } from '../training/run-saver.js';
import { mechanismClaim, mechanismSentence } from '../training/entropy-mechanism.js';
import { inspectorLauncher, librarySource } from '../training/inspector-launcher.js';

/** A dashed horizontal line at options.plugins.hline.y (the notebook's ax.axhline(1.0, "--")). */
export const horizontalLine = {
  id: 'hline',
  afterDatasetsDraw(chart, _args, opts) {
    const y = opts?.y;
    if (typeof y !== 'number') return;
    const { ctx, chartArea, scales } = chart;
    const py = scales.y.getPixelForValue(y);
    if (!Number.isFinite(py) || py < chartArea.top - 1 || py > chartArea.bottom + 1) return;
    ctx.save();
    ctx.strokeStyle = opts.color ?? '#1f2328';
    ctx.lineWidth = opts.width ?? 1;
    ctx.setLineDash(opts.dash ?? [6, 4]);
    ctx.beginPath();
    ctx.moveTo(chartArea.left, py);
    ctx.lineTo(chartArea.right, py);
    ctx.stroke();
    ctx.restore();
  },
};

/** The charts: id, series (history field, label key, style index, axis), y axes. */
export const CHARTS = [
  {
    id: 'history',
    titleKey: 'train.chart.history',
    markers: true,
    series: [
      { key: 'evalAccuracy', label: 'HIST_ACCURACY' },
      { key: 'evalEntropy', label: 'HIST_ENTROPY' },
      { key: 'informativeFraction', label: 'HIST_INFO' },
      { key: 'entropy', label: 'trl.series.learnerEntropy' },
    ],
    y: { min: 0 },
  },
  {
    id: 'ratio',
    titleKey: 'train.chart.ratio',
    series: [
      { key: 'ratioMin', label: 'RATIO_MIN' },
      { key: 'ratioMean', label: 'RATIO_MEAN' },
      { key: 'ratioMax', label: 'RATIO_MAX' },
    ],
    hline: 1,
  },
  {
    id: 'clip',
    titleKey: 'train.chart.clip',
    series: [
      { key: 'clipFractionLow', label: 'train.series.clipLow' },
      { key: 'clipFractionHigh', label: 'train.series.clipHigh' },
      { key: 'clipFractionRegion', label: 'train.series.clipRegion' },
      { key: 'kl', label: 'train.series.kl', axis: 'y1', style: 4 },
    ],
    y: { min: 0, titleKey: 'train.axis.fraction' },
    y1: { min: 0, titleKey: 'train.axis.kl' },
    flat: clipFlatNotes,
  },
  {
    id: 'sampler',
    titleKey: 'train.chart.sampler',
    series: [
      { key: 'samplingRatioMin', label: 'train.series.samplerMin' },
      { key: 'samplingRatioMean', label: 'train.series.samplerMean' },
      { key: 'samplingRatioMax', label: 'train.series.samplerMax' },
      { key: 'samplingLogpDifferenceMean', label: 'train.series.samplerDiff', axis: 'y1', style: 4 },
    ],
    hline: 1,
    y: { min: 0, titleKey: 'train.axis.samplerRatio' },
    y1: { min: 0, titleKey: 'train.axis.samplerDiff' },
    // Without a separate sampler the run has no sampling/* columns (TRL logs none): say so.
    emptyKey: 'trl.sampler.none',
    present: (row) => 'samplingRatioMean' in row,
  },
  {
    id: 'loss',
    titleKey: 'train.chart.loss',
    series: [
      { key: 'loss', label: 'train.series.loss' },
      { key: 'gradNorm', label: 'train.series.gradNorm', axis: 'y1', style: 3 },
    ],
    y: { titleKey: 'train.axis.loss' },
    y1: { min: 0, titleKey: 'train.axis.gradNorm' },
  },
  {
    // Why entropy falls (config entropyMechanism; docs/entropy-mechanism.md "The GRU"): the
    // probe set's measured entropy change per update, its first-order prediction, Cov(log π, A).
    id: 'mechanism',
    titleKey: 'train.chart.mechanism',
    series: [
      { key: 'probeEntropyChange', label: 'train.series.probeChange' },
      { key: 'probeEntropyPrediction', label: 'train.series.probePrediction' },
      { key: 'logpAdvantageCov', label: 'train.series.logpAdvantageCov', axis: 'y1', style: 4 },
    ],
    hline: 0,
    y: { titleKey: 'train.axis.probeChange' },
    y1: { titleKey: 'train.axis.logpAdvantageCov' },
    emptyKey: 'train.mechanism.off',
    present: (row) => 'probeEntropyChange' in row,
    sentence: (history, t) => mechanismSentence(mechanismClaim(history), t),
  },
];

/** The markers of a chart's metrics (where it draws markers), one per series. */
const MARKERS = ['circle', 'triangle', 'rect', 'rectRot'];

/** A tooltip line: the series, its value, and TRL's metric name when TRL logs one. */
function tooltipLabel(item) {
  const trl = item.dataset.trl;
  return `${item.dataset.label}: ${fmt(item.parsed.y, 4)}${trl ? ` (TRL ${trl})` : ''}`;
}

function point(row, key) {
  const value = row[key];
  return { x: row.update, y: typeof value === 'number' && Number.isFinite(value) ? value : NaN };
}

export function historyRowCells(row) {
  return HISTORY_COLUMNS.map((c, i) => {
    const value = row[c.key];
    if (i === 0) return { text: String(value), value, header: true };
    return { text: typeof value === 'number' ? fmt(value) : '—', value: value ?? '', className: Number.isFinite(value) ? undefined : 'bad-value' };
  });
}

/** Appends a <tr> per row to tbody; returns them. */
function appendRows(tbody, rows) {
  const fragment = document.createDocumentFragment();
  const added = [];
  for (const row of rows) {
    const tr = document.createElement('tr');
    added.push(tr);
    historyRowCells(row).forEach((cell, i) => {
      const td = document.createElement(cell.header ? 'th' : 'td');
      if (cell.header) td.scope = 'row';
      td.className = [i > 0 ? 'num' : '', cell.className ?? ''].join(' ').trim();
      td.dataset.value = String(cell.value);
      td.textContent = cell.text;
      tr.append(td);
    });
    fragment.append(tr);
  }
  tbody.append(fragment);
  return added;
}

/** Rows of the history table per page: a full run (300 updates) fits one; 100 000 take 334. */
export const PAGE_ROWS = 300;

/**
 * A new page is in the DOM whole at once (its rows are counted, read and exported whole), but
 * only the rows the reader has scrolled near are laid out: the first REVEAL_ROWS, then
 * REVEAL_ROWS more whenever the last one laid out comes within a table's height of the table's
 * visible bottom. Every reveal lays out the whole table again (~0.15 ms per shown row of 63
 * cells): revealing a page of 300 rows frame by frame, as until 2026-12-07, took six tasks of
 * 100-215 ms after a page change (hostile.test, on a machine whose page faults are dear).
 */
export const REVEAL_ROWS = 50;

/** Which rows page `index` of a history of `n` rows shows: {from, to} (to exclusive), pages. */
export function pageSpan(n, index) {
  const pages = Math.max(1, Math.ceil(n / PAGE_ROWS));
  const page = Math.min(Math.max(0, index), pages - 1);
  return { page, pages, from: page * PAGE_ROWS, to: Math.min(n, (page + 1) * PAGE_ROWS) };
}

// The widget of section 7 (its title, text and URL keys: training-sections.js).
export default {
  mount(host, ctx) {
    const { t, core } = ctx;
    host.append(ctx.rich(t('train.updates.explain')), ctx.rich(t('trl.updates.metrics')));

    const getConfig = () => validateConfig(core, ctx.values());
    const bar = sectionRunBar(ctx, host, getConfig);

    const summary = h('p', { class: 'summary updates-summary', role: 'note' });
    host.append(summary);

    const figures = CHARTS.map((spec) => {
      const figure = chartFigure({ title: t(spec.titleKey), aria: '', dataLabel: t('common.chartData'), pngLabel: t('common.chartPng'), className: `chart-${spec.id}` });
      figure.figure.dataset.chart = spec.id;
      const entry = { spec, figure, chart: null };
      if (spec.flat) {
        entry.flatNote = h('p', { class: 'muted chart-empty chart-flat', role: 'note', hidden: true });
        figure.figure.querySelector('.chart-box').before(entry.flatNote);
      }
      if (spec.emptyKey) {
        entry.emptyNote = h('p', { class: 'muted chart-empty', role: 'note', text: t(spec.emptyKey), hidden: true });
        figure.figure.querySelector('.chart-box').before(entry.emptyNote);
      }
      if (spec.sentence) {
        entry.sentenceNote = h('p', { class: 'chart-sentence', role: 'note', hidden: true });
        figure.figure.querySelector('.chart-box').after(entry.sentenceNote);
      }
      figure.figure.querySelector('details.chart-data').addEventListener('toggle', (event) => {
        if (event.target.open && entry.chart) twinTable(entry, training.getState());
      });
      host.append(figure.figure);
      return entry;
    });

    // The step inspector: picked here, or by a click on a chart at an update (docs/inspector.md).
    const inspector = inspectorLauncher(ctx);
    host.append(inspector.el);

    const historyHost = h('div', { class: 'history-host', id: 'updates-history' });
    host.append(h('h3', { text: t('train.historyTitle') }), historyHost, trlNames(t), verlNames(t, ctx.rich));
    const lesson = runNotice(ctx, 'train.updates.notice');
    host.append(lesson.el);
    const compare = comparePanel(host, ctx, { getConfig: () => validateConfig(core, ctx.values()), onInspect: (entry) => inspector.open(1, librarySource(entry)) });

    const label = (key) => t(key);
    // Buckets of a chart (two pixels each): a history longer than four points per bucket is thinned.
    const columns = (entry) => thinBuckets(entry.figure.canvas);
    const seriesData = (entry, rows, key) => thinSeries(rows, (row) => row.update, (row) => row[key], columns(entry));
    const thinned = (entry, n) => n > 4 * columns(entry);
    // Builds or refits entry's chart for run s. `defer`: a new, thinned chart is built empty and
    // its lines drawn by the next slice (returns true then): Chart.js's construction and the raster
    // of the thinned lines are two tasks (~60 and ~95 ms of CPU loaded) instead of one.
    const buildChart = (entry, s, { defer = false } = {}) => {
      const { spec, figure } = entry;
      const total = Math.max(1, s.updatesTotal || s.config?.updates || 1);
      const markers = spec.markers && total <= 150;
      entry.thinned = thinned(entry, s.history.length);
      const prepared = entry.prepared?.key === `${s.runKey}:${s.history.length}` ? entry.prepared.data : null;
      entry.prepared = null;
      // With runs picked in "Compare runs", a line's colour is its run's and its dash and marker
      // its metric's; the legend names each run once and each metric once (runLegend).
      const overlays = getOverlays();
      const compared = overlays.length > 0;
      const metricStyle = (series, i) => ({ dash: DASHES[(series.style ?? i) % DASHES.length], marker: MARKERS[i % MARKERS.length] });
      const colored = (color) => (compared ? { borderColor: color, backgroundColor: color } : {});
      const datasets = spec.series.map((series, i) => ({
        label: label(series.label),
        trl: trlMetric(series.key),
        data: prepared?.[i] ?? seriesData(entry, s.history, series.key),
        yAxisID: series.axis ?? 'y',
        run: 'shown',
        style: series.key,
        ...lineStyle(series.style ?? i, markers ? { pointRadius: 2.5, pointHoverRadius: 4, pointStyle: metricStyle(series, i).marker } : {}),
        ...colored(ON_DISPLAY_COLOR),
        segment: entry.thinned ? THINNED_SEGMENT : undefined,
      }));
      overlays.forEach((run, j) => {
        spec.series.forEach((series, i) => {
          datasets.push({
            label: `${run.name}: ${label(series.label)}`,
            data: seriesData(entry, run.history ?? [], series.key),
            yAxisID: series.axis ?? 'y',
            overlay: true,
            run: run.key,
            style: series.key,
            ...lineStyle(series.style ?? i, { borderWidth: 1.5, ...(markers ? { pointRadius: 2, pointStyle: metricStyle(series, i).marker } : {}) }),
            ...colored(pickColor(j)),
          });
        });
      });
      const legend = compared
        ? runLegend(
            [{ id: 'shown', text: t('compare.legend.onDisplay', { name: s.config ? runName(s.config, profileDefaults(s.config.profile)) : '—' }), color: ON_DISPLAY_COLOR }, ...overlays.map((run, j) => ({ id: run.key, text: run.name, color: pickColor(j) }))],
            spec.series.map((series, i) => ({ id: series.key, text: label(series.label), dash: metricStyle(series, i).dash })),
          )
        : undefined;
      const overlayKey = `${s.runKey}:${overlays.map((run) => run.key).join(',')}`;
      const longest = Math.max(total, ...overlays.map((run) => run.history?.length ?? 0));
      const scales = {
        x: axis(t('HIST_X'), { type: 'linear', min: 1, max: longest, ticks: { precision: 0 } }),
        y: axis(spec.y?.titleKey ? t(spec.y.titleKey) : '', spec.y?.min !== undefined ? { min: spec.y.min } : {}),
      };
      if (spec.y1) {
        scales.y1 = axis(t(spec.y1.titleKey), { position: 'right', min: spec.y1.min, grid: { drawOnChartArea: false } });
      }
      if (entry.chart && entry.overlayKey !== overlayKey && (compared || entry.compared)) {
        // Picks changed (or the run they are compared with): a new legend, so a new chart.
        entry.chart.destroy();
        entry.chart = null;
      }
      entry.overlayKey = overlayKey;
      entry.compared = compared;
      if (entry.chart) {
        // A new run on the same chart: new data and x range, no new chart (cheaper).
        if (entry.chart.data.datasets.length === datasets.length) entry.chart.data.datasets.forEach((dataset, i) => Object.assign(dataset, datasets[i]));
        else entry.chart.data.datasets = datasets;
        entry.chart.options.scales.x.max = longest;
        entry.chart.update('none');
        return false;
      }
      const later = defer && entry.thinned ? datasets.map((dataset) => dataset.data) : null;
      if (later) for (const dataset of datasets) dataset.data = [];
      entry.chart = makeChart(figure.canvas, {
        type: 'line',
        data: { datasets },
        options: {
          parsing: false,
          spanGaps: false,
          interaction: { mode: 'nearest', axis: 'x', intersect: false },
          // A click at an update opens the step inspector there.
          onClick: (event, _elements, chart) => {
            const update = Math.round(chart.scales.x.getValueForPixel(event.x));
            if (Number.isFinite(update) && update >= 1) inspector.open(update);
          },
          scales,
          plugins: {
            ...(spec.hline !== undefined ? { hline: { y: spec.hline } } : {}),
            ...(legend ? { legend } : {}),
            // Each series' tooltip names the metric TRL logs for it.
            tooltip: { callbacks: { label: tooltipLabel } },
          },
        },
        plugins: spec.hline !== undefined ? [horizontalLine] : [],
      });
      entry.chart.options.animation = false; // streaming: every frame draws at once
      if (!later) return false;
      entry.chart.data.datasets.forEach((dataset, i) => (dataset.data = later[i]));
      return true;
    };

    const ariaFor = (entry, s) => {
      const rows = s.history;
      const parts = entry.spec.series.map((series) => {
        const first = rows[0]?.[series.key];
        const last = rows[rows.length - 1]?.[series.key];
        return `${label(series.label)} ${fmt(first ?? NaN, 3)} → ${fmt(last ?? NaN, 3)}`;
      });
      return t('train.chartAria', { title: t(entry.spec.titleKey), n: rows.length, series: parts.join('; ') });
    };

    // The chart's accessible twin: its series at most TWIN_ROWS sampled updates (and the last),
    // headed by the axis titles the canvas draws; every number is in the history table.
    const TWIN_ROWS = 12;
    const twinTable = (entry, s) => {
      const titles = axisTitles(entry.chart);
      const rows = s.history;
      const step = Math.max(1, Math.ceil(rows.length / TWIN_ROWS));
      const picked = rows.filter((_, i) => i % step === 0 || i === rows.length - 1);
      const table = dataTable({
        caption: t(entry.spec.titleKey),
        columns: [
          { label: titles.x ?? t('HIST_X'), numeric: true },
          ...entry.spec.series.map((series) => {
            const title = titles[series.axis ?? 'y'];
            return { label: title ? `${label(series.label)}, ${title}` : label(series.label), numeric: true };
          }),
        ],
        rows: picked.map((row) => [
          { text: String(row.update), value: row.update, header: true },
          ...entry.spec.series.map((series) => ({ text: fmt(row[series.key] ?? NaN), value: row[series.key] ?? '' })),
        ]),
      });
      const link = h('p', {}, t('train.chartNumbers'), ' ', h('a', { href: '#updates-history', text: t('train.historyLink') }));
      entry.figure.setTable(h('div', {}, table, link));
      entry.twinRows = rows.length;
      entry.twinKey = s.runKey;
    };

    // The table shows one page of PAGE_ROWS rows; a pager appears once there are more. It follows
    // the newest rows while its last page is on display (a live run), else it stays put.
    let page = 0;
    let following = true;
    const pager = h('nav', { class: 'history-pager', 'aria-label': t('train.history.pager'), hidden: true });
    const pagerText = h('span', { class: 'history-pager-text', 'aria-live': 'polite' });
    const pageButton = (action, key) => {
      const button = h('button', { type: 'button', class: 'button-quiet', dataset: { page: action }, text: t(key) });
      button.addEventListener('click', () => {
        const n = training.getState().history.length;
        const { pages } = pageSpan(n, page);
        const next = { first: 0, previous: page - 1, next: page + 1, last: pages - 1 }[action];
        showPage(next);
      });
      return button;
    };
    const pageButtons = {
      first: pageButton('first', 'train.history.first'),
      previous: pageButton('previous', 'train.history.previous'),
      next: pageButton('next', 'train.history.next'),
      last: pageButton('last', 'train.history.last'),
    };
    pager.append(pageButtons.first, pageButtons.previous, pagerText, pageButtons.next, pageButtons.last);

    const updatePager = (n) => {
      const span = pageSpan(n, page);
      pager.hidden = span.pages <= 1;
      pagerText.textContent = t('train.history.rows', { from: span.from + 1, to: span.to, n });
      pageButtons.first.disabled = pageButtons.previous.disabled = span.page === 0;
      pageButtons.next.disabled = pageButtons.last.disabled = span.page === span.pages - 1;
    };

    let tbody = null;
    let shownTo = 0; // rows of the history on the table's page, up to this index (exclusive)
    let unbuilt = []; // history rows of the page with no <tr> yet (buildMore: REVEAL_ROWS a task)
    let buildTimer = 0;
    let laterRows = []; // <tr>s of the page not laid out yet (class row-later: display none)
    let frontier = null; // watches the last row laid out while rows wait (watchFrontier)
    const reveal = () => {
      if (!shown(historyHost)) return; // off screen: the section's observer watches again
      for (const tr of laterRows.splice(0, REVEAL_ROWS)) tr.classList.remove('row-later');
      watchFrontier();
    };
    // Within the table's scroll box, the last row laid out: near its visible bottom, more rows.
    const watchFrontier = () => {
      frontier?.disconnect();
      frontier = null;
      if (!laterRows.length) return;
      if (typeof IntersectionObserver !== 'function') {
        for (const tr of laterRows.splice(0)) tr.classList.remove('row-later');
        return;
      }
      frontier = new IntersectionObserver((entries) => entries.some((e) => e.isIntersecting) && reveal(), { root: tbody.closest('.table-wrap'), rootMargin: '0px 0px 100% 0px' });
      frontier.observe(laterRows[0].previousElementSibling);
    };
    // Rows made while others wait to be laid out: they wait behind them, in order.
    const holdBack = (added) => {
      for (const tr of added) tr.classList.add('row-later');
      const watching = laterRows.length > 0;
      laterRows.push(...added);
      if (!watching) watchFrontier();
    };
    // A page's rows after its first REVEAL_ROWS get their <tr>s REVEAL_ROWS a task, laid out
    // later (reveal): 300 rows of 63 cells made in one task took ~100 ms of CPU (a 48 MB import's
    // longest task, 2026-12-07). data-drawn waits for the last of them (markDrawn).
    const buildMore = () => {
      buildTimer = 0;
      holdBack(appendRows(tbody, unbuilt.splice(0, REVEAL_ROWS)));
      if (unbuilt.length) buildTimer = setTimeout(buildMore, 0);
      else markDrawn();
    };
    const showPage = (index) => {
      const rows = training.getState().history;
      const span = pageSpan(rows.length, index);
      page = span.page;
      following = page === span.pages - 1;
      clearTimeout(buildTimer);
      buildTimer = 0;
      tbody.replaceChildren();
      laterRows = [];
      watchFrontier(); // stops watching the old page's rows
      appendRows(tbody, rows.slice(span.from, Math.min(span.to, span.from + REVEAL_ROWS)));
      unbuilt = rows.slice(span.from + REVEAL_ROWS, span.to);
      if (unbuilt.length) buildTimer = setTimeout(buildMore, 0);
      shownTo = span.to;
      updatePager(rows.length);
    };

    const buildTable = (s) => {
      const table = dataTable({
        caption: t('train.historyCaption', { n: s.history.length }),
        className: 'history-table',
        columns: HISTORY_COLUMNS.map((c, i) => ({ label: c.label, numeric: i > 0 })),
        rows: [],
      });
      tbody = table.querySelector('tbody');
      historyHost.replaceChildren(pager, table);
      showPage(0); // a run opens on its first rows; a live one's first page is also its newest
    };

    // The bold summary and the lesson lines: verdicts over the run's numbers (training/verdicts.js),
    // endpoints the 64-answer evaluations once the run ended, else means over windows of updates.
    const verdictContext = (s) => ({ config: s.config ?? s.result?.config, info: s.info, result: s.result });
    const words = (item) => verdictText(t, item);
    const describe = (s) => (s.history.length ? words(updatesSummary(s.history, verdictContext(s))) : t('train.updates.empty'));

    // While a run streams, only what is on screen is redrawn; the rest catches up when scrolled
    // into view or when the run stops (four charts and a 300-row table off screen cost the main
    // thread without showing anything). Each chart and the table keep their own row counters
    // and are brought up to date in short slices (sliced()), never in one long task.
    let tableKey = null;
    let tableRows = 0;
    let lastTableFlush = 0;
    const visible = new Map();
    const shown = (node) => visible.get(node) !== false;

    const syncChart = (entry, redraw, { defer = false } = {}) => {
      const s = training.getState();
      if (entry.key !== s.runKey) {
        const drawLater = buildChart(entry, s, { defer });
        entry.key = s.runKey;
        entry.rows = s.history.length;
        entry.dirty = drawLater;
        if (drawLater) return; // the next slice draws it (dirty)
      } else if (s.history.length > entry.rows) {
        if (entry.thinned || thinned(entry, s.history.length)) {
          // Long: the thinned series again, from every row (linear, a few ms for 100 000).
          entry.thinned = true;
          entry.spec.series.forEach((series, i) => {
            entry.chart.data.datasets[i].data = seriesData(entry, s.history, series.key);
            entry.chart.data.datasets[i].segment = THINNED_SEGMENT;
          });
        } else {
          const fresh = s.history.slice(entry.rows);
          entry.spec.series.forEach((series, i) => {
            const data = entry.chart.data.datasets[i].data;
            for (const row of fresh) data.push(point(row, series.key));
          });
        }
        entry.rows = s.history.length;
        entry.dirty = true;
      }
      if (entry.dirty && redraw) {
        entry.chart.update('none');
        entry.dirty = false;
      }
      describeChart(entry.chart, ariaFor(entry, s));
      if (entry.emptyNote) entry.emptyNote.hidden = !(s.history.length > 0 && !entry.spec.present(s.history[s.history.length - 1])); // a run has a sampler in every row or in none
      if (entry.sentenceNote) {
        const on = s.history.length > 0 && entry.spec.present(s.history[s.history.length - 1]);
        entry.sentenceNote.textContent = on ? entry.spec.sentence(s.history, t) : '';
        entry.sentenceNote.hidden = !on;
      }
      // The twin is rebuilt when the run rests or its table is open, never per streamed frame.
      const open = entry.figure.figure.querySelector('details.chart-data')?.open;
      if (redraw && (!training.isBusy(s.phase) || open) && (entry.twinKey !== s.runKey || entry.twinRows !== s.history.length)) twinTable(entry, s);
    };

    const syncTable = () => {
      const s = training.getState();
      lastTableFlush = performance.now();
      if (tableKey !== s.runKey) {
        buildTable(s);
        tableKey = s.runKey;
        tableRows = s.history.length;
        return;
      }
      if (s.history.length <= tableRows) return;
      const span = pageSpan(s.history.length, page);
      if (following && span.pages - 1 > page) showPage(span.pages - 1); // the newest rows spill over
      else if (unbuilt.length) {
        unbuilt.push(...s.history.slice(shownTo, span.to)); // behind the page's rows still to make
        shownTo = span.to;
      } else if (shownTo < span.to) {
        const added = appendRows(tbody, s.history.slice(shownTo, span.to));
        if (laterRows.length) holdBack(added); // the page is still being shown
        shownTo = span.to;
      }
      tableRows = s.history.length;
      updatePager(tableRows);
      const caption = historyHost.querySelector('caption');
      if (caption) caption.textContent = t('train.historyCaption', { n: tableRows });
    };

    let cancelSlices = null;
    // data-drawn on the section body: "runKey:rows:phase" once charts and table show all of it.
    const markDrawn = () => {
      const s = training.getState();
      const current = tableKey === s.runKey && tableRows === s.history.length && !unbuilt.length && figures.every((e) => e.key === s.runKey && e.rows === s.history.length && !e.dirty);
      if (current) host.dataset.drawn = `${s.runKey}:${s.history.length}:${s.phase}`;
    };
    // A new run's thinned series of a chart, in a slice of their own before the chart is built
    // from them: for 100 000 rows each is a few dozen ms, and so is building the chart.
    const prepare = (entry) => {
      const s = training.getState();
      if (entry.key === s.runKey) return;
      entry.prepared = { key: `${s.runKey}:${s.history.length}`, data: entry.spec.series.map((series) => seriesData(entry, s.history, series.key)) };
    };
    // `also`: more jobs, sliced with these, before data-drawn is set.
    const catchUp = (s, { also = [] } = {}) => {
      const streaming = training.isBusy(s.phase);
      const work = [];
      for (const entry of figures) {
        const stale = entry.key !== s.runKey || entry.rows < s.history.length || entry.dirty;
        if (stale && (!streaming || shown(entry.figure.figure))) {
          // A new chart reads its canvas's size: after the frame, whose layout the slices before
          // (the table's rows, another chart) made dirty.
          if (entry.key !== s.runKey) work.push(() => prepare(entry), () => AFTER_FRAME, () => syncChart(entry, true, { defer: true }));
          work.push(() => syncChart(entry, true));
        }
      }
      const tableStale = tableKey !== s.runKey || tableRows < s.history.length;
      // The table grows in batches while streaming (its layout costs more than a chart's redraw).
      if (tableStale && (!streaming || (shown(historyHost) && (tableKey !== s.runKey || performance.now() - lastTableFlush > 1000)))) {
        work.push(syncTable);
      }
      work.push(...also, markDrawn);
      cancelSlices = sliced(work);
    };

    const observer =
      typeof IntersectionObserver === 'function'
        ? new IntersectionObserver(
            (entries) => {
              for (const entry of entries) visible.set(entry.target, entry.isIntersecting);
              catchUp(training.getState());
              if (shown(historyHost)) watchFrontier(); // its first report reveals what is near
            },
            { rootMargin: '200px 0px' },
          )
        : null;
    for (const entry of figures) observer?.observe(entry.figure.figure);
    observer?.observe(historyHost);

    // Why a chart is flat, once the run rests: on the phase's change too, not only with new rows
    // (a run's last rows can be drawn while it still runs, and its end then brings no new row).
    let flatKey = null;
    const flatNotes = (s) => {
      const key = `${s.runKey}:${s.history.length}:${training.isBusy(s.phase)}`;
      if (key === flatKey) return;
      flatKey = key;
      for (const entry of figures) {
        if (!entry.flatNote) continue;
        const notes = training.isBusy(s.phase) ? [] : entry.spec.flat(s.config ?? s.result?.config, s.history);
        entry.flatNote.textContent = notes.map(([name, params]) => t(name, params)).join(' ');
        entry.flatNote.hidden = notes.length === 0;
      }
    };

    // The summary and the lesson read every row (100 000 in a long import): once per run and
    // length, not again on every other change (an inspection, a phase, the draft config).
    let summaryKey = null;
    const draw = (s, { then } = {}) => {
      const key = `${s.runKey}:${s.history.length}:${Boolean(s.result)}`; // the end's evaluations change the summary
      const lessonLines = () => {
        const now = training.getState();
        lesson.set(updatesVerdicts(now.history, verdictContext(now)), words);
      };
      const also = key === summaryKey ? [] : [() => (summary.textContent = describe(training.getState())), lessonLines];
      inspector.sync(s);
      summaryKey = key;
      flatNotes(s);
      catchUp(s, { also: then ? [...also, then] : also });
    };

    const unsubscribe = training.subscribe(draw);
    const offOverlays = onOverlays(() => {
      for (const entry of figures) entry.key = null; // rebuilt with the picked runs' series
      draw(training.getState());
    });
    // Sliced, not at once: building every chart in the mount's task held the thread over 200 ms.
    draw(training.getState());
    training.loadPrecomputed().then(() => draw(training.getState(), { then: () => ctx.rendered() }));
    return {
      destroy() {
        unsubscribe();
        offOverlays();
        bar?.destroy();
        compare.destroy();
        inspector.destroy();
        observer?.disconnect();
        cancelSlices?.();
        frontier?.disconnect();
        clearTimeout(buildTimer);
        for (const entry of figures) entry.chart?.destroy();
      },
    };
  },
};
