// The public JS API for notebook sections 1-5, over the real WASM build.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadCore } from '../../web/core/index.js';

const core = await loadCore();
const close = (actual, expected, tolerance = 1e-12) =>
  assert.ok(Math.abs(actual - expected) <= tolerance, `${actual} is not within ${tolerance} of ${expected}`);

test('loadCore caches one core', async () => {
  assert.equal(await loadCore(), core);
});

test('section 1: the five notebook verifier cases hold exactly', () => {
  const cases = [
    ['Final: \\\\boxed{3/7}', '0.428571', 1],
    ['The reference number 42 is mentioned, but the answer is 41', '42', 0],
    ['First \\\\boxed{2}, then corrected: \\\\boxed{3}', '3', 1],
    ['No numerical answer', '5', 0],
    ['1/0', '0', 0],
  ];
  for (const [text, reference, expected] of cases) {
    assert.equal(core.verifyNumericAnswer(text, reference), expected, text);
  }
  const checked = core.checkNumericAnswer('1/0', '0');
  assert.equal(checked.status, 'invalid');
  assert.equal(checked.accuracy, 0);
  assert.equal(typeof checked.reason, 'string');
  const boxed = core.checkNumericAnswer('Final: \\\\boxed{3/7}', '0.428571');
  assert.equal(boxed.status, 'correct');
  assert.equal(boxed.candidate, '3/7');
  close(boxed.value, 3 / 7);
  assert.equal(core.checkNumericAnswer('No numerical answer', '5').status, 'no_answer');
});

test('section 2: informative groups and expected draws', () => {
  for (const p of [0.01, 0.1, 0.5, 0.9, 0.99]) {
    close(core.informativeGroupProbability(p, 8), 1 - p ** 8 - (1 - p) ** 8, 1e-12);
    close(core.expectedDrawsForInformativeGroups(100, p, 8), 100 / (1 - p ** 8 - (1 - p) ** 8), 1e-6);
  }
  assert.equal(core.expectedDrawsForInformativeGroups(100, 0, 8), Infinity);
  const ps = [0.001, 0.3, 0.999];
  assert.deepEqual(core.informativeGroupCurve(ps, 4), ps.map((p) => core.informativeGroupProbability(p, 4)));
  assert.throws(() => core.informativeGroupCurve([0.5, 1.5], 4), /p: must be a probability in \[0, 1\], got 1.5/);
  assert.equal(core.expectedDrawsForInformativeGroups(100, 0.5, 1), Infinity);
});

test('section 3: advantages sum to zero and the clip table', () => {
  const advantages = core.groupRelativeAdvantages([1, 1, 0, 0], true);
  assert.ok(Math.abs(advantages.reduce((a, b) => a + b, 0)) < 1e-10);
  assert.deepEqual(core.groupRelativeAdvantages([1, 1, 0, 0], false), [0.5, 0.5, -0.5, -0.5]);
  assert.deepEqual(core.groupRelativeAdvantages([1, 1, 0, 0]), advantages, 'scale defaults to true');
  const ratios = [1.35, 0.85, 1.1, 0.7];
  assert.deepEqual(core.clipActivity(ratios, advantages, 0.2, 0.2), [true, false, false, true]);
  const terms = core.clippedSurrogateTerms(ratios, advantages, 0.2, 0.2);
  close(terms[0], 1.2 * advantages[0]);
  close(terms[3], 0.8 * advantages[3]);
});

test('section 4: the notebook reduction table', () => {
  const rewards = [1, 0, 1];
  const lengths = [2, 5, 8];
  const a = core.groupRelativeAdvantages(rewards, true);
  const c = core.groupRelativeAdvantages(rewards, false);
  const original = core.responseContributions(core.originalGrpoTokenWeights(rewards, lengths));
  const dr = core.responseContributions(core.drGrpoTokenWeights(rewards, lengths, 8));
  const dapoWeights = core.dapoTokenWeights(rewards, lengths);
  const dapo = core.responseContributions(dapoWeights);
  for (let i = 0; i < 3; i += 1) {
    close(original[i], a[i] / 3);
    close(dr[i], (c[i] * lengths[i]) / 24);
    close(dapo[i], (a[i] * lengths[i]) / 15);
  }
  assert.equal(core.flattenTokenWeights(dapoWeights).length, 15);
  assert.deepEqual(dapoWeights.map((row) => row.length), lengths);
});

test('section 5: finite policy trends and the entropy bonus', () => {
  const states = Array.from({ length: 61 }, (_, steps) =>
    core.syntheticModeTraining({ betaEntropy: 0, learningRate: 0.18, steps }));
  for (let step = 1; step <= 60; step += 1) {
    assert.ok(states[step].expectedReward > states[step - 1].expectedReward);
    assert.ok(states[step].entropy < states[step - 1].entropy);
    const pass = (s) => core.passAtKIndependent(s.successfulMass, 4);
    assert.ok(pass(states[step]) > pass(states[step - 1]));
  }
  close(core.categoricalEntropy(states[60].probabilities), states[60].entropy, 1e-12);
  const bonus = core.syntheticModeTraining({ betaEntropy: 0.3, learningRate: 0.18, steps: 60 });
  assert.ok(bonus.entropy > states[60].entropy + 0.3);
  assert.equal(states[0].modes.length, states[0].probabilities.length);
});

