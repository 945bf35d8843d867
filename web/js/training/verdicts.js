// Every sentence of sections 6-8 that describes a run is chosen here, by a rule over the run's own
// numbers, with each threshold and noise floor written once (NOISE; docs/coverage.md, "Verdicts"
// says why each is what it is). A rule has the words for the opposite too: rose / fell / unchanged
// within noise; crossed at k / never crossed / base ahead at every k; concentrated / spread / lost
// coverage. Endpoints are the 64-sample evaluations, or means over a window of updates, never a
// single noisy update. DOM-free and language-free: a sentence is {key, params}; verdictText()
// turns it into words (the page, tests/node/verdicts-matrix.test.mjs).

/** The thresholds of every verdict, in one place. */
export const NOISE = Object.freeze({
  // A change is called a rise or a fall only beyond Z standard errors of the difference (~95%).
  z: 2,
  // A count of lost (or gained) prompts is beyond chance when chance gives it at most this often:
  // the detection floor's 95% (docs/coverage.md).
  alpha: 0.05,
  // Section 7's endpoints: means over the first and the last quarter of the updates.
  windowFraction: 0.25,
  // Entropy (nats, a mean over thousands of tokens) changes smaller than this are "unchanged".
  entropyNats: 0.02,
  // Format-only groups "dominate" when they are more than this share of the informative groups.
  formatDominates: 0.5,
});

export const fixed = (x, digits = 3) => (Number.isFinite(x) ? x.toFixed(digits) : '—');
/** A ratio with 3 decimals, or 2 significant digits below 0.01 (a minimum of 0.0009 is not 0.000). */
const ratioText = (x) => (Number.isFinite(x) && Math.abs(x) < 0.01 && x !== 0 ? x.toPrecision(2) : fixed(x));
/** A clip bound with 2 decimals, more when 2 would change it (1 − 0.999 is 0.001, not 0.00). */
export const bound = (x) => [2, 3, 4].map((d) => x.toFixed(d)).find((text) => Math.abs(Number(text) - x) < 1e-9) ?? x.toFixed(4);
const signed = (x, digits = 3) => (Number.isFinite(x) ? `${x >= 0 ? '+' : '−'}${Math.abs(x).toFixed(digits)}` : '—');
const mean = (values) => values.reduce((a, b) => a + b, 0) / Math.max(1, values.length);
const line = (key, params = {}) => ({ key, params });
/** A parameter that is itself a dictionary key (translated by verdictText). */
const word = (key) => ({ key });

/** The variance of a proportion p over n draws, with the (x+1)/(n+2) estimate so 0 and 1 keep a floor. */
function proportionVariance(p, n) {
  const q = (p * n + 1) / (n + 2);
  return (q * (1 - q)) / n;
}

/** Z standard errors of p1 - p0, two independent proportions over n0 and n1 draws. */
export function proportionNoise(p0, n0, p1, n1) {
  return NOISE.z * Math.sqrt(proportionVariance(p0, n0) + proportionVariance(p1, n1));
}

/** 'rose' | 'fell' | 'flat' (unchanged within noise). */
export function direction(before, after, noise) {
  const delta = after - before;
  if (!(Math.abs(delta) > noise)) return 'flat';
  return delta > 0 ? 'rose' : 'fell';
}

/** A measured change: endpoints, its noise floor and its direction. */
function change(before, after, noise) {
  return { before, after, delta: after - before, noise, dir: direction(before, after, noise) };
}

/** The evaluation size of one split: prompts x fresh answers each (finalEvalSamples). */
function evalDraws(config, split) {
  const prompts = split === 'train' ? config.trainPrompts : config.heldoutPrompts;
  return { prompts, samples: config.finalEvalSamples, draws: prompts * config.finalEvalSamples };
}

/** Changes of accuracy, entropy and pass@4 between two evaluations of one split. */
export function evaluationChanges(config, before, after, split) {
  const { prompts, samples, draws } = evalDraws(config, split);
  // pass@k's unbiased estimate over n samples is at least as precise as the mean of n/k disjoint
  // blocks of k: a proportion over prompts * floor(n/k) draws.
  const passDraws = prompts * Math.max(1, Math.floor(samples / 4));
  return {
    prompts,
    samples,
    accuracy: change(before.accuracy, after.accuracy, proportionNoise(before.accuracy, draws, after.accuracy, draws)),
    entropy: change(before.entropy, after.entropy, NOISE.entropyNats),
    passAt4: change(before.passAt4, after.passAt4, proportionNoise(before.passAt4, passDraws, after.passAt4, passDraws)),
  };
}

