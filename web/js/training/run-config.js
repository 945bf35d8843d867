// The training config of sections 6-9 without a DOM: the form's fields, their URL keys and
// schema, and the check of a page state through the core. Small on purpose: the page needs it
// at startup (URL state) while the training widgets load only when the reader reaches them.

export const SEED_MAX = 4294967295;

/** The seed the page state carries (an integer in [0, 2^32 - 1]), checked in the core's words. */
export function checkSeed(seed) {
  if (typeof seed !== 'number' || !Number.isInteger(seed) || seed < 0 || seed > SEED_MAX) {
    const shown = seed === null ? 'nothing' : typeof seed === 'string' ? `"${seed}"` : String(seed);
    const error = new RangeError(`seed: must be an integer in [0, ${SEED_MAX}], got ${shown}`);
    // The core's codes (core.messageCodes()), so the page says it in the reader's language.
    const code = seed === null ? 'required' : typeof seed === 'number' ? 'integer_range' : 'not_a_number';
    throw Object.assign(error, { code, field: 'seed', params: { min: 0, max: SEED_MAX, got: String(seed) } });
  }
}

/**
 * The config form: URL key, the core's field name (camelCase) and TRL's GRPOConfig argument.
 * Every URL value defaults to null, meaning "the chosen profile's default", so a link carries
 * only what the sender changed and `#profile=full` alone gives the notebook's full run.
 */
export const CONFIG_FIELDS = [
  { key: 'rl.groupSize', core: 'groupSize', kind: 'int', min: 2, max: 64, step: 1, trl: 'num_generations' },
  { key: 'rl.promptBatch', core: 'promptBatch', kind: 'int', min: 1, max: 64, step: 1 },
  { key: 'rl.updates', core: 'updates', kind: 'int', min: 1, max: 100000, step: 10, trl: 'max_steps' },
  { key: 'rl.updateEpochs', core: 'updateEpochs', kind: 'int', min: 1, max: 16, step: 1, trl: 'num_iterations' },
  { key: 'rl.lossType', core: 'lossType', kind: 'enum', options: ['grpo', 'bnpo', 'dr_grpo', 'dapo'], trl: 'loss_type' },
  { key: 'rl.scaleRewards', core: 'scaleRewards', kind: 'enum', options: ['group', 'batch', 'none'], trl: 'scale_rewards' },
  { key: 'rl.epsLow', core: 'epsLow', kind: 'number', min: 0, max: 0.999, step: 0.01, trl: 'epsilon' },
  { key: 'rl.epsHigh', core: 'epsHigh', kind: 'number', min: 0, max: 10, step: 0.01, trl: 'epsilon_high' },
  { key: 'rl.beta', core: 'beta', kind: 'number', min: 0, max: 10, step: 0.01, trl: 'beta' },
  { key: 'rl.temperature', core: 'temperature', kind: 'number', min: 0.05, max: 10, step: 0.05, trl: 'temperature' },
  { key: 'rl.lr', core: 'learningRate', kind: 'number', min: 0, max: 1, step: 0.0005, trl: 'learning_rate' },
  { key: 'rl.maxNewTokens', core: 'maxNewTokens', kind: 'int', min: 1, max: 16, step: 1, trl: 'max_completion_length' },
  { key: 'rl.dynamic', core: 'dynamicSampling', kind: 'bool' },
  { key: 'rl.maskTruncated', core: 'maskTruncated', kind: 'bool', trl: 'mask_truncated_completions' },
  { key: 'rl.isLevel', core: 'importanceSamplingLevel', kind: 'enum', options: ['token', 'sequence'], trl: 'importance_sampling_level' },
];

/** URL schema of the config (state.js kinds); null = the profile's default. */
export const CONFIG_SCHEMA = Object.fromEntries(
  CONFIG_FIELDS.map((f) => {
    const spec = { kind: f.kind, default: null, nullLabel: 'profile default' };
    if (f.options) spec.options = f.options;
    // Wide URL bounds: the core validates and names the field with its own range.
    if (f.kind === 'int' || f.kind === 'number') Object.assign(spec, { min: -1e9, max: 1e9 });
    return [f.key, spec];
  }),
);

/** The core's field names mapped to URL keys (for messages such as "groupSize: must be ..."). */
export const CONFIG_PARAMS = {
  ...Object.fromEntries(CONFIG_FIELDS.map((f) => [f.core, f.key])),
  profile: 'profile',
  seed: 'seed',
};

/** Every URL key the training sections read (their embed pages keep these in the hash). */
export const CONFIG_KEYS = ['profile', 'seed', ...CONFIG_FIELDS.map((f) => f.key)];

/** The core's options from the page state: profile, seed and the reader's overrides only. */
export function configOptions(values) {
  const options = { profile: values.profile ?? 'smoke', seed: values.seed ?? 9 };
  for (const f of CONFIG_FIELDS) {
    const value = values[f.key];
    if (value !== null && value !== undefined) options[f.core] = value;
  }
  return options;
}

/** A validated, complete config (the core fills the profile's defaults and checks every field). */
export function resolveConfig(core, values) {
  return core.experimentConfig(configOptions(values));
}

/** Validates the page state's config through the core; returns the full config. */
export function validateConfig(core, values) {
  checkSeed(values.seed);
  return resolveConfig(core, values);
}
