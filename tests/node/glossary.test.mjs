// One word per concept (web/js/i18n/glossary.js): no string of any en*.js / ru*.js dictionary
// (the teacher page's included) uses a synonym the glossary rejects, and every chosen term is used.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import { GLOSSARY } from '../../web/js/i18n/glossary.js';

const DIR = new URL('../../web/js/i18n/', import.meta.url);
const LANGS = ['en', 'ru'];

// Every string once, named by the file that defines it: the parts first, then en.js / ru.js's own.
async function dictionaryStrings(lang) {
  const files = readdirSync(DIR)
    .filter((file) => new RegExp(`^${lang}(-[\\w-]+)?\\.js$`).test(file))
    .sort((a, b) => (a === `${lang}.js`) - (b === `${lang}.js`) || a.localeCompare(b));
  assert.ok(files.includes(`${lang}.js`) && files.includes(`${lang}-teacher.js`), `${lang}: ${files}`);
  const seen = new Map();
  for (const file of files) {
    const dictionary = (await import(new URL(file, DIR))).default;
    for (const [key, text] of Object.entries(dictionary)) if (!seen.has(key)) seen.set(key, { file, key, text: String(text) });
  }
  return [...seen.values()];
}
const STRINGS = Object.fromEntries(await Promise.all(LANGS.map(async (lang) => [lang, await dictionaryStrings(lang)])));
// Each language's plural nouns ({count#noun} is read as the noun's plural form).
const PLURALS = Object.fromEntries(LANGS.map((lang) => [lang, Object.fromEntries(STRINGS[lang].filter((s) => s.key.startsWith('plural.')).map((s) => [s.key.slice(7), s.text]))]));

/**
 * What a reader reads as words: code spans, formulas and {placeholders} removed, a plural
 * placeholder {count#noun} read as its noun (its plural form, from `plurals`: {noun: 'a|b'}).
 */
export function prose(text, plurals = {}) {
  return text
    .replace(/`[^`]*`/g, ' ')
    .replace(/\$\$[\s\S]*?\$\$|\$[^$]*\$|\\\([\s\S]*?\\\)/g, ' ')
    .replace(/\{\w+#([\w.]+)\}/g, (_, noun) => plurals[noun]?.split('|').at(-1) ?? ' ')
    .replace(/\{[\w#.]+\}/g, ' ');
}

// A whole word: no letter, digit or _ around it, nor a dotted name (rollout.n, fsdp_config.seed).
const W = '[\\p{L}\\p{N}_]';
function wordRegExp(entry) {
  const { pattern, cased } = typeof entry === 'string' ? { pattern: entry } : entry;
  return new RegExp(`(?<!${W}|${W}[./])(?:${pattern})(?!${W}|[./]${W})`, cased ? 'gu' : 'giu');
}

test('the glossary: every term has both languages, a reason, and patterns that compile', () => {
  const ids = new Set();
  for (const term of GLOSSARY) {
    assert.ok(!ids.has(term.id), `duplicate ${term.id}`);
    ids.add(term.id);
    assert.ok(term.why?.length > 10, `${term.id}: why`);
    for (const lang of LANGS) {
      const side = term[lang];
      assert.ok(side?.term && side.pattern && Array.isArray(side.rejected), `${term.id}.${lang}`);
      assert.match(side.term, wordRegExp(side.pattern), `${term.id}.${lang}: the chosen term matches its own pattern`);
      side.rejected.forEach(wordRegExp);
    }
  }
});

test('no dictionary string uses a rejected synonym of a glossary term (key and word named)', () => {
  const found = [];
  for (const lang of LANGS) {
    for (const { file, key, text } of STRINGS[lang]) {
      const words = prose(text, PLURALS[lang]);
      for (const term of GLOSSARY) {
        for (const rejected of term[lang].rejected) {
          for (const match of words.matchAll(wordRegExp(rejected))) found.push(`${lang}: ${file} ${key}: «${match[0]}» (use «${term[lang].term}», glossary ${term.id})`);
        }
      }
    }
  }
  assert.deepEqual(found, [], `${found.length} rejected synonyms:\n${found.join('\n')}`);
});

test('every chosen term is used by some string of its language (the table is not dead)', () => {
  for (const lang of LANGS) {
    const text = STRINGS[lang].map((s) => prose(s.text)).join('\n');
    const unused = GLOSSARY.filter((term) => !wordRegExp(term[lang].pattern).test(text)).map((term) => `${term.id}: ${term[lang].term}`);
    assert.deepEqual(unused, [], lang);
  }
});

test('the matcher: inflections, word edges, code and names', () => {
  const loss = GLOSSARY.find((term) => term.id === 'loss').ru.rejected;
  const hits = (text, patterns) => patterns.flatMap((p) => [...prose(text).matchAll(wordRegExp(p))].map((m) => m[0]));
  assert.deepEqual(hits('Потеря и ПОТЕРЮ, функцию потерь', loss), ['Потеря', 'ПОТЕРЮ', 'функцию потерь']);
  assert.deepEqual(hits('потерянный промпт, RL потерял покрытие', loss), []);
  const seed = GLOSSARY.find((term) => term.id === 'seed').ru.rejected;
  assert.deepEqual(hits('зерно, зерна; seed {seed}; Сид (seed); SEED; `set_seed`; fsdp_config.seed', seed), ['зерно', 'зерна', 'seed']);
  const clip = GLOSSARY.find((term) => term.id === 'clip').ru.rejected;
  assert.deepEqual(hits('клиппинг, клипа, неотсечённое, отсекается, $\\operatorname{clip}$', clip), ['отсекается', 'неотсечённое', 'клипа']);
});
