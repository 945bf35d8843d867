// The page's logic without a browser: dictionaries (every key in both languages, the notebook's
// chart-label strings exactly), the URL-state schema (round trip, bad values fall back with a
// note) and the formula markup (every formula renders with KaTeX).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import katex from 'katex';
import en from '../../web/js/i18n/en.js';
import ru from '../../web/js/i18n/ru.js';
import { missingKeys, t, setLanguage, loadLanguage } from '../../web/js/i18n.js';
import { parseHash, formatHash, defaults, parseValue, createStore } from '../../web/js/state.js';
import { texPieces, splitMarkup } from '../../web/js/mathtext.js';

// The notebook constants, copied from seeds/000_*.txt (English) and seeds/004_*.txt (Russian).
const SEED_STRINGS = {
  en: {
    INFO_X: 'single-response success probability p',
    INFO_Y: 'informative-group probability',
    FINITE_REWARD: 'expected reward',
    FINITE_ENTROPY: 'entropy',
    FINITE_X: 'exact update step',
    BEFORE_TRAIN: 'before RL, train',
    AFTER_TRAIN: 'after RL, train',
    BEFORE_HELDOUT: 'before RL, held-out',
    AFTER_HELDOUT: 'after RL, held-out',
    HIST_ACCURACY: 'fresh-generation accuracy',
    HIST_ENTROPY: 'entropy',
    HIST_INFO: 'informative-group rate',
    HIST_X: 'update',
    RATIO_MIN: 'minimum ratio',
    RATIO_MEAN: 'mean ratio',
    RATIO_MAX: 'maximum ratio',
    COVERAGE_BEFORE: 'before RL',
    COVERAGE_AFTER: 'after RL',
    COVERAGE_Y: 'sampled accuracy',
    REAL_MODEL_SKIPPED: 'The real-model branch is disabled. Set RUN_REAL_MODEL=True only in a prepared GPU environment.',
  },
  ru: {
    INFO_X: 'вероятность успеха одного ответа p',
    INFO_Y: 'вероятность информативной группы',
    FINITE_REWARD: 'ожидаемая награда',
    FINITE_ENTROPY: 'энтропия',
    FINITE_X: 'шаг точного обновления',
    BEFORE_TRAIN: 'до RL, train',
    AFTER_TRAIN: 'после RL, train',
    BEFORE_HELDOUT: 'до RL, held-out',
    AFTER_HELDOUT: 'после RL, held-out',
    HIST_ACCURACY: 'точность свежей генерации',
    HIST_ENTROPY: 'энтропия',
    HIST_INFO: 'доля информативных групп',
    HIST_X: 'обновление',
    RATIO_MIN: 'минимальное отношение',
    RATIO_MEAN: 'среднее отношение',
    RATIO_MAX: 'максимальное отношение',
    COVERAGE_BEFORE: 'до RL',
    COVERAGE_AFTER: 'после RL',
    COVERAGE_Y: 'доля правильных ответов',
    REAL_MODEL_SKIPPED: 'Реальная ветвь выключена. Установите RUN_REAL_MODEL=True только в подготовленной GPU-среде.',
  },
};

test('every key exists in both languages', async () => {
  const missing = await missingKeys();
  assert.deepEqual(missing.ru, [], `missing in ru.js: ${missing.ru.join(', ')}`);
  assert.deepEqual(missing.en, [], `missing in en.js (extra in ru.js): ${missing.en.join(', ')}`);
});