// Every bad input throws a JS Error naming the parameter; the next call still answers.
const BAD_CALLS = [
  ['informativeGroupProbability', [NaN, 8], RangeError, /p: .*\[0, 1\]/],
  ['informativeGroupProbability', [2, 8], RangeError, /p: .*\[0, 1\]/],
  ['informativeGroupProbability', [Infinity, 8], RangeError, /p:/],
  ['informativeGroupProbability', [0.5, 0], RangeError, /groupSize: .*\[1,/],
  ['informativeGroupProbability', [0.5, 2.5], RangeError, /groupSize: must be an integer/],
  ['informativeGroupProbability', ['0.5', 8], TypeError, /p: must be a number/],
  ['informativeGroupProbability', [0.5], TypeError, /groupSize: is required/],
  ['expectedDrawsForInformativeGroups', [-5, 0.5, 8], RangeError, /n:/],
  ['expectedDrawsForInformativeGroups', [100, -0.1, 8], RangeError, /p:/],
  ['groupRelativeAdvantages', [[], true], RangeError, /rewards: must be a non-empty/],
  ['groupRelativeAdvantages', [[1, NaN]], RangeError, /rewards\[1\]: must be a finite/],
  ['groupRelativeAdvantages', ['1,0'], TypeError, /rewards: must be an array/],
  ['groupRelativeAdvantages', [[1, 'a']], TypeError, /rewards\[1\]: must be a number/],
  ['groupRelativeAdvantages', [[1, 0], 'yes'], TypeError, /scale: must be true or false/],
  ['clippedSurrogateTerms', [[1, 2], [1], 0.2, 0.2], RangeError, /advantages: must have the same length/],
  ['clippedSurrogateTerms', [[-1], [1], 0.2, 0.2], RangeError, /ratios\[0\]: .*> 0/],
  ['clippedSurrogateTerms', [[1], [1], 1.5, 0.2], RangeError, /epsLow: must be in \[0, 1\)/],
  ['clipActivity', [[1], [1], 0.2, -1], RangeError, /epsHigh:/],
  ['clipActivity', [[1], [Infinity], 0.2, 0.2], RangeError, /advantages\[0\]/],
  ['originalGrpoTokenWeights', [[1, 0], [2]], RangeError, /lengths: must have the same length as rewards \(2\), got 1/],
  ['originalGrpoTokenWeights', [[1, 0], [2, 0]], RangeError, /lengths\[1\]: must be an integer in \[1,/],
  ['dapoTokenWeights', [[1, 0], [2, -3]], RangeError, /lengths\[1\]/],
  ['dapoTokenWeights', [[1, 0], [2, 1.5]], RangeError, /lengths\[1\]: must be an integer/],
  ['drGrpoTokenWeights', [[1, 0], [2, 5], 4], RangeError, /fixedLength: must be an integer in \[5/],
  ['responseContributions', [[[1], 'x']], TypeError, /tokenWeights\[1\]: must be an array/],
  ['categoricalEntropy', [[0.5, 0.6]], RangeError, /probabilities: must sum to 1/],
  ['categoricalEntropy', [[2, -1]], RangeError, /probabilities\[0\]: must be in \[0, 1\]/],
  ['passAtKIndependent', [1.5, 4], RangeError, /p:/],
  ['passAtKIndependent', [0.5, 0], RangeError, /k: must be an integer in \[1,/],
  ['passAtKUnbiased', [4, 5, 2], RangeError, /c:/],
  ['verifyNumericAnswer', ['5', 'five'], RangeError, /reference:/],
  ['verifyNumericAnswer', ['5', ''], RangeError, /reference:/],
  ['verifyNumericAnswer', ['5', '1/0'], RangeError, /reference:/],
  ['verifyNumericAnswer', [5, '5'], TypeError, /text: must be a string/],
  ['checkNumericAnswer', ['5', null], TypeError, /reference: is required/],
];

for (const [method, args, ErrorType, pattern] of BAD_CALLS) {
  test(`${method}(${JSON.stringify(args)}) throws ${ErrorType.name} ${pattern}`, () => {
    assert.throws(() => core[method](...args), (error) => {
      assert.ok(error instanceof ErrorType, `${error.constructor.name}: ${error.message}`);
      assert.match(error.message, pattern);
      return true;
    });
    // The core answers correctly on the very next call.
    assert.equal(core.verifyNumericAnswer('\\boxed{7}', '7'), 1);
    close(core.informativeGroupProbability(0.5, 2), 0.5);
  });
}

test('syntheticModeTraining rejects bad options', () => {
  assert.throws(() => core.syntheticModeTraining({ betaEntropy: -1, learningRate: 0.18, steps: 3 }), /betaEntropy:/);
  assert.throws(() => core.syntheticModeTraining({ betaEntropy: 0, learningRate: NaN, steps: 3 }), /learningRate:/);
  assert.throws(() => core.syntheticModeTraining({ betaEntropy: 0, learningRate: 0.1, steps: -2 }), /steps:/);
  assert.throws(() => core.syntheticModeTraining('fast'), TypeError);
});

test('many errors do not leak: 20 000 bad calls leave the heap where it was', () => {
  for (let i = 0; i < 200; i += 1) assert.throws(() => core.informativeGroupProbability(2, 8));
  const before = core.call('memoryStats', {}).heapInUse;
  const heapBefore = core.heapBytes();
  for (let i = 0; i < 20000; i += 1) assert.throws(() => core.informativeGroupProbability(2, 8));
  assert.equal(core.call('memoryStats', {}).heapInUse, before);
  assert.equal(core.heapBytes(), heapBefore);
  close(core.informativeGroupProbability(0.5, 2), 0.5);
});