// --- Section 6 ---------------------------------------------------------------------------------

/** Section 6: before/after on train and held-out prompts. Null until the run has finished. */
export function rlLoopVerdicts(result) {
  const config = result?.config;
  if (!config || !result.beforeTrain || !result.afterTrain) return null;
  const train = evaluationChanges(config, result.beforeTrain, result.afterTrain, 'train');
  const lines = [
    line(`verdict.rl.train.${train.accuracy.dir}`, { acc0: fixed(train.accuracy.before), acc1: fixed(train.accuracy.after), noise: fixed(train.accuracy.noise), samples: train.samples, prompts: train.prompts }),
    line(`verdict.rl.entropy.${train.entropy.dir}`, { h0: fixed(train.entropy.before), h1: fixed(train.entropy.after), kl1: fixed(result.afterTrain.teacherForcedKl, 4), floor: String(NOISE.entropyNats) }),
  ];
  const bh = result.beforeHeldout;
  const ah = result.afterHeldout;
  if (bh && ah && Number.isFinite(bh.accuracy) && Number.isFinite(ah.accuracy)) {
    const held = evaluationChanges(config, bh, ah, 'heldout');
    const a = held.accuracy;
    lines.push(line(`verdict.rl.held.${a.dir}`, { acc0: fixed(a.before), acc1: fixed(a.after), noise: fixed(a.noise) }));
    const gap = a.delta - train.accuracy.delta;
    const gapNoise = Math.hypot(a.noise, train.accuracy.noise);
    const compared = direction(train.accuracy.delta, a.delta, gapNoise); // held-out's change against train's
    let transfer;
    if (train.accuracy.dir === 'rose') {
      if (a.dir === 'fell') transfer = 'notFell';
      else if (a.dir === 'flat') transfer = 'notFlat';
      else transfer = compared === 'fell' ? 'partly' : 'carried';
    } else transfer = { fell: 'less', rose: 'more', flat: 'same' }[compared];
    lines.push(line(`verdict.rl.transfer.${transfer}`, { dh: signed(a.delta), dt: signed(train.accuracy.delta), noise: fixed(gapNoise), gap: signed(gap) }));
    const p = held.passAt4;
    if (Number.isFinite(p.before) && Number.isFinite(p.after)) lines.push(line(`verdict.rl.pass4.${p.dir}`, { p0: fixed(p.before), p1: fixed(p.after), noise: fixed(p.noise) }));
  }
  return lines;
}

// --- Section 7 ---------------------------------------------------------------------------------

/** The number of updates in each of section 7's two windows. */
export function windowSize(n) {
  return Math.max(1, Math.round(n * NOISE.windowFraction));
}

/** Means of `field` over the first and the last window of a history. */
export function windowMeans(history, field) {
  const w = windowSize(history.length);
  const values = (rows) => mean(rows.map((row) => row[field]).filter(Number.isFinite));
  return { w, start: values(history.slice(0, w)), end: values(history.slice(-w)) };
}

/** Whether a config gives all-wrong groups unequal rewards: a format reward or the overlong punishment. */
export function rewardBeyondCorrectness(config) {
  return { format: (config?.formatWeight ?? 0) > 0, overlong: (config?.overlongWeight ?? 0) > 0 };
}

/** Train accuracy at the run's two ends: the 64-sample evaluations once the run ended, else windows. */
function accuracyEnds(history, { config, info, result }) {
  const before = result?.beforeTrain ?? info?.beforeTrain;
  if (result?.afterTrain && before && config) {
    const { draws } = evalDraws(config, 'train');
    return { source: 'eval', ...change(before.accuracy, result.afterTrain.accuracy, proportionNoise(before.accuracy, draws, result.afterTrain.accuracy, draws)), h0: before.entropy, h1: result.afterTrain.entropy };
  }
  const acc = windowMeans(history, 'evalAccuracy');
  const entropy = windowMeans(history, 'evalEntropy');
  const draws = acc.w * (config?.trainPrompts ?? 1) * (config?.evalSamples ?? 1);
  return { source: 'window', ...change(acc.start, acc.end, proportionNoise(acc.start, draws, acc.end, draws)), h0: entropy.start, h1: entropy.end };
}

