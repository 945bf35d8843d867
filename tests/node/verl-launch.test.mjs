// Section 9's verl launch (web/js/training/verl-launch.js): every Hydra override path it writes,
// for the default run and every preset, is a key of verl v0.7.0's _generated_ppo_trainer.yaml
// (tests/fixtures/verl-v0.7.0-ppo-trainer-paths.json, tools/verl-paths.mjs); every config field
// has a rule; hand-checked values for dr_grpo, dapo, cispo, KL, GSPO; both languages' comments.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { loadCore } from '../../web/core/index.js';
import en from '../../web/js/i18n/en.js';
import ru from '../../web/js/i18n/ru.js';
import { ANCESTOR_PRESETS, PRESETS } from '../../web/js/training/presets.js';
import { CONFIG_FIELDS, CONFIG_TABLE } from '../../web/js/training/run-config.js';
import { VERL_DIFFERENCES, VERL_RULES, VERL_VERSION, verlEntries, verlLaunchScript, verlOverrides } from '../../web/js/training/verl-launch.js';
import { dictionaryText } from '../../web/js/i18n.js';

const fixture = JSON.parse(readFileSync(new URL('../fixtures/verl-v0.7.0-ppo-trainer-paths.json', import.meta.url), 'utf8'));
const PATHS = new Set(fixture.paths);
const core = await loadCore();
const byKey = new Map(CONFIG_FIELDS.map((f) => [f.key, f.core]));
const fromPatch = (patch) => core.experimentConfig(Object.fromEntries(Object.entries(patch).map(([k, v]) => [byKey.get(k), v])));
const overrides = (options) => Object.fromEntries(verlOverrides(core.experimentConfig(options)));

test('the fixture is verl v0.7.0 (f9c855f), read from its _generated_ppo_trainer.yaml', () => {
  assert.equal(fixture.header.commit, VERL_VERSION.commit);
  assert.equal(fixture.header.tag, 'v0.7.0');
  assert.equal(fixture.header.file, 'verl/trainer/config/_generated_ppo_trainer.yaml');
  for (const p of ['actor_rollout_ref', 'actor_rollout_ref.actor', 'actor_rollout_ref.actor.policy_loss.loss_mode', 'actor_rollout_ref.rollout.n', 'algorithm.norm_adv_by_std_in_grpo']) assert.ok(PATHS.has(p), p);
  assert.equal(fixture.leaves['actor_rollout_ref.actor.clip_ratio_c'], '3.0');
  assert.equal(fixture.leaves['actor_rollout_ref.actor.kl_loss_type'], 'low_var_kl');
  assert.equal(fixture.leaves['actor_rollout_ref.actor.clip_ratio_low'], '0.2');
});

test('every config field of the core’s table has exactly one verl rule (a rule, the toy’s own, or written with another field)', () => {
  assert.deepEqual(Object.keys(VERL_RULES).sort(), CONFIG_TABLE.fields.map((f) => f.name).sort());
  for (const [name, rule] of Object.entries(VERL_RULES)) {
    if (rule?.with) assert.equal(typeof VERL_RULES[rule.with], 'function', `${name} is written with ${rule.with}`);
  }
});

const runs = [
  ['default', {}],
  ...[...PRESETS, ...ANCESTOR_PRESETS].map((p) => [`preset ${p.id}`, p.patch]),
  ['every loss type', null],
];

test('every override path of the default run and of every preset is in verl v0.7.0’s config; no key twice', () => {
  const configs = runs.filter(([, patch]) => patch).map(([name, patch]) => [name, fromPatch(patch)]);
  for (const lossType of CONFIG_TABLE.fields.find((f) => f.name === 'lossType').options) {
    for (const importanceSamplingLevel of ['token', 'sequence']) {
      for (const beta of [0, 0.1]) configs.push([`${lossType} ${importanceSamplingLevel} beta ${beta}`, core.experimentConfig({ lossType, importanceSamplingLevel, beta, delta: 4, stepsPerGeneration: 2 })]);
    }
  }
  for (const mode of ['token_truncate', 'sequence_truncate', 'token_mask', 'sequence_mask']) {
    configs.push([`sampler ${mode}`, core.experimentConfig({ samplerMismatch: 0.3, samplerLag: 1, vllmImportanceSamplingMode: mode })]);
  }
  for (const [name, config] of configs) {
    const list = verlOverrides(config);
    const paths = list.map(([p]) => p);
    assert.deepEqual(paths.filter((p) => !PATHS.has(p)), [], `${name}: paths not in verl v0.7.0`);
    assert.equal(new Set(paths).size, paths.length, `${name}: a key twice`);
    // The script writes exactly these overrides (and nothing else outside comments).
    const script = verlLaunchScript(config, dictionaryText(en));
    const written = [...script.matchAll(/^ {4}(\S+?)=(\S+)/gm)].map((m) => [m[1], m[2]]);
    assert.deepEqual(written, list, name);
    for (const line of script.split('\n')) assert.ok(line === '' || line.startsWith('#') || /^( {4}\S+=|overrides=\(|\)|python3 -m verl\.trainer\.main_ppo )/.test(line), `${name}: ${line}`);
  }
});

