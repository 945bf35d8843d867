// Section 5, the exact finite policy: expected reward, entropy and pass@4 per step; the
// notebook's rows; the probability of each mode at a step the reader scrubs; why entropy falls
// (each step's exact entropy change beside -eta Cov(log p, p A), docs/entropy-mechanism.md).
import { h, field, dataTable, fmt } from '../dom.js';
import { chartFigure, chartSlot, refresh, lineStyle, axis, verticalLines, COLORS } from '../charts.js';
import { mountForm, forField } from './common.js';
import { codedError } from '../core-errors.js';

export const NOTEBOOK_STEPS = [0, 9, 19, 39, 60];
export const PASS_K = 4;

export const schema = {
  'fp.beta': { kind: 'number', min: 0, max: 10, default: 0 },
  'fp.lr': { kind: 'number', min: 0, max: 10, default: 0.18 },
  'fp.steps': { kind: 'int', min: 0, max: 1000, default: 60 },
  'fp.at': { kind: 'int', min: 0, max: 1000, default: 60 },
};

const PARAMS = { betaEntropy: 'fp.beta', learningRate: 'fp.lr', steps: 'fp.steps', step: 'fp.at' };

let cache = { key: null, rows: null };

/** One row per step 0..steps, as the notebook's loop builds finite_table. */
export function trajectory(core, betaEntropy, learningRate, steps) {
  const key = JSON.stringify([betaEntropy, learningRate, steps]);
  if (cache.key === key) return cache.rows;
  const rows = [];
  for (let step = 0; step <= steps; step += 1) {
    const state = core.syntheticModeTraining({ betaEntropy, learningRate, steps: step });
    rows.push({
      step,
      probabilities: state.probabilities,
      successful: state.successful ?? state.modes?.map((mode) => Boolean(mode.successful)) ?? [],
      labels: state.modes?.map((mode, i) => mode.label ?? String(i + 1)) ?? state.probabilities.map((_, i) => String(i + 1)),
      expectedReward: state.expectedReward,
      successfulMass: state.successfulMass,
      entropy: core.categoricalEntropy(state.probabilities),
      passAt4: core.passAtKIndependent(state.successfulMass, PASS_K),
    });
  }
  cache = { key, rows };
  return rows;
}

/** Two significant digits, for differences as small as 1e-5 (fmt's fixed decimals would say 0). */
export function sig(value) {
  return value === 0 ? '0' : String(Number(value.toPrecision(2)));
}

/**
 * The sentence under the entropy chart, as dictionary keys and parameters, chosen from the
 * numbers of core.finiteEntropyMechanism: how close and how often of the right sign the
 * prediction is, and which mode moves the entropy most over the run, of which kind. A mode k
 * lowers it when log p_k + H and A_k have one sign (c_k = -eta p_k^2 (log p_k + H) A_k < 0), so
 * "confident" (log p_k + H > 0) is read off the signs of c_k and A_k. DOM-free.
 *   returns [{key, params}], the parts of one sentence (its kind param is a dictionary key).
 */
export function entropyClaim(mechanism) {
  const n = mechanism.step.length;
  if (n === 0) return [{ key: 'finite.entropy.none', params: {} }];
  const largest = (values) => Math.max(...values.map(Math.abs));
  const change = largest(mechanism.exactChange);
  if (change === 0) return [{ key: 'finite.entropy.still', params: { h: fmt(mechanism.entropy[0], 4) } }];
  const agree = mechanism.exactChange.filter((e, i) => Math.sign(e) === Math.sign(mechanism.predictedChange[i])).length;
  const close = { n, k: agree, diff: sig(largest(mechanism.difference)), change: sig(change) };
  const parts = [{ key: agree === n ? 'finite.entropy.match' : 'finite.entropy.matchSome', params: close }];
  const total = mechanism.predictedChange.reduce((a, b) => a + b, 0);
  const direction = total < 0 ? -1 : 1;
  const sums = mechanism.labels.map((_, k) => mechanism.contributions.reduce((sum, row) => sum + row[k], 0));
  const driver = sums.reduce((best, value, k) => (direction * value > direction * sums[best] ? k : best), 0);
  // The kind of the driver on the steps that move the entropy its way, weighted by how much.
  const kinds = {};
  mechanism.contributions.forEach((row, t) => {
    const c = row[driver];
    const a = mechanism.advantages[t][driver];
    if (direction * c <= 0 || a === 0) return;
    const kind = `${(c < 0) === (a > 0) ? 'confident' : 'rare'}${a > 0 ? 'Positive' : 'Negative'}`;
    kinds[kind] = (kinds[kind] ?? 0) + Math.abs(c);
  });
  const kind = Object.keys(kinds).reduce((best, k) => (best === null || kinds[k] > kinds[best] ? k : best), null);
  if (kind === null) return [...parts, { key: 'finite.entropy.end', params: {} }];
  parts.push({
    key: total < 0 ? 'finite.entropy.fall' : 'finite.entropy.rise',
    params: { mode: mechanism.labels[driver], kind: `finite.entropy.kind.${kind}`, amount: sig(sums[driver]), total: sig(total) },
  });
  return parts;
}

