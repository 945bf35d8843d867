// The step inspector's reading of a view (pure, no DOM; docs/inspector.md): each token's facts
// (its weight, ratio, clip events, masks, covariance), the colour of its weight, and its term
// decomposed into the numbers of grpo_objective.h's TokenTerm with the formula they fill.

/** Loss types whose policy term is the PPO clip (TRL's clip_ratio family). */
export const CLIP_FAMILY = ['grpo', 'bnpo', 'dr_grpo', 'dapo', 'luspo'];
/** The settings a counterfactual may change (api grpoCounterfactual's `change`). */
export const COUNTERFACTUAL_FIELDS = ['lossType', 'epsHigh', 'delta', 'importanceSamplingLevel', 'vllmImportanceSamplingMode'];
export const LOSS_TYPES = ['grpo', 'bnpo', 'dr_grpo', 'dapo', 'cispo', 'sapo', 'luspo', 'vespo'];
export const IS_LEVELS = ['token', 'sequence'];
export const IS_MODES = ['token_truncate', 'token_mask', 'sequence_truncate', 'sequence_mask'];

/** For each kept row of the update, its row in step `step` (-1: not in that step's mini-batch). */
export function stepRowIndex(step, keptRows) {
  const index = new Array(keptRows).fill(-1);
  step.rows.forEach((kept, j) => (index[kept] = j));
  return index;
}

/** The kept-row count of a view (rows of kept groups). */
export const keptRowCount = (view) => view.groups.reduce((n, g) => n + (g.kept ? g.rows.length : 0), 0);

/**
 * The words for a zero advantage, from the rewards of the completion's group: 'zeroAdvantage'
 * ("every reward of its group was equal") only when they were; else 'zeroAdvantageOther' (REINFORCE's
 * raw reward 0, grpo_passk crediting the best completion alone give zeros in a group that differs).
 */
export const zeroAdvantageFact = (groupRewards) => (groupRewards.every((r) => r === groupRewards[0]) ? 'zeroAdvantage' : 'zeroAdvantageOther');

/**
 * What the inspector shows of token t of row j of `step`: {weight, ratio, termRatio, flags,
 * cov, covSelected}. flags: 'clippedLow', 'clippedHigh', 'capped' (CISPO's coefficient below
 * the ratio), 'truncated' (its row masked), 'entropyMasked', 'offPolicyMasked', 'isMasked' (the
 * sampler weight is 0), 'isWeighted' (it is neither 0 nor 1), 'zeroAdvantage'.
 */
export function tokenFacts(step, j, t, lossType) {
  const x = step.terms[j];
  const flags = [];
  const weight = x.weight[t];
  if (x.clippedLow?.[t]) flags.push('clippedLow');
  if (x.clippedHigh?.[t]) flags.push('clippedHigh');
  if (lossType === 'cispo' && x.coefficient && x.coefficient[t] < x.termRatio[t]) flags.push('capped');
  if (x.active && !x.active[t]) flags.push('truncated');
  if (x.entropyKept && !x.entropyKept[t]) flags.push('entropyMasked');
  if (x.offPolicyKept && !x.offPolicyKept[t]) flags.push('offPolicyMasked');
  if (x.sampler && x.sampler[t] === 0) flags.push('isMasked');
  else if (x.sampler && x.sampler[t] !== 1) flags.push('isWeighted');
  if (step.advantages[j] === 0) flags.push('zeroAdvantage');
  const cov = step.covariance?.values?.[j]?.[t] ?? null;
  const picked = (list) => (list ?? []).some(([r, c]) => r === j && c === t);
  return {
    weight,
    ratio: x.ratio[t],
    termRatio: x.termRatio?.[t] ?? x.ratio[t],
    flags,
    cov,
    klCov: picked(step.covariance?.klCov),
    clipCov: picked(step.covariance?.clipCov),
  };
}

/** The largest |weight| of a step's tokens (a counterfactual's scale). */
export function largestWeight(steps) {
  let largest = 0;
  for (const step of steps) for (const row of step.terms) for (const w of row.weight) if (Number.isFinite(w)) largest = Math.max(largest, Math.abs(w));
  return largest;
}

/**
 * The background of a token of weight w on a scale of ±largest: blue for a weight that pushes the
 * token's log-probability up, red for one that pushes it down, stronger for a larger |w|; white
 * text on the strongest. {background, dark}.
 */
export function weightColor(w, largest) {
  if (!Number.isFinite(w) || !(largest > 0) || w === 0) return { background: 'transparent', dark: false };
  const share = Math.min(1, Math.abs(w) / largest);
  const alpha = 0.1 + 0.8 * share;
  const rgb = w > 0 ? '11, 95, 165' : '190, 18, 60';
  return { background: `rgba(${rgb}, ${alpha.toFixed(3)})`, dark: alpha > 0.55 };
}

/** A number for a formula or a cell: 4 significant digits, TeX's ×10^k for small and large. */
export function sig(value, digits = 4) {
  if (!Number.isFinite(value)) return Number.isNaN(value) ? 'NaN' : value > 0 ? '∞' : '−∞';
  if (value === 0) return '0';
  const abs = Math.abs(value);
  if (abs >= 1e-3 && abs < 1e5) return String(Number(value.toPrecision(digits)));
  const [mantissa, exponent] = value.toExponential(digits - 1).split('e');
  return `${Number(mantissa)}e${Number(exponent)}`;
}