/** The informative-group rate's windows, split into correctness-driven and format-only groups. */
export function informativeSplit(history, config) {
  const info = windowMeans(history, 'informativeFraction');
  const groups = info.w * Math.max(1, config?.promptBatch ?? 1);
  const rate = change(info.start, info.end, proportionNoise(info.start, groups, info.end, groups));
  const hasSplit = history.every((row) => Number.isFinite(row.correctnessInformativeFraction));
  if (!hasSplit) return { w: info.w, rate, split: null };
  const correct = windowMeans(history, 'correctnessInformativeFraction');
  const formatOnly = { start: info.start - correct.start, end: info.end - correct.end };
  return { w: info.w, rate, split: { correct, formatOnly } };
}

/** Section 7's bold summary. */
export function updatesSummary(history, context = {}) {
  if (!history?.length) return null;
  const n = history.length;
  const acc = accuracyEnds(history, context);
  const { w, rate } = informativeSplit(history, context.config);
  const range = ratioRange(history);
  return line(`verdict.updates.summary.${acc.source}`, {
    n,
    w,
    samples: context.config?.finalEvalSamples ?? '—',
    acc0: fixed(acc.before),
    acc1: fixed(acc.after),
    h0: fixed(acc.h0),
    h1: fixed(acc.h1),
    info0: fixed(rate.before),
    info1: fixed(rate.after),
    rmin: ratioText(range.min),
    rmax: ratioText(range.max),
  });
}

/** ε_high as TRL resolves it: None (null) is ε_low (grpo_trainer.py: epsilon_high if not None else epsilon). */
function epsHigh(config) {
  return config?.epsHigh === null ? config.epsLow : (config?.epsHigh ?? 0.28);
}

/** The largest value of `field` (a key, or a function of the row) in any one update (0 when no row has it). */
function largest(history, field) {
  const value = typeof field === 'function' ? field : (row) => row[field];
  let most = 0;
  for (const row of history) if (Number.isFinite(value(row))) most = Math.max(most, value(row));
  return most;
}

/**
 * The ratios' range over the run and the largest clipped shares of any one update: {min, max,
 * clip (TRL's clip region), cispo, verlClip, verlHigh, dual (verl's pg_clipfrac_lower)}.
 */
export function ratioRange(history) {
  let min = Infinity;
  let max = -Infinity;
  for (const row of history) {
    if (Number.isFinite(row.ratioMin)) min = Math.min(min, row.ratioMin);
    if (Number.isFinite(row.ratioMax)) max = Math.max(max, row.ratioMax);
  }
  // verl's geo_mean counts its clipped A > 0 tokens in pg_clipfrac and its A < 0 ones in pg_clipfrac_lower.
  const verlClip = largest(history, (row) => (row['actor/pg_clipfrac'] ?? 0) + (row['actor/pg_clipfrac_lower'] ?? 0));
  return { min, max, clip: largest(history, 'clipFractionRegion'), cispo: largest(history, 'cispoClipRatio'), verlClip, verlHigh: largest(history, 'actor/pg_clipfrac'), dual: largest(history, 'actor/pg_clipfrac_lower') };
}

/** The losses that clip the ratio PPO-style (the core's clip family, grpo_objective.cpp). */
export const CLIP_LOSSES = ['grpo', 'bnpo', 'dr_grpo', 'dapo', 'luspo'];
/** verl's loss modes whose tokens are clipped as TRL's clip family clips them (verl_policy_loss.cpp). */
export const VERL_PPO_CLIP = ['vanilla', 'clip_cov'];

/**
 * What the run's loss does to a ratio: the clip sentence of section 7 and the flat clip chart's
 * note follow it. kind: 'clip' (PPO's clip at [lo, hi], per token or per completion: the history's
 * clipFraction columns count exactly the clipped ones), 'cispo' (TRL: a weight capped at ε_high,
 * no lower bound), 'geoMean' / 'verlGspo' / 'verlCispo' (verl clips its own way, counted in its
 * actor/* columns), 'noClip'. `ppo` is the range the history's clipFraction columns count.
 */
