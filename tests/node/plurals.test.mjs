// A count in page text agrees with its noun ({n#noun}, web/js/i18n.js pluralForm) in both
// languages: no "{n} updates" template says "1 updates", and no Russian one says "64 ответов".
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { t, loadLanguage, setLanguage } from '../../web/js/i18n.js';
import en from '../../web/js/i18n/en.js';
import ru from '../../web/js/i18n/ru.js';

await loadLanguage('en');
await loadLanguage('ru');

// A placeholder, then a noun written in one fixed form (words, like {split}, are not counts).
const FIXED = {
  en: /\{(?!split\})(\w+)\} (prompts|answers|responses|completions|updates|seeds|runs|tokens|workers|batches)\b/g,
  ru: /\{(?!split\})(\w+)\} (промпт|ответ|сид|обновлени|токен|запуск|воркер|сери)[а-яё]*/g,
};

test('no count is followed by a noun in one fixed form, in English or in Russian', () => {
  for (const [lang, dictionary] of [['en', en], ['ru', ru]]) {
    const found = Object.entries(dictionary).flatMap(([key, text]) => [...String(text).matchAll(FIXED[lang])].map((m) => `${key}: ${m[0]}`));
    assert.deepEqual(found, [], `${lang}: use {n} {n#noun}`);
  }
});

test('every {n#noun} names a plural entry of its language', () => {
  for (const [lang, dictionary] of [['en', en], ['ru', ru]]) {
    for (const [key, text] of Object.entries(dictionary)) {
      for (const [, , noun] of String(text).matchAll(/\{(\w+)#([\w.]+)\}/g)) assert.ok(dictionary[`plural.${noun}`], `${lang} ${key}: plural.${noun}`);
    }
  }
});

test('Russian counts read right: the TRL batch note, a seed batch, progress, a warning', () => {
  setLanguage('ru');
  try {
    assert.match(t('train.real.batchNote', { prompts: 16, group: 4, completions: 64 }), /сэмплирует 16 промптов × 4 ответа = 64 ответа;/);
    assert.match(t('train.real.batchNote', { prompts: 21, group: 3, completions: 63 }), /21 промпт × 3 ответа = 63 ответа;/);
    assert.equal(t('compare.batchShort', { n: 1 }), 'среднее по 1 сиду');
    assert.equal(t('compare.batchShort', { n: 16 }), 'среднее по 16 сидам');
    assert.equal(t('train.progress', { done: 1, total: 21 }), '1 / 21 обновления');
    assert.equal(t('compare.running', { n: 2, workers: 1 }), '2 сида в 1 воркере…');
    assert.match(t('warn.no_answer_fits', { field: 'maxNewTokens', got: 1, needed: 2 }), /в 1 токен не помещается/);
  } finally {
    setLanguage('en');
  }
  assert.equal(t('compare.running', { n: 1, workers: 1 }), '1 seed in 1 worker…');
  assert.equal(t('train.progress', { done: 3, total: 60 }), '3 / 60 updates');
});