test('the default run (dapo): vanilla + token-mean, group std, clip 0.2/0.28, no KL, batch sizes', () => {
  const o = overrides({});
  assert.equal(o['algorithm.adv_estimator'], 'grpo');
  assert.equal(o['algorithm.norm_adv_by_std_in_grpo'], 'True');
  assert.equal(o['actor_rollout_ref.actor.policy_loss.loss_mode'], 'vanilla');
  assert.equal(o['actor_rollout_ref.actor.loss_agg_mode'], 'token-mean');
  assert.equal(o['actor_rollout_ref.actor.clip_ratio_low'], '0.2');
  assert.equal(o['actor_rollout_ref.actor.clip_ratio_high'], '0.28');
  assert.equal(o['actor_rollout_ref.actor.use_kl_loss'], 'False');
  assert.equal(o['actor_rollout_ref.rollout.n'], '8');
  assert.equal(o['data.train_batch_size'], '8');
  assert.equal(o['actor_rollout_ref.actor.ppo_mini_batch_size'], '8');
  assert.equal(o['actor_rollout_ref.actor.ppo_micro_batch_size_per_gpu'], '64');
  assert.equal(o['actor_rollout_ref.actor.ppo_epochs'], '2');
  assert.equal(o['data.max_response_length'], '4');
  assert.equal(o['actor_rollout_ref.actor.optim.lr'], '0.002');
  assert.equal(o['trainer.total_training_steps'], '60');
  assert.equal(o['actor_rollout_ref.rollout.temperature'], '1.0');
  assert.ok(!('actor_rollout_ref.actor.kl_loss_coef' in o));
  const script = verlLaunchScript(core.experimentConfig({}), dictionaryText(en));
  assert.match(script, /^# delta=None: verl v0\.7\.0 has no equivalent — its vanilla loss always caps/m);
  assert.match(script, /^# maskTruncated=True: verl v0\.7\.0 has no equivalent/m);
  assert.match(script, /^python3 -m verl\.trainer\.main_ppo "\$\{overrides\[@\]\}" "\$@"$/m);
});

test('hand-checked: grpo, dr_grpo, cispo, sapo, a KL run, GSPO, rloo, scaleRewards none and batch', () => {
  assert.equal(overrides({ lossType: 'grpo' })['actor_rollout_ref.actor.loss_agg_mode'], 'seq-mean-token-mean');
  // The drGrpo preset: Dr. GRPO's normaliser and no std.
  const dr = Object.fromEntries(verlOverrides(fromPatch(PRESETS.find((p) => p.id === 'drGrpo').patch)));
  assert.equal(dr['actor_rollout_ref.actor.loss_agg_mode'], 'seq-mean-token-sum-norm');
  assert.equal(dr['actor_rollout_ref.actor.loss_scale_factor'], '4');
  assert.equal(dr['algorithm.norm_adv_by_std_in_grpo'], 'False');
  assert.equal(dr['actor_rollout_ref.actor.policy_loss.loss_mode'], 'vanilla');
  // The cispo preset (epsilon_high 5): TRL caps r at 5, no lower clip -> verl [0, 1 + 4].
  const cispo = Object.fromEntries(verlOverrides(fromPatch(PRESETS.find((p) => p.id === 'cispo').patch)));
  assert.equal(cispo['actor_rollout_ref.actor.policy_loss.loss_mode'], 'cispo');
  assert.equal(cispo['actor_rollout_ref.actor.loss_agg_mode'], 'token-mean');
  assert.equal(cispo['actor_rollout_ref.actor.clip_ratio_low'], '1.0');
  assert.equal(cispo['actor_rollout_ref.actor.clip_ratio_high'], '4.0');
  assert.equal(overrides({ lossType: 'cispo', epsHigh: 1.3 })['actor_rollout_ref.actor.clip_ratio_high'], '0.3');
  const sapo = overrides({ lossType: 'sapo', sapoTemperatureNeg: 2 });
  assert.equal(sapo['actor_rollout_ref.actor.policy_loss.loss_mode'], 'sapo');
  assert.equal(sapo['actor_rollout_ref.actor.tau_neg'], '2.0');
  assert.ok(!('actor_rollout_ref.actor.clip_ratio_low' in sapo));
  // The kl preset (beta 0.04): verl's KL loss with TRL's k3.
  const kl = Object.fromEntries(verlOverrides(fromPatch(PRESETS.find((p) => p.id === 'kl').patch)));
  assert.equal(kl['actor_rollout_ref.actor.use_kl_loss'], 'True');
  assert.equal(kl['actor_rollout_ref.actor.kl_loss_coef'], '0.04');
  assert.equal(kl['actor_rollout_ref.actor.kl_loss_type'], 'low_var_kl');
  assert.equal(kl['algorithm.use_kl_in_reward'], 'False');
  // The gspo preset: sequence-level importance sampling -> loss_mode gspo; dapo's normaliser is lost.
  const gspoConfig = fromPatch(PRESETS.find((p) => p.id === 'gspo').patch);
  assert.equal(Object.fromEntries(verlOverrides(gspoConfig))['actor_rollout_ref.actor.policy_loss.loss_mode'], 'gspo');
  assert.match(verlLaunchScript(gspoConfig, dictionaryText(en)), /^# lossType=dapo: verl v0\.7\.0 has no equivalent — its gspo loss is always seq-mean-token-mean/m);
  assert.ok(!verlEntries(core.experimentConfig({ importanceSamplingLevel: 'sequence', lossType: 'grpo' })).some((e) => e.none?.startsWith('lossType')));
  // delta: verl's dual clip for vanilla when above 1 + epsilon_high, else a comment.
  assert.equal(overrides({ delta: 4 })['actor_rollout_ref.actor.clip_ratio_c'], '4.0');
  assert.ok(!('actor_rollout_ref.actor.clip_ratio_c' in overrides({ delta: 1.1 })));
  assert.equal(overrides({ advantageEstimator: 'rloo' })['algorithm.adv_estimator'], 'rloo');
  assert.equal(overrides({ scaleRewards: 'none' })['algorithm.norm_adv_by_std_in_grpo'], 'False');
  const batch = core.experimentConfig({ scaleRewards: 'batch' });
  assert.ok(!('algorithm.norm_adv_by_std_in_grpo' in Object.fromEntries(verlOverrides(batch))));
  assert.match(verlLaunchScript(batch, dictionaryText(en)), /^# scaleRewards=batch: verl v0\.7\.0 has no equivalent/m);
  // No verl loss for luspo/vespo: a comment, no loss_mode.
  const luspo = core.experimentConfig({ lossType: 'luspo' });
  assert.ok(!('actor_rollout_ref.actor.policy_loss.loss_mode' in Object.fromEntries(verlOverrides(luspo))));
  assert.match(verlLaunchScript(luspo, dictionaryText(en)), /^# lossType=luspo: verl v0\.7\.0 has no equivalent/m);
  // A mini-batch that is not a whole number of prompts: a comment instead of ppo_mini_batch_size.
  const odd = core.experimentConfig({ promptBatch: 3, stepsPerGeneration: 2, groupSize: 4 });
  assert.ok(!('actor_rollout_ref.actor.ppo_mini_batch_size' in Object.fromEntries(verlOverrides(odd))));
  assert.match(verlLaunchScript(odd, dictionaryText(en)), /^# stepsPerGeneration=2: verl v0\.7\.0 has no equivalent — .*6 completions/m);
  // The sampler correction: token_truncate -> rollout_is token at clip_max.
  const corrected = Object.fromEntries(verlOverrides(fromPatch(PRESETS.find((p) => p.id === 'samplerCorrected').patch)));
  assert.equal(corrected['algorithm.rollout_correction.rollout_is'], 'token');
  assert.equal(corrected['algorithm.rollout_correction.rollout_is_threshold'], '3.0');
  assert.equal(corrected['actor_rollout_ref.rollout.calculate_log_probs'], 'True');
  assert.equal(Object.fromEntries(verlOverrides(fromPatch(PRESETS.find((p) => p.id === 'samplerMismatch').patch)))['algorithm.rollout_correction.rollout_is'], 'null');
});

test('the comments in both languages; the same overrides; the differences table has every string', () => {
  const config = core.experimentConfig({ lossType: 'luspo', scaleRewards: 'batch', dynamicSampling: true });
  const [a, b] = [en, ru].map((d) => verlLaunchScript(config, dictionaryText(d)));
  const body = (s) => s.split('\n').filter((l) => !l.startsWith('#'));
  assert.deepEqual(body(a), body(b));
  assert.match(b, /^# scaleRewards=batch: в verl v0\.7\.0 нет аналога — /m);
  for (const s of [a, b]) assert.ok(!/\{\w+\}|verl\.(why|note|none)/.test(s), s);
  for (const id of VERL_DIFFERENCES) for (const part of ['name', 'trl', 'verl']) for (const d of [en, ru]) assert.ok(d[`verl.diff.${id}.${part}`], `verl.diff.${id}.${part}`);
  for (const id of ['drGrpo', 'stdEps', 'cispoLow']) assert.ok(VERL_DIFFERENCES.includes(id));
  assert.match(en['verl.diff.stdEps.verl'], /1e-6/);
  assert.match(en['verl.diff.stdEps.trl'], /1e-4/);
});