/** sig(value) in TeX (1.2e-5 -> 1.2 \times 10^{-5}), negative numbers in parentheses. */
export function texNumber(value) {
  const text = sig(value);
  const [m, e] = text.split('e');
  const body = e === undefined ? m : `${m} \\times 10^{${e}}`;
  return value < 0 ? `(${body})` : body;
}

/** Which form of the weight's formula a token takes: 'shared' (a sequence-level ratio term) or 'token'. */
export const formulaForm = (x, t) => (x.shared?.[t] ? 'shared' : 'token');

/**
 * Token t of row j of `step`, decomposed (grpo_objective.h TokenTerm): the numbers as
 * [{key, value, text?}] (dictionary keys inspector.term.*), the policy term's kind (the loss
 * type's formula), and `tex`, the weight's formula filled with them:
 *   token:  (w m_ent m_off s_IS - beta dk3) / D
 *   shared: (w k_i/n_i m_off - beta dk3) / D
 * Engine verl's steps have the weight and the ratio only (`verl` true).
 */
export function decompose(step, j, t, { config, engine }) {
  const x = step.terms[j];
  const a = step.advantages[j];
  const logp = step.logProbs?.[j]?.[t];
  const old = step.oldLogProbs?.[j]?.[t];
  const numbers = [];
  const add = (key, value, extra = {}) => numbers.push({ key, value, ...extra });
  add('logp', logp);
  if (old !== undefined && old !== null) add('oldLogp', old);
  add('ratio', x.ratio[t]);
  add('advantage', a);
  if (engine === 'verl') {
    add('weight', x.weight[t]);
    return { verl: true, numbers, kind: 'verl', tex: null };
  }
  const lossType = config.lossType;
  const form = formulaForm(x, t);
  if (config.importanceSamplingLevel === 'sequence') add('termRatio', x.termRatio[t]);
  const kind = lossType === 'cispo' ? 'cispo' : lossType === 'sapo' ? 'sapo' : lossType === 'vespo' ? 'vespo' : config.delta !== null && config.delta !== undefined ? 'delta' : 'clip';
  if (kind === 'clip' || kind === 'delta') {
    add('clipLow', 1 - config.epsLow);
    add('clipHigh', 1 + config.epsHigh);
    if (kind === 'delta') add('delta', config.delta);
    add('unclipped', x.termRatio[t] * a); // what w would be on the unclipped branch
  }
  if (kind === 'cispo') {
    add('cap', config.epsHigh);
    add('coefficient', x.coefficient[t]);
  }
  if (kind === 'vespo') add('phi', x.coefficient[t]);
  if (kind === 'sapo') add('tau', a > 0 ? config.sapoTemperaturePos : config.sapoTemperatureNeg);
  add('policy', x.policy[t]);
  const masks = [];
  const entropy = x.entropyKept[t] ? 1 : 0;
  const off = x.offPolicyKept[t] ? 1 : 0;
  if (form === 'shared') {
    add('share', x.share[t]);
    masks.push(texNumber(x.share[t]), String(off));
  } else {
    add('entropyMask', entropy);
    add('sampler', x.sampler[t]);
    masks.push(String(entropy), texNumber(x.sampler[t]));
  }
  add('offPolicyMask', off);
  if (config.beta > 0) {
    add('kl', x.kl[t]);
    add('klGrad', x.klGrad[t]);
  }
  add('normalizer', x.normalizer[t]);
  add('weight', x.weight[t]);
  const product = form === 'shared' ? `${texNumber(x.policy[t])} \\cdot ${masks[0]} \\cdot ${off}` : `${texNumber(x.policy[t])} \\cdot ${entropy} \\cdot ${off} \\cdot ${masks[1]}`;
  const kl = config.beta > 0 ? ` - ${texNumber(x.klGrad[t])}` : '';
  const tex = x.active[t]
    ? `\\frac{\\partial J}{\\partial \\log \\pi_\\theta} = \\frac{1}{${texNumber(x.normalizer[t])}}\\big(${product}${kl}\\big) = ${texNumber(x.weight[t])}`
    : `\\frac{\\partial J}{\\partial \\log \\pi_\\theta} = 0`;
  return { verl: false, numbers, kind, form, active: Boolean(x.active[t]), tex };
}

/**
 * A counterfactual's tokens against the original's, step by step: for row j, token t, whether
 * the weight changed. {changed: Set of "j:t"}.
 */
export function changedTokens(original, counterfactual) {
  const changed = new Set();
  original.terms.forEach((row, j) => {
    row.weight.forEach((w, t) => {
      if (!Object.is(w, counterfactual.terms[j].weight[t])) changed.add(`${j}:${t}`);
    });
  });
  return changed;
}

/** The counterfactual `change` from the form's values: only the fields that differ from the run's. */
export function changeFrom(values, config) {
  const change = {};
  for (const field of COUNTERFACTUAL_FIELDS) {
    if (!(field in values)) continue;
    const value = values[field];
    const own = config[field] ?? null;
    if (value !== own) change[field] = value;
  }
  return change;
}
