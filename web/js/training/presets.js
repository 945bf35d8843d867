// Section 6's learning experiments, each a patch of the form (URL keys), one click away. DOM-free:
// the page's preset buttons and tests/node/verdicts-matrix.test.mjs read them here.
import { ESTIMATORS } from './run-config.js';

/** verl's variants (engine verl), also read by tests/node/verl-presets.test.mjs. */
export const VERL_PRESETS = [
  { id: 'verlGrpo', patch: { 'rl.engine': 'verl', 'rl.verlAdvEstimator': 'grpo', 'rl.verlLossMode': 'vanilla', 'rl.verlLossAggMode': 'token-mean', 'rl.epsHigh': 0.2, 'rl.beta': 0.001 } },
  // DAPO's recipe: clip-higher, the dual clip at 10, no KL, dynamic sampling.
  { id: 'dapoVerl', patch: { 'rl.engine': 'verl', 'rl.verlLossMode': 'vanilla', 'rl.verlLossAggMode': 'token-mean', 'rl.epsLow': 0.2, 'rl.epsHigh': 0.28, 'rl.clipRatioC': 10, 'rl.dynamic': true } },
  // GMPO's example clips at 0.4.
  { id: 'gmpo', patch: { 'rl.engine': 'verl', 'rl.verlLossMode': 'geo_mean', 'rl.epsLow': 0.4, 'rl.epsHigh': 0.4 } },
  // The toy's batches hold ~200 tokens: verl's ratio 2e-4 would pick one token (at least 1).
  { id: 'clipCov', patch: { 'rl.engine': 'verl', 'rl.verlLossMode': 'clip_cov', 'rl.clipCovRatio': 0.02, 'rl.clipCovLb': 0, 'rl.clipCovUb': 5 } },
  { id: 'klCov', patch: { 'rl.engine': 'verl', 'rl.verlLossMode': 'kl_cov', 'rl.klCovRatio': 0.02, 'rl.ppoKlCoef': 1 } },
  { id: 'reinforcePP', patch: { 'rl.engine': 'verl', 'rl.verlAdvEstimator': 'reinforce_plus_plus', 'rl.beta': 0.001 } },
];

/** Learning experiments: each a patch of the form, one click away. */
export const PRESETS = [
  { id: 'notebook', patch: {} },
  { id: 'kl', patch: { 'rl.beta': 0.04 } },
  { id: 'noClip', patch: { 'rl.epsLow': 0.999, 'rl.epsHigh': 10, 'rl.updateEpochs': 4 } },
  { id: 'hotLr', patch: { 'rl.lr': 0.02, 'rl.updateEpochs': 4 } },
  { id: 'dynamic', patch: { 'rl.dynamic': true } },
  { id: 'smallGroup', patch: { 'rl.groupSize': 2 } },
  { id: 'gspo', patch: { 'rl.isLevel': 'sequence' } },
  { id: 'drGrpo', patch: { 'rl.lossType': 'dr_grpo', 'rl.scaleRewards': 'none' } },
  // TRL 1.9's ideas. CISPO's cap is epsilon_high itself: the paper's 5.0, not the notebook's 0.28.
  { id: 'cispo', patch: { 'rl.lossType': 'cispo', 'rl.epsHigh': 5 } },
  { id: 'sapo', patch: { 'rl.lossType': 'sapo' } },
  { id: 'entropyMask', patch: { 'rl.topEntropyQuantile': 0.2 } },
  { id: 'samplerMismatch', patch: { 'rl.samplerMismatch': 0.5, 'rl.vllmImportanceSamplingCorrection': false } },
  {
    id: 'samplerCorrected',
    patch: { 'rl.samplerMismatch': 0.5, 'rl.vllmImportanceSamplingCorrection': true, 'rl.vllmImportanceSamplingMode': 'token_truncate' },
  },
  { id: 'normalizeThenSum', patch: { 'rl.multiObjectiveAggregation': 'normalize_then_sum' } },
  // The scratch task (issue 23): room for its longest demonstration (config_warnings' scratch_cut),
  // a teacher right often enough and long enough for the column work to be learnt before RL. The
  // warm-up (300 steps over every prompt, 32-token demonstrations) is most of the run: with the
  // smoke profile's 64/32 prompts it took 6.1 s natively (user time), with 32/16 3.1 s, which keeps
  // the page's smoke run under its 10 s (tests/browser/scratch-smoke.test.mjs). The lessons
  // gallery's scratch lessons start from this preset (training/lessons.js).
  { id: 'scratch', patch: { 'rl.task': 'scratch', 'rl.maxNewTokens': 32, 'rl.teacherAccuracy': 0.6, 'rl.warmupSteps': 300, 'rl.trainPrompts': 32, 'rl.heldoutPrompts': 16 } },
  // The rewrite task (several right answers a prompt): the smoke warm-up leaves it at accuracy
  // ~0.19; 300 steps of a teacher right 90% of the time reach 0.68-0.82 before RL (seeds 9, 0, 1,
  // ~2.3 s a run in Node), where RL lowers the entropy more than it moves the accuracy.
  { id: 'rewrite', patch: { 'rl.task': 'rewrite', 'rl.teacherAccuracy': 0.9, 'rl.warmupSteps': 300 } },
  // verl v0.7.0's variants, run by verl's functions (engine verl; docs/verl.md "The trainer with
  // engine verl"). verl's GRPO recipe: clip 0.2 both sides, KL loss 0.001 low_var_kl.
  ...VERL_PRESETS,
];

/**
 * "GRPO and its ancestors": the notebook's config with each advantage estimator in turn (the
 * same seed, so a reader can run them one after another and compare).
 */
export const ANCESTOR_PRESETS = ESTIMATORS.map((estimator) => ({
  id: `estimator_${estimator}`,
  patch: { 'rl.advantageEstimator': estimator },
}));
