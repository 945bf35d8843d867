// Language switching: English is the source of truth (a test checks that ru.js has every key).
// Only the language in use is downloaded: loadLanguage() fetches a dictionary once;
// setLanguage() also sets <html lang>.
import { fill } from './mathtext.js';

export const LANGUAGES = ['en', 'ru'];

const LOADERS = {
  en: () => import('./i18n/en.js'),
  ru: () => import('./i18n/ru.js'),
};
const DICTIONARIES = {};

let current = 'en';

/** Downloads the dictionary of `code` (once); resolves when t() can use it. */
export async function loadLanguage(code) {
  const lang = LANGUAGES.includes(code) ? code : 'en';
  if (!DICTIONARIES[lang]) DICTIONARIES[lang] = (await LOADERS[lang]()).default;
  return lang;
}

export function isLoaded(code) {
  return Boolean(DICTIONARIES[code]);
}

export function language() {
  return current;
}

export function setLanguage(code) {
  current = LANGUAGES.includes(code) ? code : 'en';
  if (typeof document !== 'undefined') {
    document.documentElement.lang = current;
  }
  return current;
}

/** The language the reader's browser prefers, if we have it; else English. */
export function preferredLanguage() {
  const wanted = typeof navigator === 'undefined' ? [] : navigator.languages ?? [navigator.language];
  for (const tag of wanted) {
    const base = String(tag).toLowerCase().split('-')[0];
    if (LANGUAGES.includes(base)) return base;
  }
  return 'en';
}

// What t() filled in, by the string it returned: rich() renders a parameter's text as text and
// only the dictionary's own markup as markup (a file named "**x**.json" stays plain). JS strings
// carry no tags, so t() remembers its last few filled strings (rich() is called right after t()).
const FILLED = new Map(); // returned string -> {template, params}
const FILLED_KEEP = 64;

/** Translates `key` into the current language, filling {name} placeholders from `params`. */
export function t(key, params = {}, lang = current) {
  const text = lookup(DICTIONARIES[lang], key) ?? lookup(DICTIONARIES.en, key);
  if (text === undefined) {
    if (typeof console !== 'undefined') console.warn(`i18n: missing key ${key}`);
    return key;
  }
  const template = plurals(text, params, lang); // rich() lays out the template with its plurals chosen
  const out = fill(template, params);
  if (out !== text) {
    FILLED.delete(out);
    FILLED.set(out, { template, params });
    if (FILLED.size > FILLED_KEEP) FILLED.delete(FILLED.keys().next().value);
  }
  return out;
}

// {count#noun}: the form of dictionary entry `plural.noun` ("one|other" in English, "one|few|
// many|other" in Russian: Intl.PluralRules' categories, in that order) that agrees with
// params.count, so "1 update", "3 обновления", "5 обновлений" come from one template.
const PLURAL_ORDER = { en: ['one', 'other'], ru: ['one', 'few', 'many', 'other'] };
const RULES = {};

/** The form of `forms` ("a|b|..." in PLURAL_ORDER[lang]) that agrees with `count`. */
export function pluralForm(forms, count, lang = current) {
  const order = PLURAL_ORDER[lang] ?? PLURAL_ORDER.en;
  RULES[lang] ??= new Intl.PluralRules(lang);
  const list = String(forms).split('|');
  const index = order.indexOf(RULES[lang].select(Number(count)));
  return list[index] ?? list[list.length - 1];
}

// Numbers in page text: a decimal point in every language, as in the formulas, tables (dom.js
// fmt, short) and code beside them ("ε 0.28", not "0,28"); digits grouped as the language groups
// them. Intl.NumberFormat alone would write Russian's decimal comma: every number that needs a
// locale (unit names, grouping) goes through formatNumber, never Intl or toLocaleString directly.
const DECIMAL_POINT = { en: '.', ru: '.' };

/** `value` as `lang` writes it in page text (Intl.NumberFormat `options`, our decimal point). */
export function formatNumber(value, options = {}, lang = current) {
  const parts = new Intl.NumberFormat(lang, options).formatToParts(value);
  return parts.map((part) => (part.type === 'decimal' ? DECIMAL_POINT[lang] ?? '.' : part.value)).join('');
}

/**
 * The browser loads its number and plural data (ICU) on a page's first Intl object: 17-67 ms in
 * one task in a fresh Chromium renderer on this 2-core machine, where every later one costs
 * ~0.1 ms. Paid here, in a task of its own while the page waits for its text, not inside the
 * first task that writes a plural or draws a chart's ticks (tests/browser/first-load.test.mjs).
 */
export function warmIntl(lang) {
  pluralForm('', 1, lang); // the plural rules it keeps for the page's text
  formatNumber(1.5, {}, lang);
  new Intl.NumberFormat().format(1.5); // Chart.js's ticks: the browser's own locale
}

function plurals(text, params, lang, dictionary = DICTIONARIES[lang]) {
  return text.replace(/\{(\w+)#([\w.]+)\}/g, (whole, name, noun) => {
    if (!Object.hasOwn(params, name)) return whole;
    const forms = lookup(dictionary, `plural.${noun}`) ?? lookup(DICTIONARIES.en, `plural.${noun}`);
    return forms === undefined ? whole : pluralForm(forms, params[name], lang);
  });
}

function lookup(dictionary, key) {
  return dictionary && Object.hasOwn(dictionary, key) ? dictionary[key] : undefined;
}

/** For rich(): {template, params} when `text` is what t() returned with parameters filled in. */
export function filledFrom(text) {
  return FILLED.get(text) ?? null;
}

/** t() over a dictionary object not loaded as a language (tests, the CLI's imports). */
export const dictionaryText =
  (dictionary, lang = 'en') =>
  (key, params = {}) =>
    fill(plurals(lookup(dictionary, key) ?? key, params, lang, dictionary), params);

/** Whether the current dictionary has `key`. */
export function has(key) {
  return lookup(DICTIONARIES[current], key) !== undefined;
}

/** Keys present in one dictionary and missing in another: {ru: [...], en: [...]}. */
export async function missingKeys() {
  await Promise.all(LANGUAGES.map(loadLanguage));
  const all = new Set(LANGUAGES.flatMap((code) => Object.keys(DICTIONARIES[code])));
  const missing = {};
  for (const code of LANGUAGES) {
    missing[code] = [...all].filter((key) => !(key in DICTIONARIES[code])).sort();
  }
  return missing;
}
