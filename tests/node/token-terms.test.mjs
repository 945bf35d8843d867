// Section 3's curves and section 4's normalisers through the real WASM module: tokenTermCurve
// equals grpoObjective's per-token gradient (and loss) at sample points for every loss, its
// surrogate's slope in log r is its weight, lossNormalizer is what grpoObjective divides by, and
// bad input gets a coded error naming the field.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadCore } from '../../web/core/index.js';

const core = await loadCore();

// One token per completion, two completions (rewards 1, 0: A = +-0.7070...), at ratios chosen so
// that the clip, delta, CISPO's cap and SAPO's gate each act on some of them.
const RATIO_PAIRS = [[1.35, 0.7], [0.85, 1.1], [2.6, 0.3], [0.2, 3.4], [1, 1]];
const LOSSES = [
  { name: 'clip', options: { lossType: 'grpo', epsLow: 0.2, epsHigh: 0.28 } },
  { name: 'delta', options: { lossType: 'grpo', epsLow: 0.2, epsHigh: 0.28, delta: 1.5 } },
  { name: 'cispo (notebook 0.28)', options: { lossType: 'cispo', epsHigh: 0.28 } },
  { name: 'cispo (paper 5.0)', options: { lossType: 'cispo', epsHigh: 5 } },
  { name: 'sapo', options: { lossType: 'sapo', sapoTemperaturePos: 1, sapoTemperatureNeg: 1.05 } },
  { name: 'vespo', options: { lossType: 'vespo', vespoKPos: 2, vespoLambdaPos: 3, vespoKNeg: 3, vespoLambdaNeg: 2 } },
];
const RATIO_BASED = new Set(['grpo', 'sapo']);

function batch([r0, r1]) {
  const logProbs = [[-0.4], [-1.3]];
  return { rewards: [1, 0], groupSize: 2, logProbs, oldLogProbs: [[-0.4 - Math.log(r0)], [-1.3 - Math.log(r1)]] };
}

test('tokenTermCurve: the weight is -d loss / d logp of grpoObjective (one token, one completion), each loss', () => {
  for (const { name, options } of LOSSES) {
    for (const pair of RATIO_PAIRS) {
      const objective = core.grpoObjective({ ...batch(pair), ...options });
      const { advantages } = objective;
      // Each of the 2 tokens is divided by D = 2 (grpo, sapo: N * 1; cispo, vespo: 2 tokens).
      const D = core.lossNormalizer({ lossType: options.lossType, completions: 2, length: 1, totalTokens: 2, maxCompletionLength: 1 });
      assert.equal(D, 2);
      const ratios = [0, 1].map((i) => Math.exp(batch(pair).logProbs[i][0] - batch(pair).oldLogProbs[i][0]));
      const weight = core.tokenTermCurve({ ...options, ratios, advantages, view: 'weight' });
      for (const i of [0, 1]) {
        const expected = -objective.gradLogProbs[i][0] * D;
        assert.ok(Math.abs(weight[i] - expected) < 1e-12, `${name} at r=${pair[i]}, A=${advantages[i]}: weight ${weight[i]} vs ${expected}`);
      }
      if (RATIO_BASED.has(options.lossType)) {
        const j = core.tokenTermCurve({ ...options, ratios, advantages });
        const expectedLoss = -(j[0] + j[1]) / D;
        assert.ok(Math.abs(objective.loss - expectedLoss) < 1e-12, `${name} at ${pair}: loss ${objective.loss} vs ${expectedLoss}`);
      }
    }
  }
});