export function clipRegime(config) {
  const verl = config?.engine === 'verl';
  const loss = verl ? (config?.verlLossMode ?? 'vanilla') : (config?.lossType ?? 'dapo');
  const eLow = config?.epsLow ?? 0.2;
  const eHigh = epsHigh(config);
  const ppo = { lo: 1 - eLow, hi: 1 + eHigh };
  const base = { loss, verl, ppo, eLow, eHigh };
  if (verl) {
    if (VERL_PPO_CLIP.includes(loss)) return { ...base, kind: 'clip', unit: 'token', ...ppo, dual: loss === 'vanilla' ? config?.clipRatioC : null };
    // geo_mean clamps the log-ratio to [-ε_low, ε_high] (verl_policy_loss.cpp geo_mean).
    if (loss === 'geo_mean') return { ...base, kind: 'geoMean', lo: Math.exp(-eLow), hi: Math.exp(eHigh) };
    if (loss === 'gspo') return { ...base, kind: 'verlGspo', ...ppo };
    if (loss === 'cispo') return { ...base, kind: 'verlCispo', ...ppo };
    return { ...base, kind: 'noClip' };
  }
  if (loss === 'cispo') return { ...base, kind: 'cispo', hi: eHigh };
  if (!CLIP_LOSSES.includes(loss)) return { ...base, kind: 'noClip' };
  return { ...base, kind: 'clip', unit: config?.importanceSamplingLevel === 'sequence' ? 'sequence' : 'token', ...ppo };
}

/**
 * Section 7's clip sentences: what the loss clipped, in its own terms, and "no token was clipped"
 * when none was. [{key, params}].
 */
export function clipLines(history, config) {
  const range = ratioRange(history);
  const regime = clipRegime(config);
  const ratios = { rmin: ratioText(range.min), rmax: ratioText(range.max), loss: regime.loss };
  const pct = (x) => fixed(x * 100, 1);
  const none = (share) => (share > 0 ? '' : 'None');
  const ppo = { plo: bound(regime.ppo.lo), phi: bound(regime.ppo.hi) };
  switch (regime.kind) {
    case 'cispo': {
      // cispo_clip_ratio counts the capped tokens with A > 0 only; the cap acts on every token.
      const kind = range.cispo > 0 ? 'cispo' : range.max > regime.hi ? 'cispoUncounted' : 'cispoNone';
      return [line(`verdict.updates.ratios.${kind}`, { ...ratios, hi: bound(regime.hi), capped: pct(range.cispo) })];
    }
    case 'noClip': {
      if (!regime.verl) return [line('verdict.updates.ratios.noClip', ratios)];
      return [line(`verdict.updates.ratios.noClipVerl${none(range.clip)}`, { ...ratios, ...ppo, clip: pct(range.clip) })];
    }
    case 'geoMean':
      return [line(`verdict.updates.ratios.geoMean${none(range.verlClip)}`, { ...ratios, ...ppo, el: bound(regime.eLow), eh: bound(regime.eHigh), lo: fixed(regime.lo), hi: fixed(regime.hi), clip: pct(range.verlClip) })];
    case 'verlGspo':
    case 'verlCispo':
      return [line(`verdict.updates.ratios.${regime.kind}${none(range.verlHigh)}`, { ...ratios, ...ppo, clip: pct(range.verlHigh) })];
    default: {
      const lo = regime.lo;
      const hi = regime.hi;
      const unit = regime.unit === 'sequence' ? 'Seq' : '';
      const lines = [line(`verdict.updates.ratios.clip${unit}${none(range.clip)}`, { ...ratios, clip: pct(range.clip), lo: bound(lo), hi: bound(hi) })];
      if (range.clip === 0 && (range.min < lo || range.max > hi)) lines.push(line('verdict.updates.ratios.unclipped', { lo: bound(lo), hi: bound(hi) }));
      // verl's dual clip: the loss of an A < 0 token is capped at clip_ratio_c times -A.
      if (regime.dual && range.dual > 0) lines.push(line('verdict.updates.ratios.dualClip', { c: String(regime.dual), dual: pct(range.dual) }));
      return lines;
    }
  }
}

