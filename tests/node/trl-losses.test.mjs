// TRL 1.9's loss types and options through the real WASM module: grpoObjective's new keys, the
// entropy gradient, range errors naming the field, and a short training run per new loss type.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadCore } from '../../web/core/index.js';

const core = await loadCore();
const GROUP = { rewards: [1, 0], groupSize: 2, logProbs: [[-0.5], [-1.0, -0.2]], oldLogProbs: [[-0.7], [-1.1, -0.2]] };
const A = 0.5 / (Math.sqrt(0.5) + 1e-4);

test('grpoObjective: cispo caps the ratio at epsHigh itself (the notebook\'s 0.28)', () => {
  const r = core.grpoObjective({ ...GROUP, lossType: 'cispo', epsHigh: 0.28 });
  assert.ok(Math.abs(r.loss - (-0.196 * A) / 3) < 1e-12);
  assert.equal(r.metrics.clipRatioLowMean, null);
  assert.ok(Math.abs(r.metrics.cispoClipRatio - 1 / 3) < 1e-12);
});

test('grpoObjective: every TRL 1.9 loss type gives a finite loss and gradient', () => {
  for (const lossType of ['grpo', 'bnpo', 'dr_grpo', 'dapo', 'cispo', 'sapo', 'luspo', 'vespo']) {
    const r = core.grpoObjective({ ...GROUP, lossType, delta: 2, topEntropyQuantile: 0.5, entropies: [[0.3], [0.6, 1.2]], entropyCoef: 0.1 });
    assert.ok(Number.isFinite(r.loss), lossType);
    assert.ok(r.gradLogProbs.flat().every(Number.isFinite), lossType);
    assert.ok(r.gradEntropies.flat().some((g) => g < 0), lossType);
    assert.equal(r.config.lossType, lossType);
  }
});

test('grpoObjective: out-of-range TRL options are RangeErrors naming the field', () => {
  assert.throws(() => core.grpoObjective({ ...GROUP, topEntropyQuantile: 2, entropies: [[1], [1, 1]] }), { name: 'RangeError', message: 'topEntropyQuantile: must be in [0, 1], got 2' });
  assert.throws(() => core.grpoObjective({ ...GROUP, sapoTemperaturePos: 0 }), { message: 'sapoTemperaturePos: must be in (0, 100], got 0' });
  assert.throws(() => core.grpoObjective({ ...GROUP, topEntropyQuantile: 0.5 }), { message: /entropies: required when topEntropyQuantile < 1/ });
  assert.ok(Number.isFinite(core.grpoObjective(GROUP).loss), 'the module stays usable');
});

test('training runs each new loss type without NaN (4 smoke updates)', () => {
  for (const lossType of ['cispo', 'sapo', 'luspo', 'vespo']) {
    const run = core.runToyGrpoExperiment({ profile: 'smoke', seed: 9, updates: 4, lossType, epsHigh: lossType === 'cispo' ? 5 : 0.28, topEntropyQuantile: 0.5 });
    assert.equal(run.history.length, 4, lossType);
    for (const row of run.history) assert.ok(Number.isFinite(row.loss) && Number.isFinite(row.gradNorm), `${lossType} update ${row.update}`);
    assert.equal(run.config.lossType, lossType);
  }
});

test('grpoObjective: the sampler correction, its modes, its metrics and its errors', () => {
  // GROUP's dapo terms are -e^0.2 A, e^0.1 A, A over 3 tokens; d = old - sampling = {0.2}, {0, 0.3}.
  const sampler = { ...GROUP, lossType: 'dapo', epsHigh: 0.28, samplingLogProbs: [[-0.9], [-1.1, -0.5]] };
  const e = Math.exp;
  const close = (x, y, what) => assert.ok(Math.abs(x - y) < 1e-12, `${what}: ${x} vs ${y}`);
  // TRL's default mode, sequence_mask with clip max 3: completion 1's sum 0.3 gives e^0.3 per token.
  const dflt = core.grpoObjective(sampler);
  assert.equal(dflt.config.vllmImportanceSamplingMode, 'sequence_mask');
  assert.equal(dflt.config.vllmImportanceSamplingCorrection, true);
  close(dflt.loss, (A * (-e(0.4) + e(0.1) * e(0.3) + e(0.3))) / 3, 'sequence_mask');
  const token = core.grpoObjective({ ...sampler, vllmImportanceSamplingMode: 'token_mask', vllmImportanceSamplingClipMax: 1.25 });
  close(token.loss, (A * (-e(0.4) + e(0.1))) / 3, 'token_mask');
  close(token.metrics.samplingLogpDifferenceMax, 0.3, 'logp difference max');
  const off = core.grpoObjective({ ...sampler, vllmImportanceSamplingCorrection: false });
  close(off.loss, (A * (-e(0.2) + e(0.1) + 1)) / 3, 'off');
  assert.equal(core.grpoObjective(GROUP).metrics.samplingImportanceRatioMean, null); // no sampler
  assert.throws(() => core.grpoObjective({ ...sampler, vllmImportanceSamplingMode: 'token' }), { name: 'RangeError', message: /^vllmImportanceSamplingMode: must be one of 'token_truncate', 'token_mask', 'sequence_truncate', 'sequence_mask'/ });
  assert.throws(() => core.grpoObjective({ ...sampler, vllmImportanceSamplingClipMin: 4 }), { code: 'less_than_field', field: 'vllmImportanceSamplingClipMin' });
});