/** Line datasets over steps `xs`, one per series {label, y(j)}, in the charts' line styles. */
function stepLines(series, xs) {
  return series.map((s, i) => ({ label: s.label, data: xs.map((x, j) => ({ x, y: s.y(j) })), ...lineStyle(i) }));
}

/**
 * Draws a line chart over steps 0..xMax in `slot` (a chartSlot: made in a task of its own, then
 * refreshed in place).
 */
function drawSteps(slot, { datasets, aria, xTitle, y, xMax, vlines = null }) {
  const config = () => ({
    type: 'line',
    data: { datasets },
    options: {
      parsing: false,
      interaction: { mode: 'nearest', axis: 'x', intersect: false },
      scales: { x: axis(xTitle, { type: 'linear', min: 0, max: xMax }), y },
      ...(vlines ? { plugins: { vlines } } : {}),
    },
    plugins: vlines ? [verticalLines] : [],
  });
  slot.draw(config, aria, (chart) => {
    chart.options.scales.x.max = xMax;
    if (vlines) chart.options.plugins.vlines = vlines;
    refresh(chart, { datasets, ariaLabel: aria });
  });
}

/** The sentence of entropyClaim's parts in the language of `text` (t, or dictionaryText's). */
export function entropySentence(parts, text) {
  return parts.map(({ key, params }) => text(key, { ...params, ...(params.kind ? { kind: text(params.kind) } : {}) })).join('');
}

export function compute(core, values) {
  const beta = values['fp.beta'];
  const lr = values['fp.lr'];
  const steps = values['fp.steps'];
  // Validate the options once (cheap) before the loop, so an error names its field at once.
  core.syntheticModeTraining({ betaEntropy: beta, learningRate: lr, steps: typeof steps === 'number' && steps > 0 ? 0 : steps });
  const rows = trajectory(core, beta, lr, steps);
  const at = forField('fp.at', () => {
    const value = values['fp.at'];
    if (typeof value !== 'number' || !Number.isInteger(value) || value < 0) {
      throw codedError(RangeError, {
        code: 'integer_range',
        field: 'step',
        params: { min: 0, max: steps, got: value },
        message: `step: must be an integer in [0, ${steps}], got ${value}`,
      });
    }
    return Math.min(value, steps);
  });
  const mechanism = core.finiteEntropyMechanism({ betaEntropy: beta, learningRate: lr, steps });
  return { beta, lr, steps, rows, at, mechanism };
}

