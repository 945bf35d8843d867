// Section 9's second translation: the toy config (section 6's form) as a verl v0.7.0 launch,
// `python3 -m verl.trainer.main_ppo` with Hydra overrides. DOM-free: the page, the CLI's
// `grpo-lab notebook` and tests/node/verl-launch.test.mjs read it here.
//
// The mapping is one fact in one place: VERL_RULES has one entry per field of the core's config
// table (CONFIG_TABLE, cpp/rl/config_fields.cpp), and the test checks that no field is missing.
// (The TRL names live in that table, one name per field; verl's mapping depends on several fields
// at once, lossType with the importance-sampling level and the clip bounds, so it is rules.)
// Every override path is one of tests/fixtures/verl-v0.7.0-ppo-trainer-paths.json (the keys of
// verl's _generated_ppo_trainer.yaml at v0.7.0); a setting verl has no equivalent for is written
// as a comment line `# <field>=<value>: verl v0.7.0 has no equivalent ...`, never as a key.
// The facts behind each rule: /docs/verl-launch.md.
import { CONFIG_TABLE } from './run-config.js';
import { pyFloat } from './run-format.js';

export const VERL_VERSION = { tag: 'v0.7.0', commit: 'f9c855f7cf04d603c9546bc01776c74806a879c1' };

const A = 'actor_rollout_ref.actor';
const R = 'actor_rollout_ref.rollout';

/** Hydra's text of an override value: True/False, null, numbers as Python writes them. */
export function hydraValue(value, kind) {
  if (value === null) return 'null';
  if (typeof value === 'boolean') return value ? 'True' : 'False';
  if (typeof value === 'string') return value;
  if (kind === 'int') return String(value);
  return pyFloat(value);
}

const FIELDS = new Map(CONFIG_TABLE.fields.map((f) => [f.name, f]));
const kindOf = (name) => FIELDS.get(name)?.kind ?? 'number';
/** The lab's `field=value`, as the comment lines name it. */
const labSetting = (config, name) => `${name}=${config[name] === null ? 'None' : hydraValue(config[name], kindOf(name))}`;

// An entry of the launch: {set: path, value, kind, from} or {none: field text, why, params} (a
// setting with no verl equivalent) or {note, params} (a namesake that differs).
const set = (path, value, from, kind = kindOf(from)) => ({ set: path, value, kind, from });
const none = (config, name, why, params = {}) => ({ none: labSetting(config, name), why, params });
const note = (key, params = {}) => ({ note: key, params });

// The PPO-clip losses: one per-token term (TRL's grpo, bnpo, dr_grpo, dapo) and verl's
// aggregation of it ("lossType" rule below); cispo and sapo have loss modes of their own.
const AGG = {
  grpo: 'seq-mean-token-mean', // per-sequence token mean, then the mean over sequences
  bnpo: 'token-mean',
  dr_grpo: 'seq-mean-token-sum-norm', // Σ / loss_scale_factor (TRL: Σ / (B · max_completion_length))
  dapo: 'token-mean',
  cispo: 'token-mean', // TRL's cispo normalises as dapo
  sapo: 'seq-mean-token-mean', // TRL's sapo normalises as grpo; verl's sapo always does
};
const PPO_CLIP = new Set(['grpo', 'bnpo', 'dr_grpo', 'dapo']);
/** A number without the binary tail of a subtraction (5 - 1 = 4.0, 1.3 - 1 = 0.3). */
const tidy = (x) => Number(x.toPrecision(12));

// engine verl: the trainer ran verl's own options, written as they are (docs/verl.md "The
// trainer with engine verl"). reinforce is not a registered loss mode: verl runs it in bypass mode.
const COV = {
  clip_cov: [['clip_cov_ratio', 'clipCovRatio'], ['clip_cov_lb', 'clipCovLb'], ['clip_cov_ub', 'clipCovUb']],
  kl_cov: [['kl_cov_ratio', 'klCovRatio'], ['ppo_kl_coef', 'ppoKlCoef']],
};
function verlLossRules(c) {
  const out = [];
  if (c.verlLossMode === 'reinforce') {
    out.push(set('algorithm.rollout_correction.bypass_mode', true, 'verlLossMode', 'bool'));
    out.push(set('algorithm.rollout_correction.loss_type', 'reinforce', 'verlLossMode', 'enum'));
  } else {
    out.push(set(`${A}.policy_loss.loss_mode`, c.verlLossMode, 'verlLossMode'));
  }
  out.push(set(`${A}.loss_agg_mode`, c.verlLossAggMode, 'verlLossAggMode'));
  out.push(set(`${A}.clip_ratio_low`, c.epsLow, 'epsLow'));
  out.push(set(`${A}.clip_ratio_high`, c.epsHigh ?? c.epsLow, 'epsHigh'));
  out.push(set(`${A}.clip_ratio_c`, c.clipRatioC, 'clipRatioC'));
  if (c.verlLossMode === 'sapo') {
    out.push(set(`${A}.tau_pos`, c.sapoTemperaturePos, 'sapoTemperaturePos'));
    out.push(set(`${A}.tau_neg`, c.sapoTemperatureNeg, 'sapoTemperatureNeg'));
  }
  for (const [key, name] of COV[c.verlLossMode] ?? []) out.push(set(`${A}.policy_loss.${key}`, c[name], name));
  return out;
}

