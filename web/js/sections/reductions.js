// Section 4, loss reductions: per-response contributions under original GRPO, Dr. GRPO and
// DAPO (the notebook's table), the weight of every token (the length bias, drawn), and every
// TRL 1.9 loss type's normaliser for a completion of the slider's length (core lossNormalizer).
import { h, field, dataTable, fmt } from '../dom.js';
import { chartFigure, chartSlot, refresh, lineStyle, axis, verticalLines } from '../charts.js';
import { mountForm, forField } from './common.js';

export const REDUCTIONS = ['original_grpo', 'dr_grpo', 'dapo'];
/** Every TRL 1.9 loss type, in the core's order. */
export const LOSS_TYPES = ['grpo', 'bnpo', 'dr_grpo', 'dapo', 'cispo', 'sapo', 'luspo', 'vespo'];
const POINT_STYLES = ['circle', 'rect', 'triangle'];

export const schema = {
  'red.r': { kind: 'list', default: [1, 0, 1], maxItems: 32 },
  'red.len': { kind: 'list', default: [2, 5, 8], maxItems: 32 },
  'red.fixed': { kind: 'int', min: 1, max: 100000, default: 8 },
  'red.L': { kind: 'int', min: 1, max: 100000, default: 2 },
};

const PARAMS = { rewards: 'red.r', lengths: 'red.len', fixedLength: 'red.fixed', maxCompletionLength: 'red.fixed', length: 'red.L' };

const MAX_CHART_TOKENS = 4000;

export function compute(core, values) {
  const rewards = values['red.r'];
  const lengths = values['red.len'];
  const fixed = values['red.fixed'];
  const weights = {
    original_grpo: core.originalGrpoTokenWeights(rewards, lengths),
    dr_grpo: forField('red.fixed', () => core.drGrpoTokenWeights(rewards, lengths, fixed)),
    dapo: core.dapoTokenWeights(rewards, lengths),
  };
  const rows = REDUCTIONS.map((name) => {
    const contributions = core.responseContributions(weights[name]);
    const flat = core.flattenTokenWeights(weights[name]);
    return {
      name,
      contributions,
      flat,
      perToken: weights[name].map((row) => (row.length ? row[0] : 0)),
      absSum: flat.reduce((acc, w) => acc + Math.abs(w), 0),
    };
  });
  // The normaliser table: response 1 given the slider's length L, the others as listed; N, the
  // batch's token count and max_completion_length (Dr. GRPO's fixed length) from the inputs.
  const length = values['red.L'];
  const batch = { completions: rewards.length, length, totalTokens: length + lengths.slice(1).reduce((a, b) => a + b, 0), maxCompletionLength: fixed };
  const normalizers = LOSS_TYPES.map((lossType) => {
    const d = core.lossNormalizer({ lossType, ...batch });
    return { lossType, d, token: 1 / d, completion: length / d };
  });
  return { rewards, lengths, fixed, rows, tokens: rows[0].flat.length, length, batch, normalizers };
}

