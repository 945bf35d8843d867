// The training config of sections 0 and 6-9 without a DOM, built from the core's field table
// (core.configSchema(), written at build time to web/core/config-schema.js by
// tools/precompute.mjs): the form's fields, their URL keys and URL schema, the check of a page
// state through the core. The table is a module, not fetched: the page parses the URL state
// at startup, before the WASM arrives, and no range, default or TRL name is written here.
import TABLE from '../../core/config-schema.js';
import { NONE } from '../state.js';

/** The core's table as it is: {profiles, fields: [{name, kind, min, max, defaults, trl, ...}]}. */
export const CONFIG_TABLE = TABLE;

// URL keys older than the table, kept so that existing links open the same config; every other
// field's key is `rl.<name>`.
const URL_KEYS = {
  profile: 'profile',
  seed: 'seed',
  learningRate: 'rl.lr',
  dynamicSampling: 'rl.dynamic',
  importanceSamplingLevel: 'rl.isLevel',
};

// Arrow-key steps of the number inputs: UI, not config (integers step by 1 unless named here).
const STEPS = {
  updates: 10,
  warmupSteps: 10,
  formatWeight: 0.05,
  warmupLearningRate: 0.001,
  teacherAccuracy: 0.05,
  epsLow: 0.01,
  epsHigh: 0.01,
  beta: 0.01,
  temperature: 0.05,
  learningRate: 0.0005,
  maxGradNorm: 0.1,
};

/** A table row as the page uses it: URL key, the core's name, its label key and its step. */
function pageField(spec) {
  return {
    key: URL_KEYS[spec.name] ?? `rl.${spec.name}`,
    core: spec.name,
    kind: spec.kind,
    label: spec.description,
    min: spec.min,
    max: spec.max,
    options: spec.options,
    defaults: spec.defaults,
    trl: spec.trl,
    nullable: spec.nullable === true,
    group: spec.group,
    notebook: spec.notebook === true,
    step: STEPS[spec.name] ?? (spec.kind === 'int' ? 1 : undefined),
  };
}

const ALL_FIELDS = TABLE.fields.map(pageField);
const PROFILE = ALL_FIELDS.find((f) => f.core === 'profile');
const SEED = ALL_FIELDS.find((f) => f.core === 'seed');

/** The form's config fields (every field of the table but profile and seed, which section 0 owns). */
export const CONFIG_FIELDS = ALL_FIELDS.filter((f) => f !== PROFILE && f !== SEED);

/** The advantage estimators, GRPO first, then its ancestors (the core's option order). */
export const ESTIMATORS = ALL_FIELDS.find((f) => f.core === 'advantageEstimator').options;

/** Profile and seed as section 0 and the training sections show them. */
export const PROFILE_FIELD = PROFILE;
export const SEED_FIELD = SEED;

/** URL schema of profile and seed (state.js kinds), section 0's. */
export const SETUP_SCHEMA = {
  profile: { kind: 'enum', options: PROFILE.options, default: PROFILE.defaults.smoke },
  seed: { kind: 'int', min: SEED.min, max: SEED.max, default: SEED.defaults.smoke },
};

/**
 * URL schema of the config (state.js kinds). Every value defaults to null, meaning "the chosen
 * profile's default", so a link carries only what the sender changed and `#profile=full` alone
 * gives the notebook's full run. Numbers parse without bounds here: the core checks the range
 * and names the field with it (one check, one message).
 */
export const CONFIG_SCHEMA = Object.fromEntries(
  CONFIG_FIELDS.map((f) => {
    const spec = { kind: f.kind, default: null, nullLabel: 'profile default' };
    if (f.options) spec.options = f.options;
    if (f.nullable) spec.nullable = true; // `None` (state.js NONE) is a value, sent to the core as null
    return [f.key, spec];
  }),
);

/** The core's field names mapped to URL keys (for messages such as "groupSize: must be ..."). */
export const CONFIG_PARAMS = Object.fromEntries(ALL_FIELDS.map((f) => [f.core, f.key]));

/** Every URL key the training sections read (their embed pages keep these in the hash). */
export const CONFIG_KEYS = ALL_FIELDS.map((f) => f.key);

/**
 * The core's options from the page state: profile, seed and the reader's overrides only. A state
 * value null is the profile's default (not sent); NONE is TRL's None, sent as null.
 */
export function configOptions(values) {
  const options = { profile: values.profile ?? SETUP_SCHEMA.profile.default, seed: values.seed ?? SETUP_SCHEMA.seed.default };
  for (const f of CONFIG_FIELDS) {
    const value = values[f.key];
    if (value === NONE && f.nullable) options[f.core] = null;
    else if (value !== null && value !== undefined) options[f.core] = value;
  }
  return options;
}

/** A validated, complete config (the core fills the profile's defaults and checks every field). */
export function resolveConfig(core, values) {
  return core.experimentConfig(configOptions(values));
}

/** Validates the page state's config through the core; returns the full config. */
export const validateConfig = resolveConfig;