/** Section 7: what the history shows. Null without history. */
export function updatesVerdicts(history, context = {}) {
  if (!history?.length) return null;
  const config = context.config ?? context.result?.config ?? null;
  const n = history.length;
  let silent = 0;
  let infoMin = Infinity;
  let infoMax = -Infinity;
  for (const row of history) {
    if (row.informativeFraction === 0) silent += 1;
    infoMin = Math.min(infoMin, row.informativeFraction);
    infoMax = Math.max(infoMax, row.informativeFraction);
  }
  // "No reward signal" only when the baseline is the group's: another estimator's advantages need no disagreement within a group.
  const estimator = estimatorBaseline(config);
  const silentKey = estimator.baseline === 'group' ? 'silent' : 'silentOutside';
  const lines = [line(silent ? `verdict.updates.${silentKey}` : 'verdict.updates.signal', { n, silent, min: fixed(infoMin), max: fixed(infoMax), est: estimator.name })];

  const { w, rate, split } = informativeSplit(history, config);
  const windows = { w, from: n - w + 1, n, start: fixed(rate.before, 2), end: fixed(rate.after, 2), noise: fixed(rate.noise, 2) };
  lines.push(line(`verdict.updates.rate.${rate.dir}`, windows));
  const extra = rewardBeyondCorrectness(config);
  const shown = split && (extra.format || extra.overlong) ? split : null;
  if (shown) {
    const { correct, formatOnly } = shown;
    lines.push(line('verdict.updates.split', { c0: fixed(correct.start, 2), c1: fixed(correct.end, 2), f0: fixed(formatOnly.start, 2), f1: fixed(formatOnly.end, 2) }));
  }
  if (rate.dir === 'fell') lines.push(...fallCause(history, { ...context, config }, rate, shown));
  if (shown && rate.after > 0 && shown.formatOnly.end / rate.after > NOISE.formatDominates) {
    lines.push(line('verdict.updates.formatDominates', { w, f1: fixed(shown.formatOnly.end, 2), c1: fixed(shown.correct.end, 2) }));
  }
  lines.push(allWrongLine(config, 'updates'));

  lines.push(...clipLines(history, config));
  return lines;
}

/**
 * Of a group of G completions to one prompt, the chance that all are right and that all are wrong,
 * averaged over the prompts of an evaluation by prompt (each prompt's accuracy over its n fresh
 * completions): the groups that cannot disagree, and why.
 */
export function groupAgreement(byPrompt, groupSize) {
  const p = byPrompt.map((row) => row.accuracy);
  return { right: mean(p.map((x) => x ** groupSize)), wrong: mean(p.map((x) => (1 - x) ** groupSize)) };
}

/**
 * Why the informative-group rate fell. With the format reward (or the overlong punishment) on,
 * the correctness-driven part is judged first: if it did not fall beyond noise, the fall is the
 * format-only part. Otherwise train accuracy decides: "as the policy succeeds" only when it rose
 * and, by the evaluations, more groups are now all right than newly all wrong.
 */
