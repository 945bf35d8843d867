// Section 3, advantages and clipping: the notebook's table, the per-token objective of the chosen
// TRL 1.9 loss (PPO clip, delta, CISPO, SAPO, VESPO) against the ratio with the rows marked on
// it, and the sum-to-zero check. The curves and the rows' terms come from the core
// (tokenTermCurve, rl/token_terms.h); what "the per-token objective" means: docs/trl.md.
import { h, field, dataTable, fmt, short } from '../dom.js';
import { chartFigure, chartSlot, refresh, lineStyle, axis, verticalLines, COLORS } from '../charts.js';
import { CONFIG_TABLE } from '../training/run-config.js';
import { mountForm, forField } from './common.js';
import { codedError } from '../core-errors.js';

/** The switchable losses: the page's name and the core's options for it. */
export const LOSSES = ['clip', 'delta', 'cispo', 'sapo', 'vespo'];
const LOSS_TYPE = { clip: 'grpo', delta: 'grpo', cispo: 'cispo', sapo: 'sapo', vespo: 'vespo' };
export const VIEWS = ['objective', 'weight'];

// The loss parameters that are training fields: URL key -> the config table's field (its range
// and default are the table's, not written here).
const TRAINING_KEYS = {
  'adv.stp': 'sapoTemperaturePos',
  'adv.stn': 'sapoTemperatureNeg',
  'adv.kp': 'vespoKPos',
  'adv.lp': 'vespoLambdaPos',
  'adv.kn': 'vespoKNeg',
  'adv.ln': 'vespoLambdaNeg',
};
const tableField = (name) => CONFIG_TABLE.fields.find((f) => f.name === name);
const fromTable = (name) => {
  const f = tableField(name);
  return { kind: 'number', min: f.min, max: f.max, default: f.defaults.smoke };
};

// Which parameters each loss reads (the others are hidden while it is chosen).
const LOSS_PARAMS = {
  clip: ['adv.el', 'adv.eh'],
  delta: ['adv.el', 'adv.eh', 'adv.delta'],
  cispo: ['adv.eh'],
  sapo: ['adv.stp', 'adv.stn'],
  vespo: ['adv.kp', 'adv.lp', 'adv.kn', 'adv.ln'],
};

export const schema = {
  'adv.r': { kind: 'list', default: [1, 1, 0, 0], maxItems: 64 },
  'adv.ratio': { kind: 'list', default: [1.35, 0.85, 1.1, 0.7], maxItems: 64 },
  'adv.el': { kind: 'number', min: 0, max: 100, default: 0.2 },
  'adv.eh': { kind: 'number', min: 0, max: 100, default: 0.2 },
  'adv.scale': { kind: 'bool', default: true },
  'adv.loss': { kind: 'enum', options: LOSSES, default: 'clip' },
  'adv.view': { kind: 'enum', options: VIEWS, default: 'objective' },
  // TRL's delta is None by default and no training field yet: its range is the core's alone.
  'adv.delta': { kind: 'number', default: 1.5 },
  ...Object.fromEntries(Object.entries(TRAINING_KEYS).map(([key, name]) => [key, fromTable(name)])),
};

const PARAMS = {
  rewards: 'adv.r',
  ratios: 'adv.ratio',
  epsLow: 'adv.el',
  epsHigh: 'adv.eh',
  scale: 'adv.scale',
  lossType: 'adv.loss',
  view: 'adv.view',
  delta: 'adv.delta',
  ...Object.fromEntries(Object.entries(TRAINING_KEYS).map(([key, name]) => [name, key])),
};

/** The core's options of the chosen loss (tokenTermCurve's). */
function lossOptions(values) {
  const loss = values['adv.loss'];
  const options = { lossType: LOSS_TYPE[loss], view: values['adv.view'] };
  for (const key of LOSS_PARAMS[loss]) {
    const name = Object.entries(PARAMS).find(([, k]) => k === key)[0];
    options[name] = values[key];
  }
  return options;
}

const MAX_CURVES = 6;

