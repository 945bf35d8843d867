// Section 2, informative groups: P_info(p) for G = 2, 4, 8, 16 and a free G; the examples table.
import { h, field, dataTable, fmt, short } from '../dom.js';
import { chartFigure, chartSlot, refresh, lineStyle, axis, verticalLines } from '../charts.js';
import { mountForm, forField } from './common.js';

export const GROUP_SIZES = [2, 4, 8, 16];
export const EXAMPLE_P = [0.01, 0.1, 0.5, 0.9, 0.99];
export const DRAWS_FOR = 100;

/** np.linspace(0.001, 0.999, 400) */
export const P_GRID = Array.from({ length: 400 }, (_, i) => 0.001 + ((0.999 - 0.001) * i) / 399);

export const schema = {
  'ig.g': { kind: 'int', min: 1, max: 100000, default: 32 },
  'ig.tg': { kind: 'int', min: 1, max: 100000, default: 8 },
  'ig.p': { kind: 'number', min: 0, max: 1, default: 0.1 },
};

const PARAMS = { p: 'ig.p' };

// P_info over the grid for one G: 400 core calls, kept (the core is deterministic) so that a
// control change or a language switch recomputes only what changed.
const curves = new Map();
function curve(core, g) {
  if (!curves.has(g)) {
    const values = core.informativeGroupCurve(P_GRID, g);
    if (curves.size >= 24) curves.delete(curves.keys().next().value);
    curves.set(g, values);
  }
  return curves.get(g);
}

export function compute(core, values) {
  const freeG = values['ig.g'];
  const tableG = values['ig.tg'];
  const examples = forField('ig.tg', () =>
    EXAMPLE_P.map((p) => ({
      p,
      pinfo: core.informativeGroupProbability(p, tableG),
      draws: core.expectedDrawsForInformativeGroups(DRAWS_FOR, p, tableG),
    })),
  );
  const free = forField('ig.g', () => curve(core, freeG));
  const curves = GROUP_SIZES.map((g) => ({ g, values: curve(core, g) }));
  curves.push({ g: freeG, values: free, free: true });
  const p = values['ig.p'];
  const marker = forField('ig.p', () => curves.map((curve) => core.informativeGroupProbability(p, curve.g)));
  return { curves, examples, tableG, freeG, p, marker };
}

export default {
  id: 'informative-groups',
  number: 2,
  titleKey: 'groups.title',
  bodyKey: 'groups.body',
  schema,
  charts: true,
  params: PARAMS,
  validate: compute,
  mount(host, ctx) {
    const { t, core } = ctx;
    host.append(ctx.rich(t('groups.formula')), ctx.rich(t('groups.formulaNote')));

    const freeG = field({ key: 'ig.g', label: t('groups.freeG'), hint: t('groups.freeGHint'), step: 1, min: 1, value: ctx.get('ig.g') });
    const tableG = field({ key: 'ig.tg', label: t('groups.tableG'), step: 1, min: 1, value: ctx.get('ig.tg') });
    const pField = field({ key: 'ig.p', label: t('groups.p'), hint: t('groups.pHint'), step: 0.01, min: 0, max: 1, value: ctx.get('ig.p') });
    host.append(h('div', { class: 'controls' }, freeG.el, pField.el, tableG.el));

    const figure = chartFigure({ title: t('groups.chartTitle'), aria: '', dataLabel: t('common.chartData'), pngLabel: t('common.chartPng') });
    const examplesHost = h('div');
    const readout = h('p', { class: 'readout', dataset: { testid: 'p-readout' } });
    const outputs = h('div', { class: 'outputs' }, figure.figure, readout, h('h3', { text: t('groups.examplesTitle') }), examplesHost);
    host.append(outputs);

    const chart = chartSlot(figure.canvas);
    const render = (model) => {
      const datasets = model.curves.map((curve, i) => ({
        label: `G=${curve.g}`,
        data: P_GRID.map((p, j) => ({ x: p, y: curve.values[j] })),
        ...lineStyle(i, curve.free ? { borderWidth: 2.5 } : {}),
      }));
      datasets.push({
        label: `p = ${short(model.p)}`,
        data: model.marker.map((y) => ({ x: model.p, y })),
        showLine: false,
        pointRadius: 5,
        pointStyle: 'circle',
        borderColor: '#1f2328',
        backgroundColor: '#ffffff',
        borderWidth: 2,
      });
      const lines = { at: [model.p] };
      const aria = t('groups.chartAria', { sizes: model.curves.map((c) => c.g).join(', ') });
      chart.draw(
        () => ({
          type: 'line',
          data: { datasets },
          options: {
            parsing: false,
            interaction: { mode: 'nearest', axis: 'x', intersect: false },
            scales: {
              x: axis(t('INFO_X'), { type: 'linear', min: 0, max: 1 }),
              y: axis(t('INFO_Y'), { min: 0, max: 1.02, afterBuildTicks: (scale) => (scale.ticks = [0, 0.2, 0.4, 0.6, 0.8, 1].map((value) => ({ value }))) }),
            },
            plugins: { vlines: lines, legend: { labels: { filter: (item, data) => data.datasets[item.datasetIndex].showLine !== false } }, tooltip: { callbacks: { title: (items) => `p = ${fmt(items[0].parsed.x, 3)}` } } },
          },
          plugins: [verticalLines],
        }),
        aria,
        (current) => {
          current.options.plugins.vlines = lines;
          refresh(current, { datasets, ariaLabel: aria });
        },
      );
      readout.replaceChildren(
        h('strong', { text: t('groups.readout', { p: short(model.p) }) }),
        ' ',
        model.curves.map((curve, i) => `G=${curve.g}: ${fmt(model.marker[i])}`).join(' · '),
      );

      // The chart's numbers: every 20th grid point and the last.
      const picks = P_GRID.map((_, i) => i).filter((i) => i % 21 === 0 || i === P_GRID.length - 1);
      figure.setTable(
        dataTable({
          caption: t('groups.chartTitle'),
          // Headed by the axis titles the canvas draws (the accessible twin of the chart).
          columns: [{ label: t('INFO_X'), numeric: true }, ...model.curves.map((c) => ({ label: `${t('INFO_Y')}, G=${c.g}`, numeric: true }))],
          rows: picks.map((i) => [
            { text: fmt(P_GRID[i], 3), header: true },
            ...model.curves.map((c) => ({ text: fmt(c.values[i]), value: c.values[i] })),
          ]),
        }),
      );

      examplesHost.replaceChildren(
        dataTable({
          caption: t('groups.examplesCaption', { g: model.tableG }),
          className: 'examples',
          columns: [
            { label: t('groups.col.p'), numeric: true },
            { label: t('groups.col.pinfo', { g: model.tableG }), numeric: true },
            { label: t('groups.col.draws'), numeric: true },
          ],
          rows: model.examples.map((row) => [
            { text: fmt(row.p, 2), value: row.p, header: true },
            { text: fmt(row.pinfo), value: row.pinfo },
            { text: fmt(row.draws), value: row.draws },
          ]),
        }),
      );
    };

    mountForm(ctx, host, {
      fields: [freeG, pField, tableG],
      params: PARAMS,
      compute,
      render,
      outputs,
      noticeKey: 'groups.notice',
    });
    return { destroy: () => chart.destroy() };
  },
};
