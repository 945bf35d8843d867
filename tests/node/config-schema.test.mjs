// The config table end to end in JS: core.configSchema() is what the page was built with
// (web/core/config-schema.js), every field round-trips through experimentConfig, and the form's
// fields, the URL keys and the TRL translation cover exactly the table's fields.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadCore } from '../../web/core/index.js';
import GENERATED from '../../web/core/config-schema.js';
import { parseHash, formatHash } from '../../web/js/state.js';
import {
  CONFIG_FIELDS,
  CONFIG_KEYS,
  CONFIG_PARAMS,
  CONFIG_SCHEMA,
  PROFILE_FIELD,
  SEED_FIELD,
  SETUP_SCHEMA,
  configOptions,
} from '../../web/js/training/run-config.js';
import { NOTEBOOK_TRL_CELL, trlConfigPython, trlNotes } from '../../web/js/training/run-format.js';
import { t, loadLanguage } from '../../web/js/i18n.js';
import en from '../../web/js/i18n/en.js';
import ru from '../../web/js/i18n/ru.js';

const core = await loadCore();
const schema = core.configSchema();
const names = schema.fields.map((f) => f.name);

test('the generated web/core/config-schema.js is the core\'s configSchema()', () => {
  assert.deepEqual(GENERATED, schema);
  assert.deepEqual(schema.profiles, ['smoke', 'full']);
});

// What the rules between fields (check_field_relations) need for a field's extreme values.
const RELATED = {
  promptBatch: { trainPrompts: 155, heldoutPrompts: 0 },
  trainPrompts: { promptBatch: 1, heldoutPrompts: 0 },
  heldoutPrompts: { trainPrompts: 1, promptBatch: 1 },
  maxOperand: { trainPrompts: 1, heldoutPrompts: 0, promptBatch: 1 },
  vllmImportanceSamplingClipMin: { vllmImportanceSamplingClipMax: null }, // min < max; None: no max
  syncRefModel: { beta: 0.1 },
};

test('every field round-trips through experimentConfig, and its defaults are the core\'s', () => {
  for (const profile of schema.profiles) {
    const config = core.experimentConfig({ profile });
    assert.deepEqual(Object.keys(config).sort(), [...names].sort());
    for (const f of schema.fields) assert.deepEqual(config[f.name], f.defaults[profile], `${profile} ${f.name}`);
  }
  for (const f of schema.fields) {
    const values =
      f.kind === 'enum' ? f.options
        : f.kind === 'bool' ? [true, false]
          : [f.minOpen ? f.min + (f.max - f.min) / 4 : f.min, f.maxOpen ? (f.min + f.max) / 2 : f.max];
    for (const value of values) {
      const extra = RELATED[f.name] ?? {};
      const config = core.experimentConfig({ ...extra, [f.name]: value });
      assert.deepEqual(config[f.name], value, f.name);
      assert.deepEqual(core.experimentConfig(config), config, `${f.name}: reading what was written`);
    }
  }
});

test('one range check, in the core, with today\'s words', () => {
  assert.throws(() => core.experimentConfig({ epsHigh: 12 }), { name: 'RangeError', message: 'epsHigh: must be in [0, 10], got 12' });
  assert.throws(() => core.experimentConfig({ epsLow: 1 }), { message: 'epsLow: must be in [0, 1), got 1' });
  assert.throws(() => core.experimentConfig({ seed: 2 ** 32 }), { message: 'seed: must be an integer in [0, 4294967295], got 4294967296' });
  assert.throws(() => core.experimentConfig({ updates: 50001 }), { message: 'updates: must be an integer in [1, 50000], got 50001' });
});

