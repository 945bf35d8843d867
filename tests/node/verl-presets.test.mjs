// Issue 27 item 2: the trainer with engine verl. Section 6's verl presets give the verl launch
// (section 9) their Hydra overrides, every path in verl v0.7.0's config; a short run of each
// preset and of every loss mode and estimator (remax with its greedy baseline) stays finite and
// logs verl's metric names; the TRL-only options are refused with engine verl, naming both
// fields, in EN and RU.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadCore } from '../../web/core/index.js';
import { refusal } from './refusal.mjs';
import { cli } from './run-cli.mjs';
import { PRESETS, VERL_PRESETS } from '../../web/js/training/presets.js';
import { CONFIG_FIELDS } from '../../web/js/training/run-config.js';
import { verlLaunchScript, verlOverrides } from '../../web/js/training/verl-launch.js';
import { trlConfigPython, trlNotes } from '../../web/js/training/run-format.js';
import { loadLanguage, t } from '../../web/js/i18n.js';

const core = await loadCore();
await loadLanguage('en');
const PATHS = new Set(JSON.parse(readFileSync(new URL('../fixtures/verl-v0.7.0-ppo-trainer-paths.json', import.meta.url), 'utf8')).paths);
const byKey = new Map(CONFIG_FIELDS.map((f) => [f.key, f.core]));
const options = (patch) => Object.fromEntries(Object.entries(patch).map(([k, v]) => [byKey.get(k), v]));
const A = 'actor_rollout_ref.actor';
// A few updates on small batches: a smoke test of the path, not of learning.
const SHORT = { profile: 'smoke', seed: 9, updates: 3, warmupSteps: 30, trainPrompts: 16, heldoutPrompts: 4, promptBatch: 4, finalEvalSamples: 4, evalSamples: 1 };

test('the six verl presets are in section 6, each with engine verl', () => {
  assert.deepEqual(VERL_PRESETS.map((p) => p.id), ['verlGrpo', 'dapoVerl', 'gmpo', 'clipCov', 'klCov', 'reinforcePP']);
  for (const p of VERL_PRESETS) {
    assert.ok(PRESETS.includes(p), p.id);
    assert.equal(core.experimentConfig(options(p.patch)).engine, 'verl', p.id);
  }
});

