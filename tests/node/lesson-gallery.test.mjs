// The lessons gallery's table (web/js/training/lessons.js), cheaply: every lesson well formed with
// its EN and RU words, every arm a config the core accepts, the verdict chosen by the count of
// seeds its rule holds on (checked against hand-made numbers), and for every lesson two short
// pairs of real runs whose verdict and values sentence agree with the rule and the measures
// re-derived here from the runs' numbers.
// The counts over seeds 0-9 and the null control are the bench's (tools/lesson-gallery.mjs).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadCore } from '../../web/core/index.js';
import { t, loadLanguage } from '../../web/js/i18n.js';
import { LESSONS, armOptions, lessonById, lessonClaim, lessonText, lessonVerdict, needed } from '../../web/js/training/lessons.js';
import { coverageVerdict, passAtKVerdict, windowSize } from '../../web/js/training/verdicts.js';

const core = await loadCore();
await loadLanguage('en');
await loadLanguage('ru');
const en = (key, params) => t(key, params, 'en');
const ru = (key, params) => t(key, params, 'ru');
const { default: EN } = await import('../../web/js/i18n/en-lessons.js');
const { default: RU } = await import('../../web/js/i18n/ru-lessons.js');

test('the table: unique ids, both arms accepted by the core, EN and RU words for every lesson and outcome', () => {
  assert.equal(new Set(LESSONS.map((l) => l.id)).size, LESSONS.length);
  assert.deepEqual(Object.keys(EN).sort(), Object.keys(RU).sort(), 'the same keys in both languages');
  for (const lesson of LESSONS) {
    for (const part of ['name', 'question', 'claim', 'values']) assert.ok(EN[`lesson.${lesson.id}.${part}`], `${lesson.id}: lesson.${lesson.id}.${part}`);
    for (const arm of ['a', 'b']) {
      const config = core.experimentConfig(armOptions(lesson, arm, 0));
      for (const [field, value] of Object.entries({ ...lesson.base, ...lesson[arm] })) assert.deepEqual(config[field], value, `${lesson.id} ${arm}: ${field}`);
    }
    assert.notDeepEqual(armOptions(lesson, 'a', 0), armOptions(lesson, 'b', 0), `${lesson.id}: the arms differ`);
    // The claim names each threshold the rule reads, in both languages, with no {slot} left.
    for (const dict of [en, ru]) {
      const claim = lessonText(dict, lessonClaim(lesson));
      assert.doesNotMatch(claim, /[{}]/, `${lesson.id}: ${claim}`);
      for (const value of Object.values(lesson.thresholds)) assert.ok(claim.includes(String(value)), `${lesson.id}: "${claim}" names ${value}`);
    }
    assert.ok(lesson.values.length > 0 && typeof lesson.effect === 'function' && typeof lesson.measure === 'function');
  }
  for (const kind of ['shown', 'partly', 'none', 'noneOne', 'empty']) assert.ok(EN[`lesson.verdict.${kind}`] && RU[`lesson.verdict.${kind}`], kind);
});

test('the verdict follows the count: shown at >= 70% of the seeds, partly below, none at 0; plurals in EN and RU', () => {
  const lesson = lessonById('klBeta');
  // Hand-made results: arm B's KL is half of A's (the rule holds) on `hits` of n seeds.
  const run = (kl) => ({ afterTrain: { teacherForcedKl: kl, accuracy: 0.4 }, afterHeldout: { teacherForcedKl: kl } });
  const pairs = (hits, n) => Array.from({ length: n }, (_, seed) => ({ seed, a: run(0.4), b: run(seed < hits ? 0.2 : 0.4) }));
  const cases = [
    [7, 10, 'shown'], [10, 10, 'shown'], [6, 10, 'partly'], [0, 10, 'none'], [1, 1, 'shown'], [0, 1, 'noneOne'], [2, 4, 'partly'], [3, 4, 'shown'],
  ];
  for (const [hits, n, kind] of cases) {
    const v = lessonVerdict(lesson, pairs(hits, n));
    assert.equal(v.count, hits);
    assert.equal(v.kind, kind, `${hits}/${n}`);
    assert.equal(v.shows, hits >= needed(n));
  }
  assert.equal(lessonVerdict(lesson, [{ seed: 0, a: null, b: run(1) }]).kind, 'empty');
  const seven = lessonVerdict(lesson, pairs(7, 10));
  assert.equal(lessonText(en, seven.sentence), `Shown on 7 of 10 seeds (a lesson needs 7): ${lessonText(en, lessonClaim(lesson))}.`);
  assert.match(lessonText(ru, seven.sentence), /^Урок виден на 7 из 10 сидов \(нужно 7\): KL политики B/);
  assert.match(lessonText(ru, lessonVerdict(lesson, pairs(0, 1)).sentence), /^На этом сиде урок не виден: не оказалось, что KL/);
  assert.match(lessonText(ru, lessonVerdict(lesson, pairs(1, 2)).sentence), /лишь на 1 из 2 сидов оказалось/);
  assert.match(lessonText(en, seven.values), /^Means over 10 seeds: teacher-forced KL after RL on train prompts 0\.400 \(A\) and 0\.260 \(B\)/);
  assert.match(lessonText(ru, seven.values), /^Средние по 10 сидам: /);
});

