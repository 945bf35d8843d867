// Chart.js helpers: loads the vendored UMD build once, applies the page's accessible defaults
// (colours with >= 3:1 contrast, a distinct dash per series, no animation under
// prefers-reduced-motion), destroys a canvas's old chart before reuse, and pairs every canvas
// (role="img", aria-label) with its numbers as a table.
import { loadScript } from './load.js';
import { downloadBlob, h, nextTask } from './dom.js';
import { t } from './i18n.js';

/** Series colours, each >= 4.5:1 against white, distinguishable in common colour blindness. */
export const COLORS = ['#0b5fa5', '#b45309', '#047857', '#7c3aed', '#be123c', '#334155'];
/** Dash patterns, one per series, so lines differ without colour. */
export const DASHES = [[], [8, 4], [2, 3], [12, 4, 2, 4], [4, 4], [14, 6]];

let chartPromise = null;

export function loadChartJs() {
  if (!chartPromise) {
    const ready = globalThis.Chart
      ? Promise.resolve()
      : loadScript(new URL('../vendor/chart.min.js', import.meta.url));
    chartPromise = ready.then(() => {
      // A script that loaded but is not Chart.js (a captive portal's page, a broken deploy).
      if (typeof globalThis.Chart?.getChart !== 'function') throw new Error('Chart.js did not load');
      applyDefaults(globalThis.Chart);
      return warmUp(globalThis.Chart);
    });
    chartPromise.catch(() => (chartPromise = null));
  }
  return chartPromise;
}

/**
 * Chart.js's first chart costs ~100 ms more than the next (its first canvas, fonts and
 * controllers): paid here, on a canvas off the page, so the first section to draw a chart does
 * not hold the thread past 200 ms (hostile.test.mjs, first-load.test.mjs). In two tasks of its
 * own, each about half the work: a chart with no data (its scales and layout), then one with a
 * line (docs/performance.md, "Long tasks").
 */
async function warmUp(Chart) {
  const canvas = document.createElement('canvas');
  canvas.width = 300;
  canvas.height = 150;
  for (const datasets of [[], [{ label: 'x', data: [{ x: 0, y: 0 }, { x: 1, y: 1 }] }]]) {
    await nextTask();
    const options = { animation: false, responsive: false, scales: { x: { type: 'linear', title: { display: true, text: 'x' } } } };
    new Chart(canvas, { type: 'line', data: { datasets }, options }).destroy();
  }
  await nextTask();
  return Chart;
}

export function reducedMotion() {
  return typeof matchMedia === 'function' && matchMedia('(prefers-reduced-motion: reduce)').matches;
}

function applyDefaults(Chart) {
  Chart.defaults.font.family =
    'system-ui, -apple-system, "Segoe UI", Roboto, "Noto Sans", "Helvetica Neue", Arial, sans-serif';
  Chart.defaults.font.size = 13;
  Chart.defaults.color = '#1f2328';
  Chart.defaults.borderColor = 'rgba(31, 35, 40, 0.14)';
  Chart.defaults.maintainAspectRatio = false;
  Chart.defaults.responsive = true;
  Chart.defaults.plugins.legend.labels.usePointStyle = false;
  Chart.defaults.plugins.legend.labels.boxWidth = 30;
  Chart.defaults.plugins.legend.labels.boxHeight = 2;
}

/** Creates a chart on `canvas`, destroying any chart it held before. */
export function makeChart(canvas, config) {
  const Chart = globalThis.Chart;
  // Widgets mount only after loadChartJs() (js/lazy-load.js); say so if one ever does not.
  if (!Chart) throw new Error('Chart.js is not loaded yet (loadChartJs)');
  Chart.getChart(canvas)?.destroy();
  const options = config.options ?? {};
  // Built without animation: resolving a creation animation for every point cost a section's
  // first chart ~130 ms (240-point curves) and held the thread past 200 ms at load. Later
  // default-mode updates (a legend click) animate, unless the reader prefers reduced motion.
  options.animation = false;
  options.normalized = true;
  config.options = options;
  const chart = new Chart(canvas, config);
  if (!reducedMotion()) chart.options.animation = { duration: 250 };
  return chart;
}

const firstDraws = new Set(); // promises of the charts a chartSlot still has to create

/**
 * A widget's chart whose first draw runs in a task of its own, after the task that builds the
 * widget. Chart.js's first update of a chart (a forced layout, its ticks, up to 2 400 points)
 * holds the thread for tens of ms at load; added to the section's text, core calls and tables, a
 * mount went past 200 ms on a 2-core machine while V8 compiled the core on the other threads
 * (tests/browser/first-load.test.mjs). The box keeps its size meanwhile (.chart-box has a fixed
 * height), so nothing moves when the chart appears.
 *
 * draw(config, aria, update): once the chart exists, update(chart) now; before, the chart on
 * `canvas` is made from the latest config() and aria text in the next task.
 */