test('tokenTermCurve: the surrogate J rises in log r at the rate of the weight (five-point difference), each loss', () => {
  const h = 1e-4;
  for (const { name, options } of LOSSES) {
    for (const r of [0.15, 0.6, 0.95, 1.12, 1.6, 2.3, 4.2, 7]) {
      if (options.delta !== undefined && Math.abs(r - options.delta) < 0.01) continue; // the kink
      for (const a of [0.7, -0.7]) {
        const at = (dl) => core.tokenTermCurve({ ...options, ratios: [r * Math.exp(dl)], advantages: [a] })[0];
        const slope = (-at(2 * h) + 8 * at(h) - 8 * at(-h) + at(-2 * h)) / (12 * h);
        const [weight] = core.tokenTermCurve({ ...options, ratios: [r], advantages: [a], view: 'weight' });
        assert.ok(Math.abs(slope - weight) < 1e-7 * Math.max(1, Math.abs(weight)), `${name} r=${r} A=${a}: dJ/dlog r ${slope} vs weight ${weight}`);
      }
    }
  }
});

test('tokenTermCurve: CISPO caps the weight at epsHigh itself, and its surrogate meets r A below the cap', () => {
  const [w028, w5] = [0.28, 5].map((epsHigh) => core.tokenTermCurve({ lossType: 'cispo', epsHigh, ratios: [1.2], advantages: [1], view: 'weight' })[0]);
  assert.equal(w028, 0.28);
  assert.equal(w5, 1.2);
  assert.deepEqual(core.tokenTermCurve({ lossType: 'cispo', epsHigh: 5, ratios: [0.5, 2], advantages: [1, -1] }), [0.5, -2]);
});

test('lossNormalizer: each loss type\'s D for a completion of length L, as grpoObjective divides', () => {
  const at = (lossType) => core.lossNormalizer({ lossType, completions: 3, length: 4, totalTokens: 10, maxCompletionLength: 8 });
  assert.deepEqual(
    ['grpo', 'bnpo', 'dr_grpo', 'dapo', 'cispo', 'sapo', 'luspo', 'vespo'].map(at),
    [12, 10, 24, 10, 10, 12, 3, 10],
  );
});

test('bad input gets a coded error naming the field; the module stays usable', () => {
  const caught = (fn) => {
    try {
      fn();
    } catch (error) {
      return error;
    }
    assert.fail('no error');
  };
  const zero = caught(() => core.tokenTermCurve({ ratios: [1, 0], advantages: [1, 1] }));
  assert.equal(zero.name, 'RangeError');
  assert.equal(zero.field, 'ratios[1]');
  assert.match(zero.message, /^ratios\[1\]: must be a positive finite number, got 0/);
  const length = caught(() => core.tokenTermCurve({ ratios: [1, 2], advantages: [1] }));
  assert.equal(length.code, 'same_length');
  assert.equal(length.field, 'advantages');
  const delta = caught(() => core.tokenTermCurve({ ratios: [1], advantages: [1], delta: 0 }));
  assert.equal(delta.field, 'delta');
  const tau = caught(() => core.tokenTermCurve({ lossType: 'sapo', ratios: [1], advantages: [1], sapoTemperatureNeg: 0 }));
  assert.equal(tau.code, 'range');
  assert.equal(tau.field, 'sapoTemperatureNeg');
  const k = caught(() => core.tokenTermCurve({ lossType: 'vespo', ratios: [1], advantages: [1], vespoKNeg: 0 }));
  assert.equal(k.field, 'vespoKNeg');
  assert.equal(core.tokenTermCurve({ lossType: 'vespo', ratios: [1], advantages: [1], vespoKNeg: 0, view: 'weight' }).length, 1, 'the weight view has no k > 0 rule');
  assert.equal(caught(() => core.tokenTermCurve({ ratios: [1], advantages: [1], view: 'slope' })).field, 'view');
  assert.equal(caught(() => core.tokenTermCurve({ ratios: [1], advantages: [1], beta: 1 })).code, 'unknown_option');
  const total = caught(() => core.lossNormalizer({ lossType: 'dapo', completions: 2, length: 5, totalTokens: 4, maxCompletionLength: 8 }));
  assert.equal(total.field, 'totalTokens');
  assert.equal(caught(() => core.lossNormalizer({ lossType: 'ppo', completions: 2, length: 1, totalTokens: 4, maxCompletionLength: 8 })).field, 'lossType');
  assert.equal(core.tokenTermCurve({ ratios: [1], advantages: [1] })[0], 1, 'the module stays usable');
});