test('section 9 writes each verl preset’s own options as verl’s Hydra overrides (paths in verl v0.7.0)', () => {
  const expected = {
    verlGrpo: { 'algorithm.adv_estimator': 'grpo', [`${A}.policy_loss.loss_mode`]: 'vanilla', [`${A}.loss_agg_mode`]: 'token-mean', [`${A}.clip_ratio_low`]: '0.2', [`${A}.clip_ratio_high`]: '0.2', [`${A}.clip_ratio_c`]: '3.0', [`${A}.use_kl_loss`]: 'True', [`${A}.kl_loss_coef`]: '0.001', [`${A}.kl_loss_type`]: 'low_var_kl', 'algorithm.norm_adv_by_std_in_grpo': 'True' },
    dapoVerl: { [`${A}.policy_loss.loss_mode`]: 'vanilla', [`${A}.loss_agg_mode`]: 'token-mean', [`${A}.clip_ratio_low`]: '0.2', [`${A}.clip_ratio_high`]: '0.28', [`${A}.clip_ratio_c`]: '10.0', [`${A}.use_kl_loss`]: 'False' },
    gmpo: { [`${A}.policy_loss.loss_mode`]: 'geo_mean', [`${A}.clip_ratio_low`]: '0.4', [`${A}.clip_ratio_high`]: '0.4' },
    clipCov: { [`${A}.policy_loss.loss_mode`]: 'clip_cov', [`${A}.policy_loss.clip_cov_ratio`]: '0.02', [`${A}.policy_loss.clip_cov_lb`]: '0.0', [`${A}.policy_loss.clip_cov_ub`]: '5.0' },
    klCov: { [`${A}.policy_loss.loss_mode`]: 'kl_cov', [`${A}.policy_loss.kl_cov_ratio`]: '0.02', [`${A}.policy_loss.ppo_kl_coef`]: '1.0' },
    reinforcePP: { 'algorithm.adv_estimator': 'reinforce_plus_plus', [`${A}.use_kl_loss`]: 'True', [`${A}.kl_loss_coef`]: '0.001', [`${A}.kl_loss_type`]: 'low_var_kl' },
  };
  for (const p of VERL_PRESETS) {
    const list = verlOverrides(core.experimentConfig(options(p.patch)));
    assert.deepEqual(list.map(([path]) => path).filter((path) => !PATHS.has(path)), [], p.id);
    const got = Object.fromEntries(list);
    for (const [path, value] of Object.entries(expected[p.id])) assert.equal(got[path], value, `${p.id}: ${path}`);
  }
  // Every loss mode and estimator: paths in verl's config; reinforce through bypass mode.
  for (const verlLossMode of CONFIG_FIELDS.find((f) => f.core === 'verlLossMode').options) {
    const list = verlOverrides(core.experimentConfig({ engine: 'verl', verlLossMode, beta: 0.1 }));
    assert.deepEqual(list.map(([path]) => path).filter((path) => !PATHS.has(path)), [], verlLossMode);
    const got = Object.fromEntries(list);
    if (verlLossMode === 'reinforce') assert.equal(got['algorithm.rollout_correction.loss_type'], 'reinforce');
    else assert.equal(got[`${A}.policy_loss.loss_mode`], verlLossMode);
  }
  // Every estimator (remax too: the trainer samples its greedy baseline) as algorithm.adv_estimator.
  for (const verlAdvEstimator of CONFIG_FIELDS.find((f) => f.core === 'verlAdvEstimator').options) {
    const list = verlOverrides(core.experimentConfig({ engine: 'verl', verlAdvEstimator }));
    assert.deepEqual(list.map(([path]) => path).filter((path) => !PATHS.has(path)), [], verlAdvEstimator);
    assert.equal(Object.fromEntries(list)['algorithm.adv_estimator'], verlAdvEstimator);
  }
  // engine trl writes none of verl's own fields (the default launch as before); the TRL
  // GRPOConfig cell names them among the settings it has no argument for.
  assert.equal(Object.fromEntries(verlOverrides(core.experimentConfig({})))[`${A}.clip_ratio_c`], undefined);
  const verlRun = core.experimentConfig(options(VERL_PRESETS[0].patch));
  assert.match(trlConfigPython(verlRun), /# no GRPOConfig argument: .*engine="verl", verlLossMode="vanilla"/);
  const notes = trlNotes(t);
  assert.ok(trlConfigPython(verlRun, notes).includes(`# ${notes.engine()}`));
  assert.ok(!trlConfigPython(core.experimentConfig({}), notes).includes(`# ${notes.engine()}`));
});

const finite = (run, name) => {
  for (const row of run.history) {
    for (const key of ['loss', 'gradNorm', 'ratioMean', 'actor/pg_loss']) assert.ok(Number.isFinite(row[key]), `${name}, update ${row.update}: ${key} = ${row[key]}`);
    for (const [key, value] of Object.entries(row)) if (key.startsWith('actor/')) assert.ok(Number.isFinite(value), `${name}: ${key}`);
  }
};

test('a short run of each verl preset, every loss mode and every estimator: finite, with verl’s metric names', () => {
  const accuracies = {};
  for (const p of VERL_PRESETS) {
    const run = core.runToyGrpoExperiment({ ...SHORT, ...options(p.patch) });
    finite(run, p.id);
    accuracies[p.id] = run.afterTrain.accuracy;
  }
  console.log(`# verl presets, 3 short updates: after-train accuracy ${JSON.stringify(accuracies)}`);
  for (const verlLossMode of CONFIG_FIELDS.find((f) => f.core === 'verlLossMode').options) {
    const run = core.runToyGrpoExperiment({ ...SHORT, engine: 'verl', verlLossMode, clipCovRatio: 0.05, clipCovLb: 0, klCovRatio: 0.05, beta: 0.01 });
    finite(run, verlLossMode);
    if (['vanilla', 'cispo', 'geo_mean'].includes(verlLossMode)) assert.ok('actor/pg_clipfrac_lower' in run.history[0], verlLossMode);
    if (verlLossMode !== 'gpg') assert.ok('actor/ppo_kl' in run.history[0], verlLossMode);
    assert.ok('actor/kl_loss' in run.history[0], verlLossMode);
  }
  for (const verlAdvEstimator of CONFIG_FIELDS.find((f) => f.core === 'verlAdvEstimator').options) {
    finite(core.runToyGrpoExperiment({ ...SHORT, engine: 'verl', verlAdvEstimator }), verlAdvEstimator);
  }
  // engine trl: no verl names in the history.
  const trl = core.runToyGrpoExperiment(SHORT);
  assert.deepEqual(Object.keys(trl.history[0]).filter((k) => k.startsWith('actor/')), []);
});

test('a run with verl’s metric names imports again as itself', () => {
  const run = core.runToyGrpoExperiment({ ...SHORT, ...options(VERL_PRESETS[0].patch) });
  const again = core.importRun(run);
  assert.deepEqual(again.history, run.history);
});

test('engine verl refuses the TRL-only options, naming both fields, in EN and RU', async () => {
  const cases = [
    [{ importanceSamplingLevel: 'sequence' }, 'importanceSamplingLevel'],
    [{ scaleRewards: 'batch' }, 'scaleRewards'],
    [{ useAdaptiveEntropy: true }, 'useAdaptiveEntropy'],
    [{ delta: 2 }, 'delta'],
    [{ samplerMismatch: 0.5 }, 'samplerMismatch'],
  ];
  for (const [patch, field] of cases) {
    assert.doesNotThrow(() => core.experimentConfig(patch), field); // engine trl accepts it
    const { texts } = await refusal(() => core.experimentConfig({ engine: 'verl', ...patch }), 'one_of_with', field);
    for (const text of Object.values(texts)) assert.ok(text.includes('engine'), text);
  }
  assert.throws(() => core.experimentConfig({ engine: 'verl', clipCovLb: 6 }), { code: 'less_than_field', field: 'clipCovLb' });
});

test('grpo-lab notebook --set with a verl preset: section 9’s verl launch is the run’s, every path in verl v0.7.0; section 7 logs verl’s names', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'grpo-lab-verl-'));
  try {
    const json = join(dir, 'notebook.json');
    // Section 6's GMPO preset, on --set as train takes it.
    const gmpo = VERL_PRESETS.find((p) => p.id === 'gmpo');
    const sets = Object.entries({ ...options(gmpo.patch), updates: 3 }).flatMap(([k, v]) => ['--set', `${k}=${v}`]);
    const { code, stdout, stderr } = await cli(['notebook', ...sets, '--json', json]);
    assert.equal(code, 0, stderr);
    const data = JSON.parse(readFileSync(json, 'utf8'));
    const config = data.sections[5].config;
    assert.equal(config.engine, 'verl');
    assert.equal(config.verlLossMode, 'geo_mean');
    const launch = data.sections[8].verlLaunch;
    assert.equal(launch, verlLaunchScript(core.experimentConfig(config), (key, params) => t(key, params)));
    assert.ok(stdout.includes(launch.trimEnd()), 'printed');
    const written = [...launch.matchAll(/^ {4}(\S+?)=(\S+)/gm)].map((m) => [m[1], m[2]]);
    assert.deepEqual(written, verlOverrides(core.experimentConfig(config)));
    assert.deepEqual(written.map(([path]) => path).filter((path) => !PATHS.has(path)), []);
    assert.equal(Object.fromEntries(written)[`${A}.policy_loss.loss_mode`], 'geo_mean');
    assert.equal(Object.fromEntries(written)[`${A}.clip_ratio_high`], '0.4');
    const history = data.sections[6].tables.find((table) => table.name === 'history');
    const column = history.columns.indexOf('actor/pg_loss');
    assert.ok(column > 0 && history.data.every((row) => Number.isFinite(row[column])), 'actor/pg_loss in every row');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  // A verl field out of its options, and a TRL-only option with engine verl: usage errors naming it.
  for (const [args, message] of [
    [['notebook', '--set', 'verlLossMode=ppo'], /--set verlLossMode=ppo: verlLossMode: .*vanilla/],
    [['notebook', '--set', 'engine=verl', '--set', 'importanceSamplingLevel=sequence'], /importanceSamplingLevel.*engine/],
  ]) {
    const bad = await cli(args);
    assert.equal(bad.code, 2, args.join(' '));
    assert.match(bad.stderr, message);
  }
});
