// The RL loop (sections 6-8) through the public JS API, over the real WASM build.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadCore } from '../../web/core/index.js';

const core = await loadCore();
const smoke = core.runToyGrpoExperiment({ profile: 'smoke', seed: 9, lossType: 'dapo' });

test('smoke run: shape of the result and the metrics before/after', () => {
  for (const key of ['config', 'beforeTrain', 'afterTrain', 'beforeHeldout', 'afterHeldout', 'history',
    'beforeTrainByPrompt', 'afterTrainByPrompt', 'checkpoint', 'prompts', 'vocab']) {
    assert.ok(key in smoke, `missing ${key}`);
  }
  for (const metrics of [smoke.beforeTrain, smoke.afterTrain, smoke.beforeHeldout, smoke.afterHeldout]) {
    for (const key of ['accuracy', 'meanReward', 'meanLength', 'entropy', 'teacherForcedKl', 'passAt4']) {
      assert.equal(typeof metrics[key], 'number', key);
      assert.ok(Number.isFinite(metrics[key]), key);
    }
  }
  assert.equal(smoke.history.length, smoke.config.updates, 'one history row per update');
  const row = smoke.history[0];
  for (const key of ['update', 'evalAccuracy', 'evalEntropy', 'informativeFraction', 'ratioMin', 'ratioMean',
    'ratioMax', 'clipFractionLow', 'clipFractionHigh', 'kl', 'loss', 'gradNorm']) {
    assert.equal(typeof row[key], 'number', key);
  }
  assert.equal(smoke.beforeTrainByPrompt.length, smoke.config.trainPrompts);
  assert.deepEqual(Object.keys(smoke.checkpoint.tensors).sort(), ['embedding.weight', 'gru.bias_hh_l0',
    'gru.bias_ih_l0', 'gru.weight_hh_l0', 'gru.weight_ih_l0', 'head.bias', 'head.weight']);
});

test('smoke run: the base policy is right sometimes, and RL raises train accuracy', () => {
  assert.ok(smoke.beforeTrain.accuracy >= 0.1 && smoke.beforeTrain.accuracy <= 0.6,
    `before-RL train accuracy ${smoke.beforeTrain.accuracy}`);
  assert.ok(smoke.afterTrain.accuracy > smoke.beforeTrain.accuracy,
    `${smoke.afterTrain.accuracy} <= ${smoke.beforeTrain.accuracy}`);
  assert.equal(smoke.beforeTrain.teacherForcedKl, 0, 'the reference is the base policy');
});

test('determinism: same seed, same numbers; another seed, other numbers', () => {
  const again = core.runToyGrpoExperiment({ profile: 'smoke', seed: 9, lossType: 'dapo' });
  assert.deepEqual(again.history, smoke.history);
  assert.deepEqual(again.afterTrain, smoke.afterTrain);
  const other = core.runToyGrpoExperiment({ profile: 'smoke', seed: 10, lossType: 'dapo' });
  assert.notDeepEqual(other.history, smoke.history);
});

test('progress is reported once per update, and stepwise runs match the one-shot run', () => {
  let calls = 0;
  core.runToyGrpoExperiment({ profile: 'smoke', seed: 9, updates: 5 }, (row) => {
    calls += 1;
    assert.equal(row.update, calls);
  });
  assert.equal(calls, 5);
  const experiment = core.createExperiment({ profile: 'smoke', seed: 9, lossType: 'dapo' });
  assert.equal(core.liveHandles(), 1);
  const rows = [];
  while (!experiment.done) rows.push(...experiment.step(7));
  const result = experiment.finish();
  experiment.dispose();
  experiment.dispose();  // safe twice
  assert.equal(core.liveHandles(), 0);
  assert.deepEqual(rows, smoke.history);
  assert.deepEqual(result.afterTrain, smoke.afterTrain);
});

test('bad configs throw a clear Error naming the field, and nothing is left behind', () => {
  const cases = [
    [{ groupSize: 1 }, /groupSize: must be an integer in \[2, 64\]/],
    [{ learningRate: -0.001 }, /learningRate: must be in \(0, 1\]/],
    [{ epsLow: 1.5 }, /epsLow:/],
    [{ epsHigh: -1 }, /epsHigh:/],
    [{ lossType: 'ppo' }, /lossType: must be one of 'grpo', 'bnpo', 'dr_grpo', 'dapo'/],
    [{ updates: 0 }, /updates:/],
    [{ profile: 'huge' }, /profile:/],
    [{ groupsize: 4 }, /groupsize: unknown option/],
    [{ maxNewTokens: 0 }, /maxNewTokens:/],
    [{ groupSize: 1e6 }, /groupSize:/],
    [{ updates: 1e9 }, /updates:/],
  ];
  for (const [overrides, pattern] of cases) {
    assert.throws(() => core.createExperiment({ profile: 'smoke', ...overrides }), pattern);
    assert.throws(() => core.runToyGrpoExperiment({ profile: 'smoke', ...overrides }), pattern);
  }
  assert.equal(core.liveHandles(), 0);
  assert.equal(core.verifyNumericAnswer('\\boxed{7}', '7'), 1);
});

