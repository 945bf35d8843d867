// The advantage estimators through the public JS API (real WASM): the section 3 method, the
// config field the trainer reads, and the TRL translation's note for an estimator TRL lacks.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadCore } from '../../web/core/index.js';
import { trlConfigPython } from '../../web/js/training/run-format.js';

const core = await loadCore();
const close = (actual, expected) =>
  actual.forEach((a, i) => assert.ok(Math.abs(a - expected[i]) < 1e-12, `[${i}] ${a} vs ${expected[i]}`));

test('estimateAdvantages: each estimator on two groups of 3 (hand-computed)', () => {
  const rewards = [2, 0, 1, 3, 3, 3]; // group means 1 and 3, batch mean 2
  close(core.estimateAdvantages(rewards, 3, 'dr_grpo'), [1, -1, 0, 0, 0, 0]);
  close(core.estimateAdvantages(rewards, 3, 'rloo'), [1.5, -1.5, 0, 0, 0, 0]);
  close(core.estimateAdvantages(rewards, 3, 'reinforce_baseline'), [0, -2, -1, 1, 1, 1]);
  close(core.estimateAdvantages(rewards, 3, 'reinforce'), rewards);
  close(core.estimateAdvantages(rewards, 3, 'grpo'), [1 / 1.0001, -1 / 1.0001, 0, 0, 0, 0]);
});

test('estimateAdvantages: bad input names the parameter, and the module stays usable', () => {
  assert.throws(() => core.estimateAdvantages([1, 0], 2, 'ppo'), /advantageEstimator: must be one of 'grpo', 'dr_grpo', 'rloo', 'reinforce_baseline', 'reinforce'/);
  assert.throws(() => core.estimateAdvantages([1, 0, 1], 2, 'rloo'), /rewards: length must be a positive multiple of groupSize/);
  assert.throws(() => core.estimateAdvantages([1, 0], 1, 'rloo'), /groupSize: must be an integer in \[2, 1000000\]/);
  close(core.estimateAdvantages([1, 0], 2, 'rloo'), [1, -1]);
});

test('the trainer reads advantageEstimator: runs differ by estimator and repeat exactly', () => {
  const run = (advantageEstimator) =>
    JSON.stringify(core.runToyGrpoExperiment({ profile: 'smoke', seed: 9, updates: 4, advantageEstimator }).history);
  const grpo = run('grpo');
  assert.equal(grpo, JSON.stringify(core.runToyGrpoExperiment({ profile: 'smoke', seed: 9, updates: 4 }).history), 'grpo is the default');
  const others = ['dr_grpo', 'rloo', 'reinforce_baseline', 'reinforce'].map(run);
  for (const other of others) assert.notEqual(other, grpo);
  assert.equal(run('rloo'), others[1], 'same seed and config, same bytes');
  assert.throws(() => core.runToyGrpoExperiment({ profile: 'smoke', advantageEstimator: 'ppo' }), /advantageEstimator: must be one of/);
});

test('the TRL translation says GRPOConfig has no advantage estimator', () => {
  const config = Object.fromEntries(core.configSchema().fields.map((f) => [f.name, f.defaults.full]));
  const notes = { estimator: ({ estimator }) => `advantageEstimator=${estimator}: no such field` };
  assert.doesNotMatch(trlConfigPython(config, notes), /no such field/);
  const python = trlConfigPython({ ...config, advantageEstimator: 'rloo' }, notes);
  assert.match(python, /# advantageEstimator=rloo: no such field/);
  assert.match(python, /advantageEstimator="rloo"/, 'listed among the untranslated fields');
});
