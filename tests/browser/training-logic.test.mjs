// Sections 6-9's logic without a browser (web/js/training/run-format.js): config from the URL
// state, divergence checks, the notebook's coverage order and inspection request, run files
// through the core's validation, CSV tables, the TRL translation and Python number formatting.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseHash, formatHash } from '../../web/js/state.js';
import { nodeCore } from './helpers.mjs';
import {
  CONFIG_FIELDS,
  CONFIG_PARAMS,
  CONFIG_SCHEMA,
  HISTORY_COLUMNS,
  INSPECTION,
  configOptions,
  coverageCsv,
  coverageRows,
  coverageByBefore,
  divergentFields,
  divergentMetrics,
  estimateRemaining,
  formatSeconds,
  historyCsv,
  inspectionRequest,
  metricsCsv,
  pyFloat,
  runFile,
  trlConfigPython,
  validateRun,
} from '../../web/js/training/run-format.js';
import en from '../../web/js/i18n/en.js';
import ru from '../../web/js/i18n/ru.js';

test('the config fields cover every field issue 5 lists, each known to the core', async () => {
  const core = await nodeCore();
  const config = core.experimentConfig({ profile: 'smoke' });
  for (const name of ['groupSize', 'promptBatch', 'updates', 'updateEpochs', 'lossType', 'scaleRewards', 'epsLow', 'epsHigh', 'beta', 'temperature', 'learningRate', 'maxNewTokens', 'dynamicSampling', 'maskTruncated', 'importanceSamplingLevel']) {
    assert.ok(CONFIG_FIELDS.some((f) => f.core === name), name);
    assert.ok(name in config, name);
    assert.equal(CONFIG_PARAMS[name], CONFIG_FIELDS.find((f) => f.core === name).key);
  }
  for (const f of CONFIG_FIELDS) {
    assert.ok(en[`train.field.${f.core}`] && ru[`train.field.${f.core}`], `label of ${f.core}`);
    assert.ok(en[`train.group.${f.group}`] && ru[`train.group.${f.group}`], `${f.core}: the legend of its group '${f.group}'`);
    if (f.options) assert.ok(f.options.includes(config[f.core]), `${f.core}: default among the options`);
  }
});

test('URL state: only changed fields enter the link; #profile=full alone gives the full defaults', async () => {
  const core = await nodeCore();
  const schema = { profile: { kind: 'enum', options: ['smoke', 'full'], default: 'smoke' }, seed: { kind: 'int', min: 0, max: 4294967295, default: 9 }, ...CONFIG_SCHEMA };
  const full = parseHash('#profile=full', schema);
  assert.deepEqual(configOptions(full.values), { profile: 'full', seed: 9 });
  assert.equal(core.experimentConfig(configOptions(full.values)).updates, 160);
  const parsed = parseHash('#seed=5&rl.groupSize=4&rl.lr=0.002&rl.lossType=grpo&rl.dynamic=1', schema);
  assert.deepEqual(parsed.notes, []);
  assert.deepEqual(configOptions(parsed.values), { profile: 'smoke', seed: 5, groupSize: 4, learningRate: 0.002, lossType: 'grpo', dynamicSampling: true });
  assert.equal(formatHash(parsed.values, schema), 'profile=smoke&seed=5&rl.groupSize=4&rl.lossType=grpo&rl.lr=0.002&rl.dynamic=1');
  const bad = parseHash('#rl.lossType=ppo&rl.groupSize=abc', schema);
  assert.equal(bad.notes.length, 2);
  assert.equal(bad.values['rl.lossType'], null);
});

test('divergence: any NaN or infinite history field or metric is named', () => {
  assert.deepEqual(divergentFields({ update: 1, loss: 0.1, kl: 0, ratioMin: 0.9 }), []);
  assert.deepEqual(divergentFields({ update: 3, loss: NaN, kl: Infinity, ratioMax: -Infinity, gradNorm: 1 }), ['ratioMax', 'kl', 'loss']);
  const metrics = { accuracy: 1, meanReward: 1, meanLength: 2, entropy: NaN, teacherForcedKl: 0, passAt4: 1 };
  assert.deepEqual(divergentMetrics({ afterTrain: metrics }), ['afterTrain.entropy']);
});

test('coverage rows follow pandas sort_index on the prompt text; summaries count solved prompts', () => {
  const before = [
    { promptId: 0, prompt: '9-3=', accuracy: 0.5 },
    { promptId: 1, prompt: '1+1=', accuracy: 0 },
    { promptId: 2, prompt: '10+1=', accuracy: 0.25 },
  ];
  const after = [
    { promptId: 0, prompt: '9-3=', accuracy: 1 },
    { promptId: 1, prompt: '1+1=', accuracy: 0 },
    { promptId: 2, prompt: '10+1=', accuracy: 0.75 },
  ];
  const rows = coverageRows(before, after);
  assert.deepEqual(rows.map((r) => r.prompt), ['1+1=', '10+1=', '9-3=']);
  assert.deepEqual(rows.map((r) => r.after), [0, 0.75, 1]);
  assert.deepEqual(coverageRows(before, null).map((r) => r.after), [null, null, null]);
  // Section 8's chart order: by before-RL accuracy, highest first; a prompt solved before and
  // never after is lost (1+1= was never solved, so it is not lost).
  const lostAfter = after.map((r) => (r.promptId === 2 ? { ...r, accuracy: 0 } : r));
  const sorted = coverageByBefore(before, lostAfter);
  assert.deepEqual(sorted.map((r) => r.prompt), ['9-3=', '10+1=', '1+1=']);
  assert.deepEqual(sorted.map((r) => r.lost), [false, true, false]);
  assert.deepEqual(coverageByBefore(before, null).map((r) => r.lost), [false, false, false]);
});