export default {
  id: 'finite-policy',
  number: 5,
  titleKey: 'finite.title',
  bodyKey: 'finite.body',
  schema,
  charts: true,
  params: PARAMS,
  validate: compute,
  mount(host, ctx) {
    const { t, core } = ctx;
    host.append(ctx.rich(t('finite.formula')));

    const beta = field({ key: 'fp.beta', label: t('finite.beta'), step: 0.01, min: 0, value: ctx.get('fp.beta') });
    const lr = field({ key: 'fp.lr', label: t('finite.lr'), step: 0.01, min: 0, value: ctx.get('fp.lr') });
    const steps = field({ key: 'fp.steps', label: t('finite.steps'), hint: t('finite.stepsHint'), step: 1, min: 0, max: 1000, value: ctx.get('fp.steps') });
    host.append(h('div', { class: 'controls' }, beta.el, lr.el, steps.el));

    const figure = chartFigure({ title: null, aria: '', dataLabel: t('common.chartData'), pngLabel: t('common.chartPng') });
    const tableHost = h('div');
    const at = field({
      key: 'fp.at',
      label: t('finite.at'),
      kind: 'range',
      min: 0,
      max: ctx.get('fp.steps'),
      value: Math.min(ctx.get('fp.at'), ctx.get('fp.steps')),
      wide: true,
    });
    const modesTitle = h('h3');
    const modes = chartFigure({ title: null, aria: '', dataLabel: t('common.chartData'), pngLabel: t('common.chartPng'), className: 'chart-short' });
    const massLine = h('p', { class: 'muted', dataset: { testid: 'success-mass' } });
    const entropyTitle = h('h3', { text: t('finite.entropy.title') });
    const entropyFigure = chartFigure({ title: null, aria: '', dataLabel: t('common.chartData'), pngLabel: t('common.chartPng'), className: 'chart-entropy' });
    const entropyLine = h('p', { dataset: { testid: 'entropy-claim' } });
    const outputs = h(
      'div',
      { class: 'outputs' },
      figure.figure,
      tableHost,
      h('div', { class: 'controls controls-scrub' }, at.el),
      modesTitle,
      modes.figure,
      massLine,
      entropyTitle,
      entropyFigure.figure,
      entropyLine,
    );
    host.append(outputs);

    // Each chart's first draw in a task of its own: the three in the mount's task held it 116 ms
    // of CPU (177 ms of wall time) on a 2-core machine (hostile.test, a comparison link's load).
    const chart = chartSlot(figure.canvas);
    const modesChart = chartSlot(modes.canvas);
    const entropyChart = chartSlot(entropyFigure.canvas);
    const render = (m) => {
      at.input.max = String(m.steps);
      at.write(m.at);
      const first = m.rows[0];
      const last = m.rows[m.rows.length - 1];
      const series = [
        { label: t('FINITE_REWARD'), key: 'expectedReward' },
        { label: t('FINITE_ENTROPY'), key: 'entropy' },
        { label: `pass@${PASS_K}`, key: 'passAt4' },
      ];
      const datasets = stepLines(series.map((s) => ({ label: s.label, y: (j) => m.rows[j][s.key] })), m.rows.map((row) => row.step));
      const aria = t('finite.chartAria', {
        steps: m.steps,
        r0: fmt(first.expectedReward, 3),
        r1: fmt(last.expectedReward, 3),
        h0: fmt(first.entropy, 3),
        h1: fmt(last.entropy, 3),
        p0: fmt(first.passAt4, 3),
        p1: fmt(last.passAt4, 3),
      });
      drawSteps(chart, { datasets, aria, xTitle: t('FINITE_X'), y: axis('', { min: 0 }), xMax: Math.max(1, m.steps), vlines: { at: [m.at] } });
      figure.setTable(
        dataTable({
          caption: t('FINITE_X'),
          columns: [
            { label: t('FINITE_X'), numeric: true }, // the x axis the canvas draws
            { label: t('finite.col.reward'), numeric: true },
            { label: t('finite.col.entropy'), numeric: true },
            { label: t('finite.col.pass'), numeric: true },
          ],
          rows: m.rows.map(rowCells),
        }),
      );

      const picked = NOTEBOOK_STEPS.filter((step) => step <= m.steps);
      if (!picked.includes(m.steps)) picked.push(m.steps);
      tableHost.replaceChildren(
        dataTable({
          caption: t('finite.tableCaption'),
          className: 'finite-table',
          columns: [
            { label: t('finite.col.step'), numeric: true },
            { label: t('finite.col.reward'), numeric: true },
            { label: t('finite.col.entropy'), numeric: true },
            { label: t('finite.col.pass'), numeric: true },
          ],
          rows: picked.map((step) => rowCells(m.rows[step])),
        }),
      );
      renderModes(m);
      renderEntropy(m);
    };

    const renderEntropy = (m) => {
      const e = m.mechanism;
      const series = [
        { label: t('finite.entropy.exact'), key: 'exactChange' },
        { label: t('finite.entropy.predicted'), key: 'predictedChange' },
      ];
      const datasets = stepLines(series.map((s) => ({ label: s.label, y: (j) => e[s.key][j] })), e.step);
      const last = e.step.length - 1;
      const aria = last < 0
        ? t('finite.entropy.ariaEmpty')
        : t('finite.entropy.aria', {
          last: e.step[last],
          e0: sig(e.exactChange[0]),
          e1: sig(e.exactChange[last]),
          p0: sig(e.predictedChange[0]),
          p1: sig(e.predictedChange[last]),
          diff: sig(Math.max(...e.difference.map(Math.abs))),
        });
      drawSteps(entropyChart, { datasets, aria, xTitle: t('FINITE_X'), y: axis(t('finite.entropy.y')), xMax: Math.max(1, m.steps - 1) });
      entropyFigure.setTable(
        dataTable({
          caption: t('finite.entropy.title'),
          className: 'entropy-table',
          columns: [
            { label: t('FINITE_X'), numeric: true },
            { label: t('finite.entropy.colExact'), numeric: true },
            { label: t('finite.entropy.predicted'), numeric: true },
            { label: t('finite.entropy.colDifference'), numeric: true },
          ],
          rows: e.step.map((step, j) => [
            { text: String(step), value: step, header: true },
            { text: sig(e.exactChange[j]), value: e.exactChange[j] },
            { text: sig(e.predictedChange[j]), value: e.predictedChange[j] },
            { text: sig(e.difference[j]), value: e.difference[j] },
          ]),
        }),
      );
      entropyLine.textContent = entropySentence(entropyClaim(e), t);
    };

    const rowCells = (row) => [
      { text: String(row.step), value: row.step, header: true },
      { text: fmt(row.expectedReward), value: row.expectedReward },
      { text: fmt(row.entropy), value: row.entropy },
      { text: fmt(row.passAt4), value: row.passAt4 },
    ];

    const renderModes = (m) => {
      const row = m.rows[m.at];
      const start = m.rows[0];
      const names = row.probabilities.map((_, i) => t(row.successful[i] ? 'finite.modeSuccess' : 'finite.mode', { n: row.labels[i] }));
      modesTitle.textContent = t('finite.modesTitle', { step: m.at });
      const datasets = [
        { label: t('finite.col.p0'), data: start.probabilities, backgroundColor: '#ffffff', borderColor: '#475569', borderWidth: 1.5, borderDash: [4, 3] },
        {
          label: t('finite.barSuccess', { step: m.at }),
          data: row.probabilities.map((p, i) => (row.successful[i] ? p : null)),
          backgroundColor: COLORS[2],
          borderColor: '#1f2328',
          borderWidth: 1,
        },
        {
          label: t('finite.barFail', { step: m.at }),
          data: row.probabilities.map((p, i) => (row.successful[i] ? null : p)),
          backgroundColor: COLORS[0],
          borderColor: '#1f2328',
          borderWidth: 1,
        },
      ];
      const successful = names.filter((_, i) => row.successful[i]).join(', ');
      const aria = t('finite.modesAria', { n: names.length, step: m.at, successful });
      const config = () => ({
        type: 'bar',
        data: { labels: names, datasets },
        options: {
          skipNull: true,
          scales: { x: axis(''), y: axis('', { min: 0, max: 1 }) },
          plugins: { legend: { labels: { boxHeight: 12, boxWidth: 18 } } },
        },
      });
      modesChart.draw(config, aria, (made) => refresh(made, { labels: names, datasets, ariaLabel: aria }));
      modes.setTable(
        dataTable({
          caption: t('finite.modesCaption', { step: m.at }),
          className: 'modes-table',
          columns: [
            { label: t('finite.col.mode') },
            { label: t('finite.col.successful') },
            { label: t('finite.col.p0'), numeric: true },
            { label: t('finite.col.pAt', { step: m.at }), numeric: true },
          ],
          rows: row.probabilities.map((p, i) => [
            { text: row.labels[i], header: true },
            row.successful[i] ? `✓ ${t('common.yes')}` : t('common.no'),
            { text: fmt(start.probabilities[i]), value: start.probabilities[i] },
            { text: fmt(p), value: p },
          ]),
        }),
      );
      const successMass = row.successfulMass;
      const best = Math.max(...row.probabilities.filter((_, i) => row.successful[i]), 0);
      massLine.textContent = t('finite.successMass', {
        step: m.at,
        mass: fmt(successMass),
        share: successMass > 0 ? `${((100 * best) / successMass).toFixed(1)}%` : '—',
      });
    };

    mountForm(ctx, host, {
      fields: [beta, lr, steps, at],
      params: PARAMS,
      compute,
      render,
      outputs,
      noticeKey: 'finite.notice',
      commit: (draft) => ctx.commit({ ...draft, 'fp.at': Math.min(draft['fp.at'], draft['fp.steps']) }),
    });
    return {
      destroy: () => {
        chart.destroy();
        modesChart.destroy();
        entropyChart.destroy();
      },
    };
  },
};