function lossRules(c) {
  if (c.engine === 'verl') return verlLossRules(c);
  const out = [];
  const level = c.importanceSamplingLevel;
  const epsHigh = c.epsHigh ?? c.epsLow; // TRL: epsilon_high None is epsilon's value
  const agg = AGG[c.lossType];
  if (PPO_CLIP.has(c.lossType)) {
    const mode = level === 'sequence' ? 'gspo' : 'vanilla';
    out.push(set(`${A}.policy_loss.loss_mode`, mode, 'lossType, importanceSamplingLevel', 'enum'));
    out.push(set(`${A}.loss_agg_mode`, agg, 'lossType'));
    if (c.lossType === 'dr_grpo') {
      out.push(set(`${A}.loss_scale_factor`, c.maxNewTokens, 'maxNewTokens'));
      out.push(note('drGrpo', { length: c.maxNewTokens }));
    }
    // verl's gspo ignores loss_agg_mode (always seq-mean-token-mean); loss_agg_mode still
    // aggregates its KL and entropy terms.
    if (mode === 'gspo' && agg !== 'seq-mean-token-mean') out.push(none(c, 'lossType', 'gspoAgg'));
    out.push(set(`${A}.clip_ratio_low`, c.epsLow, 'epsLow'));
    out.push(set(`${A}.clip_ratio_high`, epsHigh, 'epsHigh'));
    // TRL's delta caps the unclipped branch: for A < 0 that is verl's dual clip at clip_ratio_c
    // (vanilla only, c > 1); for A > 0 it changes nothing while delta > 1 + epsilon_high.
    if (c.delta === null) {
      if (mode === 'vanilla') out.push(none(c, 'delta', 'dualClip'));
    } else if (mode !== 'vanilla') out.push(none(c, 'delta', 'deltaMode', { mode }));
    else if (c.delta > 1 + epsHigh) out.push(set(`${A}.clip_ratio_c`, c.delta, 'delta'));
    else out.push(none(c, 'delta', 'deltaSmall', { bound: pyFloat(tidy(1 + epsHigh)) }));
    return out;
  }
  if (c.lossType === 'cispo') {
    // TRL caps r at epsilon_high itself, no lower bound; verl clamps r to [1 - low, 1 + high]:
    // low 1 (a bound of 0 a ratio never reaches), high epsilon_high - 1.
    out.push(set(`${A}.policy_loss.loss_mode`, 'cispo', 'lossType'));
    out.push(set(`${A}.loss_agg_mode`, agg, 'lossType'));
    out.push(set(`${A}.clip_ratio_low`, 1, 'lossType', 'number'));
    out.push(set(`${A}.clip_ratio_high`, tidy(epsHigh - 1), 'epsHigh'));
  } else if (c.lossType === 'sapo') {
    out.push(set(`${A}.policy_loss.loss_mode`, 'sapo', 'lossType'));
    out.push(set(`${A}.loss_agg_mode`, agg, 'lossType'));
    out.push(set(`${A}.tau_pos`, c.sapoTemperaturePos, 'sapoTemperaturePos'));
    out.push(set(`${A}.tau_neg`, c.sapoTemperatureNeg, 'sapoTemperatureNeg'));
  } else {
    out.push(none(c, 'lossType', 'lossMode')); // luspo, vespo
    return out;
  }
  if (level === 'sequence') out.push(none(c, 'importanceSamplingLevel', 'sequenceLevel', { mode: c.lossType }));
  if (c.delta !== null) out.push(none(c, 'delta', 'deltaMode', { mode: c.lossType }));
  return out;
}

