// Each lesson's question names its settings from lessons.js (questionParams), never as fixed
// text: every placeholder is filled in English and Russian, and the numbers are the lesson's.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { LESSONS, questionParams } from '../../web/js/training/lessons.js';
import { loadLanguage, t } from '../../web/js/i18n.js';

await loadLanguage('en');
await loadLanguage('ru');

test('every lesson question is filled from its own settings, in both languages', () => {
  for (const lesson of LESSONS) {
    for (const lang of ['en', 'ru']) {
      const question = t(`lesson.${lesson.id}.question`, questionParams(lesson), lang);
      assert.doesNotMatch(question, /[{}]|undefined|NaN/, `${lesson.id} (${lang}): ${question}`);
    }
  }
  const isCorrection = LESSONS.find((l) => l.id === 'isCorrection');
  const en = t('lesson.isCorrection.question', questionParams(isCorrection), 'en');
  assert.ok(en.includes(`${isCorrection.base.samplerLag} updates behind (learning rate ${isCorrection.base.learningRate}, ${isCorrection.base.promptBatch} prompts`), en);
  const ru = t('lesson.isCorrection.question', { ...questionParams(isCorrection), samplerLag: 1 }, 'ru');
  assert.ok(ru.includes('отстаёт на 1 обновление'), ru);
  const klBeta = LESSONS.find((l) => l.id === 'klBeta');
  assert.ok(t('lesson.klBeta.question', questionParams(klBeta), 'en').startsWith(`Does β = ${klBeta.b.beta} keep the policy nearer the reference (teacher-forced KL) than β = ${klBeta.a.beta},`));
});
