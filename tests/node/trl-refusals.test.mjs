// Issue 26 item 3: refuse what TRL refuses, accept what TRL accepts, at config time, with a
// message naming the fields in EN and RU. One test per row of docs/trl.md "Configs TRL refuses";
// lines of grpo_config.py / grpo_trainer.py at tag v1.9.0.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadCore } from '../../web/core/index.js';
import { refusal } from './refusal.mjs';

const core = await loadCore();
const GROUP = { rewards: [1, 0], groupSize: 2, logProbs: [[-1, -1, -1], [-1]], oldLogProbs: [[-1.1, -0.9, -1], [-1.2]] };
const SAMPLED = { ...GROUP, samplingLogProbs: [[-1.3, -0.8, -1], [-1.1]] };

test('config 1131: vllmImportanceSamplingClipMin must be less than ClipMax (equal is refused)', async () => {
  for (const fn of [
    () => core.experimentConfig({ vllmImportanceSamplingClipMin: 3 }),
    () => core.grpoObjective({ ...SAMPLED, vllmImportanceSamplingClipMin: 3 }),
  ]) {
    const { texts } = await refusal(fn, 'less_than_field', 'vllmImportanceSamplingClipMin');
    assert.equal(texts.en, 'vllmImportanceSamplingClipMin: must be less than vllmImportanceSamplingClipMax (3), got 3');
    assert.equal(texts.ru, 'vllmImportanceSamplingClipMin: должно быть меньше vllmImportanceSamplingClipMax (3), получено 3');
  }
  // Just below, and with max None, it holds.
  assert.equal(core.experimentConfig({ vllmImportanceSamplingClipMin: 2.999 }).vllmImportanceSamplingClipMin, 2.999);
  assert.equal(core.experimentConfig({ vllmImportanceSamplingClipMin: 10, vllmImportanceSamplingClipMax: null }).vllmImportanceSamplingClipMin, 10);
});

test('config 1141: a *_truncate mode with the correction on needs clipMin or clipMax', async () => {
  for (const mode of ['token_truncate', 'sequence_truncate']) {
    const both = { vllmImportanceSamplingMode: mode, vllmImportanceSamplingClipMax: null };
    const { texts } = await refusal(() => core.experimentConfig(both), 'truncate_needs_bound', 'vllmImportanceSamplingClipMax');
    assert.match(texts.en, new RegExp(`^vllmImportanceSamplingClipMax: vllmImportanceSamplingMode ${mode} clips the ratios, so vllmImportanceSamplingClipMax or vllmImportanceSamplingClipMin must be set; both are None$`));
    assert.match(texts.ru, /vllmImportanceSamplingClipMax или vllmImportanceSamplingClipMin/);
    await refusal(() => core.grpoObjective({ ...SAMPLED, ...both }), 'truncate_needs_bound', 'vllmImportanceSamplingClipMax');
    // Accepted as TRL accepts it: one bound, or the correction off, or a *_mask mode.
    assert.ok(core.experimentConfig({ ...both, vllmImportanceSamplingClipMin: 0.5 }));
    assert.ok(core.experimentConfig({ ...both, vllmImportanceSamplingCorrection: false }));
  }
  assert.ok(core.experimentConfig({ vllmImportanceSamplingMode: 'token_mask', vllmImportanceSamplingClipMax: null }));
});

