// The step inspector (docs/inspector.md), loaded on demand from section 7: one update's batch,
// group by group, every token coloured by the gradient weight dJ/d log pi the update put on it,
// its ratio, clip events and masks marked, the tokens of largest Cov(log pi, A) outlined; a click,
// tap or Enter on a token takes its term apart; a counterfactual recomputes the same batch under
// another loss. The numbers come from the training worker (inspector-worker.js), which holds the
// run's record or replays the run; this module only draws them.
import { h } from '../dom.js';
import { rich } from '../math.js';
import { errorText } from '../core-errors.js';
import { askInspector, sliced } from './controller.js';
import {
  IS_LEVELS, IS_MODES, LOSS_TYPES, changeFrom, changedTokens, decompose, keptRowCount, largestWeight, sig, stepRowIndex, tokenFacts, weightColor, zeroAdvantageFact,
} from './inspector-terms.js';

// The markers a token can carry, in the legend's order (CSS class tok-<flag>).
const FLAGS = ['clippedLow', 'clippedHigh', 'capped', 'truncated', 'entropyMasked', 'offPolicyMasked', 'isMasked', 'isWeighted', 'zeroAdvantage'];
// The covariance ratios the reader can pick (verl's default 2e-4, its recipe's 0.02, and more).
const COV_RATIOS = [0.0002, 0.002, 0.02, 0.1];

/** The run's covariance ratio to start from: its own when its loss is verl's clip_cov or kl_cov. */
const runCovRatio = (config) => (config?.engine === 'verl' && config.verlLossMode === 'kl_cov' ? config.klCovRatio : config?.engine === 'verl' && config.verlLossMode === 'clip_cov' ? config.clipCovRatio : 0.02);

/**
 * The inspector's panel. `ctx`: the section's context (t, rich). show(source, update): source =
 * {key, name, config, history, runId?} (runId: a live run whose worker holds the record).
 */