export function chartSlot(canvas) {
  let chart = null;
  let create = null;
  let destroyed = false;
  let pending = null;
  return {
    draw(config, aria, update) {
      if (chart) {
        update(chart);
        return;
      }
      create = () => {
        const made = makeChart(canvas, config());
        describeChart(made, aria);
        return made;
      };
      if (pending) return;
      pending = nextTask()
        .then(() => {
          if (!destroyed) chart = create();
        })
        .catch((error) => console.error(error)) // as a mount's own error is; the box stays empty
        .finally(() => firstDraws.delete(pending));
      firstDraws.add(pending);
    },
    destroy() {
      destroyed = true;
      chart?.destroy();
    },
  };
}

/** Settles once every chart a chartSlot has queued so far is drawn. */
export function chartsDrawn() {
  return Promise.all([...firstDraws]);
}

/** Replaces a chart's data and labels without animation (live updates). */
export function refresh(chart, { labels, datasets, ariaLabel, options }) {
  if (labels) chart.data.labels = labels;
  if (datasets) chart.data.datasets = datasets;
  if (options) Object.assign(chart.options, options);
  chart.update('none');
  if (ariaLabel) describeChart(chart, ariaLabel);
}

/** The axis titles `chart` draws, by scale id (x, y, y1, ...), as Chart.js holds them. */
export function axisTitles(chart) {
  const titles = {};
  for (const [id, scale] of Object.entries(chart.options.scales ?? {})) {
    if (scale?.title?.display && scale.title.text) titles[id] = scale.title.text;
  }
  return titles;
}

/**
 * "Horizontal axis: …; vertical axis: …." from the titles the canvas draws, so a screen reader
 * and find-in-page read the same words as the pixels (an axis without a title is not named).
 */
export function axesSentence(chart) {
  const titles = axisTitles(chart);
  const parts = Object.entries(titles).map(([id, text]) =>
    t(id === 'x' ? 'chart.axis.x' : id === 'y' ? 'chart.axis.y' : 'chart.axis.right', { title: text }),
  );
  return parts.length ? t('chart.axes', { axes: parts.join('; ') }) : '';
}

/** Sets the canvas's aria-label: what the chart shows, then the axis titles it draws. */
export function describeChart(chart, text) {
  chart.canvas.setAttribute('aria-label', [text, axesSentence(chart)].filter(Boolean).join(' '));
}

/**
 * A long series thinned for drawing: rows cut into `buckets` runs of consecutive rows (one per
 * pixel column), and of each run only its first, lowest, highest and last point (M4), so the line
 * drawn looks the same at that width and every spike survives. A row whose value is not a finite
 * number becomes a gap point (y NaN) once per run, so divergence still breaks the line. Series of
 * at most 4 * buckets points come back whole. DOM-free.
 *   rows: array; x(row) and y(row): numbers; returns [{x, y}] in row order.
 */
export function thinSeries(rows, x, y, buckets) {
  const n = rows.length;
  const columns = Math.max(1, Math.floor(buckets));
  if (n <= 4 * columns) return rows.map((row) => ({ x: x(row), y: finite(y(row)) }));
  const out = [];
  const keep = [];
  for (let b = 0; b < columns; b += 1) {
    const start = Math.floor((b * n) / columns);
    const end = Math.floor(((b + 1) * n) / columns);
    let low = -1;
    let high = -1;
    let lowValue = Infinity;
    let highValue = -Infinity;
    let first = -1;
    let last = -1;
    let gap = -1;
    for (let i = start; i < end; i += 1) {
      const v = y(rows[i]);
      if (typeof v !== 'number' || !Number.isFinite(v)) {
        if (gap < 0) gap = i;
        continue;
      }
      if (first < 0) first = i;
      last = i;
      if (v < lowValue) {
        low = i;
        lowValue = v;
      }
      if (v > highValue) {
        high = i;
        highValue = v;
      }
    }
    keep.length = 0;
    for (const i of [first, low, high, last, gap]) if (i >= 0 && !keep.includes(i)) keep.push(i);
    keep.sort((a, c) => a - c);
    for (const i of keep) out.push({ x: x(rows[i]), y: i === gap ? NaN : y(rows[i]) });
  }
  return out;
}

const finite = (v) => (typeof v === 'number' && Number.isFinite(v) ? v : NaN);

/**
 * Buckets for thinSeries on `canvas`: one per two CSS pixels, narrower than the 2.25 px line, so
 * thinning shows nothing different. (One per pixel drew twice the segments, and their raster held
 * the page's thread twice as long.)
 */
export function thinBuckets(canvas) {
  return Math.max(100, Math.round((canvas?.clientWidth || 1200) / 2));
}

/**
 * The `segment` option of a thinned line: stroked solid (the dataset and its legend keep their
 * dash). Along a band of per-bucket extremes a dash only stripes the band, and dashing that long a
 * path in a software canvas took 0.1-0.3 s of main-thread raster per chart (a 100 000-row import).
 */
export const THINNED_SEGMENT = { borderDash: () => [] };