export function compute(core, values) {
  const rewards = values['adv.r'];
  const ratios = values['adv.ratio'];
  const epsLow = values['adv.el'];
  const epsHigh = values['adv.eh'];
  const scale = values['adv.scale'];
  const loss = values['adv.loss'];
  const view = values['adv.view'];
  const options = lossOptions(values);
  const standardized = forField('adv.r', () => core.groupRelativeAdvantages(rewards, true));
  const centered = forField('adv.r', () => core.groupRelativeAdvantages(rewards, false));
  const used = scale ? standardized : centered;
  // One ratio per reward (row): named by the reader's fields, not by the core's `advantages`.
  if (ratios.length !== rewards.length) {
    const params = { other: 'rewards', expected: rewards.length, got: ratios.length };
    throw codedError(RangeError, { code: 'same_length', field: 'ratios', params, message: `ratios: must have as many values as rewards (${rewards.length}), got ${ratios.length}` });
  }
  // The rows' terms under the chosen loss; the clip column is the PPO clip's (clip and delta).
  const terms = core.tokenTermCurve({ ...options, ratios, advantages: used });
  const clipFamily = loss === 'clip' || loss === 'delta';
  const active = clipFamily ? core.clipActivity(ratios, used, epsLow, epsHigh) : ratios.map(() => false);
  const sum = used.reduce((acc, a) => acc + a, 0);

  // Curves of the clip chart: one per distinct advantage (the largest |A| first if many).
  const distinct = [...new Map(used.map((a) => [Number(a.toPrecision(10)), a])).values()].filter((a) => a !== 0);
  distinct.sort((a, b) => b - a);
  const shown = distinct.length > MAX_CURVES ? [distinct[0], distinct[distinct.length - 1]] : distinct;
  // The chart's marked ratios: the clip bounds, delta's cap, CISPO's cap (epsilon_high itself).
  const bounds = { clip: [1 - epsLow, 1 + epsHigh], delta: [1 - epsLow, 1 + epsHigh, values['adv.delta']], cispo: [epsHigh], sapo: [1], vespo: [1] }[loss];
  // How far right the curve's shape shows: past the clip, across SAPO's gate (about 6 / tau
  // wide), past VESPO's peaks (at k / lambda).
  const sapoReach = 1 + 6 / Math.min(values['adv.stp'], values['adv.stn']);
  const vespoReach = 2.5 * Math.max(values['adv.kp'] / values['adv.lp'], values['adv.kn'] / values['adv.ln']);
  const reach = { clip: 1 + epsHigh + 0.4, delta: 1 + epsHigh + 0.4, cispo: 0, sapo: sapoReach, vespo: vespoReach }[loss];
  const xmax = Math.max(2, Number.isFinite(reach) ? Math.min(reach, 50) : 0, ...bounds.map((b) => b * 1.15), ...ratios.map((r) => r * 1.1));
  // Ratios must be > 0: the grid starts one step right of 0.
  const grid = new Set(Array.from({ length: 240 }, (_, i) => Number(((xmax * (i + 1)) / 240).toFixed(6))));
  for (const knee of [...bounds, ...ratios]) if (knee > 0 && knee <= xmax) grid.add(knee);
  const xs = [...grid].sort((a, b) => a - b);
  const curves = shown.map((a) => ({ a, ys: core.tokenTermCurve({ ...options, ratios: xs, advantages: xs.map(() => a) }) }));
  return { rewards, ratios, epsLow, epsHigh, scale, loss, view, clipFamily, bounds, standardized, centered, used, terms, active, sum, xs, curves, xmax };
}

/** Draws each point's label (dataset.pointLabels[i]) beside it. */
const pointLabels = {
  id: 'pointLabels',
  afterDatasetsDraw(chart) {
    const { ctx } = chart;
    ctx.save();
    ctx.font = '600 12px system-ui, sans-serif';
    ctx.fillStyle = '#1f2328';
    ctx.textBaseline = 'bottom';
    chart.data.datasets.forEach((dataset, i) => {
      if (!dataset.pointLabels || !chart.isDatasetVisible(i)) return;
      chart.getDatasetMeta(i).data.forEach((point, j) => {
        ctx.fillText(dataset.pointLabels[j], point.x + 7, point.y - 4);
      });
    });
    ctx.restore();
  },
};