test('the form\'s fields, the URL keys and the TRL translation cover exactly the table', async () => {
  const formFields = [PROFILE_FIELD, SEED_FIELD, ...CONFIG_FIELDS].map((f) => f.core);
  assert.deepEqual(formFields, names);
  assert.equal(CONFIG_KEYS.length, names.length);
  assert.deepEqual(Object.keys(CONFIG_PARAMS), names);
  assert.deepEqual(CONFIG_KEYS, names.map((name) => CONFIG_PARAMS[name]));
  assert.deepEqual(Object.keys({ ...SETUP_SCHEMA, ...CONFIG_SCHEMA }), CONFIG_KEYS);
  // Today's URL keys still open the same config.
  for (const [key, name] of [['rl.lr', 'learningRate'], ['rl.dynamic', 'dynamicSampling'], ['rl.isLevel', 'importanceSamplingLevel'], ['rl.epsHigh', 'epsHigh'], ['rl.groupSize', 'groupSize']]) {
    assert.equal(CONFIG_PARAMS[name], key);
  }
  for (const f of CONFIG_FIELDS) assert.ok(en[f.label] && ru[f.label], `label ${f.label} in EN and RU`);

  // The TRL translation names every field but the profile: as an argument or in the comment.
  const config = core.experimentConfig({});
  const python = trlConfigPython(config);
  const named = new Set([...python.matchAll(/# ([\w, ]+)(?: \(([^)]*)\))?(?:; [^\n]*)?\n/g)].flatMap((m) => [...m[1].trim().split(', '), ...(m[2] ?? '').split('; ').map((s) => s.split(' = ')[0]).filter(Boolean)]));
  // reward_weights lists only the reward functions used: the overlong punishment at weight 0 is named, not listed.
  assert.match(python, /^    reward_weights=\[1\.0, 0\.1\], +# correctnessWeight, formatWeight \(overlongWeight = 0: [^)]+\)/m);
  assert.match(trlConfigPython({ ...config, overlongWeight: 1 }), /^    reward_weights=\[1\.0, 0\.1, 1\.0\], +# correctnessWeight, formatWeight, overlongWeight;/m);
  // The notes in the reader's language have every placeholder filled, counts agreeing with nouns.
  for (const lang of ['en', 'ru']) {
    await loadLanguage(lang);
    const noted = trlConfigPython({ ...config, samplerLag: 1, task: 'scratch', dynamicSampling: true, advantageEstimator: 'rloo' }, trlNotes((key, params) => t(key, params, lang)));
    assert.doesNotMatch(noted, /\{\w+(#[\w.]+)?\}/, `${lang}: an unfilled placeholder in\n${noted}`);
    assert.match(noted, lang === 'en' ? /# One update here samples 8 prompts × 8 completions = 64 completions/ : /8 промптов × 8 ответов = 64 ответа/);
  }
  const untranslated = /# no GRPOConfig argument: (.*)\n/.exec(python)[1].split(', ').map((pair) => pair.split('=')[0]);
  for (const name of untranslated) named.add(name);
  assert.deepEqual([...named].sort(), names.filter((name) => name !== 'profile').sort());
  for (const f of schema.fields.filter((x) => x.trl)) {
    // A list entry (reward_weights[i]) is written in its list, its field named in the comment.
    const list = /^(\w+)\[\d+\]$/.exec(f.trl);
    assert.match(python, list ? new RegExp(`^    ${list[1]}=\\[.*# .*\\b${f.name}\\b`, 'm') : new RegExp(`^    ${f.trl}=.*# ${f.name}(; .*)?$`, 'm'));
  }
});

test('URL state: a link with every field opens the same config', () => {
  const all = { ...SETUP_SCHEMA, ...CONFIG_SCHEMA };
  const config = core.experimentConfig({ profile: 'full', seed: 5, groupSize: 4, learningRate: 0.002, dynamicSampling: true, importanceSamplingLevel: 'sequence', hidden: 32 });
  const values = { profile: 'full', seed: 5 };
  for (const f of CONFIG_FIELDS) values[f.key] = config[f.core];
  const hash = formatHash(values, all);
  const parsed = parseHash(hash, all);
  assert.deepEqual(parsed.notes, []);
  assert.deepEqual(core.experimentConfig(configOptions(parsed.values)), config);
  assert.match(hash, /rl\.lr=0\.002/);
  assert.match(hash, /rl\.isLevel=sequence/);
});

test('the notebook flag marks exactly the fields the notebook sets, each in a group of the form', () => {
  // Read from the notebook's own cells: section 9's TRL GRPOConfig (by TRL name), section 8's
  // toy GRPOConfig(group_size=4, prompt_batch=2, updates=1, update_epochs=1, loss_type="dapo")
  // (snake_case of the toy names) and run_toy_grpo_experiment(profile=PROFILE, seed=SEED, ...).
  const cell = /TRLGRPOConfig\(([\s\S]*?)\n {4}\)/.exec(NOTEBOOK_TRL_CELL)[1];
  const trlArgs = [...cell.matchAll(/^\s+(\w+)=/gm)].map((m) => m[1]);
  const toyArgs = ['group_size', 'prompt_batch', 'updates', 'update_epochs', 'loss_type'];
  const snake = (name) => name.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
  const expected = schema.fields
    .filter((f) => ['profile', 'seed'].includes(f.name) || trlArgs.includes(f.trl) || toyArgs.includes(snake(f.name)))
    .map((f) => f.name);
  assert.deepEqual(schema.fields.filter((f) => f.notebook).map((f) => f.name), expected);
  assert.ok(expected.includes('learningRate') && expected.includes('promptBatch') && expected.length === 15, expected.join());
  for (const f of schema.fields) {
    assert.equal(typeof f.notebook, 'boolean', f.name);
    assert.ok(f.group && (f.group === 'setup' || (en[`train.group.${f.group}`] && ru[`train.group.${f.group}`])), `${f.name}: group ${f.group} has a legend in EN and RU`);
  }
});