test('training logs TRL\'s metrics in every history row', () => {
  const run = core.runToyGrpoExperiment({ seed: 3, updates: 5, lossType: 'cispo', epsHigh: 5, samplerMismatch: 0.1, entropyCoef: 0.01 });
  for (const row of run.history) {
    for (const key of ['clipRatioLowMin', 'clipRatioHighMax', 'fracRewardZeroStd', 'minLength', 'maxLength', 'cispoClipRatio', 'samplingRatioMin', 'samplingRatioMean', 'samplingRatioMax', 'samplingLogpDifferenceMean', 'samplingLogpDifferenceMax', 'entropyCoef']) {
      assert.ok(Number.isFinite(row[key]), `${key} at update ${row.update}`);
    }
    assert.ok(row.minLength <= row.meanLength && row.meanLength <= row.maxLength);
    assert.ok(row.samplingRatioMin < row.samplingRatioMax, 'the mismatched sampler moves the ratios');
    assert.equal(row.entropyCoef, 0.01);
  }
  // An old run file (without these fields) still imports.
  const old = structuredClone(run);
  for (const row of old.history) for (const key of ['cispoClipRatio', 'samplingRatioMin', 'entropyCoef', 'minLength']) delete row[key];
  assert.equal(core.importRun(old).history.length, 5);
});

test('the lesson of the sampler-mismatch presets holds on every seed: the correction recovers accuracy and caps the ratios', () => {
  // samplerMismatch 0.5 (section 6's two presets): the sampler's weights rounded to multiples of
  // 0.5. Without the correction the raw learner/sampler ratios reach tens; with token_truncate
  // they are capped at 3, and the accuracy after RL is higher on each of these seeds.
  for (const seed of [1, 2, 3, 4, 5, 6]) {
    const run = (correction) => core.runToyGrpoExperiment({ seed, samplerMismatch: 0.5, vllmImportanceSamplingCorrection: correction, vllmImportanceSamplingMode: 'token_truncate' });
    const on = run(true);
    const off = run(false);
    const largest = (r) => Math.max(...r.history.map((row) => row.samplingRatioMax));
    assert.ok(on.afterTrain.accuracy > off.afterTrain.accuracy, `seed ${seed}: ${on.afterTrain.accuracy} vs ${off.afterTrain.accuracy}`);
    assert.ok(largest(on) <= 3 && largest(off) > 3, `seed ${seed}: ratios ${largest(on)} and ${largest(off)}`);
  }
});

test('training with TRL\'s reward options: normalize_then_sum and the soft overlong punishment', () => {
  const base = core.runToyGrpoExperiment({ seed: 4, updates: 4 });
  const run = core.runToyGrpoExperiment({ seed: 4, updates: 4, multiObjectiveAggregation: 'normalize_then_sum', overlongWeight: 0.5, overlongMaxCompletionLen: 3, softPunishCache: 1 });
  for (const row of run.history) assert.ok(Number.isFinite(row.loss) && row.meanReward >= -0.5, `update ${row.update}`);
  assert.notEqual(run.history[1].loss, base.history[1].loss);
  assert.throws(() => core.experimentConfig({ multiObjectiveAggregation: 'normalize_then_sum', advantageEstimator: 'rloo' }), { code: 'must_equal', field: 'advantageEstimator' });
});