export default {
  id: 'advantages',
  number: 3,
  titleKey: 'advantages.title',
  bodyKey: 'advantages.body',
  schema,
  charts: true,
  params: PARAMS,
  validate: compute,
  mount(host, ctx) {
    const { t, core } = ctx;
    host.append(ctx.rich(t('advantages.formula')));

    const rewards = field({ key: 'adv.r', label: t('advantages.rewards'), kind: 'list', hint: t('common.hintList'), value: ctx.get('adv.r') });
    const ratios = field({ key: 'adv.ratio', label: t('advantages.ratios'), kind: 'list', hint: t('common.hintList'), value: ctx.get('adv.ratio') });
    const epsLow = field({ key: 'adv.el', label: t('advantages.epsLow'), step: 0.01, min: 0, value: ctx.get('adv.el') });
    const epsHigh = field({ key: 'adv.eh', label: t('advantages.epsHigh'), step: 0.01, min: 0, value: ctx.get('adv.eh') });
    const scale = field({ key: 'adv.scale', label: t('advantages.scale'), kind: 'checkbox', value: ctx.get('adv.scale') });
    const loss = field({
      key: 'adv.loss',
      label: t('advantages.loss'),
      kind: 'select',
      options: LOSSES.map((value) => ({ value, label: t(`advantages.loss.${value}`) })),
      value: ctx.get('adv.loss'),
    });
    const view = field({
      key: 'adv.view',
      label: t('advantages.view'),
      kind: 'select',
      options: VIEWS.map((value) => ({ value, label: t(`advantages.view.${value}`) })),
      value: ctx.get('adv.view'),
    });
    const delta = field({ key: 'adv.delta', label: t('advantages.delta'), step: 0.1, value: ctx.get('adv.delta') });
    const params = Object.entries(TRAINING_KEYS).map(([key, name]) => {
      const spec = tableField(name);
      return field({ key, label: t(`advantages.param.${name}`), step: 0.05, min: spec.min, max: spec.max, value: ctx.get(key) });
    });
    const lossParams = { 'adv.el': epsLow, 'adv.eh': epsHigh, 'adv.delta': delta, ...Object.fromEntries(params.map((p) => [p.key, p])) };
    // The two selects' options ("PPO clip (grpo, bnpo, dr_grpo, dapo)") need two columns to be read whole.
    for (const select of [loss, view]) select.el.classList.add('field-span2');
    host.append(h('div', { class: 'controls' }, rewards.el, ratios.el, scale.el));
    host.append(h('div', { class: 'controls' }, loss.el, view.el, epsLow.el, epsHigh.el, delta.el, ...params.map((p) => p.el)));
    const lossNote = h('div', { class: 'loss-note', dataset: { testid: 'loss-note' } });
    host.append(lossNote);

    const tableHost = h('div');
    const uses = h('p', { class: 'muted' });
    const sumLine = h('p', { class: 'summary', dataset: { testid: 'sum-check' } });
    const boundKey = h('span', { class: 'bound-text' });
    const clipKey = h(
      'span',
      {},
      h('span', { class: 'key-free', 'aria-hidden': 'true', text: '○' }),
      ` ${t('advantages.rowsFree')}   `,
      h('span', { class: 'key-clipped', 'aria-hidden': 'true', text: '◆' }),
      ` ${t('advantages.rowsClipped')}   `,
    );
    const figure = chartFigure({ title: t('advantages.chartTitle'), aria: '', dataLabel: t('common.chartData'), pngLabel: t('common.chartPng') });
    figure.figure.insertBefore(
      h(
        'p',
        { class: 'chart-key' },
        clipKey,
        h('span', { class: 'key-bound', 'aria-hidden': 'true', text: '┆' }),
        boundKey,
      ),
      figure.figure.querySelector('.chart-data'),
    );
    const outputs = h('div', { class: 'outputs' }, tableHost, uses, sumLine, figure.figure);
    host.append(outputs);

    const chart = chartSlot(figure.canvas);
    let noteFor = null;
    const render = (m) => {
      // Only the chosen loss's parameters are shown; its note (CISPO's trap among them) below.
      // (style, not the hidden attribute: .field sets its own display.)
      for (const [key, f] of Object.entries(lossParams)) f.el.style.display = LOSS_PARAMS[m.loss].includes(key) ? '' : 'none';
      clipKey.style.display = m.clipFamily ? '' : 'none';
      // The "What to notice" box reads the PPO clip's numbers: shown only while that loss is drawn
      // (the other losses' notes say what to notice about them).
      const callout = host.querySelector('.callout-notice');
      if (callout) callout.hidden = m.loss !== 'clip';
      if (noteFor !== m.loss) {
        lossNote.replaceChildren(ctx.rich(t(`advantages.note.${m.loss}`)), ctx.rich(t('advantages.reading')));
        boundKey.textContent = ` ${t(`advantages.bound.${m.loss}`)}`;
        noteFor = m.loss;
      }
      const yes = t('common.yes');
      const no = t('common.no');
      const usedCol = m.scale ? 'standardized' : 'centered';
      tableHost.replaceChildren(
        dataTable({
          caption: t('advantages.tableCaption', { loss: t(`advantages.loss.${m.loss}`) }),
          className: `advantages uses-${usedCol}`,
          columns: [
            { label: t('advantages.col.row') },
            { label: t('advantages.col.reward'), numeric: true },
            { label: t('advantages.col.centered'), numeric: true },
            { label: t('advantages.col.standardized'), numeric: true },
            { label: t('advantages.col.ratio'), numeric: true },
            { label: t(`advantages.col.term.${m.view}`), numeric: true },
            { label: t('advantages.col.clip') },
          ],
          rows: m.rewards.map((r, i) => ({
            className: m.active[i] ? 'row-clipped' : undefined,
            cells: [
              { text: String(i + 1), header: true },
              { text: fmt(r), value: r },
              { text: fmt(m.centered[i]), value: m.centered[i], className: usedCol === 'centered' ? 'col-used' : '' },
              { text: fmt(m.standardized[i]), value: m.standardized[i], className: usedCol === 'standardized' ? 'col-used' : '' },
              { text: fmt(m.ratios[i]), value: m.ratios[i] },
              { text: fmt(m.terms[i]), value: m.terms[i] },
              m.clipFamily ? { text: m.active[i] ? `◆ ${yes}` : `○ ${no}`, value: String(m.active[i]) } : { text: '—', value: 'n/a' },
            ],
          })),
        }),
      );
      uses.textContent = t('advantages.uses', { which: t(`advantages.uses.${usedCol}`) });
      const ok = Math.abs(m.sum) < 1e-10;
      sumLine.className = ok ? 'summary summary-ok' : 'summary summary-bad';
      sumLine.dataset.value = String(m.sum);
      sumLine.textContent = `${ok ? '✓' : '✗'} ${t('advantages.sum', { sum: m.sum.toExponential(2) })}: ${t(ok ? 'advantages.sumOk' : 'advantages.sumBad')}`;

      // The clip chart.
      const datasets = m.curves.map((curve, i) => ({
        label: t('advantages.curve', { a: short(curve.a) }),
        data: m.xs.map((x, j) => ({ x, y: curve.ys[j] })),
        ...lineStyle(i),
      }));
      const rowPoint = (clipped) => {
        const idx = m.ratios.map((_, i) => i).filter((i) => Boolean(m.active[i]) === clipped);
        return {
          label: t(!m.clipFamily ? 'advantages.rows' : clipped ? 'advantages.rowsClipped' : 'advantages.rowsFree'),
          data: idx.map((i) => ({ x: m.ratios[i], y: m.terms[i] })),
          pointLabels: idx.map((i) => String(i + 1)),
          showLine: false,
          pointStyle: clipped ? 'rectRot' : 'circle',
          pointRadius: clipped ? 8 : 6,
          pointHoverRadius: 9,
          borderWidth: 2,
          borderColor: clipped ? COLORS[4] : '#1f2328',
          backgroundColor: clipped ? COLORS[4] : '#ffffff',
        };
      };
      datasets.push(rowPoint(false), rowPoint(true));
      const yLabel = t(`advantages.chartY.${m.view}`);
      const aria = t('advantages.chartAria', {
        loss: t(`advantages.loss.${m.loss}`),
        what: yLabel,
        values: m.curves.map((c) => short(c.a)).join(', '),
        bounds: m.bounds.map(short).join(', '),
        rows: m.ratios.map((r, i) => `${i + 1}: ρ=${short(r)}, ${short(m.terms[i])}${m.active[i] ? ' ◆' : ''}`).join('; '),
      });
      const lines = { at: m.bounds };
      chart.draw(
        () => ({
          type: 'line',
          data: { datasets },
          options: {
            parsing: false,
            interaction: { mode: 'nearest', intersect: false },
            scales: {
              x: axis(t('advantages.chartX'), { type: 'linear', min: 0, max: m.xmax }),
              y: axis(yLabel),
            },
            plugins: {
              vlines: lines,
              legend: { labels: { filter: (item, data) => data.datasets[item.datasetIndex].showLine !== false && data.datasets[item.datasetIndex].data.length > 0 } },
            },
          },
          plugins: [verticalLines, pointLabels],
        }),
        aria,
        (current) => {
          current.options.scales.x.max = m.xmax;
          current.options.scales.y.title.text = yLabel;
          current.options.plugins.vlines = lines;
          refresh(current, { datasets, ariaLabel: aria });
        },
      );
      figure.setTable(
        dataTable({
          caption: t('advantages.chartTitle'),
          columns: [
            { label: t('advantages.col.row') },
            { label: t('advantages.chartX'), numeric: true },
            { label: 'A', numeric: true },
            { label: yLabel, numeric: true },
            { label: t('advantages.col.clip') },
          ],
          rows: m.ratios.map((r, i) => [
            { text: String(i + 1), header: true },
            fmt(r),
            fmt(m.used[i]),
            fmt(m.terms[i]),
            m.clipFamily ? (m.active[i] ? yes : no) : '—',
          ]),
        }),
      );
    };

    mountForm(ctx, host, {
      fields: [rewards, ratios, epsLow, epsHigh, scale, loss, view, delta, ...params],
      params: PARAMS,
      compute,
      render,
      outputs,
      noticeKey: 'advantages.notice',
    });
    host.querySelector('.callout-notice').hidden = ctx.get('adv.loss') !== 'clip';
    return { destroy: () => chart.destroy() };
  },
};