function advantageRules(c) {
  if (c.engine === 'verl') {
    // scaleRewards batch is refused with engine verl (the core's check_verl_relations).
    return [
      set('algorithm.adv_estimator', c.verlAdvEstimator, 'verlAdvEstimator'),
      set('algorithm.norm_adv_by_std_in_grpo', c.scaleRewards === 'group', 'scaleRewards', 'bool'),
    ];
  }
  const e = c.advantageEstimator;
  if (e === 'rloo') return [set('algorithm.adv_estimator', 'rloo', 'advantageEstimator')];
  if (e === 'grpo' || e === 'dr_grpo') {
    const out = [set('algorithm.adv_estimator', 'grpo', 'advantageEstimator')];
    // The lab's ancestors ignore scaleRewards; dr_grpo is the group mean without the std.
    const scale = e === 'dr_grpo' ? 'none' : c.scaleRewards;
    if (scale === 'batch') out.push(none(c, 'scaleRewards', 'batchScale'));
    else out.push(set('algorithm.norm_adv_by_std_in_grpo', scale === 'group', e === 'dr_grpo' ? 'advantageEstimator' : 'scaleRewards', 'bool'));
    return out;
  }
  return [none(c, 'advantageEstimator', 'estimator')]; // reinforce_baseline, reinforce
}

function rewardRules(c) {
  const out = [];
  const weights = ['correctnessWeight', 'formatWeight'].map((name) => labSetting(c, name)).join(', ');
  out.push({ none: weights, why: 'rewardWeights', params: {} });
  if (c.multiObjectiveAggregation !== 'sum_then_normalize') out.push(none(c, 'multiObjectiveAggregation', 'aggregation'));
  if (c.overlongWeight !== 0) out.push(none(c, 'overlongWeight', 'overlong'));
  return out;
}

function klRules(c) {
  const out = [set('algorithm.use_kl_in_reward', false, 'beta', 'bool')];
  if (c.beta > 0) {
    out.push(set(`${A}.use_kl_loss`, true, 'beta', 'bool'));
    out.push(set(`${A}.kl_loss_coef`, c.beta, 'beta'));
    if (c.engine === 'verl') out.push(set(`${A}.kl_loss_type`, c.klLossType, 'klLossType'));
    else out.push(set(`${A}.kl_loss_type`, 'low_var_kl', 'beta', 'enum')); // TRL's k3
    if (c.useBiasCorrectionKl) out.push(none(c, 'useBiasCorrectionKl', 'biasKl'));
  } else {
    out.push(set(`${A}.use_kl_loss`, false, 'beta', 'bool'));
  }
  if (c.syncRefModel) out.push(none(c, 'syncRefModel', 'syncRef'));
  return out;
}

function miniBatchRule(c) {
  // verl counts the mini-batch in prompts (x rollout.n responses); the lab's generation of
  // promptBatch x groupSize completions is split into stepsPerGeneration optimizer steps.
  // One micro-batch per optimizer step, as the toy (no gradient accumulation; one GPU): verl's
  // token-mean is a mean per micro-batch. The log-prob micro-batches only bound memory.
  const prompts = c.promptBatch / c.stepsPerGeneration;
  if (Number.isInteger(prompts)) {
    const completions = prompts * c.groupSize;
    return [
      set(`${A}.ppo_mini_batch_size`, prompts, 'promptBatch, stepsPerGeneration', 'int'),
      set(`${A}.ppo_micro_batch_size_per_gpu`, completions, 'groupSize, stepsPerGeneration', 'int'),
      set(`${R}.log_prob_micro_batch_size_per_gpu`, completions, 'groupSize, stepsPerGeneration', 'int'),
      set('actor_rollout_ref.ref.log_prob_micro_batch_size_per_gpu', completions, 'groupSize, stepsPerGeneration', 'int'),
    ];
  }
  return [none(c, 'stepsPerGeneration', 'miniBatch', { completions: (c.promptBatch * c.groupSize) / c.stepsPerGeneration })];
}