test('no string is empty, and both languages use the same {placeholders}', () => {
  const names = (text) => [...text.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();
  for (const key of Object.keys(en)) {
    assert.ok(en[key].trim(), `en ${key} is empty`);
    assert.ok(ru[key]?.trim(), `ru ${key} is empty`);
    assert.deepEqual(names(ru[key]), names(en[key]), `placeholders differ for ${key}`);
  }
});

test('the notebook chart-label constants are exactly the seed strings of each language', () => {
  for (const [lang, strings] of Object.entries(SEED_STRINGS)) {
    const dictionary = lang === 'en' ? en : ru;
    for (const [key, value] of Object.entries(strings)) {
      assert.equal(dictionary[key], value, `${lang}.${key}`);
    }
  }
});

test('the seed files, when present beside the repository, agree with the dictionaries', (t) => {
  const dir = new URL('../../../shared/seeds/', import.meta.url);
  if (!existsSync(dir)) return t.skip('seed files not found next to the repository');
  let checked = 0;
  for (const [lang, prefix] of [['en', '000_'], ['ru', '004_']]) {
    const file = readdirSync(dir).find((name) => name.startsWith(prefix));
    if (!file) continue;
    const dictionary = lang === 'en' ? en : ru;
    for (const match of readFileSync(new URL(file, dir), 'utf8').matchAll(/^([A-Z_]+) = '(.*)'$/gm)) {
      assert.equal(dictionary[match[1]], match[2], `${lang}.${match[1]} differs from the seed`);
      checked += 1;
    }
  }
  assert.ok(checked >= 40, `expected 20 constants per language, checked ${checked}`);
});

test('t() fills placeholders and falls back to English', async () => {
  await Promise.all([loadLanguage('en'), loadLanguage('ru')]);
  setLanguage('ru');
  assert.equal(t('groups.col.pinfo', { g: 4 }), 'P_info, G=4');
  assert.equal(t('INFO_X'), SEED_STRINGS.ru.INFO_X);
  setLanguage('en');
  assert.equal(t('INFO_X'), SEED_STRINGS.en.INFO_X);
  setLanguage('xx');
  assert.equal(t('INFO_X'), SEED_STRINGS.en.INFO_X, 'an unknown language falls back to English');
  setLanguage('en');
});

test('every formula in both dictionaries renders with KaTeX (strict)', () => {
  let count = 0;
  for (const dictionary of [en, ru]) {
    for (const [key, text] of Object.entries(dictionary)) {
      for (const { tex, display } of texPieces(text)) {
        assert.doesNotThrow(
          () => katex.renderToString(tex, { displayMode: display, throwOnError: true, strict: 'error' }),
          `${key}: ${tex}`,
        );
        count += 1;
      }
    }
  }
  assert.ok(count >= 20, `expected the formulas of sections 1-5, found ${count}`);
});

test('markup splits text, code, strong and formulas', () => {
  assert.deepEqual(splitMarkup('a `x` **b** $y$ \\$5 $$z$$'), [
    { kind: 'text', value: 'a ' },
    { kind: 'code', value: 'x' },
    { kind: 'text', value: ' ' },
    { kind: 'strong', value: 'b' },
    { kind: 'text', value: ' ' },
    { kind: 'tex', value: 'y', display: false },
    { kind: 'text', value: ' $5 ' },
    { kind: 'tex', value: 'z', display: true },
  ]);
});

const SCHEMA = {
  lang: { kind: 'enum', options: ['en', 'ru'], default: 'en' },
  g: { kind: 'int', min: 1, max: 100, default: 8 },
  eps: { kind: 'number', min: 0, max: 10, default: 0.2 },
  on: { kind: 'bool', default: true },
  r: { kind: 'list', default: [1, 1, 0, 0] },
  text: { kind: 'text', default: 'Final: \\\\boxed{3/7}', maxLength: 50 },
};

test('state round-trips through the hash', () => {
  const values = { lang: 'ru', g: 16, eps: 0.28, on: false, r: [1, 0.5, -2], text: 'x = -3, 50% & \\boxed{1/2}' };
  const hash = formatHash(values, SCHEMA);
  const parsed = parseHash(`#${hash}`, SCHEMA);
  assert.deepEqual(parsed.values, values);
  assert.deepEqual(parsed.notes, []);
  assert.match(hash, /r=1,0.5,-2/, 'lists stay readable');
});

test('bad values fall back to their defaults with a note; unknown keys are noted', () => {
  const parsed = parseHash('#g=abc&eps=-1&on=maybe&r=1,,x&lang=fr&zzz=1&text=' + 'a'.repeat(60), SCHEMA);
  assert.deepEqual(parsed.values, defaults(SCHEMA));
  const keys = parsed.notes.map((note) => note.key).sort();
  assert.deepEqual(keys, ['eps', 'g', 'lang', 'on', 'r', 'text', 'zzz']);
  assert.ok(parsed.notes.find((n) => n.key === 'zzz').unknown);
  assert.equal(parsed.notes.find((n) => n.key === 'g').fallback, '8');
});

test('a plain "#section" is an anchor, not a setting', () => {
  const parsed = parseHash('#verifier', SCHEMA);
  assert.equal(parsed.extra.anchor, 'verifier');
  assert.deepEqual(parsed.notes, []);
});

test('number parsing rejects what is not a plain finite number', () => {
  for (const raw of ['', ' ', '1e400', 'NaN', 'Infinity', '0x10', '1,5']) {
    assert.ok('error' in parseValue({ kind: 'number' }, raw), raw);
  }
  assert.deepEqual(parseValue({ kind: 'int', min: 1, max: 10 }, '2.5').error[0], 'url.notInteger');
  assert.equal(parseValue({ kind: 'number' }, '-0.5e1').value, -5);
});

test('the store tells a subscriber only about its keys, with the source; unsubscribe stops it', () => {
  const store = createStore({ a: { kind: 'int', default: 1 }, b: { kind: 'int', default: 2 } });
  const heard = [];
  const all = [];
  const off = store.subscribe(['a'], (keys, source) => heard.push([keys, source]));
  store.subscribe((keys, source) => all.push([keys, source]));
  store.set({ b: 3 }, 'x');
  store.set({ a: 5, b: 3 }, 'y');
  store.set({ a: 5 }, 'z'); // no change: nobody hears it
  assert.deepEqual(heard, [[['a'], 'y']]);
  assert.deepEqual(all, [[['b'], 'x'], [['a'], 'y']]);
  off();
  store.set({ a: 6 }, 'w');
  assert.equal(heard.length, 1);
  assert.equal(store.get('a'), 6);
  // A listener that unsubscribes another during a set: the other is not called after.
  const order = [];
  let offLate = null;
  store.subscribe(['b'], () => {
    order.push('first');
    offLate();
  });
  offLate = store.subscribe(['b'], () => order.push('late'));
  store.set({ b: 7 }, 'v');
  assert.deepEqual(order, ['first']);
});