/** Line dataset styling for series i. */
export function lineStyle(i, extra = {}) {
  return {
    borderColor: COLORS[i % COLORS.length],
    backgroundColor: COLORS[i % COLORS.length],
    borderDash: DASHES[i % DASHES.length],
    borderWidth: 2.25,
    pointRadius: 0,
    pointHitRadius: 6,
    tension: 0,
    fill: false,
    ...extra,
  };
}

/**
 * The legend of a chart that overlays runs: one entry per run (its colour) and one per style (a
 * metric or a split: its dash, in ink), not one per line. Each dataset names its `run` and its
 * `style` by id; clicking an entry hides or shows every line of that run or that style.
 *   runs: [{id, text, color}]; styles: [{id, text, dash}]. Returns Chart.js `plugins.legend` options.
 */
export function runLegend(runs, styles) {
  const hidden = (chart, prop, id) => chart.data.datasets.every((d, i) => d[prop] !== id || !chart.isDatasetVisible(i));
  return {
    labels: {
      generateLabels: (chart) => [
        ...runs.map((r) => ({ text: r.text, fillStyle: r.color, strokeStyle: r.color, lineWidth: 0, lineDash: [], hidden: hidden(chart, 'run', r.id), group: ['run', r.id] })),
        ...styles.map((st) => ({ text: st.text, fillStyle: st.dash.length ? 'rgba(0, 0, 0, 0)' : '#1f2328', strokeStyle: '#1f2328', lineWidth: 1.5, lineDash: st.dash, hidden: hidden(chart, 'style', st.id), group: ['style', st.id] })),
      ],
    },
    onClick: (_event, item, legend) => {
      const [prop, id] = item.group;
      const chart = legend.chart;
      chart.data.datasets.forEach((d, i) => {
        if (d[prop] === id) chart.setDatasetVisibility(i, item.hidden);
      });
      chart.update('none');
    },
  };
}

/**
 * <figure> with a title, a sized canvas (role="img" + aria-label) and a collapsible table of
 * the chart's numbers. Returns {figure, canvas, setTable(node), setAria(text)}.
 */
export function chartFigure({ title, aria, dataLabel, pngLabel = null, className = '' }) {
  const canvas = h('canvas', { role: 'img', 'aria-label': aria });
  const tableHost = h('div', { class: 'chart-table' });
  const png = pngLabel ? h('button', { type: 'button', class: 'button-quiet chart-png', dataset: { action: 'chart-png' }, text: pngLabel }) : null;
  const figure = h(
    'figure',
    { class: `chart ${className}`.trim() },
    title ? h('figcaption', { class: 'chart-title' }, title) : null,
    h('div', { class: 'chart-box' }, canvas),
    png ? h('div', { class: 'chart-tools' }, png) : null,
    h('details', { class: 'chart-data' }, h('summary', {}, dataLabel), tableHost),
  );
  png?.addEventListener('click', () => savePng(canvas, pngFileName(figure)));
  return {
    figure,
    canvas,
    setTable(node) {
      tableHost.replaceChildren(node);
    },
    setAria(text) {
      canvas.setAttribute('aria-label', text);
    },
  };
}

/** grpo-lab-<section>-<n>.png: the figure's section and its place among the section's charts. */
function pngFileName(figure) {
  const section = figure.closest('section');
  const index = section ? [...section.querySelectorAll('figure')].indexOf(figure) + 1 : 1;
  return `grpo-lab-${section?.id || 'chart'}-${index}.png`;
}

/** Downloads the chart as drawn, on a white ground (the canvas itself is transparent). */
export function savePng(canvas, name) {
  const copy = document.createElement('canvas');
  copy.width = canvas.width;
  copy.height = canvas.height;
  const ctx = copy.getContext('2d');
  ctx.fillStyle = '#ffffff';
  ctx.fillRect(0, 0, copy.width, copy.height);
  ctx.drawImage(canvas, 0, 0);
  copy.toBlob((blob) => blob && downloadBlob(name, blob), 'image/png');
}

/** Common axis options: a titled linear or category axis. */
export function axis(title, extra = {}) {
  return { title: { display: Boolean(title), text: title }, ...extra };
}

/** A Chart.js plugin drawing dashed vertical lines at options.plugins.vlines.at (x values). */
export const verticalLines = {
  id: 'vlines',
  afterDatasetsDraw(chart, _args, opts) {
    const at = opts?.at ?? [];
    if (!at.length) return;
    const { ctx, chartArea, scales } = chart;
    ctx.save();
    ctx.strokeStyle = opts.color ?? '#475569';
    ctx.lineWidth = opts.width ?? 1.25;
    ctx.setLineDash(opts.dash ?? [5, 4]);
    for (const x of at) {
      const px = scales.x.getPixelForValue(x);
      if (!Number.isFinite(px) || px < chartArea.left - 1 || px > chartArea.right + 1) continue;
      ctx.beginPath();
      ctx.moveTo(px, chartArea.top);
      ctx.lineTo(px, chartArea.bottom);
      ctx.stroke();
    }
    ctx.restore();
  },
};
