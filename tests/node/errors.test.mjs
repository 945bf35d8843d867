// Errors of the core as JS sees them (real WASM build): code, field and params beside the English
// message; unknown option keys refused; every code with an EN and a RU text of its parameters.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadCore } from '../../web/core/index.js';
import en from '../../web/js/i18n/en-core.js';
import ru from '../../web/js/i18n/ru-core.js';

const core = await loadCore();

/** The error fn() throws (fails the test if it throws none). */
function caught(fn) {
  try {
    fn();
  } catch (error) {
    return error;
  }
  assert.fail('no error thrown');
}

test('a range error carries its code, field and params; the message is unchanged', () => {
  const error = caught(() => core.clippedSurrogateTerms([1.2], [1], 0.2, 50));
  assert.ok(error instanceof RangeError);
  assert.equal(error.message, 'epsHigh: must be in [0, 10], got 50');
  assert.equal(error.code, 'range');
  assert.equal(error.field, 'epsHigh');
  assert.deepEqual(error.params, { min: 0, max: 10, interval: '[0, 10]', got: 50 });
});

test('a wrong kind says what was typed, not a type name', () => {
  const error = caught(() => core.groupRelativeAdvantages([1, 'abc']));
  assert.ok(error instanceof TypeError);
  assert.equal(error.message, 'rewards[1]: must be a number, got "abc"');
  assert.equal(error.code, 'not_a_number');
  assert.equal(error.field, 'rewards[1]');
  assert.deepEqual(error.params, { got: 'abc' });
  const nan = caught(() => core.informativeGroupProbability(NaN, 4));
  assert.equal(nan.code, 'range');
  assert.ok(Number.isNaN(nan.params.got));
});

test('an option key a method does not read is refused, naming the nearest known key', () => {
  const batch = { rewards: [1, 0], logProbs: [[-1], [-2]], groupSize: 2 };
  assert.equal(typeof core.grpoObjective(batch).loss, 'number');
  const typo = caught(() => core.grpoObjective({ ...batch, epsilonHigh: 5 }));
  assert.ok(typo instanceof TypeError);
  assert.equal(typo.code, 'unknown_option');
  assert.equal(typo.field, 'epsilonHigh');
  assert.deepEqual(typo.params, { option: 'epsilonHigh', nearest: 'epsHigh' });
  assert.equal(typo.message, "epsilonHigh: unknown option (did you mean 'epsHigh'?)");
  assert.equal(caught(() => core.grpoObjective({ ...batch, betta: 3 })).params.nearest, 'beta');
  const steps = caught(() => core.syntheticModeTraining({ betaEntropy: 0.1, learningRate: 0.5, steps: 3, step: 1 }));
  assert.equal(steps.params.nearest, 'steps');
  assert.equal(caught(() => core.call('informativeGroupProbability', { p: 0.5, groupSize: 2, G: 4 })).code, 'unknown_option');
  // createExperiment's config keys are read and refused by its own reader.
  assert.ok(caught(() => core.experimentConfig({ epsilonHigh: 5 })) instanceof TypeError);
});

test('a code not yet converted keeps its field (from the message) and its message', () => {
  const error = caught(() => core.experimentConfig({ epsHigh: 50 }));
  assert.ok(error instanceof RangeError);
  assert.equal(error.field, 'epsHigh');
  assert.match(error.message, /^epsHigh: /);
  if (error.code === 'invalid') assert.equal(error.params.message, error.message);
});

test('errors of the JS wrapper carry codes too', () => {
  const error = caught(() => core.grpoObjective(3));
  assert.ok(error instanceof TypeError);
  assert.equal(error.code, 'not_an_object');
});

test('every core code has an EN and a RU text that use only its parameters', () => {
  const codes = core.messageCodes();
  assert.ok(codes.length >= 20);
  const listed = new Set(codes.map((entry) => `core.${entry.code}`));
  for (const { code, params } of codes) {
    const allowed = new Set(['field', ...params]);
    for (const [lang, dictionary] of [['en', en], ['ru', ru]]) {
      const text = dictionary[`core.${code}`];
      assert.equal(typeof text, 'string', `${lang} has no text for the core code ${code}`);
      for (const [, name] of text.matchAll(/\{(\w+)\}/g)) {
        assert.ok(allowed.has(name), `${lang} text of ${code} uses {${name}}, not a parameter of it`);
      }
    }
  }
  for (const dictionary of [en, ru]) {
    for (const key of Object.keys(dictionary)) assert.ok(listed.has(key), `${key} is no code of the core`);
  }
  assert.deepEqual(Object.keys(ru).sort(), Object.keys(en).sort());
});

test('the core keeps working after errors', () => {
  for (let i = 0; i < 1000; i += 1) caught(() => core.grpoObjective({ rewards: [1, 0], logProbs: [[-1], [-2]], groupSize: 2, x: i }));
  assert.equal(core.informativeGroupProbability(0.5, 2), 0.5);
});