test('trainer 911: VESPO with a sampler takes token_truncate or token_mask only', async () => {
  for (const mode of ['sequence_mask', 'sequence_truncate']) {
    const vespo = { lossType: 'vespo', vllmImportanceSamplingMode: mode };
    const { texts } = await refusal(() => core.experimentConfig({ ...vespo, samplerMismatch: 0.1 }), 'one_of_with', 'vllmImportanceSamplingMode');
    assert.equal(texts.en, `vllmImportanceSamplingMode: must be one of token_truncate, token_mask with lossType vespo, got ${mode}`);
    assert.equal(texts.ru, `vllmImportanceSamplingMode: при lossType = vespo должно быть одним из token_truncate, token_mask, получено ${mode}`);
    await refusal(() => core.grpoObjective({ ...SAMPLED, ...vespo }), 'one_of_with', 'vllmImportanceSamplingMode');
    // TRL raises only with vLLM (use_vllm) and the correction on: without a sampler, or off, it trains.
    assert.ok(core.experimentConfig(vespo));
    assert.ok(core.experimentConfig({ ...vespo, samplerMismatch: 0.1, vllmImportanceSamplingCorrection: false }));
    assert.ok(Number.isFinite(core.grpoObjective({ ...GROUP, ...vespo }).loss));
  }
  assert.ok(core.experimentConfig({ lossType: 'vespo', vllmImportanceSamplingMode: 'token_mask', samplerMismatch: 0.1 }));
});

test('trainer 897: VESPO at sequence level only warns in TRL: grpoObjective accepts it, as the trainer does, with the same phi', () => {
  // get_gamma_weights reads log_ratio_per_token whatever importance_sampling_level says; with
  // beta 0 the level changes nothing of VESPO's loss or gradient.
  const token = core.grpoObjective({ ...GROUP, lossType: 'vespo' });
  const sequence = core.grpoObjective({ ...GROUP, lossType: 'vespo', importanceSamplingLevel: 'sequence' });
  assert.equal(sequence.config.importanceSamplingLevel, 'sequence');
  assert.ok(Math.abs(sequence.loss - token.loss) < 1e-15, `${sequence.loss} vs ${token.loss}`);
  assert.deepEqual(sequence.gradLogProbs, token.gradLogProbs);
  assert.equal(sequence.metrics.vespoPhiSeqMean, token.metrics.vespoPhiSeqMean);
  const run = core.runToyGrpoExperiment({ profile: 'smoke', seed: 9, updates: 2, lossType: 'vespo', importanceSamplingLevel: 'sequence' });
  assert.ok(run.history.every((row) => Number.isFinite(row.loss)));
});

test('trainer 1146: syncRefModel needs beta > 0', async () => {
  const { texts } = await refusal(() => core.experimentConfig({ syncRefModel: true }), 'needs_positive', 'syncRefModel');
  assert.equal(texts.en, 'syncRefModel: needs beta > 0, got beta = 0');
  assert.ok(core.experimentConfig({ syncRefModel: true, beta: 0.01 }));
});

test('config 1117 and trainer 529: num_generations >= 2; as many reward weights as reward functions', async () => {
  await refusal(() => core.experimentConfig({ groupSize: 1 }), 'integer_range', 'groupSize');
  await refusal(() => core.grpoObjective({ ...GROUP, rewards: undefined, rewardsPerFunc: [[1, 0], [0, 0]], rewardWeights: [1, 0.5, 2] }), 'same_length', 'rewardsPerFunc[0]');
});

test('what TRL accepts with no rule: entropyCoefMin > entropyCoefMax, softPunishCache > overlongMaxCompletionLen', () => {
  // grpo_trainer.py 3202-3207: min(c + delta, max) when the entropy is at most the target, else
  // max(c - delta, min). With min 0.3 > max 0.1 and a target no entropy reaches: c = max(c - d, 0.3).
  const run = core.runToyGrpoExperiment({ profile: 'smoke', seed: 9, updates: 2, updateEpochs: 1, useAdaptiveEntropy: true, entropyCoef: 0, entropyTarget: 0, entropyCoefMin: 0.3, entropyCoefMax: 0.1 });
  assert.deepEqual(run.history.map((row) => row.entropyCoef), [0.3, 0.3]);
  // other_rewards.py 132: the ramp (max - cache - L) / cache starts below 0.
  assert.equal(core.experimentConfig({ softPunishCache: 5, overlongMaxCompletionLen: 3 }).softPunishCache, 5);
  assert.deepEqual(core.softOverlongPunishment({ lengths: [0, 3, 4], maxCompletionLen: 3, softPunishCache: 5 }), [-0.4, -1, -1]);
});
