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
  assert.throws(() => core.grpoObjective({ ...GROUP, lossType: 'vespo', importanceSamplingLevel: 'sequence' }), { message: /importanceSamplingLevel: must be token for lossType vespo/ });
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