function samplerRules(c) {
  // Without a separate sampler the toy's vllm* settings act on nothing (TRL's act only with vLLM).
  if (c.samplerMismatch === 0 && c.samplerLag === 0) return [];
  const out = [];
  if (c.samplerMismatch > 0) out.push(note('samplerMismatch', { value: labSetting(c, 'samplerMismatch') }));
  if (c.samplerLag > 0) out.push(none(c, 'samplerLag', 'samplerLag'));
  if (!c.vllmImportanceSamplingCorrection) {
    out.push(set('algorithm.rollout_correction.rollout_is', null, 'vllmImportanceSamplingCorrection'));
    return out;
  }
  const level = { token_truncate: 'token', sequence_truncate: 'sequence' }[c.vllmImportanceSamplingMode];
  if (!level) return [...out, none(c, 'vllmImportanceSamplingMode', 'isMask')];
  if (c.vllmImportanceSamplingClipMax === null) return [...out, none(c, 'vllmImportanceSamplingClipMax', 'isClipMax')];
  out.push(set(`${R}.calculate_log_probs`, true, 'vllmImportanceSamplingCorrection', 'bool'));
  out.push(set('algorithm.rollout_correction.rollout_is', level, 'vllmImportanceSamplingMode', 'enum'));
  out.push(set('algorithm.rollout_correction.rollout_is_threshold', c.vllmImportanceSamplingClipMax, 'vllmImportanceSamplingClipMax'));
  if (c.vllmImportanceSamplingClipMin !== null) out.push(none(c, 'vllmImportanceSamplingClipMin', 'isClipMin'));
  return out;
}

const when = (test, name, why) => (c) => (test(c) ? [none(c, name, why)] : []);
const TOY = 'toy'; // the toy's own (no TRL argument either): listed in one comment line
const WITH = (field) => ({ with: field }); // written by another field's rule

/**
 * One entry per config field, in the launch's order: a rule (config -> entries), TOY, or the
 * field whose rule writes it.
 */
export const VERL_RULES = {
  profile: WITH('seed'), // picks the defaults; never written
  advantageEstimator: advantageRules,
  scaleRewards: WITH('advantageEstimator'),
  correctnessWeight: rewardRules,
  formatWeight: WITH('correctnessWeight'),
  overlongWeight: WITH('correctnessWeight'),
  overlongMaxCompletionLen: WITH('correctnessWeight'),
  softPunishCache: WITH('correctnessWeight'),
  multiObjectiveAggregation: WITH('correctnessWeight'),
  beta: klRules,
  useBiasCorrectionKl: WITH('beta'),
  syncRefModel: WITH('beta'),
  refModelMixupAlpha: WITH('beta'),
  refModelSyncSteps: WITH('beta'),
  promptBatch: (c) => [set('data.train_batch_size', c.promptBatch, 'promptBatch')],
  maxNewTokens: (c) => [set('data.max_response_length', c.maxNewTokens, 'maxNewTokens')],
  seed: (c) => [set('data.seed', c.seed, 'seed')],
  groupSize: (c) => [set(`${R}.n`, c.groupSize, 'groupSize')],
  temperature: (c) => [set(`${R}.temperature`, c.temperature, 'temperature')],
  learningRate: (c) => [set(`${A}.optim.lr`, c.learningRate, 'learningRate')],
  maxGradNorm: (c) => [set(`${A}.grad_clip`, c.maxGradNorm, 'maxGradNorm')],
  stepsPerGeneration: miniBatchRule,
  updateEpochs: (c) => [set(`${A}.ppo_epochs`, c.updateEpochs, 'updateEpochs')],
  lossType: lossRules,
  importanceSamplingLevel: WITH('lossType'),
  epsLow: WITH('lossType'),
  epsHigh: WITH('lossType'),
  delta: WITH('lossType'),
  sapoTemperaturePos: WITH('lossType'),
  sapoTemperatureNeg: WITH('lossType'),
  vespoKPos: WITH('lossType'),
  vespoLambdaPos: WITH('lossType'),
  vespoKNeg: WITH('lossType'),
  vespoLambdaNeg: WITH('lossType'),
  engine: WITH('lossType'), // engine verl: lossRules, advantageRules and klRules write verl's fields
  verlLossMode: WITH('lossType'),
  verlLossAggMode: WITH('lossType'),
  clipRatioC: WITH('lossType'),
  clipCovRatio: WITH('lossType'),
  clipCovLb: WITH('lossType'),
  clipCovUb: WITH('lossType'),
  klCovRatio: WITH('lossType'),
  ppoKlCoef: WITH('lossType'),
  verlAdvEstimator: WITH('advantageEstimator'),
  klLossType: WITH('beta'),
  entropyCoef: (c) => [set(`${A}.entropy_coeff`, c.entropyCoef, 'entropyCoef')],
  useAdaptiveEntropy: when((c) => c.useAdaptiveEntropy, 'useAdaptiveEntropy', 'adaptiveEntropy'),
  entropyTarget: WITH('useAdaptiveEntropy'),
  entropyCoefDelta: WITH('useAdaptiveEntropy'),
  entropyCoefMin: WITH('useAdaptiveEntropy'),
  entropyCoefMax: WITH('useAdaptiveEntropy'),
  updates: (c) => [set('trainer.total_training_steps', c.updates, 'updates')],
  maskTruncated: when((c) => c.maskTruncated, 'maskTruncated', 'maskTruncated'),
  dynamicSampling: when((c) => c.dynamicSampling, 'dynamicSampling', 'dynamic'),
  topEntropyQuantile: when((c) => c.topEntropyQuantile < 1, 'topEntropyQuantile', 'topEntropy'),
  offPolicyMaskThreshold: when((c) => c.offPolicyMaskThreshold !== null, 'offPolicyMaskThreshold', 'offPolicyMask'),
  samplerMismatch: samplerRules,
  samplerLag: WITH('samplerMismatch'),
  vllmImportanceSamplingCorrection: WITH('samplerMismatch'),
  vllmImportanceSamplingMode: WITH('samplerMismatch'),
  vllmImportanceSamplingClipMin: WITH('samplerMismatch'),
  vllmImportanceSamplingClipMax: WITH('samplerMismatch'),
  task: TOY,
  trainPrompts: TOY,
  heldoutPrompts: TOY,
  maxOperand: TOY,
  embed: TOY,
  hidden: TOY,
  warmupSteps: TOY,
  warmupLearningRate: TOY,
  teacherAccuracy: TOY,
  evalSamples: TOY,
  finalEvalSamples: TOY,
  entropyMechanism: TOY,
  passAtKEvery: TOY,
};