test('arithmetic prompts: seeded split with ids, text, answers', () => {
  const prompts = core.arithmeticPrompts({ seed: 3, trainSize: 10, heldoutSize: 5 });
  assert.equal(prompts.length, 15);
  assert.equal(prompts.filter((p) => p.split === 'train').length, 10);
  for (const p of prompts) {
    assert.match(p.text, /^\d[+-]\d=$/);
    const [a, op, b] = [Number(p.text[0]), p.text[1], Number(p.text[2])];
    assert.equal(Number(p.answer), op === '+' ? a + b : a - b);
  }
  assert.deepEqual(core.arithmeticPrompts({ seed: 3, trainSize: 10, heldoutSize: 5 }), prompts);
  assert.notDeepEqual(core.arithmeticPrompts({ seed: 4, trainSize: 10, heldoutSize: 5 }), prompts);
});

test('collectRollouts: the notebook inspection of one fresh group', () => {
  const config = { groupSize: 4, promptBatch: 2, updates: 1, updateEpochs: 1, lossType: 'dapo' };
  const rollouts = core.collectRollouts(smoke.checkpoint, smoke.prompts, config,
    { seed: 9 + 777, generatorVersion: 'notebook-inspection' });
  assert.equal(rollouts.groups.length, 2);
  assert.equal(rollouts.groups[0].length, 4);
  for (const row of rollouts.groups[0]) {
    for (const key of ['promptId', 'responseTokens', 'responseText', 'reward', 'rewardComponents', 'accuracy',
      'status', 'length', 'terminated', 'oldLogProbs', 'generatorVersion', 'advantage']) {
      assert.ok(key in row, key);
    }
    assert.equal(row.generatorVersion, 'notebook-inspection');
    assert.equal(row.oldLogProbs.length, row.length);
    assert.ok(['correct', 'incorrect', 'no_answer', 'invalid', 'truncated'].includes(row.status));
  }
  assert.equal(typeof rollouts.discardedFraction, 'number');
  const again = core.collectRollouts(smoke.checkpoint, smoke.prompts, config,
    { seed: 9 + 777, generatorVersion: 'notebook-inspection' });
  assert.deepEqual(again, rollouts);
});

test('teacherForcedLogProbs: log-probs and per-parameter gradients of their sum', () => {
  const sequences = [[0, 10, 1], [5, 12, 3, 15]];
  const { logProbs, gradients } = core.teacherForcedLogProbs(smoke.checkpoint, sequences, { gradients: true });
  assert.deepEqual(logProbs.map((row) => row.length), [2, 3]);
  for (const row of logProbs) for (const value of row) assert.ok(value <= 0 && Number.isFinite(value));
  assert.deepEqual(gradients['gru.weight_hh_l0'].shape, smoke.checkpoint.tensors['gru.weight_hh_l0'].shape);
  const bad = structuredClone(smoke.checkpoint);
  bad.tensors['gru.weight_hh_l0'].shape = [3, 3];
  assert.throws(() => core.teacherForcedLogProbs(bad, sequences), /gru\.weight_hh_l0/);
  const missing = structuredClone(smoke.checkpoint);
  delete missing.tensors['head.bias'];
  assert.throws(() => core.teacherForcedLogProbs(missing, sequences), /head\.bias/);
});

test('grpoObjective through the API: on-policy grpo loss is 0 with a non-zero gradient', () => {
  const logProbs = [[-1, -2], [-0.5], [-1.5, -0.2, -0.3], [-2]];
  const result = core.grpoObjective({ rewards: [1, 0, 1, 0], groupSize: 4, logProbs, lossType: 'grpo' });
  assert.ok(Math.abs(result.loss) < 1e-12);
  assert.ok(result.gradLogProbs.flat().some((g) => g !== 0));
  assert.equal(result.advantages.length, 4);
  assert.throws(() => core.grpoObjective({ rewards: [1, 0, 1], groupSize: 4, logProbs: logProbs.slice(0, 3) }),
    /rewards/);
});