function fallCause(history, context, rate, split) {
  const { config, result } = context;
  const acc = accuracyEnds(history, context);
  const lines = [];
  if (split) {
    const groups = split.correct.w * Math.max(1, config?.promptBatch ?? 1);
    const { start, end } = split.correct;
    const correct = change(start, end, proportionNoise(start, groups, end, groups));
    const drop = rate.before - rate.after;
    const formatDrop = split.formatOnly.start - split.formatOnly.end;
    if (correct.dir !== 'fell') {
      return [line('verdict.updates.cause.formatOnly', { c0: fixed(start, 2), c1: fixed(end, 2), noise: fixed(correct.noise, 2), fdrop: fixed(formatDrop, 2), drop: fixed(drop, 2) })];
    }
    if (formatDrop > drop / 2) lines.push(line('verdict.updates.formatFall', { fdrop: fixed(formatDrop, 2), drop: fixed(drop, 2) }));
  }
  const params = { acc0: fixed(acc.before), acc1: fixed(acc.after), h0: fixed(acc.h0), h1: fixed(acc.h1) };
  if (acc.dir !== 'rose') {
    const entropyFell = acc.h1 < acc.h0 - NOISE.entropyNats;
    return [line(`verdict.updates.cause.${entropyFell ? 'alike' : 'notSucceeds'}`, params), ...lines];
  }
  if (!result?.beforeTrainByPrompt || !result?.afterTrainByPrompt || !config?.groupSize) return [line('verdict.updates.cause.risingSoFar', params), ...lines];
  const g = config.groupSize;
  const before = groupAgreement(result.beforeTrainByPrompt, g);
  const after = groupAgreement(result.afterTrainByPrompt, g);
  const right = after.right - before.right;
  const wrong = after.wrong - before.wrong;
  const cause = right > 0 && right >= wrong ? 'succeeds' : wrong > 0 && wrong > right ? 'polarized' : 'notInEval';
  const shares = { ...params, g, r0: fixed(before.right, 2), r1: fixed(after.right, 2), w0: fixed(before.wrong, 2), w1: fixed(after.wrong, 2) };
  return [line(`verdict.updates.cause.${cause}`, shares), ...lines];
}

/**
 * The advantage estimators whose baseline is the group's own (mean, leave-one-out mean, weighted
 * mean, the best of the group against the second): a group of equal rewards gets zero advantages.
 * TRL's reinforce uses no baseline (the raw reward); the others (a batch mean, a whitening over the
 * batch, ReMax's greedy completion, GAE's values) take it from outside the group.
 */
export const GROUP_BASELINE_ESTIMATORS = Object.freeze({ trl: ['grpo', 'dr_grpo', 'rloo'], verl: ['grpo', 'grpo_passk', 'rloo', 'opo', 'gpg'] });

/** The run's advantage estimator and its baseline: 'group' | 'none' (raw reward) | 'outside'. */
export function estimatorBaseline(config) {
  const verl = config?.engine === 'verl';
  const name = verl ? (config?.verlAdvEstimator ?? 'grpo') : (config?.advantageEstimator ?? 'grpo');
  const group = GROUP_BASELINE_ESTIMATORS[verl ? 'verl' : 'trl'].includes(name);
  return { name, baseline: group ? 'group' : !verl && name === 'reinforce' ? 'none' : 'outside' };
}

/** "An all-wrong group has zero advantages", said only when it is true for this config. */
function allWrongLine(config, section) {
  const extra = rewardBeyondCorrectness(config);
  if (extra.format) return line(`verdict.${section}.allWrong.format`, { w: String(config.formatWeight) });
  if (extra.overlong) return line(`verdict.${section}.allWrong.overlong`, { w: String(config.overlongWeight) });
  const { name, baseline } = estimatorBaseline(config);
  // Without a baseline an all-wrong group's rewards (0) are its advantages: section 7's line holds, section 8's "always solved" half does not.
  if (baseline === 'outside' || (baseline === 'none' && section === 'coverage')) return line(`verdict.${section}.allWrong.${baseline}`, { est: name });
  return line(`verdict.${section}.allWrong.off`);
}

// --- Section 8 ---------------------------------------------------------------------------------

/**
 * How many of the solved prompts an unchanged policy would show with no success in a fresh
 * evaluation, by chance: E = sum of (1 - c/n)^n over the prompts solved (c > 0), and the most
 * such prompts chance explains: the largest m with P(Poisson(E) >= m) > alpha (a prompt at the
 * detection floor adds alpha to E).
 */
export function flickerBound(accuracies, samples) {
  let expected = 0;
  for (const p of accuracies) if (p > 0) expected += (1 - p) ** samples;
  let term = Math.exp(-expected); // P(X = 0)
  let below = 0; // P(X < m)
  let m = 0;
  while (1 - below > NOISE.alpha && m < 100000) {
    below += term;
    m += 1;
    term *= expected / m;
  }
  return { expected, bound: Math.max(0, m - 1) };
}