/** The launch's entries for a full config (core.experimentConfig): overrides, no-equivalents, notes. */
export function verlEntries(config) {
  const entries = [];
  for (const rule of Object.values(VERL_RULES)) if (typeof rule === 'function') entries.push(...rule(config));
  return entries;
}

/** The Hydra overrides alone, [[path, text]], in the launch's order. */
export function verlOverrides(config) {
  return verlEntries(config)
    .filter((e) => e.set)
    .map((e) => [e.set, hydraValue(e.value, e.kind)]);
}

/**
 * The launch as a copyable bash script: the overrides in an array, each with the lab field it
 * comes from, `python3 -m verl.trainer.main_ppo "${overrides[@]}" "$@"` (the reader adds data,
 * model, rollout engine and GPUs as arguments), then one comment line per setting verl has no
 * equivalent for and per namesake that differs. `text(key, params)`: the comments in the reader's
 * language (the page's t()); the overrides themselves are language-neutral.
 */
export function verlLaunchScript(config, text) {
  const entries = verlEntries(config);
  const sets = entries.filter((e) => e.set).map((e) => [`${e.set}=${hydraValue(e.value, e.kind)}`, e.from]);
  const width = Math.max(...sets.map(([s]) => s.length));
  const lines = [
    `# ${text('verl.launch.head', { tag: VERL_VERSION.tag, commit: VERL_VERSION.commit.slice(0, 7) })}`,
    `# ${text('verl.launch.yours')}`,
    '#   bash verl_launch.sh data.train_files=... data.val_files=... actor_rollout_ref.model.path=... \\',
    '#     actor_rollout_ref.rollout.name=vllm trainer.n_gpus_per_node=1 custom_reward_function.path=...',
    'overrides=(',
    ...sets.map(([s, from]) => `    ${s.padEnd(width)}  # ${from}`),
    ')',
    'python3 -m verl.trainer.main_ppo "${overrides[@]}" "$@"',
  ];
  const none = text('verl.none');
  for (const e of entries) {
    if (e.none) lines.push(`# ${e.none}: ${none} — ${text(`verl.why.${e.why}`, e.params)}`);
    else if (e.note) lines.push(`# ${text(`verl.note.${e.note}`, e.params)}`);
  }
  const toy = Object.entries(VERL_RULES)
    .filter(([, rule]) => rule === TOY)
    .map(([name]) => labSetting(config, name));
  lines.push(`# ${text('verl.untranslated')}: ${toy.join(', ')}`);
  lines.push(`# ${text('verl.note.batch', { prompts: config.promptBatch, group: config.groupSize, completions: config.promptBatch * config.groupSize })}`);
  return `${lines.join('\n')}\n`;
}

/**
 * Section 9's table of namesakes that differ between the engines: [{id, trl, verl}] as i18n keys
 * verl.diff.<id>.{name, trl, verl}.
 */
export const VERL_DIFFERENCES = ['drGrpo', 'stdEps', 'cispoLow', 'dualClip', 'gspoAgg', 'tokenMean', 'k3', 'seed', 'truncated'];
