// Section 8, mean accuracy hides coverage: per-prompt sampled accuracy before vs after RL (bars
// labelled with the prompt texts, sorted as the notebook sorts them), and one fresh group from
// the trained policy inspected row by row, as the notebook does; click a response to see its
// tokens with their sampling probability and advantage.
import { h, dataTable, fmt } from '../dom.js';
import { chartFigure, makeChart, refresh, describeChart, axis, COLORS } from '../charts.js';
import { notice } from './common.js';
import * as training from '../training/controller.js';
import { runBar } from '../training/run-bar.js';
import { coverageRows, coverageSummary } from '../training/run-format.js';
import { validateConfig } from '../training/run-config.js';

/** Python's repr of the notebook's printed dict. */
function pyRepr(value) {
  if (typeof value === 'string') return `'${value.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;
  if (typeof value === 'number') return Number.isInteger(value) ? `${value}.0` : String(value);
  return String(value);
}

// The widget of section 8 (its title, text and URL keys: training-sections.js).
export default {
  mount(host, ctx) {
    const { t, core } = ctx;

    let bar = null;
    if (ctx.embedded) {
      bar = runBar(ctx, { compact: true, getConfig: () => validateConfig(core, ctx.values()) });
      host.append(bar.el);
    }

    // --- coverage -----------------------------------------------------------------------------
    const figure = chartFigure({ title: t('train.chart.coverage'), aria: '', dataLabel: t('common.chartData'), className: 'chart-coverage' });
    figure.figure.dataset.chart = 'coverage';
    const summary = h('p', { class: 'summary coverage-summary' });
    host.append(figure.figure, summary);

    // --- inspection ---------------------------------------------------------------------------
    const another = h('button', { type: 'button', class: 'button-quiet', dataset: { action: 'another-group' }, text: t('train.inspect.another') });
    const inspectStatus = h('p', { class: 'muted inspect-status', role: 'status' });
    const inspectHost = h('div', { class: 'inspect-host' });
    const printed = h('pre', { class: 'printed inspect-printed' }, h('code'));
    const tokensHost = h('div', { class: 'tokens-host', 'aria-live': 'polite' });
    host.append(
      h('h3', { text: t('train.inspect.title') }),
      ctx.rich(t('train.inspect.explain')),
      h('div', { class: 'inspect-tools' }, another, inspectStatus),
      inspectHost,
      printed,
      tokensHost,
    );
    host.append(notice(ctx, 'train.coverage.notice'));

    another.addEventListener('click', () => {
      const s = training.getState();
      const index = (s.inspection?.index ?? -1) + 1;
      selected = null;
      training.inspect(index).catch(() => {});
    });

    let chart = null;
    let drawnKey = null;
    let drawnAfter = null;
    let drawnInfo = null;
    let drawnInspection = null;
    let selected = null; // index of the clicked response in group 0

    const drawCoverage = (s) => {
      const rows = coverageRows(s.info?.beforeTrainByPrompt ?? [], s.result?.afterTrainByPrompt ?? null);
      const labels = rows.map((r) => r.prompt);
      const hasAfter = rows.some((r) => r.after !== null);
      const datasets = [
        { label: t('COVERAGE_BEFORE'), data: rows.map((r) => r.before), backgroundColor: COLORS[0], borderColor: '#1f2328', borderWidth: 1 },
        {
          label: t('COVERAGE_AFTER'),
          data: rows.map((r) => r.after),
          backgroundColor: COLORS[1],
          borderColor: '#1f2328',
          borderWidth: 1,
        },
      ];
      if (chart) {
        // Same canvas, new numbers: no new chart (creating one measures every rotated label).
        const ticks = chart.options.scales.x.ticks;
        ticks.minRotation = ticks.maxRotation = labels.length > 24 ? 90 : 45;
        ticks.font = { size: labels.length > 24 ? 11 : 13 };
        refresh(chart, { labels, datasets });
      } else {
        chart = makeChart(figure.canvas, {
          type: 'bar',
          data: { labels, datasets },
          options: {
            categoryPercentage: 0.76,
            barPercentage: 1,
            scales: {
              // The notebook rotates the prompt labels by 45°; with many prompts (full: 64), 90°.
              x: axis('', { ticks: { autoSkip: false, maxRotation: labels.length > 24 ? 90 : 45, minRotation: labels.length > 24 ? 90 : 45, font: { size: labels.length > 24 ? 11 : 13 } } }),
              // The notebook's ylim(0, 1.05), with ticks every 0.2 up to 1 (no tick at 1.05).
              y: axis(t('COVERAGE_Y'), {
                min: 0,
                max: 1.05,
                afterBuildTicks: (scale) => {
                  scale.ticks = [0, 0.2, 0.4, 0.6, 0.8, 1].map((value) => ({ value }));
                },
              }),
            },
            plugins: { legend: { labels: { boxHeight: 12, boxWidth: 18 } } },
          },
        });
      }
      const before = coverageSummary(rows, 'before');
      const after = coverageSummary(rows, 'after');
      describeChart(
        chart,
        t('train.coverage.aria', {
          n: rows.length,
          before: fmt(before.mean, 3),
          after: hasAfter ? fmt(after.mean, 3) : '—',
        }),
      );
      figure.setTable(
        dataTable({
          caption: t('train.coverage.caption'),
          className: 'coverage-table',
          columns: [
            { label: 'prompt_id', numeric: true },
            { label: t('train.col.prompt') },
            // Headed by the y-axis title the canvas draws and the two bars' legend.
            { label: `${t('COVERAGE_Y')}, ${t('COVERAGE_BEFORE')}`, numeric: true },
            { label: `${t('COVERAGE_Y')}, ${t('COVERAGE_AFTER')}`, numeric: true },
          ],
          rows: rows.map((r) => [
            { text: String(r.promptId), value: r.promptId, header: true },
            { node: h('code', { text: r.prompt }) },
            { text: fmt(r.before), value: r.before },
            r.after === null ? { text: '…', className: 'pending' } : { text: fmt(r.after), value: r.after },
          ]),
        }),
      );
      summary.textContent = rows.length
        ? hasAfter
          ? t('train.coverage.summary', {
              n: rows.length,
              solved0: before.solved,
              solved1: after.solved,
              never0: before.never,
              never1: after.never,
              reliable0: before.reliable,
              reliable1: after.reliable,
              mean0: fmt(before.mean, 3),
              mean1: fmt(after.mean, 3),
            })
          : t('train.coverage.waiting', { n: rows.length, solved0: before.solved, mean0: fmt(before.mean, 3) })
        : t('train.coverage.empty');
    };

    const groupRows = (group) =>
      group.map((row, i) => {
        const open = h(
          'button',
          {
            type: 'button',
            class: 'response-button',
            'aria-pressed': selected === i ? 'true' : 'false',
            dataset: { response: String(i) },
            title: t('train.inspect.showTokens'),
          },
          h('code', { text: row.responseTokens.join(' ') }),
        );
        open.addEventListener('click', () => {
          selected = selected === i ? null : i;
          drawInspection(training.getState(), true);
        });
        return {
          className: selected === i ? 'row-selected' : undefined,
          cells: [
            { text: String(row.promptId), value: row.promptId, header: true },
            { node: open },
            { text: fmt(row.reward), value: row.reward },
            { text: fmt(row.rewardComponents.correctness), value: row.rewardComponents.correctness },
            { text: fmt(row.rewardComponents.format), value: row.rewardComponents.format },
            { text: String(row.accuracy), value: row.accuracy },
            { text: row.status, value: row.status },
            { text: String(row.length), value: row.length },
            { text: row.terminated ? 'True' : 'False', value: String(row.terminated) },
            { text: fmt(row.advantage), value: row.advantage },
          ],
        };
      });

    const tokenTable = (row, prompt) => {
      const rows = row.responseTokens.map((token, i) => {
        const logp = row.oldLogProbs[i];
        return [
          { text: String(i + 1), value: i + 1, header: true },
          { node: h('code', { text: token }) },
          { text: fmt(Math.exp(logp)), value: Math.exp(logp) },
          { text: fmt(logp), value: logp },
          { text: fmt(row.entropies?.[i] ?? NaN), value: row.entropies?.[i] ?? '' },
          { text: fmt(row.advantage), value: row.advantage },
        ];
      });
      const sequenceP = Math.exp(row.oldLogProbs.reduce((a, b) => a + b, 0));
      return h(
        'div',
        { class: 'token-detail' },
        h('h4', { text: t('train.inspect.tokensTitle', { prompt: prompt ?? '?', response: row.responseText || '∅' }) }),
        h('div', { class: 'token-strip', 'aria-hidden': 'true' }, row.responseTokens.map((token, i) => {
          const p = Math.exp(row.oldLogProbs[i]);
          return h('span', { class: 'token-chip', style: `--p:${p.toFixed(4)}` }, h('code', { text: token }), h('small', { text: fmt(p, 3) }));
        })),
        dataTable({
          caption: t('train.inspect.tokensCaption'),
          className: 'tokens-table',
          columns: [
            { label: '#', numeric: true },
            { label: t('train.col.token') },
            { label: t('train.col.prob'), numeric: true },
            { label: 'old_log_prob', numeric: true },
            { label: t('train.col.entropy'), numeric: true },
            { label: 'advantage', numeric: true },
          ],
          rows,
        }),
        h('p', { class: 'muted', text: t('train.inspect.sequenceP', { p: fmt(sequenceP), advantage: fmt(row.advantage) }) }),
      );
    };

    const drawInspection = (s, force = false) => {
      const inspection = s.inspection;
      if (!force && inspection === drawnInspection) return;
      drawnInspection = inspection;
      another.disabled = !s.result || inspection?.loading;
      if (!inspection) {
        inspectHost.replaceChildren();
        printed.firstChild.textContent = '';
        tokensHost.replaceChildren();
        inspectStatus.textContent = s.result ? '' : t('train.inspect.waiting');
        return;
      }
      if (inspection.loading) {
        inspectStatus.textContent = t('train.inspect.loading', { seed: inspection.seed });
        return;
      }
      if (inspection.error) {
        inspectStatus.textContent = t('train.inspect.failed', { message: inspection.error });
        inspectHost.replaceChildren();
        tokensHost.replaceChildren();
        return;
      }
      const result = inspection.result;
      const group = result.groups[0] ?? [];
      const prompt = result.prompts?.find((p) => p.id === group[0]?.promptId)?.text ?? result.prompts?.[0]?.text;
      inspectStatus.textContent = t('train.inspect.drawn', {
        n: inspection.index + 1,
        seed: inspection.seed,
        prompt: prompt ?? '?',
        version: inspection.generatorVersion,
      });
      inspectHost.replaceChildren(
        dataTable({
          caption: t('train.inspect.caption', { prompt: prompt ?? '?' }),
          className: 'inspect-table',
          columns: [
            { label: 'prompt_id', numeric: true },
            { label: 'response' },
            { label: 'reward', numeric: true },
            { label: 'correctness', numeric: true },
            { label: 'format', numeric: true },
            { label: 'accuracy', numeric: true },
            { label: 'status' },
            { label: 'length', numeric: true },
            { label: 'terminated' },
            { label: 'advantage', numeric: true },
          ],
          rows: groupRows(group),
        }),
      );
      printed.firstChild.textContent = `{'discarded_fraction': ${pyRepr(result.discardedFraction)}, 'generator_version': ${pyRepr(group[0]?.generatorVersion ?? result.generatorVersion)}}`;
      tokensHost.replaceChildren(selected === null || !group[selected] ? h('p', { class: 'muted', text: t('train.inspect.pick') }) : tokenTable(group[selected], prompt));
    };

    // While a run streams and the chart is off screen, its redraw waits until it scrolls into
    // view or the run stops (64 rotated prompt labels are not free).
    let onScreen = true;
    const draw = (s) => {
      const afterKey = s.result?.afterTrainByPrompt ?? null;
      if (s.runKey !== drawnKey) selected = null;
      const stale = s.runKey !== drawnKey || afterKey !== drawnAfter || s.info !== drawnInfo;
      if (stale && (onScreen || !training.isBusy(s.phase))) {
        drawnKey = s.runKey;
        drawnAfter = afterKey;
        drawnInfo = s.info;
        drawCoverage(s);
      }
      drawInspection(s);
      if (drawnKey === s.runKey && drawnInfo === s.info && drawnAfter === afterKey) {
        host.dataset.drawn = `${s.runKey}:${s.history.length}:${s.phase}`;
      }
    };
    const observer =
      typeof IntersectionObserver === 'function'
        ? new IntersectionObserver(
            (entries) => {
              onScreen = entries[entries.length - 1].isIntersecting;
              if (onScreen) draw(training.getState());
            },
            { rootMargin: '200px 0px' },
          )
        : null;
    observer?.observe(figure.figure);

    const unsubscribe = training.subscribe(draw);
    draw(training.getState());
    training.loadPrecomputed().then(() => {
      draw(training.getState());
      ctx.rendered();
    });
    return {
      destroy() {
        unsubscribe();
        observer?.disconnect();
        bar?.destroy();
        chart?.destroy();
      },
    };
  },
};