export default {
  id: 'reductions',
  number: 4,
  titleKey: 'reductions.title',
  bodyKey: 'reductions.body',
  schema,
  charts: true,
  params: PARAMS,
  validate: compute,
  mount(host, ctx) {
    const { t, core } = ctx;
    host.append(ctx.rich(t('reductions.formula')), ctx.rich(t('reductions.formulaNote')));

    const rewards = field({ key: 'red.r', label: t('reductions.rewards'), kind: 'list', hint: t('common.hintList'), value: ctx.get('red.r') });
    const lengths = field({ key: 'red.len', label: t('reductions.lengths'), kind: 'list', hint: t('reductions.lengthsHint'), value: ctx.get('red.len') });
    const fixed = field({ key: 'red.fixed', label: t('reductions.fixed'), step: 1, min: 1, value: ctx.get('red.fixed') });
    host.append(h('div', { class: 'controls' }, rewards.el, lengths.el, fixed.el));

    const slider = field({ key: 'red.L', label: t('reductions.slider'), kind: 'range', min: 1, max: ctx.get('red.fixed'), value: Math.min(ctx.get('red.L'), ctx.get('red.fixed')), wide: true });
    const normHost = h('div', { dataset: { testid: 'normalizers' } });
    const tableHost = h('div');
    const figure = chartFigure({ title: t('reductions.chartTitle'), aria: '', dataLabel: t('common.chartData'), pngLabel: t('common.chartPng') });
    const outputs = h('div', { class: 'outputs' }, tableHost, figure.figure, h('h3', { text: t('reductions.normTitle') }), slider.el, normHost);
    host.append(outputs);

    const chart = chartSlot(figure.canvas);
    const render = (m) => {
      const n = m.rewards.length;
      const responseCols = m.rewards.map((_, i) => ({ label: t('reductions.col.response', { n: i + 1 }), numeric: true }));
      tableHost.replaceChildren(
        dataTable({
          caption: t('reductions.tableCaption'),
          className: 'reductions',
          columns: [{ label: t('reductions.col.reduction') }, ...responseCols, { label: t('reductions.col.abs'), numeric: true }],
          rows: m.rows.map((row) => [
            { node: h('code', { text: t(`reductions.name.${row.name}`) }), header: true, value: row.name },
            ...row.contributions.map((c) => ({ text: fmt(c), value: c })),
            { text: fmt(row.absSum), value: row.absSum },
          ]),
        }),
      );

      slider.input.max = String(m.fixed);
      normHost.replaceChildren(
        dataTable({
          caption: t('reductions.normCaption', { n: m.batch.completions, total: m.batch.totalTokens, max: m.fixed, length: m.length }),
          className: 'normalizers',
          columns: [
            { label: t('reductions.col.lossType') },
            { label: t('reductions.col.normalizer') },
            { label: t('reductions.col.d', { length: m.length }), numeric: true },
            { label: t('reductions.col.token'), numeric: true },
            { label: t('reductions.col.completion', { length: m.length }), numeric: true },
          ],
          rows: m.normalizers.map((row) => [
            { node: h('code', { text: row.lossType }), header: true, value: row.lossType },
            { node: ctx.rich(t(`reductions.norm.${row.lossType}`)) },
            { text: fmt(row.d), value: row.d },
            { text: fmt(row.token), value: row.token },
            { text: fmt(row.completion), value: row.completion },
          ]),
        }),
      );

      // Token axis: "response.position"; boundaries between responses drawn as dashed lines.
      const labels = [];
      const boundaries = [];
      m.lengths.forEach((length, i) => {
        for (let j = 0; j < length; j += 1) labels.push(`${i + 1}.${j + 1}`);
        if (i < n - 1) boundaries.push(labels.length - 0.5);
      });
      const drawn = m.tokens <= MAX_CHART_TOKENS;
      const datasets = m.rows.map((row, i) => ({
        label: row.name,
        data: drawn ? row.flat : [],
        stepped: 'middle',
        ...lineStyle(i, {
          pointRadius: m.tokens <= 48 ? 3 : 0,
          pointStyle: POINT_STYLES[i],
        }),
      }));
      const aria = t('reductions.chartAria', { tokens: m.tokens, lengths: m.lengths.join(', ') });
      const lines = { at: boundaries, color: '#64748b', dash: [3, 3] };
      chart.draw(
        () => ({
          type: 'line',
          data: { labels: drawn ? labels : [], datasets },
          options: {
            interaction: { mode: 'index', intersect: false },
            scales: {
              x: axis(t('reductions.chartX'), { ticks: { autoSkip: true, maxRotation: 0 } }),
              y: axis(t('reductions.chartY')),
            },
            plugins: { vlines: lines },
          },
          plugins: [verticalLines],
        }),
        aria,
        (current) => {
          current.options.plugins.vlines = lines;
          refresh(current, { labels: drawn ? labels : [], datasets, ariaLabel: aria });
        },
      );
      figure.setTable(
        dataTable({
          caption: t('reductions.tokenCaption'),
          // Headed by the axis titles the canvas draws: the weight (y) of the tokens (x) of each response.
          columns: [
            { label: `${t('reductions.chartY')}: ${t('reductions.col.reduction')}` },
            ...m.lengths.map((length, i) => ({
              label: `${t('reductions.chartX')} ${i + 1}.1–${i + 1}.${length} (${t('reductions.col.response', { n: i + 1 })}, L=${length})`,
              numeric: true,
            })),
          ],
          rows: m.rows.map((row) => [{ text: row.name, header: true }, ...row.perToken.map((w) => ({ text: fmt(w), value: w }))]),
        }),
      );
    };

    mountForm(ctx, host, {
      fields: [rewards, lengths, fixed, slider],
      params: PARAMS,
      compute,
      render,
      outputs,
      noticeKey: 'reductions.notice',
    });
    return { destroy: () => chart.destroy() };
  },
};
