// Why entropy falls (section 5, docs/entropy-mechanism.md) through the real WASM module: each
// step's exact entropy change beside -eta Cov(log p, p A), right to second order in eta; the
// sentence the page says is chosen from those numbers; a bad argument is a coded error.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadCore } from '../../web/core/index.js';
import { entropyClaim, entropySentence } from '../../web/js/sections/finite-policy.js';
import { dictionaryText } from '../../web/js/i18n.js';
import en from '../../web/js/i18n/en.js';
import ru from '../../web/js/i18n/ru.js';

const core = await loadCore();
const mechanism = (betaEntropy, learningRate, steps) => core.finiteEntropyMechanism({ betaEntropy, learningRate, steps });
const largest = (values) => Math.max(...values.map(Math.abs));

test('each row is a step of syntheticModeTraining: exact change, prediction, their difference', () => {
  const m = mechanism(0, 0.18, 60);
  assert.deepEqual(m.labels, ['A', 'B', 'C', 'D', 'E', 'F']);
  assert.deepEqual(m.step, [...Array(60).keys()]);
  for (const t of [0, 1, 30, 59]) {
    const before = core.syntheticModeTraining({ betaEntropy: 0, learningRate: 0.18, steps: t });
    const after = core.syntheticModeTraining({ betaEntropy: 0, learningRate: 0.18, steps: t + 1 });
    assert.ok(Math.abs(m.entropy[t] - before.entropy) < 1e-15, `H at ${t}`);
    assert.ok(Math.abs(m.exactChange[t] - (after.entropy - before.entropy)) < 1e-15, `change at ${t}`);
    assert.equal(m.difference[t], m.exactChange[t] - m.predictedChange[t]);
    const sum = m.contributions[t].reduce((a, b) => a + b, 0);
    assert.ok(Math.abs(sum - m.predictedChange[t]) < 1e-15, `contributions at ${t}`);
  }
  m.exactChange.forEach((e, t) => {
    assert.ok(e < 0 && m.predictedChange[t] < 0, `step ${t}: both fall`);
    assert.ok(Math.abs(m.difference[t]) < 0.05 * Math.abs(e), `step ${t}: within 5 %`);
  });
});

test('halving the learning rate divides the difference by about 4 (second order)', () => {
  for (const beta of [0, 0.3]) {
    const full = mechanism(beta, 0.18, 60);
    const half = mechanism(beta, 0.09, 120);
    const first = full.difference[0] / half.difference[0];
    const overall = largest(full.difference) / largest(half.difference);
    console.log(`beta ${beta}: step-0 ratio ${first.toFixed(4)}, largest-difference ratio ${overall.toFixed(4)}`);
    for (const ratio of [first, overall]) assert.ok(ratio > 3 && ratio < 5.5, `beta ${beta}: ratio ${ratio}`);
  }
});

test('the sentence is chosen from the numbers, in English and Russian', () => {
  const say = (dict, parts) => entropySentence(parts, dictionaryText(dict, dict === ru ? 'ru' : 'en'));
  const m = mechanism(0, 0.18, 60);
  const parts = entropyClaim(m);
  assert.deepEqual(parts.map((p) => p.key), ['finite.entropy.match', 'finite.entropy.fall']);
  assert.equal(parts[1].params.mode, 'A');
  assert.equal(parts[1].params.kind, 'finite.entropy.kind.confidentPositive');
  // Mode A's summed terms are the most negative of the six, and it is confident and advantaged.
  const sums = m.labels.map((_, k) => m.contributions.reduce((s, row) => s + row[k], 0));
  assert.equal(Math.min(...sums), sums[0]);
  m.advantages.forEach((row) => assert.ok(row[0] > 0));
  assert.match(say(en, parts), /^Over 60 steps, the first-order prediction .* every time and is within 0\.00024 of it .*; mode A, confident .* with a positive advantage, drives it down most: -0\.56 of the predicted -0\.67 over the run\.$/);
  assert.match(say(ru, parts), /^За 60 шагов предсказание первого порядка .* каждый раз совпадает по знаку .*; сильнее всего её снижает мода A, уверенная .* и с положительным преимуществом: -0\.56 из предсказанных -0\.67 за весь прогон\.$/);
  assert.match(say(ru, entropyClaim(mechanism(0, 0.18, 1))), /^За 1 шаг /);
  assert.match(say(ru, entropyClaim(mechanism(0, 0.18, 3))), /^За 3 шага /);
  assert.match(say(en, entropyClaim(mechanism(0, 0.18, 1))), /^Over 1 step, /);
  // A strong bonus: entropy rises over the run, and one step near the end has the other sign.
  const bonus = entropyClaim(mechanism(3, 0.18, 60));
  assert.deepEqual(bonus.map((p) => p.key), ['finite.entropy.matchSome', 'finite.entropy.rise']);
  assert.equal(bonus[0].params.k, 59);
  assert.deepEqual(entropyClaim(mechanism(0, 0, 5)).map((p) => p.key), ['finite.entropy.still']);
  assert.deepEqual(entropyClaim(mechanism(0, 0.18, 0)).map((p) => p.key), ['finite.entropy.none']);
});

test('a bad argument is an Error with code, field and params, and the module stays usable', () => {
  let error;
  try {
    mechanism(0, 20, 60);
  } catch (caught) {
    error = caught;
  }
  assert.ok(error instanceof RangeError);
  assert.equal(error.code, 'range');
  assert.equal(error.field, 'learningRate');
  assert.deepEqual(error.params, { min: 0, max: 10, interval: '[0, 10]', got: 20 });
  assert.equal(error.message, 'learningRate: must be in [0, 10], got 20');
  assert.throws(() => mechanism(-1, 0.18, 3), (e) => e.field === 'betaEntropy' && e.code === 'range');
  assert.throws(() => mechanism(0, 0.18, 2.5), (e) => e.field === 'steps');
  assert.throws(() => core.finiteEntropyMechanism({ betaEntropy: 0, learningRate: 0.18, steps: 3, step: 1 }), (e) => e.code === 'unknown_option' && e.params.nearest === 'steps');
  assert.throws(() => core.finiteEntropyMechanism('fast'), TypeError);
  assert.equal(mechanism(0, 0.18, 60).step.length, 60);
});