/** Per prompt: lost (solved before, no success after) and gained (the reverse), with their chance bounds. */
export function solvedChange(result) {
  const before = new Map((result?.beforeTrainByPrompt ?? []).map((p) => [p.promptId, p.accuracy]));
  const after = new Map((result?.afterTrainByPrompt ?? []).map((p) => [p.promptId, p.accuracy]));
  const samples = result?.coverage?.samples ?? result?.config?.finalEvalSamples;
  let lost = 0;
  let gained = 0;
  for (const [id, b] of before) {
    const a = after.get(id);
    if (a === undefined) continue;
    if (b > 0 && a === 0) lost += 1;
    if (b === 0 && a > 0) gained += 1;
  }
  const lostChance = flickerBound([...before.values()], samples);
  const gainedChance = flickerBound([...after.values()], samples);
  const solved0 = result.coverage.beforeTrain.solved;
  const solved1 = result.coverage.afterTrain.solved;
  let dir = 'flat';
  if (solved1 < solved0 && lost > lostChance.bound) dir = 'fell';
  else if (solved1 > solved0 && gained > gainedChance.bound) dir = 'rose';
  return { lost, gained, lostChance, gainedChance, solved0, solved1, dir };
}

/** Z standard errors of a best-quarter share: each success falls in the best quarter or not. */
function shareNoise(before, after, samples) {
  const successes = (side) => Math.max(1, Math.round(side.meanAccuracy * side.prompts * samples));
  return proportionNoise(before.topQuarterShare, successes(before), after.topQuarterShare, successes(after));
}

/** Section 8's coverage verdict: concentrated / lost coverage / spread / unchanged. */
export function coverageVerdict(result) {
  const coverage = result?.coverage;
  const bt = coverage?.beforeTrain;
  const at = coverage?.afterTrain;
  if (!bt || !at || !result.afterTrainByPrompt || !result.beforeTrainByPrompt) return null;
  const samples = coverage.samples;
  const draws = bt.prompts * samples;
  const accuracy = change(bt.meanAccuracy, at.meanAccuracy, proportionNoise(bt.meanAccuracy, draws, at.meanAccuracy, draws));
  const share = change(bt.topQuarterShare, at.topQuarterShare, shareNoise(bt, at, samples));
  const solved = solvedChange(result);
  let kind;
  if (solved.dir === 'fell') kind = accuracy.dir !== 'rose' ? 'lostCoverage' : share.dir === 'rose' ? 'concentrated' : 'narrowNoShare';
  else if (solved.dir === 'rose') kind = 'spread';
  else kind = `same.${accuracy.dir}`;
  const params = {
    mean0: fixed(bt.meanAccuracy),
    mean1: fixed(at.meanAccuracy),
    solved0: solved.solved0,
    solved1: solved.solved1,
    lost: solved.lost,
    gained: solved.gained,
    chance: solved.dir === 'rose' ? solved.gainedChance.bound : solved.lostChance.bound,
    share0: fixed(bt.topQuarterShare, 2),
    share1: fixed(at.topQuarterShare, 2),
  };
  return { kind, accuracy, share, solved, line: line(`verdict.coverage.${kind}`, params) };
}

/** Section 8's bold summary: the measures, then the verdict on them. */
export function coverageSummary(result) {
  const verdict = coverageVerdict(result);
  if (!verdict) return null;
  const { beforeTrain: bt, afterTrain: at, beforeHeldout: bh, afterHeldout: ah, samples } = result.coverage;
  const lines = [
    line('verdict.coverage.summary', {
      n: bt.prompts,
      samples,
      mean0: fixed(bt.meanAccuracy),
      mean1: fixed(at.meanAccuracy),
      solved0: bt.solved,
      solved1: at.solved,
      lost: verdict.solved.lost,
      gained: verdict.solved.gained,
      share0: fixed(bt.topQuarterShare, 2),
      share1: fixed(at.topQuarterShare, 2),
      top: bt.topCount,
    }),
  ];
  if (bh && ah) lines.push(line('verdict.coverage.heldout', { n: bh.prompts, solved0: bh.solved, solved1: ah.solved, mean0: fixed(bh.meanAccuracy), mean1: fixed(ah.meanAccuracy) }));
  lines.push(verdict.line);
  return lines;
}