// Short runs (a few updates, seeds 0 and 1): every lesson's verdict and the numbers beside it
// (its values sentence) against its rule and measures re-derived here from the runs' own numbers.
const SHORT = { updates: 8, finalEvalSamples: 16, warmupSteps: 40, trainPrompts: 16, heldoutPrompts: 8 };
const SEEDS = [0, 1];
const tail = (history, key) => {
  const rows = history.slice(-windowSize(history.length)).map((r) => r[key]).filter(Number.isFinite);
  return rows.reduce((s, x) => s + x, 0) / rows.length;
};
// The mean over the second half of the updates (rows 5-8 of 8 here).
const half = (history, key) => {
  const rows = history.slice(history.length - Math.round(history.length / 2)).map((r) => r[key]);
  return rows.reduce((s, x) => s + x, 0) / rows.length;
};
const concentrated = (r) => (coverageVerdict(r)?.kind === 'concentrated' ? 1 : 0);
// Per lesson: the numbers its values sentence names (by name), and its rule over them.
const CHECKS = {
  clipHigher: [(r) => ({ entropy: tail(r.history, 'evalEntropy'), accuracy: r.afterTrain.accuracy }), (a, b) => b.entropy - a.entropy > 0.02 && b.accuracy >= a.accuracy - 0.02],
  dynamicSampling: [
    (r) => ({ trained: 1 - r.history.reduce((s, x) => s + x.discardedFraction, 0) / r.history.length, zeroStd: r.history.reduce((s, x) => s + x.fracRewardZeroStd, 0) / r.history.length, accuracy: r.afterTrain.accuracy }),
    (a, b) => b.trained < a.trained && b.accuracy >= a.accuracy - 0.02,
  ],
  isCorrection: [
    (r) => ({ accuracy: half(r.history, 'evalAccuracy'), final: r.afterTrain.accuracy, logpDiff: tail(r.history, 'samplingLogpDifferenceMean') }),
    (a, b) => b.accuracy - a.accuracy > 0.05,
  ],
  klBeta: [(r) => ({ kl: r.afterTrain.teacherForcedKl, klHeldout: r.afterHeldout.teacherForcedKl, accuracy: r.afterTrain.accuracy }), (a, b) => b.kl < 0.8 * a.kl && b.klHeldout < 0.8 * a.klHeldout],
  adaptiveEntropy: [(r) => ({ entropy: tail(r.history, 'entropy'), gap: Math.abs(tail(r.history, 'entropy') - 0.7) }), (a, b) => b.gap < 0.05 && !(a.gap < 0.05)],
  overlong: [(r) => ({ truncated: tail(r.history, 'truncatedFraction'), accuracy: r.afterTrain.accuracy }), (a, b) => a.truncated - b.truncated > 0.02],
  lengthBias: [
    (r) => ({ incorrect: tail(r.history, 'meanLengthIncorrect'), correct: tail(r.history, 'meanLengthCorrect'), gap: tail(r.history, 'meanLengthIncorrect') - tail(r.history, 'meanLengthCorrect') }),
    (a, b) => b.gap > 0 && b.gap - a.gap > 2,
  ],
  coverage: [(r) => ({ concentrated: concentrated(r), solved: r.coverage.afterTrain.solved, share: r.coverage.afterTrain.topQuarterShare }), (a, b) => b.concentrated === 1 && a.concentrated === 0],
  passAtK: [
    (r) => {
      const v = passAtKVerdict(r.coverage.beforeTrain, r.coverage.afterTrain, r.coverage.samples);
      return { crossed: v.kind === 'crossed' ? 1 : 0, k: v.kind === 'crossed' ? v.k : NaN };
    },
    (a, b) => b.crossed === 1 && a.crossed === 0,
  ],
  ancestors: [(r) => ({ gain: r.afterTrain.accuracy - r.beforeTrain.accuracy, accuracy: r.afterTrain.accuracy, heldout: r.afterHeldout.accuracy }), (a, b) => b.gain - a.gain > 0.08],
};

test('every lesson has a check here', () => assert.deepEqual(Object.keys(CHECKS).sort(), LESSONS.map((l) => l.id).sort()));

for (const lesson of LESSONS) {
  test(`${lesson.id}: the verdict and the numbers beside it, on two short pairs of runs, are its rule and measures re-derived from the runs`, () => {
    const [numbers, rule] = CHECKS[lesson.id];
    const pairs = SEEDS.map((seed) => ({ seed, a: core.runToyGrpoExperiment({ ...armOptions(lesson, 'a', seed), ...SHORT }), b: core.runToyGrpoExperiment({ ...armOptions(lesson, 'b', seed), ...SHORT }) }));
    const v = lessonVerdict(lesson, pairs);
    const holds = pairs.map((p) => rule(numbers(p.a), numbers(p.b)));
    assert.deepEqual(v.rows.map((r) => r.shows), holds, 'per seed');
    assert.equal(v.count, holds.filter(Boolean).length);
    assert.equal(v.kind, v.count >= needed(SEEDS.length) ? 'shown' : v.count > 0 ? 'partly' : 'none');
    // The values sentence: each number the mean over the seeds of the number re-derived here.
    for (const name of lesson.values)
      for (const arm of ['a', 'b']) {
        const values = pairs.map((p) => numbers(p[arm])[name]).filter(Number.isFinite);
        const expected = values.length ? (values.reduce((x, y) => x + y, 0) / values.length).toFixed(3) : '—';
        assert.equal(v.values.params[`${arm}_${name}`], expected, `${arm}_${name}`);
      }
    for (const dict of [en, ru]) for (const sentence of [v.sentence, v.values]) assert.doesNotMatch(lessonText(dict, sentence), /[{}]|undefined|NaN/);
    const line = lessonText(en, v.values);
    for (const name of lesson.values)
      for (const arm of ['a', 'b']) if (EN[`lesson.${lesson.id}.values`].includes(`{${arm}_${name}}`)) assert.ok(line.includes(v.values.params[`${arm}_${name}`]), `${arm}_${name} in "${line}"`);
  });
}