test('grpoObjective: rewardsPerFunc with TRL\'s reward_weights and multi_objective_aggregation, by hand', () => {
  // Two groups of two, (correctness, format) = {(1, 1), (0, 1)}, {(1, 0), (1, 1)}, weights (1, 0.1).
  const batch = { groupSize: 2, logProbs: [[-0.5], [-1], [-0.7], [-0.2]], rewardsPerFunc: [[1, 1], [0, 1], [1, 0], [1, 1]], rewardWeights: [1, 0.1] };
  const close = (got, want, what) => got.forEach((x, i) => assert.ok(Math.abs(x - want[i]) < 1e-12, `${what}[${i}]: ${x} vs ${want[i]}`));
  // sum_then_normalize (TRL's default): the weighted sums 1.1, 0.1 | 1.0, 1.1, normalised per group.
  // Group 2 differs only in format (by 0.1), and its std is that 0.1's: its advantages are
  // -+0.05 / (0.05 sqrt 2 + 1e-4), nearly as large as group 1's +-a.
  const sum = core.grpoObjective(batch);
  close(sum.rewards, [1.1, 0.1, 1.0, 1.1], 'rewards');
  const b = 0.05 / (0.05 * Math.SQRT2 + 1e-4);
  close(sum.advantages, [A, -A, -b, b], 'advantages');
  // normalize_then_sum: each function normalised in its group (0 where equal), weighted, summed:
  // {a, -a, -0.1 a, 0.1 a}; then normalised over the batch (mean 0, std a sqrt(2.02 / 3), n - 1).
  const gdpo = core.grpoObjective({ ...batch, multiObjectiveAggregation: 'normalize_then_sum' });
  close(gdpo.rewards, [A, -A, -0.1 * A, 0.1 * A], 'rewards');
  const s = A * Math.sqrt(2.02 / 3) + 1e-4;
  close(gdpo.advantages, [A / s, -A / s, -0.1 * A / s, 0.1 * A / s], 'advantages');
  assert.equal(gdpo.config.multiObjectiveAggregation, 'normalize_then_sum');
  assert.deepEqual(gdpo.config.rewardWeights, [1, 0.1]);
  // One function with weight 1 is the plain `rewards`, to the bit.
  const plain = core.grpoObjective({ groupSize: 2, logProbs: batch.logProbs, rewards: [1, 0, 1, 1] });
  const column = core.grpoObjective({ groupSize: 2, logProbs: batch.logProbs, rewardsPerFunc: [[1], [0], [1], [1]] });
  assert.deepEqual(column.advantages, plain.advantages);
  assert.equal(column.loss, plain.loss);
  // Bad shapes name the field; the module stays usable.
  assert.throws(() => core.grpoObjective({ ...batch, rewards: [1, 0, 1, 1] }), { code: 'exclusive', field: 'rewards' });
  assert.throws(() => core.grpoObjective({ groupSize: 2, logProbs: batch.logProbs, rewards: [1, 0, 1, 1], rewardWeights: [1] }), { code: 'needs_field', field: 'rewardWeights' });
  assert.throws(() => core.grpoObjective({ ...batch, rewardWeights: [1, 0.1, 0.5] }), { code: 'same_length', field: 'rewardsPerFunc[0]' });
  assert.throws(() => core.grpoObjective({ ...batch, multiObjectiveAggregation: 'sum' }), { code: 'one_of', field: 'multiObjectiveAggregation' });
  assert.ok(Number.isFinite(core.grpoObjective(batch).loss));
});

test('softOverlongPunishment: TRL\'s get_soft_overlong_punishment, and as a third reward function', () => {
  // max_completion_len 4, soft_punish_cache 2: 0 up to 2 tokens, (2 - L) / 2 up to 4, then -1.
  assert.deepEqual(core.softOverlongPunishment({ lengths: [0, 2, 3, 4, 9], maxCompletionLen: 4, softPunishCache: 2 }), [0, 0, -0.5, -1, -1]);
  // A cache longer than the limit: TRL's ramp starts below 0 (other_rewards.py 132), (4 - 5 - 1) / 5.
  assert.deepEqual(core.softOverlongPunishment({ lengths: [1], maxCompletionLen: 4, softPunishCache: 5 }), [-0.4]);
  assert.throws(() => core.softOverlongPunishment({ lengths: [1.5], maxCompletionLen: 4, softPunishCache: 2 }), { code: 'integer_range', field: 'lengths[0]' });
  // Lengths 1 and 3 in one group: punishments 0 and -0.5; with weight 2 the sums are 1 and 0.
  const overlong = core.softOverlongPunishment({ lengths: [1, 3], maxCompletionLen: 4, softPunishCache: 2 });
  const r = core.grpoObjective({ groupSize: 2, logProbs: [[-1], [-1, -1, -1]], rewardsPerFunc: [[1, overlong[0]], [1, overlong[1]]], rewardWeights: [1, 2] });
  assert.deepEqual(r.rewards, [1, 0]);
});