/** Section 8's "What to notice" lines: the chance bound of the lost count, and the zero-gradient claim. */
export function coverageVerdicts(result) {
  const verdict = coverageVerdict(result);
  if (!verdict) return null;
  const { solved } = verdict;
  const floor = fixed((result.coverage.detectionFloor ?? 0) * 100, 1);
  const kind = solved.lost === 0 ? 'lostNone' : solved.lost > solved.lostChance.bound ? 'lostBeyond' : 'lostWithin';
  const lost = line(`verdict.coverage.${kind}`, {
    lost: solved.lost,
    n: result.coverage.beforeTrain.prompts,
    samples: result.coverage.samples,
    expected: fixed(solved.lostChance.expected, 1),
    bound: solved.lostChance.bound,
    floor,
  });
  return [lost, allWrongLine(result.config, 'coverage')];
}

/**
 * pass@k of the base and the RL policy on one split, k by k: +1 where RL is ahead beyond noise,
 * -1 where the base is, 0 where they are level within noise; and the verdict on the signs.
 */
export function passAtKVerdict(before, after, samples) {
  const ks = before.passAtK.ks;
  const signs = ks.map((k, i) => {
    const b = before.passAtK.values[i];
    const a = after.passAtK.values[i];
    const draws = before.prompts * Math.max(1, Math.floor(samples / k));
    const dir = direction(b, a, proportionNoise(b, draws, a, draws));
    return dir === 'rose' ? 1 : dir === 'fell' ? -1 : 0;
  });
  const firstRl = signs.indexOf(1);
  const firstBase = signs.indexOf(-1);
  let kind;
  let at = null;
  if (firstRl < 0 && firstBase < 0) kind = 'level';
  else if (firstBase < 0) kind = 'rlAhead';
  else if (firstRl < 0) kind = signs.every((sign) => sign < 0) ? 'baseAll' : 'baseAhead';
  else if (firstRl < firstBase) [kind, at] = ['crossed', ks[firstBase]];
  else [kind, at] = ['reverse', ks[firstRl]];
  return { kind, k: at, signs, ks };
}

/** Section 8's pass@k sentences; one sentence for both splits when they say the same. */
export function passAtKVerdicts(result) {
  const coverage = result?.coverage;
  if (!coverage?.afterTrain?.passAtK) return null;
  const splits = [['train', coverage.beforeTrain, coverage.afterTrain]];
  if (coverage.beforeHeldout?.passAtK && coverage.afterHeldout?.passAtK) splits.push(['heldout', coverage.beforeHeldout, coverage.afterHeldout]);
  const verdicts = splits.map(([split, before, after]) => {
    const v = passAtKVerdict(before, after, coverage.samples);
    const last = v.ks.length - 1;
    const at = v.ks.indexOf(v.k);
    // The k where the base is ahead beyond noise (baseAhead names them all).
    const baseKs = v.ks.filter((_, i) => v.signs[i] < 0).join(', ');
    return {
      ...v,
      split,
      params: {
        k: v.k,
        n: v.ks[last],
        ks: baseKs,
        a1: fixed(before.passAtK.values[0]),
        b1: fixed(after.passAtK.values[0]),
        ak: fixed(before.passAtK.values[at]),
        bk: fixed(after.passAtK.values[at]),
        an: fixed(before.passAtK.values[last]),
        bn: fixed(after.passAtK.values[last]),
      },
    };
  });
  if (verdicts.length === 2 && verdicts[0].kind === verdicts[1].kind) {
    const [train, held] = verdicts;
    const heldParams = { hk: held.params.k, hks: held.params.ks, ha1: held.params.a1, hb1: held.params.b1, hak: held.params.ak, hbk: held.params.bk, han: held.params.an, hbn: held.params.bn };
    return [line(`verdict.passAtK.both.${train.kind}`, { ...train.params, ...heldParams })];
  }
  return verdicts.map((v) => line(`verdict.passAtK.${v.kind}`, { ...v.params, split: word(`verdict.on.${v.split}`) }));
}

/** The words of a sentence: its parameters that are sentences ({key, params?}) put into words first, then the sentence. */
export function verdictText(t, { key, params = {} }) {
  const filled = {};
  for (const [name, value] of Object.entries(params)) filled[name] = value && typeof value === 'object' && 'key' in value ? verdictText(t, value) : value;
  return t(key, filled);
}
