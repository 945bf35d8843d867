// A refusal at config time, as the refusal tests check it: the error `fn` throws, its code and
// field, and its sentence in EN and RU (trl-refusals.test.mjs, verl-presets.test.mjs).
import assert from 'node:assert/strict';
import { loadLanguage, setLanguage } from '../../web/js/i18n.js';
import { errorText } from '../../web/js/core-errors.js';

/** The error `fn` throws, checked for its code and field; with its sentence in EN and RU. */
export async function refusal(fn, code, field) {
  let error;
  try {
    fn();
  } catch (e) {
    error = e;
  }
  assert.ok(error, 'refused');
  assert.equal(error.name, 'RangeError');
  assert.equal(error.code, code, error.message);
  assert.equal(error.field, field);
  const texts = {};
  for (const lang of ['en', 'ru']) {
    setLanguage(await loadLanguage(lang));
    texts[lang] = errorText(error);
  }
  setLanguage(await loadLanguage('en'));
  for (const lang of ['en', 'ru']) assert.ok(texts[lang].startsWith(`${field}: `), texts[lang]);
  assert.notEqual(texts.ru, texts.en);
  return { error, texts };
}