export function createInspector(ctx) {
  const { t } = ctx;
  let source = null;
  let update = 1;
  let stepIndex = 0;
  let view = null;
  let selected = null; // {j, t}: row j of the step, token t
  let covRatio = 0.02;
  let counterfactual = null; // {key, step, change, result} | {error}
  let request = 0;

  const title = h('h3', { class: 'inspector-title', text: t('inspector.title') });
  const sourceLine = h('p', { class: 'inspector-source muted' });
  const slider = h('input', { type: 'range', min: '1', max: '1', step: '1', value: '1', id: 'inspector-update', 'aria-describedby': 'inspector-update-value' });
  const sliderValue = h('output', { id: 'inspector-update-value', for: 'inspector-update', class: 'inspector-update-value' });
  const previous = h('button', { type: 'button', class: 'button-quiet', dataset: { action: 'inspector-previous' }, 'aria-label': t('inspector.previous'), text: '◀' });
  const next = h('button', { type: 'button', class: 'button-quiet', dataset: { action: 'inspector-next' }, 'aria-label': t('inspector.next'), text: '▶' });
  const stepSelect = h('select', { id: 'inspector-step', dataset: { control: 'step' } });
  const covSelect = h('select', { id: 'inspector-cov', dataset: { control: 'cov' } });
  const status = h('p', { class: 'inspector-status', role: 'status', 'aria-live': 'polite' });
  const summary = h('div', { class: 'inspector-summary' });
  const summaryLine = h('p', { class: 'inspector-summary-line' });
  // What the summary's numbers are: written once (its formulas are KaTeX's HTML, not cheap to parse).
  summary.append(summaryLine, ctx.rich(t('inspector.sum.meaning')));
  const legend = h('div', { class: 'inspector-legend' });
  const groupsHost = h('div', { class: 'inspector-groups' });
  const detail = h('div', { class: 'inspector-detail', 'aria-live': 'polite' });
  const cfHost = h('div', { class: 'inspector-counterfactual' });

  const controls = h(
    'div',
    { class: 'inspector-controls' },
    h('div', { class: 'inspector-update-row' }, h('p', { class: 'inspector-update-label' }, h('label', { for: 'inspector-update', text: t('inspector.update') }), ' ', sliderValue), h('div', { class: 'inspector-slider' }, previous, slider, next)),
    h('div', { class: 'inspector-pick-row' }, h('label', { for: 'inspector-step', text: t('inspector.step') }), stepSelect, h('label', { for: 'inspector-cov', text: t('inspector.covRatio') }), covSelect),
  );
  const el = h(
    'section',
    { class: 'step-inspector', id: 'step-inspector', 'aria-labelledby': 'step-inspector-title', hidden: true },
    title,
    sourceLine,
    ctx.rich(t('inspector.explain')),
    controls,
    status,
    summary,
    legend,
    groupsHost,
    detail,
    cfHost,
  );
  title.id = 'step-inspector-title';
  for (const ratio of COV_RATIOS) covSelect.append(h('option', { value: String(ratio), text: sig(ratio) }));

  // --- data ---------------------------------------------------------------------------------

  const load = async () => {
    if (!source) return;
    const mine = (request += 1);
    el.dataset.state = 'loading';
    status.textContent = t('inspector.loading', { update });
    status.classList.remove('inspector-error');
    try {
      const result = await askInspector(
        'inspect',
        { runId: source.runId, config: source.config, update, history: source.history.slice(0, update), klCovRatio: covRatio, clipCovRatio: covRatio },
        ({ done, total }) => {
          if (mine === request) status.textContent = t('inspector.replaying', { done, total });
        },
      );
      if (mine !== request) return;
      view = result;
      if (stepIndex >= view.steps.length) stepIndex = 0;
      counterfactual = null;
      delete el.dataset.counterfactual;
      status.textContent = view.replayed ? t('inspector.replayed', { update }) : '';
      draw(() => {
        el.dataset.state = 'ready';
        el.dataset.update = String(update);
        el.dataset.shown = `${source.key}:${update}:${stepIndex}`;
      });
    } catch (error) {
      if (mine !== request) return;
      view = null;
      status.classList.add('inspector-error');
      status.textContent = error.code === 'replay_mismatch' ? t('inspector.error.replay', { update: error.params.update, column: error.params.column }) : errorText(error);
      el.dataset.state = 'error';
      groupsHost.replaceChildren();
      summaryLine.replaceChildren();
      detail.replaceChildren();
      cfHost.replaceChildren();
    }
  };

  // --- drawing ------------------------------------------------------------------------------

  const step = () => view?.steps[stepIndex] ?? null;
  const lossType = () => (view?.engine === 'verl' ? null : step()?.config?.lossType);

  const drawSteps = () => {
    stepSelect.replaceChildren(
      ...view.steps.map((s, i) => h('option', { value: String(i), selected: i === stepIndex, text: t('inspector.stepOption', { epoch: s.epoch + 1, part: s.part + 1, parts: Math.max(...view.steps.map((x) => x.part)) + 1 }) })),
    );
    stepSelect.disabled = view.steps.length < 2;
  };

  const drawSummary = () => {
    const s = step();
    if (!s) {
      summaryLine.replaceChildren(t('inspector.noStep'));
      return;
    }
    let tokens = 0;
    const counts = Object.fromEntries(FLAGS.map((flag) => [flag, 0]));
    s.terms.forEach((row, j) => row.weight.forEach((_w, k) => {
      tokens += 1;
      for (const flag of tokenFacts(s, j, k, lossType()).flags) counts[flag] += 1;
    }));
    const parts = [
      t('inspector.sum.loss', { loss: sig(s.loss) }),
      t('inspector.sum.gradNorm', { norm: sig(s.gradNorm) }),
      t('inspector.sum.tokens', { count: tokens }),
      t('inspector.sum.clipped', { low: counts.clippedLow, high: counts.clippedHigh }),
      t('inspector.sum.masked', { count: counts.truncated + counts.entropyMasked + counts.offPolicyMasked + counts.isMasked }),
      t('inspector.sum.cov', { cov: sig(s.covariance.mean), k: s.covariance.klCov.length, clip: s.covariance.clipCov.length, ratio: sig(covRatio) }),
    ];
    summaryLine.replaceChildren(h('strong', { text: t('inspector.sum.head', { update: view.update, epoch: s.epoch + 1, part: s.part + 1, loss: view.engine === 'verl' ? `verl ${source.config.verlLossMode}` : s.config.lossType }) }), ' ', parts.join(' · '));
    summary.dataset.tokens = String(tokens);
    summary.dataset.clipped = String(counts.clippedLow + counts.clippedHigh);
  };

  const drawLegend = (largest) => {
    const swatch = (w) => {
      const color = weightColor(w, largest);
      return h('span', { class: 'tok tok-swatch', style: `background-color:${color.background}` + (color.dark ? ';color:#fff' : ''), text: sig(w) });
    };
    legend.replaceChildren(
      h('p', { class: 'inspector-scale' }, h('span', { text: t('inspector.legend.scale') }), ' ', swatch(-largest), swatch(-largest / 2), swatch(0), swatch(largest / 2), swatch(largest)),
      h('ul', { class: 'inspector-flags' }, ...FLAGS.map((flag) => h('li', {}, h('span', { class: `tok tok-${flag}`, text: 'a' }), ' ', t(`inspector.flag.${flag}`))),
        h('li', {}, h('span', { class: 'tok tok-klCov', text: 'a' }), ' ', t('inspector.flag.klCov')),
        h('li', {}, h('span', { class: 'tok tok-clipCov', text: 'a' }), ' ', t('inspector.flag.clipCov'))),
    );
  };

  /** One row's token strip for `s` (a step's view or a counterfactual's), row j of it. */
  const strip = (s, j, row, largest, { changed = null, which = 'original', loss = lossType() } = {}) => {
    const box = h('div', { class: `tok-strip tok-strip-${which}`, role: 'group', 'aria-label': t(`inspector.strip.${which}`) });
    row.tokens.forEach((text, k) => {
      const facts = tokenFacts(s, j, k, loss);
      const color = weightColor(facts.weight, largest);
      const classes = ['tok', ...facts.flags.map((f) => `tok-${f}`)];
      if (facts.klCov) classes.push('tok-klCov');
      if (facts.clipCov) classes.push('tok-clipCov');
      if (changed?.has(`${j}:${k}`)) classes.push('tok-changed');
      if (selected && selected.j === j && selected.t === k) classes.push('tok-selected');
      const label = t('inspector.tokenLabel', { token: text, weight: sig(facts.weight), ratio: sig(facts.ratio), flags: facts.flags.map((f) => t(`inspector.flag.${f}`)).join(', ') || t('inspector.flag.none') });
      box.append(
        h('button', {
          type: 'button',
          class: classes.join(' '),
          style: `background-color:${color.background}${color.dark ? ';color:#fff' : ''}`,
          dataset: { j: String(j), t: String(k), which, weight: String(facts.weight) },
          'aria-label': label,
          title: label,
          'aria-pressed': selected && selected.j === j && selected.t === k ? 'true' : 'false',
          text: text === '<eos>' ? '⏎' : text,
        }),
      );
    });
    return box;
  };

  /**
   * The groups, one job each, built into `fragment` (the caller puts it on the page at once):
   * sliced into short tasks, an update of 64 responses of 31 tokens never makes a long one.
   */
  const groupJobs = (fragment) => {
    const s = step();
    const keptRows = keptRowCount(view);
    const rowOf = s ? stepRowIndex(s, keptRows) : [];
    const cf = counterfactual?.result && counterfactual.step === stepIndex ? counterfactual.result.counterfactual : null;
    const changed = cf ? changedTokens(s, cf) : null;
    const largest = cf ? Math.max(view.largestWeight, largestWeight([cf])) : view.largestWeight;
    return [() => drawLegend(largest), ...view.groups.map((group, g) => () => {
      const rows = h('div', { class: 'inspector-rows' });
      group.rows.forEach((row, r) => {
        const j = row.keptRow >= 0 ? rowOf[row.keptRow] : -1;
        const meta = h('span', { class: 'row-meta' });
        const rowBox = h('div', { class: 'inspector-row', dataset: { group: String(g), row: String(r), j: String(j) } });
        const statusText = t(`inspector.status.${row.status}`);
        if (!group.kept) {
          meta.textContent = t('inspector.row.dropped', { reward: sig(row.reward), status: statusText });
          rowBox.classList.add('row-out');
          rowBox.append(h('div', { class: 'tok-strip' }, ...row.tokens.map((text) => h('span', { class: 'tok tok-out', text: text === '<eos>' ? '⏎' : text }))));
        } else if (j < 0) {
          meta.textContent = t('inspector.row.otherStep', { reward: sig(row.reward), advantage: sig(row.advantage), status: statusText });
          rowBox.classList.add('row-out');
          rowBox.append(h('div', { class: 'tok-strip' }, ...row.tokens.map((text) => h('span', { class: 'tok tok-out', text: text === '<eos>' ? '⏎' : text }))));
        } else {
          const normalizer = view.engine === 'verl' ? null : s.terms[j].normalizer[0];
          meta.textContent = normalizer === null || normalizer === undefined
            ? t('inspector.row.metaVerl', { reward: sig(row.reward), advantage: sig(s.advantages[j]), status: statusText })
            : t('inspector.row.meta', { reward: sig(row.reward), advantage: sig(s.advantages[j]), normalizer: sig(normalizer), status: statusText });
          if (cf) {
            rowBox.append(
              h('div', { class: 'tok-pair' }, h('span', { class: 'pair-label', text: t('inspector.cf.originalShort') }), strip(s, j, row, largest, { which: 'original' })),
              h('div', { class: 'tok-pair' }, h('span', { class: 'pair-label', text: t('inspector.cf.counterfactualShort') }), strip({ ...s, terms: cf.terms }, j, row, largest, { changed, which: 'counterfactual', loss: cf.config.lossType })),
            );
          } else {
            rowBox.append(strip(s, j, row, largest));
          }
        }
        rowBox.append(meta); // the numbers under the tokens
        rows.append(rowBox);
      });
      fragment.append(
        h('div', { class: `inspector-group${group.kept ? '' : ' group-out'}` }, h('p', { class: 'group-prompt' }, h('code', { text: group.prompt }), ' ', h('span', { class: 'muted', text: group.kept ? '' : t('inspector.group.dropped') })), rows),
      );
    })];
  };

  // The decomposition sits under the group of the token it takes apart (on a phone, right under
  // the tap), else after the groups.
  const placeDetail = () => {
    const button = selected && groupsHost.querySelector(`button.tok[data-j="${selected.j}"][data-t="${selected.t}"]`);
    const group = button?.closest('.inspector-group');
    if (group) group.after(detail);
    else groupsHost.after(detail);
  };

  const numberRow = (key, value) => h('tr', { dataset: { term: key } }, h('th', { scope: 'row' }, ctx.rich(t(`inspector.term.${key}`), { block: false })), h('td', { class: 'num', text: typeof value === 'number' ? sig(value, 6) : String(value) }));

  const drawDetail = () => {
    const s = step();
    if (!selected || !s || !s.terms[selected.j]) {
      detail.replaceChildren(h('p', { class: 'muted', text: t('inspector.detail.pick') }));
      return;
    }
    const { j } = selected;
    const k = selected.t;
    const keptRow = s.rows[j];
    let row = null;
    let groupRewards = [];
    for (const group of view.groups) {
      for (const r of group.rows) {
        if (r.keptRow !== keptRow) continue;
        row = r;
        groupRewards = group.rows.map((other) => other.reward);
      }
    }
    const factKey = (flag) => (flag === 'zeroAdvantage' ? zeroAdvantageFact(groupRewards) : flag);
    const cfStep = counterfactual?.result && counterfactual.step === stepIndex ? { ...s, terms: counterfactual.result.counterfactual.terms, config: counterfactual.result.counterfactual.config } : null;
    const part = (which, st) => {
      const d = decompose(st, j, k, { config: st.config, engine: which === 'counterfactual' ? 'trl' : view.engine });
      const facts = tokenFacts(st, j, k, which === 'counterfactual' ? st.config.lossType : lossType());
      const box = h('div', { class: `inspector-term inspector-term-${which}` });
      box.append(h('h4', { text: t(`inspector.detail.${which}`, { loss: d.verl ? `verl ${source.config.verlLossMode}` : st.config.lossType, level: st.config?.importanceSamplingLevel ?? '' }) }));
      if (d.verl) {
        box.append(ctx.rich(t('inspector.detail.verl')));
      } else {
        box.append(ctx.rich(t(d.form === 'shared' ? 'inspector.formula.shared' : 'inspector.formula.token')), ctx.rich(t(`inspector.formula.${d.kind}`)));
        box.append(rich(`$$${d.tex}$$`));
      }
      const table = h('table', { class: 'data inspector-numbers' }, h('tbody', {}, ...d.numbers.map((n) => numberRow(n.key, n.value))));
      if (facts.cov !== null) table.tBodies[0].append(numberRow('cov', facts.cov));
      box.append(table);
      if (facts.flags.length || facts.klCov || facts.clipCov) {
        box.append(h('ul', { class: 'inspector-facts' }, ...facts.flags.map((f) => h('li', {}, ctx.rich(t(`inspector.fact.${factKey(f)}`), { block: false }))),
          facts.klCov ? h('li', {}, ctx.rich(t('inspector.fact.klCov', { ratio: sig(s.covariance.klCovRatio) }), { block: false })) : null,
          facts.clipCov ? h('li', {}, ctx.rich(t('inspector.fact.clipCov', { ratio: sig(s.covariance.clipCovRatio) }), { block: false })) : null));
      }
      if (s.gradEntropies && which === 'original' && s.gradEntropies[j]?.[k]) box.append(h('p', { class: 'muted' }, t('inspector.detail.entropyGrad', { value: sig(-s.gradEntropies[j][k]) })));
      return box;
    };
    detail.replaceChildren(
      h('p', { class: 'inspector-detail-head' }, h('strong', { text: t('inspector.detail.token', { token: row?.tokens[k] ?? '', position: k + 1, text: row?.text ?? '' }) })),
      h('div', { class: 'inspector-terms' }, part('original', s), ...(cfStep ? [part('counterfactual', cfStep)] : [])),
    );
    el.dataset.selected = `${j}:${k}`;
  };

  // --- the counterfactual ---------------------------------------------------------------------

  const cfForm = {};
  const drawCounterfactual = () => {
    const s = step();
    if (!s) {
      cfHost.replaceChildren();
      return;
    }
    const config = s.config ?? {};
    const select = (field, options, value) => {
      const control = h('select', { id: `cf-${field}`, dataset: { field } }, ...options.map((o) => h('option', { value: o, selected: o === value, text: o })));
      cfForm[field] = control;
      return h('label', { class: 'cf-field', for: `cf-${field}` }, h('span', { text: t(`inspector.cf.field.${field}`) }), control);
    };
    const number = (field, value) => {
      const control = h('input', { id: `cf-${field}`, type: 'text', inputmode: 'decimal', dataset: { field }, value: value === null || value === undefined ? '' : String(value), placeholder: t('inspector.cf.none') });
      cfForm[field] = control;
      return h('label', { class: 'cf-field', for: `cf-${field}` }, h('span', { text: t(`inspector.cf.field.${field}`) }), control);
    };
    const run = h('button', { type: 'button', dataset: { action: 'counterfactual' }, text: t('inspector.cf.run') });
    const preset = h('button', { type: 'button', class: 'button-quiet', dataset: { action: 'cf-cispo' }, text: t('inspector.cf.cispo') });
    const reset = h('button', { type: 'button', class: 'button-quiet', dataset: { action: 'cf-clear' }, text: t('inspector.cf.clear') });
    const message = h('p', { class: 'cf-message', role: 'status' });
    const result = counterfactual?.result && counterfactual.step === stepIndex ? counterfactual.result : null;
    const changes = result ? Object.entries(counterfactual.change).map(([k, v]) => `${k} ${v ?? 'None'}`).join(', ') : '';
    if (result) {
      message.textContent = t('inspector.cf.result', {
        change: changes || t('inspector.cf.noChange'),
        lossBefore: sig(result.original.loss),
        lossAfter: sig(result.counterfactual.loss),
        lossChange: sig(result.lossChange),
        normBefore: sig(result.original.gradNorm),
        normAfter: sig(result.counterfactual.gradNorm),
        normChange: sig(result.gradNormChange),
        changed: result.tokensChanged,
        tokens: result.tokens,
        largest: sig(result.largestChange),
      });
    } else if (counterfactual?.error) {
      message.textContent = counterfactual.error;
      message.classList.add('inspector-error');
    }
    const verlNote = view.engine === 'verl' ? h('p', { class: 'muted', text: t('inspector.cf.verl') }) : null;
    cfHost.replaceChildren(
      h('h4', { text: t('inspector.cf.title') }),
      ctx.rich(t('inspector.cf.explain')),
      ...(verlNote ? [verlNote] : []),
      h('div', { class: 'cf-form' },
        select('lossType', LOSS_TYPES, counterfactual?.values?.lossType ?? config.lossType),
        number('epsHigh', counterfactual?.values ? counterfactual.values.epsHigh : config.epsHigh),
        number('delta', counterfactual?.values ? counterfactual.values.delta : config.delta),
        select('importanceSamplingLevel', IS_LEVELS, counterfactual?.values?.importanceSamplingLevel ?? config.importanceSamplingLevel),
        select('vllmImportanceSamplingMode', IS_MODES, counterfactual?.values?.vllmImportanceSamplingMode ?? config.vllmImportanceSamplingMode)),
      h('p', { class: 'cf-buttons' }, run, ' ', preset, ' ', reset),
      message,
    );
    run.addEventListener('click', () => runCounterfactual());
    preset.addEventListener('click', () => {
      cfForm.lossType.value = 'cispo';
      runCounterfactual();
    });
    reset.addEventListener('click', () => {
      counterfactual = null;
      delete el.dataset.counterfactual;
      draw();
    });
  };

  const readForm = () => {
    const values = {};
    for (const field of ['lossType', 'importanceSamplingLevel', 'vllmImportanceSamplingMode']) values[field] = cfForm[field].value;
    for (const field of ['epsHigh', 'delta']) {
      const text = cfForm[field].value.trim();
      values[field] = text === '' ? null : Number(text);
      if (text !== '' && !Number.isFinite(values[field])) values[field] = text; // the core names it
    }
    return values;
  };

  const runCounterfactual = async () => {
    const s = step();
    if (!s || !view) return;
    const values = readForm();
    const change = changeFrom(values, s.config ?? {});
    const mine = (request += 1);
    delete el.dataset.counterfactual;
    try {
      const result = await askInspector('counterfactual', { key: view.key, step: stepIndex, change });
      if (mine !== request) return;
      if (view.engine === 'verl') {
        // The original is verl's own step, not TRL's objective on its batch: compare with that.
        result.original = { loss: s.loss, gradNorm: s.gradNorm };
        result.lossChange = result.counterfactual.loss - s.loss;
        result.gradNormChange = result.counterfactual.gradNorm - s.gradNorm;
        result.tokensChanged = changedTokens(s, result.counterfactual).size;
      }
      counterfactual = { key: view.key, step: stepIndex, change, values, result };
    } catch (error) {
      if (mine !== request) return;
      counterfactual = { key: view.key, step: stepIndex, change, values, error: errorText(error) };
    }
    draw(() => (el.dataset.counterfactual = counterfactual.result ? `${counterfactual.result.tokensChanged}` : 'error'));
  };

  // Redraws the view in short tasks; `then` runs once it is all on the page.
  let cancelDraw = null;
  const draw = (then) => {
    if (!view) return;
    cancelDraw?.();
    drawSteps();
    drawSummary();
    const fragment = document.createDocumentFragment();
    cancelDraw = sliced([
      ...groupJobs(fragment),
      () => {
        groupsHost.replaceChildren(fragment);
        placeDetail();
      },
      // Each in a task of its own: a term's table parses a dozen formulas' HTML.
      () => drawDetail(),
      () => {
        drawCounterfactual();
        then?.();
      },
    ]);
  };

  // --- events -------------------------------------------------------------------------------

  groupsHost.addEventListener('click', (event) => {
    const button = event.target.closest('button.tok');
    if (!button) return;
    selected = { j: Number(button.dataset.j), t: Number(button.dataset.t) };
    for (const node of groupsHost.querySelectorAll('button.tok-selected')) {
      node.classList.remove('tok-selected');
      node.setAttribute('aria-pressed', 'false');
    }
    for (const node of groupsHost.querySelectorAll(`button.tok[data-j="${selected.j}"][data-t="${selected.t}"]`)) {
      node.classList.add('tok-selected');
      node.setAttribute('aria-pressed', 'true');
    }
    placeDetail();
    drawDetail();
  });
  const goTo = (value) => {
    const max = Number(slider.max);
    const target = Math.min(Math.max(1, Math.round(value)), max);
    slider.value = String(target);
    sliderValue.textContent = t('inspector.updateOf', { update: target, total: max });
    if (target === update && view) return;
    update = target;
    selected = null;
    load();
  };
  // The slider moves freely; the update loads when it rests (a drag asks once, at its end).
  slider.addEventListener('input', () => (sliderValue.textContent = t('inspector.updateOf', { update: Number(slider.value), total: Number(slider.max) })));
  slider.addEventListener('change', () => goTo(Number(slider.value)));
  previous.addEventListener('click', () => goTo(update - 1));
  next.addEventListener('click', () => goTo(update + 1));
  stepSelect.addEventListener('change', () => {
    stepIndex = Number(stepSelect.value);
    el.dataset.state = 'drawing';
    draw(() => {
      el.dataset.state = 'ready';
      el.dataset.shown = `${source.key}:${update}:${stepIndex}`;
    });
  });
  covSelect.addEventListener('change', () => {
    covRatio = Number(covSelect.value);
    load();
  });

  return {
    el,
    /** Opens `source` at `update` (kept within its history). */
    show(next, at) {
      const changedSource = source?.key !== next.key;
      source = next;
      const total = Math.max(1, source.history.length);
      slider.max = String(total);
      el.hidden = false;
      sourceLine.textContent = t('inspector.source', { name: source.name, total });
      if (changedSource) {
        covRatio = runCovRatio(source.config);
        if (!COV_RATIOS.includes(covRatio)) covSelect.append(h('option', { value: String(covRatio), text: sig(covRatio) }));
        covSelect.value = String(covRatio);
        view = null;
        stepIndex = 0;
        selected = null;
      }
      update = 0; // goTo loads even when the number stays
      goTo(at);
    },
    /** The run on display grew (a live run): the slider reaches its newest update. */
    grow(history) {
      if (!source) return;
      source.history = history;
      slider.max = String(Math.max(1, history.length));
      sliderValue.textContent = t('inspector.updateOf', { update, total: history.length });
      sourceLine.textContent = t('inspector.source', { name: source.name, total: history.length });
    },
    get sourceKey() {
      return source?.key ?? null;
    },
    hide() {
      el.hidden = true;
      source = null;
      view = null;
      request += 1;
      cancelDraw?.();
    },
  };
}
