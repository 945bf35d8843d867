// Numbers in page text have a decimal point in both languages (docs/DEVELOPING.md, Conventions):
// no Russian dictionary string writes a decimal comma, numbers that need a locale go through
// i18n.js formatNumber (never Intl.NumberFormat or toLocaleString elsewhere), and what it renders
// in Russian has a point.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { formatNumber, t, loadLanguage, setLanguage } from '../../web/js/i18n.js';
import { formatWork } from '../../web/js/training/link-plan.js';
import { fmt, short } from '../../web/js/dom.js';
import ru from '../../web/js/i18n/ru.js';

const WEB_JS = fileURLToPath(new URL('../../web/js/', import.meta.url));

// Keys whose prose may put a comma between digits; none today (the verifier's examples of
// thousands groups, `1,000` and `3, 4`, are code spans, which are not prose).
const COMMA_BETWEEN_DIGITS = new Set([]);
const prose = (text) => String(text).replace(/`[^`]*`/g, ' ');

test('no Russian dictionary string writes a decimal comma (code spans aside)', () => {
  const found = Object.entries(ru)
    .filter(([key]) => !COMMA_BETWEEN_DIGITS.has(key))
    .flatMap(([key, text]) => [...prose(text).matchAll(/\d+,\d+/g)].map((m) => `${key}: ${m[0]}`));
  assert.deepEqual(found, [], 'write 0.28, not 0,28');
  assert.match(ru['verifier.body'], /`1,000`/, 'the verifier rules keep their thousands examples, as code');
  assert.match(ru['train.preset.cispo'], /5\.0/);
});

test('formatNumber: a decimal point in Russian too, the language\'s own grouping and unit words', () => {
  assert.equal(formatNumber(0.28, {}, 'ru'), '0.28');
  assert.equal(formatNumber(2.87, { maximumFractionDigits: 1 }, 'ru'), '2.9');
  assert.equal(formatNumber(12345.5, {}, 'ru'), '12\u00a0345.5');
  assert.equal(formatNumber(12345.5, {}, 'en'), '12,345.5');
  assert.equal(formatWork(5400, 'ru'), '1.5 часа');
  assert.equal(formatWork(5400, 'en'), '1.5 hours');
  assert.equal(formatWork(40, 'ru'), '40 секунд');
  assert.equal(fmt(0.28, 2), '0.28');
  assert.equal(short(1.05), '1.05');
});

test('rendered Russian text: numbers filled into a template keep their point', async () => {
  await loadLanguage('ru');
  setLanguage('ru');
  try {
    const text = t('setup.where.offline.active', { files: 113, size: formatNumber(2.87, { maximumFractionDigits: 1 }) });
    assert.match(text, /2\.9/);
    assert.doesNotMatch(text, /\d,\d/);
  } finally {
    setLanguage('en');
  }
});

test('only i18n.js formats numbers with Intl (so no other path writes a locale\'s decimal comma)', () => {
  const files = readdirSync(WEB_JS, { recursive: true }).filter((file) => file.endsWith('.js') && !file.startsWith('i18n/'));
  const found = files.filter((file) => file !== 'i18n.js' && /Intl\.NumberFormat|toLocaleString/.test(readFileSync(join(WEB_JS, file), 'utf8')));
  assert.deepEqual(found, []);
  assert.match(readFileSync(join(WEB_JS, 'i18n.js'), 'utf8'), /Intl\.NumberFormat/);
});
