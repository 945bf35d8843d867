// Section 8, mean accuracy hides coverage: per-prompt sampled accuracy before vs after RL, train
// and held-out side by side (bars labelled with the prompt texts, sorted by before-RL accuracy,
// prompts that lost all success marked), pass@k across k before and after RL, sentences built
// from the run's own measures (docs/coverage.md), and one fresh group from the trained policy
// inspected row by row, as the notebook does; click a response to see its tokens with their
// sampling probability and advantage. Click (tap, or Enter on) a prompt's bars to see its answers
// before and after RL (training/answer-histogram.js). Below: pass@k logged during training
// (passAtKEvery, training/pass-at-k-history.js) and response lengths before and after RL, correct
// and incorrect apart (training/length-histogram.js).
import { h, dataTable, fmt } from '../dom.js';
import { chartFigure, makeChart, refresh, describeChart, axis, runLegend, COLORS } from '../charts.js';
import { runNotice } from './common.js';
import { coverageSummary, coverageVerdicts, passAtKVerdicts, verdictText } from '../training/verdicts.js';
import * as training from '../training/controller.js';
import { sliced } from '../training/controller.js';
import { sectionRunBar } from '../training/run-dock.js';
import { coverageByBefore } from '../training/run-format.js';
import { validateConfig } from '../training/run-config.js';
import { getOverlays, onOverlays, pickColor, samePrompts } from '../training/overlays.js';
import { answersOf, answerRows, answerSentences, answerText, binLabel, samplesOf } from '../training/answer-histogram.js';
import { lengthSentences } from '../training/length-histogram.js';
import { passAtKHistory, passAtKHistorySentences, kindWords } from '../training/pass-at-k-history.js';

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

    const getConfig = () => validateConfig(core, ctx.values());
    const bar = sectionRunBar(ctx, host, getConfig);

    // --- coverage -----------------------------------------------------------------------------
    const figure = chartFigure({ title: t('train.chart.coverage'), aria: '', dataLabel: t('common.chartData'), pngLabel: t('common.chartPng'), className: 'chart-coverage' });
    figure.figure.dataset.chart = 'coverage';
    const heldFigure = chartFigure({ title: t('train.chart.coverageHeldout'), aria: '', dataLabel: t('common.chartData'), pngLabel: t('common.chartPng'), className: 'chart-coverage chart-coverage-heldout' });
    heldFigure.figure.dataset.chart = 'coverage-heldout';
    const summary = h('p', { class: 'summary coverage-summary' });
    const floor = h('p', { class: 'muted coverage-floor' });
    const passFigure = chartFigure({ title: t('train.chart.passAtK'), aria: '', dataLabel: t('common.chartData'), pngLabel: t('common.chartPng'), className: 'chart-pass-at-k' });
    passFigure.figure.dataset.chart = 'pass-at-k';
    const passSummary = h('p', { class: 'summary pass-at-k-summary' });
    const overlayNote = h('p', { class: 'muted coverage-overlay-note' });
    host.append(h('div', { class: 'coverage-pair' }, figure.figure, heldFigure.figure), overlayNote, summary, floor, passFigure.figure, passSummary);

    // --- pass@k during training and response lengths (issue 23) ---------------------------------
    const historyTable = h('div', { class: 'pass-at-k-history-table' });
    const historySummary = h('p', { class: 'summary pass-at-k-history-summary' });
    const historyBlock = h('div', { class: 'pass-at-k-history', dataset: { testid: 'pass-at-k-history' } }, h('h4', { text: t('train.passAtKHistory.title') }), ctx.rich(t('train.passAtKHistory.explain')), historyTable, historySummary);
    const lengthFigure = chartFigure({ title: t('train.lengths.title'), aria: '', dataLabel: t('common.chartData'), pngLabel: t('common.chartPng'), className: 'chart-lengths' });
    lengthFigure.figure.dataset.chart = 'lengths';
    const lengthSummary = h('p', { class: 'summary lengths-summary' });
    host.append(historyBlock, lengthFigure.figure, lengthSummary);

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
    const lesson = runNotice(ctx, 'train.coverage.notice');
    host.append(lesson.el);

    another.addEventListener('click', () => {
      const s = training.getState();
      const index = (s.inspection?.index ?? -1) + 1;
      selected = null;
      training.inspect(index).catch(() => {});
    });

    const charts = { train: null, heldout: null, passAtK: null, lengths: null };
    let drawnKey = null;
    let drawnAfter = null;
    let drawnInfo = null;
    let drawnInspection = null;
    let selected = null; // index of the clicked response in group 0
    let answersKey = null; // the run whose answer panels are open

    // A prompt's answers before and after RL, in a panel below its chart: opened by a click or a
    // tap on its bars, or by Enter on the focused chart (← → move between prompts).
    const answerPanel = (fig) => {
      if (fig.answers) return fig.answers;
      const hint = h('p', { class: 'muted answer-hint', text: t('train.answers.hint') });
      const panel = h('div', { class: 'answer-panel', role: 'region', 'aria-live': 'polite', hidden: true });
      fig.lostNote.after(hint, panel);
      const state = { panel, hint, promptId: null, focus: -1 };
      fig.answers = state;
      const open = (index) => {
        const row = fig.rows?.[index];
        if (!row) return;
        state.promptId = row.promptId;
        state.focus = index;
        showAnswers(fig);
      };
      fig.canvas.tabIndex = 0;
      fig.canvas.addEventListener('keydown', (event) => {
        const chart = fig.chart;
        const n = fig.rows?.length ?? 0;
        if (!chart || !n) return;
        if (event.key === 'ArrowRight' || event.key === 'ArrowLeft') {
          state.focus = Math.max(0, Math.min(n - 1, (state.focus < 0 ? 0 : state.focus + (event.key === 'ArrowRight' ? 1 : -1))));
          const active = chart.data.datasets.map((_, datasetIndex) => ({ datasetIndex, index: state.focus }));
          chart.setActiveElements(active);
          chart.tooltip?.setActiveElements(active, { x: 0, y: 0 });
          chart.update('none');
          event.preventDefault();
        } else if ((event.key === 'Enter' || event.key === ' ') && state.focus >= 0) {
          open(state.focus);
          event.preventDefault();
        }
      });
      state.open = open;
      return state;
    };
    const showAnswers = (fig) => {
      const state = fig.answers;
      const row = fig.rows?.find((r) => r.promptId === state?.promptId);
      if (!state || !row) {
        if (state) state.panel.hidden = true;
        return;
      }
      const before = answersOf(fig.before, row.promptId);
      const after = answersOf(fig.after, row.promptId);
      const correct = [...(before ?? []), ...(after ?? [])].find((b) => b.kind === 'correct')?.answer ?? '?';
      const close = h('button', { type: 'button', class: 'button-quiet answer-close', dataset: { action: 'close-answers' }, text: t('train.answers.close') });
      close.addEventListener('click', () => {
        state.promptId = null;
        state.panel.hidden = true;
        fig.canvas.focus();
      });
      const recorded = Boolean(before || after);
      const cell = (count, samples) => {
        if (count === null) return { text: '—' };
        if (count === 'other') return { text: t('train.answers.inOther'), className: 'muted' };
        const share = samples ? count / samples : 0;
        return { node: h('span', { class: 'answer-count', style: `--share:${share.toFixed(4)}` }, String(count)), value: count };
      };
      const beforeN = before ? samplesOf(before) : 0;
      const afterN = after ? samplesOf(after) : 0;
      state.panel.dataset.promptId = String(row.promptId);
      state.panel.setAttribute('aria-label', t('train.answers.title', { prompt: row.prompt }));
      state.panel.replaceChildren(
        h('div', { class: 'answer-head' }, h('h4', {}, t('train.answers.title', { prompt: '' }), h('code', { text: row.prompt })), close),
        h('p', { class: 'answer-sentence', text: answerText(t, answerSentences(before, after, correct)) }),
        recorded
          ? dataTable({
              caption: t('train.answers.caption', { prompt: row.prompt }),
              className: 'answer-table',
              columns: [{ label: t('train.answers.colAnswer') }, { label: t('COVERAGE_BEFORE'), numeric: true }, { label: t('COVERAGE_AFTER'), numeric: true }],
              rows: answerRows(before, after).map((r) => ({
                className: r.kind === 'correct' ? 'answer-correct' : undefined,
                cells: [
                  // A number in code, a status or "other answers" in words.
                  { node: h('span', {}, r.answer === null ? binLabel(t, r) : h('code', { text: binLabel(t, r) }), r.kind === 'correct' ? ` ${t('train.answers.correctMark')}` : ''), header: true },
                  cell(r.before, beforeN),
                  cell(r.after, afterN),
                ],
              })),
            })
          : null,
      );
      state.panel.hidden = false;
    };

    // One split's bars: before/after per prompt, sorted by before-RL accuracy; a prompt that lost
    // all success gets a red outline and a ✗ before its label.
    const drawBars = (key, fig, before, after, splitLabel) => {
      const rows = coverageByBefore(before ?? [], after ?? null);
      const labels = rows.map((r) => (r.lost ? `✗ ${r.prompt}` : r.prompt));
      const lostColor = '#be123c';
      // A picked run's after-RL bars, where it ran on the same prompts (same seed and task).
      const split = key === 'train' ? 'Train' : 'Heldout';
      const overlayBars = getOverlays()
        .map((run, j) => ({ run, j }))
        .filter(({ run }) => samePrompts(before, run[`before${split}ByPrompt`]) && run[`after${split}ByPrompt`])
        .map(({ run, j }) => {
          const byId = new Map(run[`after${split}ByPrompt`].map((p) => [p.promptId, p.accuracy]));
          return { label: `${run.name}: ${t('COVERAGE_AFTER')}`, data: rows.map((r) => byId.get(r.promptId) ?? null), backgroundColor: pickColor(j), borderColor: '#1f2328', borderWidth: 1 };
        });
      const datasets = [
        { label: t('COVERAGE_BEFORE'), data: rows.map((r) => r.before), backgroundColor: COLORS[0], borderColor: '#1f2328', borderWidth: 1 },
        {
          label: t('COVERAGE_AFTER'),
          data: rows.map((r) => r.after),
          backgroundColor: COLORS[1],
          borderColor: rows.map((r) => (r.lost ? lostColor : '#1f2328')),
          borderWidth: rows.map((r) => (r.lost ? 3 : 1)),
        },
        ...overlayBars,
      ];
      const dense = labels.length > 24;
      // On a phone the chart is as wide as its bars need and scrolls in its figure (css/training.css).
      fig.figure.style.setProperty('--coverage-bars', String(rows.length));
      const tickColor = (c) => (rows[c.index]?.lost ? lostColor : '#1f2328');
      if (charts[key]) {
        // Same canvas, new numbers: no new chart (creating one measures every rotated label).
        const ticks = charts[key].options.scales.x.ticks;
        ticks.minRotation = ticks.maxRotation = dense ? 90 : 45;
        ticks.font = { size: dense ? 11 : 13 };
        ticks.color = tickColor;
        // Another run's prompt count changes the box's min-width (the CSS above), which Chart.js
        // does not always notice: size the canvas to it before the new bars are drawn.
        if (charts[key].data.labels.length !== labels.length) charts[key].resize();
        refresh(charts[key], { labels, datasets });
      } else if (rows.length) {
        charts[key] = makeChart(fig.canvas, {
          type: 'bar',
          data: { labels, datasets },
          options: {
            categoryPercentage: 0.76,
            barPercentage: 1,
            // A click or tap anywhere in a prompt's column (a lost prompt's after bar is 0 high).
            onClick: (event, _elements, chart) => {
              const hit = chart.getElementsAtEventForMode(event, 'index', { intersect: false }, false)[0];
              if (hit) fig.answers?.open(hit.index);
            },
            scales: {
              x: axis(t('train.coverage.xSorted'), { ticks: { autoSkip: false, maxRotation: dense ? 90 : 45, minRotation: dense ? 90 : 45, font: { size: dense ? 11 : 13 }, color: tickColor } }),
              // The notebook's ylim(0, 1.05), with ticks every 0.2 up to 1 (no tick at 1.05).
              y: axis(t('COVERAGE_Y'), {
                min: 0,
                max: 1.05,
                afterBuildTicks: (scale) => {
                  scale.ticks = [0, 0.2, 0.4, 0.6, 0.8, 1].map((value) => ({ value }));
                },
              }),
            },
            // At the start: on a phone the chart scrolls sideways, and a centred legend is off screen.
            plugins: { legend: { align: 'start', labels: { boxHeight: 12, boxWidth: 18 } } },
          },
        });
      }
      // The ✗ and red outline in words, on screen (not only in the canvas's aria-label).
      const lost = rows.filter((r) => r.lost).length;
      if (!fig.lostNote) {
        fig.lostNote = h('p', { class: 'muted coverage-lost-note', role: 'note' });
        fig.figure.querySelector('.chart-box').after(fig.lostNote);
      }
      fig.lostNote.textContent = lost ? t('train.coverage.lostLegend', { lost }) : '';
      fig.lostNote.hidden = !lost;
      // The answer panel reads the rows drawn (its prompt stays open while the run goes on).
      fig.rows = rows;
      fig.before = before;
      fig.after = after;
      fig.chart = charts[key];
      const panel = answerPanel(fig);
      panel.hint.hidden = !rows.length;
      showAnswers(fig);
      const hasAfter = rows.some((r) => r.after !== null);
      const mean = (field) => rows.reduce((sum, r) => sum + (r[field] ?? 0), 0) / Math.max(1, rows.length);
      const describe = (text) => (charts[key] ? describeChart(charts[key], text) : fig.setAria(text));
      describe(
        t('train.coverage.aria', {
          split: splitLabel,
          n: rows.length,
          lost: rows.filter((r) => r.lost).length,
          x: t('train.coverage.xSorted'),
          y: t('COVERAGE_Y'),
          before: fmt(mean('before'), 3),
          after: hasAfter ? fmt(mean('after'), 3) : '—',
        }),
      );
      fig.setTable(
        dataTable({
          caption: t('train.coverage.caption', { split: splitLabel }),
          className: 'coverage-table',
          columns: [
            { label: 'prompt_id', numeric: true },
            // Headed by the axis titles the canvas draws and the two bars' legend.
            { label: t('train.coverage.xSorted') },
            { label: `${t('COVERAGE_Y')}, ${t('COVERAGE_BEFORE')}`, numeric: true },
            { label: `${t('COVERAGE_Y')}, ${t('COVERAGE_AFTER')}`, numeric: true },
            { label: t('train.col.lost') },
          ],
          rows: rows.map((r) => [
            { text: String(r.promptId), value: r.promptId, header: true },
            { node: h('code', { text: r.prompt }) },
            { text: fmt(r.before), value: r.before },
            r.after === null ? { text: '…', className: 'pending' } : { text: fmt(r.after), value: r.after },
            { text: r.lost ? t('train.coverage.lostMark') : '', value: r.lost ? 1 : 0 },
          ]),
        }),
      );
      return rows;
    };

    // pass@k for k = 1, 2, 4, ..., n: base and RL policy on train and held-out prompts (log-k axis).
    const drawPassAtK = (coverage) => {
      const curves = [
        ['beforeTrain', 'BEFORE_TRAIN', 0, []],
        ['afterTrain', 'AFTER_TRAIN', 1, []],
        ['beforeHeldout', 'BEFORE_HELDOUT', 0, [6, 4]],
        ['afterHeldout', 'AFTER_HELDOUT', 1, [6, 4]],
      ].filter(([key]) => coverage?.[key]?.passAtK);
      const ks = curves.length ? coverage[curves[0][0]].passAtK.ks : [];
      const datasets = curves.map(([key, label, color, dash]) => ({
        label: t(label),
        run: key.startsWith('before') ? 'before' : 'after',
        style: key.endsWith('Train') ? 'train' : 'heldout',
        data: coverage[key].passAtK.values.map((y, i) => ({ x: ks[i], y })),
        borderColor: COLORS[color],
        backgroundColor: COLORS[color],
        borderDash: dash,
        pointRadius: 3,
        tension: 0,
      }));
      // The picked runs' after-RL curves (train solid, held-out dashed), one colour per run; the
      // legend then names each run once and each split once (runLegend), not each line.
      const overlays = getOverlays();
      overlays.forEach((run, j) => {
        for (const [key, label, dash] of [['afterTrain', 'AFTER_TRAIN', []], ['afterHeldout', 'AFTER_HELDOUT', [6, 4]]]) {
          const curve = run.coverage?.[key]?.passAtK;
          if (!curve) continue;
          const color = pickColor(j);
          datasets.push({ label: `${run.name}: ${t(label)}`, run: run.key, style: key.endsWith('Train') ? 'train' : 'heldout', data: curve.values.map((y, i) => ({ x: curve.ks[i], y })), borderColor: color, backgroundColor: color, borderDash: dash, borderWidth: 1.5, pointRadius: 2, tension: 0 });
        }
      });
      const legend = overlays.length
        ? runLegend(
            [
              { id: 'before', text: t('train.passAtK.legendBefore'), color: COLORS[0] },
              { id: 'after', text: t('train.passAtK.legendAfter'), color: COLORS[1] },
              ...overlays.map((run, j) => ({ id: run.key, text: t('train.passAtK.legendPick', { name: run.name }), color: pickColor(j) })),
            ],
            [
              { id: 'train', text: t('train.split.train'), dash: [] },
              { id: 'heldout', text: t('train.split.heldout'), dash: [6, 4] },
            ],
          )
        : { labels: { boxHeight: 12, boxWidth: 18 } };
      const passKey = overlays.map((run) => run.key).join(',');
      if (charts.passAtK && charts.passAtK.$overlays !== passKey) {
        charts.passAtK.destroy(); // other picks: another legend
        charts.passAtK = null;
      }
      if (charts.passAtK) {
        refresh(charts.passAtK, { datasets });
      } else if (datasets.length) {
        charts.passAtK = makeChart(passFigure.canvas, {
          type: 'line',
          data: { datasets },
          options: {
            parsing: false,
            scales: {
              x: axis(t('train.passAtK.x'), {
                type: 'logarithmic',
                min: 1,
                max: ks[ks.length - 1],
                afterBuildTicks: (scale) => {
                  scale.ticks = ks.map((value) => ({ value }));
                },
                ticks: { callback: (value) => String(value) },
              }),
              y: axis(t('train.passAtK.y'), { min: 0, max: 1 }),
            },
            plugins: { legend },
          },
        });
        charts.passAtK.$overlays = passKey;
      }
      const passAria = t('train.passAtK.aria', { x: t('train.passAtK.x'), y: t('train.passAtK.y'), n: ks[ks.length - 1] ?? '—', curves: curves.map(([, label]) => t(label)).join(', ') });
      if (charts.passAtK) describeChart(charts.passAtK, passAria);
      else passFigure.setAria(passAria);
      passFigure.setTable(
        dataTable({
          caption: t('train.passAtK.caption'),
          className: 'pass-at-k-table',
          columns: [{ label: t('train.passAtK.x'), numeric: true }, ...curves.map(([, label]) => ({ label: `${t('train.passAtK.y')}, ${t(label)}`, numeric: true }))],
          rows: ks.map((k, i) => [{ text: String(k), value: k, header: true }, ...curves.map(([key]) => ({ text: fmt(coverage[key].passAtK.values[i], 3), value: coverage[key].passAtK.values[i] }))]),
        }),
      );
    };

    // pass@k logged during training (passAtKEvery), judged per update against the base policy.
    const drawPassAtKHistory = (s) => {
      const result = s.result;
      const rows = result ? passAtKHistory(result) : [];
      const every = (result ?? s.info)?.config?.passAtKEvery ?? 0;
      historyBlock.dataset.logged = String(rows.length);
      if (!rows.length) {
        historyTable.replaceChildren();
        historySummary.textContent = t(every > 0 && !result ? 'train.passAtKHistory.waiting' : 'train.passAtKHistory.off');
        return;
      }
      const splits = ['train', 'heldout'].filter((split) => rows.some((r) => r[split]));
      const n = rows[0][splits[0]].ks.at(-1);
      const pair = (cell, i) => (cell ? `${fmt(cell.base[i], 3)} → ${fmt(cell.values[i], 3)}` : '—');
      historyTable.replaceChildren(
        dataTable({
          caption: t('train.passAtKHistory.caption', { n }),
          className: 'pass-at-k-history-rows',
          columns: [
            { label: t('train.passAtKHistory.col.update'), numeric: true },
            ...splits.flatMap((split) => {
              const name = t(`train.passAtKHistory.split.${split}`);
              return [{ label: t('train.passAtKHistory.col.pass1', { split: name }) }, { label: t('train.passAtKHistory.col.passN', { split: name, n }) }, { label: t('train.passAtKHistory.col.crossing', { split: name }) }];
            }),
          ],
          rows: rows.map((r) => [
            { text: String(r.update), value: r.update, header: true },
            ...splits.flatMap((split) => {
              const cell = r[split];
              const kind = cell?.verdict.kind ?? 'none';
              return [{ text: pair(cell, 0) }, { text: pair(cell, (cell?.ks.length ?? 1) - 1) }, { text: words(kindWords(cell?.verdict)), value: kind === 'crossed' ? cell.verdict.k : kind }];
            }),
          ]),
        }),
      );
      historySummary.textContent = passAtKHistorySentences(rows).map(words).join(' ');
    };

    // Response lengths before RL (the warm-up policy) and after, correct stacked on incorrect.
    const drawLengths = (s) => {
      const histogram = s.result ? s.result.lengthHistogram : s.info?.lengthHistogram;
      const phases = [['before', 0], ['after', 1]].filter(([phase]) => histogram?.[phase]);
      if (!phases.length) {
        charts.lengths?.destroy();
        charts.lengths = null;
        lengthFigure.setTable(h('p'));
        lengthSummary.textContent = s.result || s.info ? t('train.lengths.missing') : '';
        return;
      }
      const size = histogram[phases[0][0]].correct.length;
      let top = 0; // the longest length any answer has: the axis ends there
      for (const [phase] of phases) for (let i = 0; i < size; i += 1) if (histogram[phase].correct[i] + histogram[phase].incorrect[i] > 0) top = Math.max(top, i);
      const labels = Array.from({ length: top + 1 }, (_, i) => String(i));
      const datasets = phases.flatMap(([phase, color]) =>
        ['correct', 'incorrect'].map((kind) => ({
          label: t(`train.lengths.${phase}${kind === 'correct' ? 'Correct' : 'Incorrect'}`),
          data: histogram[phase][kind].slice(0, top + 1),
          stack: phase,
          // Correct answers solid, incorrect ones the same colour at a quarter (hex alpha 40).
          backgroundColor: kind === 'correct' ? COLORS[color] : `${COLORS[color]}40`,
          borderColor: COLORS[color],
          borderWidth: kind === 'incorrect' ? 1 : 0,
        })),
      );
      if (charts.lengths) refresh(charts.lengths, { labels, datasets });
      else
        charts.lengths = makeChart(lengthFigure.canvas, {
          type: 'bar',
          data: { labels, datasets },
          options: { scales: { x: axis(t('train.lengths.x'), { stacked: true }), y: axis(t('train.lengths.y'), { stacked: true, beginAtZero: true }) }, plugins: { legend: { labels: { boxHeight: 12, boxWidth: 18 } } } },
        });
      describeChart(charts.lengths, t('train.lengths.aria', { x: t('train.lengths.x'), y: t('train.lengths.y'), max: top }));
      const samples = (s.result ?? s.info)?.config?.finalEvalSamples;
      lengthFigure.setTable(
        dataTable({
          caption: t('train.lengths.caption', { samples }),
          className: 'lengths-table',
          // Each count column names the y axis too, as the chart's aria text does.
          columns: [{ label: t('train.lengths.x'), numeric: true }, ...datasets.map((d) => ({ label: `${d.label} (${t('train.lengths.y')})`, numeric: true }))],
          rows: labels.map((label, i) => [{ text: label, value: i, header: true }, ...datasets.map((d) => ({ text: String(d.data[i]), value: d.data[i] }))]),
        }),
      );
      const lines = lengthSentences(histogram).map(words);
      if (!s.result) lines.push(t('train.lengths.waiting'));
      lengthSummary.textContent = lines.join(' ');
    };

    // The sentences on the run: verdicts over its numbers (training/verdicts.js, docs/coverage.md).
    const words = (item) => verdictText(t, item);
    // A run's result with the before-RL bars, which a live run keeps in its info.
    const judged = (s) => (s.result ? { ...s.result, beforeTrainByPrompt: s.result.beforeTrainByPrompt ?? s.info?.beforeTrainByPrompt } : null);

    // Three charts of 64 rotated labels: one task each (sliced), so a finished run's redraw
    // never holds the main thread for their sum. then() runs once all three are drawn.
    const drawCoverage = (s, then) => {
      const coverage = s.result?.coverage ?? null;
      let trainRows = [];
      sliced([
        () => (trainRows = drawBars('train', figure, s.info?.beforeTrainByPrompt, s.result?.afterTrainByPrompt, t('train.split.train'))),
        () => drawBars('heldout', heldFigure, s.info?.beforeHeldoutByPrompt, s.result?.afterHeldoutByPrompt, t('train.split.heldout')),
        () => drawPassAtK(coverage),
        () => drawCoverageText(s, coverage, trainRows),
        () => drawPassAtKHistory(s),
        () => drawLengths(s),
        then,
      ]);
    };
    const drawCoverageText = (s, coverage, trainRows) => {
      const overlays = getOverlays();
      const otherPrompts = overlays.filter((run) => !samePrompts(s.info?.beforeTrainByPrompt, run.beforeTrainByPrompt)).map((run) => run.name);
      overlayNote.textContent = overlays.length
        ? [t('train.coverage.overlays', { names: overlays.map((run) => run.name).join('; ') }), otherPrompts.length ? t('train.coverage.otherPrompts', { names: otherPrompts.join('; ') }) : ''].filter(Boolean).join(' ')
        : '';
      const at = coverage?.afterTrain;
      const summaryLines = coverageSummary(judged(s));
      if (!trainRows.length) {
        summary.textContent = t('train.coverage.empty');
      } else if (summaryLines) {
        summary.textContent = summaryLines.map(words).join(' ');
        lesson.set(coverageVerdicts(judged(s)), words);
      } else {
        const solved0 = trainRows.filter((r) => r.before > 0).length;
        const mean0 = trainRows.reduce((sum, r) => sum + r.before, 0) / trainRows.length;
        summary.textContent = t('train.coverage.waiting', { n: trainRows.length, solved0, mean0: fmt(mean0, 3) });
        lesson.set(null);
      }
      const samples = coverage?.samples ?? s.result?.config?.finalEvalSamples ?? s.info?.config?.finalEvalSamples;
      floor.textContent = coverage ? t('train.coverage.floor', { samples, floor: fmt(coverage.detectionFloor * 100, 1) }) : '';
      const passLines = coverage && at ? passAtKVerdicts(judged(s)) : null;
      passSummary.textContent = passLines ? passLines.map(words).join(' ') : t('train.passAtK.waiting');
    };

    // DAPO's overlong punishment is the third reward column only in runs that weigh it (the
    // notebook's table has two).
    const groupRows = (group, overlong) =>
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
            ...(overlong ? [{ text: fmt(row.rewardComponents.overlong), value: row.rewardComponents.overlong }] : []),
            { text: String(row.accuracy), value: row.accuracy },
            // The verifier's status and the boolean in the reader's words (section 1's statuses).
            { text: t(`verifier.status.${row.status}`), value: row.status },
            { text: String(row.length), value: row.length },
            { text: t(row.terminated ? 'train.inspect.true' : 'train.inspect.false'), value: String(row.terminated) },
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
      // The drawn group's seed, for readers of the DOM (tests): the loading text names it too.
      inspectStatus.dataset.drawnSeed = inspection.loading || inspection.error ? '' : String(inspection.seed);
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
      const overlong = (s.result?.config?.overlongWeight ?? 0) > 0; // else every overlong is 0
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
            ...(overlong ? [{ label: 'overlong', numeric: true }] : []),
            { label: 'accuracy', numeric: true },
            { label: 'status' },
            { label: 'length', numeric: true },
            { label: 'terminated' },
            { label: 'advantage', numeric: true },
          ],
          rows: groupRows(group, overlong),
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
      if (s.runKey !== answersKey) {
        answersKey = s.runKey; // another run: its prompts' panels start closed
        for (const fig of [figure, heldFigure]) if (fig.answers) Object.assign(fig.answers, { promptId: null, focus: -1 });
      }
      const stale = s.runKey !== drawnKey || afterKey !== drawnAfter || s.info !== drawnInfo;
      const marked = () => {
        if (drawnKey === s.runKey && drawnInfo === s.info && drawnAfter === afterKey) {
          host.dataset.drawn = `${s.runKey}:${s.history.length}:${s.phase}`;
        }
      };
      drawInspection(s);
      if (stale && (onScreen || !training.isBusy(s.phase))) {
        drawnKey = s.runKey;
        drawnAfter = afterKey;
        drawnInfo = s.info;
        drawCoverage(s, marked); // the marker waits for the last chart
      } else marked();
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
    const offOverlays = onOverlays(() => {
      drawnKey = null; // redrawn with the picked runs
      draw(training.getState());
    });
    draw(training.getState());
    training.loadPrecomputed().then(() => {
      draw(training.getState());
      ctx.rendered();
    });
    return {
      destroy() {
        unsubscribe();
        offOverlays();
        observer?.disconnect();
        bar?.destroy();
        for (const c of Object.values(charts)) c?.destroy();
      },
    };
  },
};
