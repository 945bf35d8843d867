// The lessons gallery's table (web/js/training/lessons.js), cheaply: every lesson well formed with
// its EN and RU words, every arm a config the core accepts, the verdict chosen by the count of
// seeds its rule holds on (checked against hand-made numbers), and one short pair of real runs
// per checked lesson whose verdict agrees with the rule re-derived here from the runs' numbers.
// The counts over seeds 0-9 and the null control are the bench's (tools/lesson-gallery.mjs).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadCore } from '../../web/core/index.js';
import { t, loadLanguage } from '../../web/js/i18n.js';
import { LESSONS, armOptions, lessonById, lessonClaim, lessonText, lessonVerdict, needed } from '../../web/js/training/lessons.js';

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
  const run = (kl) => ({ afterTrain: { teacherForcedKl: kl, accuracy: 0.4 } });
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
  assert.match(lessonText(en, seven.values), /^Means over 10 seeds: teacher-forced KL after RL 0\.400 \(A\) and 0\.260 \(B\)/);
  assert.match(lessonText(ru, seven.values), /^Средние по 10 сидам: /);
});

// Short runs (a few updates): each checked lesson's verdict against its rule re-derived here.
const SHORT = { updates: 6, finalEvalSamples: 16, warmupSteps: 60 };
const last = (history, key) => {
  const rows = history.slice(-Math.max(1, Math.floor(history.length / 4)));
  return rows.reduce((s, r) => s + r[key], 0) / rows.length;
};
const checks = {
  klBeta: (a, b) => b.afterTrain.teacherForcedKl < 0.8 * a.afterTrain.teacherForcedKl,
  adaptiveEntropy: (a, b) => Math.abs(last(b.history, 'entropy') - 0.7) < 0.05 && !(Math.abs(last(a.history, 'entropy') - 0.7) < 0.05),
  dynamicSampling: (a, b) => b.history.some((r) => r.discardedFraction > 0) && b.afterTrain.accuracy >= a.afterTrain.accuracy - 0.02,
};
for (const [id, rule] of Object.entries(checks)) {
  test(`${id}: the verdict of one short pair of runs (seed 0) agrees with its rule re-derived from the runs' numbers`, () => {
    const lesson = lessonById(id);
    const a = core.runToyGrpoExperiment({ ...armOptions(lesson, 'a', 0), ...SHORT });
    const b = core.runToyGrpoExperiment({ ...armOptions(lesson, 'b', 0), ...SHORT });
    const v = lessonVerdict(lesson, [{ seed: 0, a, b }]);
    assert.equal(v.count, rule(a, b) ? 1 : 0);
    assert.equal(v.kind, rule(a, b) ? 'shown' : 'noneOne');
    assert.match(lessonText(en, v.sentence), rule(a, b) ? /^Shown on 1 of 1 seed / : /^Did not show on this seed/);
  });
}