test('the inspection request is the notebook’s: group 4, batch 2, 1 update, 1 epoch, dapo, seed + 777', () => {
  const run = { profile: 'full', seed: 9, maxNewTokens: 6, scaleRewards: 'none', formatWeight: 0.1, dynamicSampling: false, maxOperand: 9, trainPrompts: 64, heldoutPrompts: 32, lossType: 'grpo', groupSize: 16 };
  const first = inspectionRequest(run, 0);
  assert.equal(first.seed, 786);
  assert.equal(first.generatorVersion, 'notebook-inspection');
  for (const [key, value] of Object.entries(INSPECTION)) assert.equal(first.config[key], value, key);
  assert.equal(first.config.lossType, 'dapo');
  assert.equal(first.config.maxNewTokens, 6);
  assert.equal(inspectionRequest(run, 2).seed, 788);
});

test('a run file round-trips through the core’s validation; a broken one names the field', async () => {
  const core = await nodeCore();
  const result = core.runToyGrpoExperiment({ profile: 'smoke', seed: 2, updates: 5 });
  const file = JSON.parse(JSON.stringify(runFile(result, { source: 'live', status: 'finished' })));
  const back = validateRun(core, file);
  assert.deepEqual(back.history, result.history);
  assert.deepEqual(back.config, result.config);
  assert.deepEqual(back.afterTrainByPrompt, result.afterTrainByPrompt);
  assert.throws(() => validateRun(core, { ...file, format: 'other' }), /format/);
  assert.throws(() => validateRun(core, { ...file, config: { ...file.config, groupSize: 1 } }), /groupSize/);
  assert.throws(() => validateRun(core, { ...file, history: [{ update: 'x' }] }), /history\[0\]/);
  assert.throws(() => validateRun(core, { ...file, beforeTrain: { accuracy: 'x' } }), /beforeTrain\.accuracy/);
});

test('CSV tables: every history field at full precision; metrics and coverage as the notebook names them', async () => {
  const core = await nodeCore();
  const result = core.runToyGrpoExperiment({ profile: 'smoke', seed: 2, updates: 5 });
  const history = historyCsv(result).trim().split('\n');
  assert.equal(history[0], HISTORY_COLUMNS.map((c) => c.label).join(','));
  assert.equal(history.length, 6);
  // A column the run does not have (sampling/* without a sampler) is an empty cell.
  assert.deepEqual(history[5].split(',').map((v) => (v === '' ? undefined : Number(v))), HISTORY_COLUMNS.map((c) => result.history[4][c.key]));
  const metrics = metricsCsv(result, { BEFORE_TRAIN: 'до RL, train' }).trim().split('\n');
  assert.equal(metrics[0], 'row,accuracy,mean_reward,mean_length,entropy,teacher_forced_kl,pass_at_4');
  assert.match(metrics[1], /^"до RL, train",/);
  assert.equal(coverageCsv(result).trim().split('\n').length, 1 + result.beforeTrainByPrompt.length);
});

test('the toy config as TRL GRPOConfig arguments, with Python literals', async () => {
  const core = await nodeCore();
  const python = trlConfigPython(core.experimentConfig({ profile: 'smoke', learningRate: 0.00005, maskTruncated: false, lossType: 'dr_grpo' }), { batch: ({ prompts, group, completions }) => `${prompts} x ${group} = ${completions}` });
  for (const line of ['num_generations=8,', 'num_iterations=2,', 'loss_type="dr_grpo",', 'scale_rewards="group",', 'epsilon=0.2,', 'epsilon_high=0.28,', 'beta=0.0,', 'temperature=1.0,', 'max_completion_length=4,', 'mask_truncated_completions=False,', 'importance_sampling_level="token",', 'learning_rate=5e-05,', 'max_steps=60,', 'seed=9,']) {
    assert.ok(python.includes(line), line);
  }
  assert.match(python, /^from trl import GRPOConfig\n/);
  assert.match(python, /# 8 x 8 = 64\n$/);
  assert.deepEqual([0.001, 1, 5e-6, 1e-4, 0.00001, 123456.5, 1e16, 2.5e-10, 0].map(pyFloat), ['0.001', '1.0', '5e-06', '0.0001', '1e-05', '123456.5', '1e+16', '2.5e-10', '0.0']);
});

test('time left and elapsed read naturally', () => {
  assert.equal(estimateRemaining(1000, 0, 100), null);
  assert.equal(estimateRemaining(1000, 10, 100), 9000);
  assert.equal(estimateRemaining(1000, 100, 100), 0);
  assert.deepEqual([400, 12400, 125000].map((ms) => formatSeconds(ms)), ['0.4 s', '12 s', '2 min 05 s']);
  assert.equal(formatSeconds(125000, { s: 'с', min: 'мин' }), '2 мин 05 с');
});
