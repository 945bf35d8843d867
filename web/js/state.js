// One state object with a schema, serialised to the URL hash (`#lang=ru&ig.g=32`), parsed
// with per-key validation: a bad value falls back to its default and produces a note.
// Pure module (no DOM): the page and the tests both use it.

/**
 * Schema entry kinds:
 *   {kind: 'enum', options, default}
 *   {kind: 'int' | 'number', min, max, default, nullable}  (nullable: 'None' is a value, NONE)
 *   {kind: 'bool', default}
 *   {kind: 'list', default: number[], maxItems}
 *   {kind: 'text', default, maxLength}
 */

const NUMBER_RE = /^[+-]?(\d+\.?\d*|\.\d+)(e[+-]?\d+)?$/i;

/** TRL's None as the value of a nullable number (`#rl.delta=None`): not null, which is "the default". */
export const NONE = 'None';

/** Whether `text` spells None (None, none, null: what a reader of TRL, JSON or a shell types). */
export const isNoneText = (text) => typeof text === 'string' && /^(none|null)$/i.test(text.trim());
const maxItems = (spec) => spec.maxItems ?? 64;
const maxLength = (spec) => spec.maxLength ?? 2000;

/** Parses one URL value; returns {value} or {error: [i18nKey, params]}. */
export function parseValue(spec, raw) {
  switch (spec.kind) {
    case 'enum':
      return spec.options.includes(raw)
        ? { value: raw }
        : { error: ['url.notOption', { options: spec.options.join(', ') }] };
    case 'bool':
      if (raw === '1' || raw === 'true') return { value: true };
      if (raw === '0' || raw === 'false') return { value: false };
      return { error: ['url.notBool', {}] };
    case 'int':
    case 'number': {
      if (spec.nullable && isNoneText(raw)) return { value: NONE };
      if (!NUMBER_RE.test(raw.trim())) return { error: ['url.notNumber', {}] };
      const value = Number(raw);
      if (!Number.isFinite(value)) return { error: ['url.notNumber', {}] };
      if (spec.kind === 'int' && !Number.isInteger(value)) return { error: ['url.notInteger', {}] };
      if ((spec.min !== undefined && value < spec.min) || (spec.max !== undefined && value > spec.max)) {
        return { error: ['url.outOfRange', { min: spec.min, max: spec.max }] };
      }
      return { value };
    }
    case 'list': {
      const tokens = raw.split(',').map((token) => token.trim());
      if (!tokens.length || tokens.length > maxItems(spec) || tokens.some((tok) => !NUMBER_RE.test(tok))) {
        return { error: ['url.notList', {}] };
      }
      const value = tokens.map(Number);
      return value.every(Number.isFinite) ? { value } : { error: ['url.notList', {}] };
    }
    case 'text':
      return raw.length > maxLength(spec) ? { error: ['url.tooLong', {}] } : { value: raw };
    default:
      return { error: ['url.notOption', { options: '?' }] };
  }
}

/** The URL form of a value. */
export function formatValue(spec, value) {
  if (value === null) return spec.nullLabel ?? ''; // a null default ("auto") never enters the URL
  if (spec.kind === 'bool') return value ? '1' : '0';
  if (spec.kind === 'list') return value.map(String).join(',');
  return String(value);
}

export function defaults(schema) {
  const values = {};
  for (const [key, spec] of Object.entries(schema)) {
    values[key] = Array.isArray(spec.default) ? [...spec.default] : spec.default;
  }
  return values;
}

function encode(text) {
  // Keep the hash readable: commas, colons, slashes and dots need no escaping in a fragment.
  return encodeURIComponent(text).replace(/%2C/gi, ',').replace(/%3A/gi, ':').replace(/%2F/gi, '/');
}

/** A hash body longer than this (characters after '#') is refused whole, with one note. */
export const MAX_HASH_CHARS = 64 * 1024;

/**
 * Parses a hash ("#a=1&b=2" or "a=1&b=2") against the schema.
 * Returns {values, notes: [{key, value, error: [i18nKey, params]} | {key, unknown: true} |
 *          {hashTooLong: true, size, max}], present: Set of keys given,
 *          extra: {key: raw} for keys in `passThrough`}.
 * At most one note per key: the last occurrence of a key decides its value and its note. Keys are
 * looked up as the schema's own (`__proto__` or `constructor` are unknown settings, nothing more).
 */
export function parseHash(hash, schema, { passThrough = [] } = {}) {
  const values = defaults(schema);
  const notes = new Map(); // key -> note, in the order the keys first appeared
  const present = new Set();
  const extra = {};
  const body = hash.startsWith('#') ? hash.slice(1) : hash;
  const result = () => ({ values, notes: [...notes.values()], present, extra });
  if (!body) return result();
  if (body.length > MAX_HASH_CHARS) {
    // Refused before it is split: a link this long is no set of settings a page writes.
    notes.set('#', { key: '#', hashTooLong: true, size: body.length, max: MAX_HASH_CHARS });
    return result();
  }
  for (const part of body.split('&')) {
    if (!part) continue;
    const eq = part.indexOf('=');
    const key = safeDecode(eq < 0 ? part : part.slice(0, eq));
    const raw = eq < 0 ? null : safeDecode(part.slice(eq + 1).replace(/\+/g, ' '));
    if (passThrough.includes(key)) {
      extra[key] = raw;
      continue;
    }
    if (raw === null) {
      extra.anchor = key; // a plain "#verifier" is an anchor, not a setting
      continue;
    }
    const spec = Object.hasOwn(schema, key) ? schema[key] : null;
    if (!spec) {
      notes.set(key, { key, unknown: true });
      continue;
    }
    const parsed = parseValue(spec, raw);
    if ('error' in parsed) {
      notes.set(key, { key, value: raw, error: parsed.error, fallback: formatValue(spec, values[key]) });
    } else {
      values[key] = parsed.value;
      present.add(key);
      notes.delete(key);
    }
  }
  return result();
}

/**
 * The longest text a field of this kind takes (its `maxlength`), matching what its URL key keeps:
 * a text key its maxLength, a list maxItems numbers of at most 24 characters and ", " between
 * them, a number 32 characters. Typing or pasting more is cut by the browser, before any parsing.
 */
export function inputMaxLength(spec) {
  if (!spec) return null;
  if (spec.kind === 'text') return maxLength(spec);
  if (spec.kind === 'list') return maxItems(spec) * 26;
  if (spec.kind === 'int' || spec.kind === 'number') return 32;
  return null;
}

function safeDecode(text) {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

/** Serialises `values` (only `keys`, in that order) to a hash without the leading '#'. */
export function formatHash(values, schema, keys = Object.keys(schema), leading = []) {
  const parts = [...leading];
  for (const key of keys) {
    const spec = schema[key];
    if (!spec || values[key] === undefined || values[key] === null) continue;
    const text = formatValue(spec, values[key]);
    if (spec.kind === 'text' && text.length > maxLength(spec)) continue;
    parts.push(`${encode(key)}=${encode(text)}`);
  }
  return parts.join('&');
}

/**
 * A tiny observable store over the schema's values: the one place sections share state (a
 * section changes what another shows by `set`, the other hears it through `subscribe`, neither
 * touches the other's DOM).
 */
export function createStore(schema, initial = defaults(schema)) {
  let values = { ...initial };
  const listeners = new Set(); // {keys: Set | null (every key), fn}
  return {
    schema,
    get: (key) => values[key],
    all: () => ({ ...values }),
    /** Applies `patch`; tells each listener whose keys changed. `source` says who set it. */
    set(patch, source) {
      const changed = Object.keys(patch).filter((key) => !sameValue(values[key], patch[key]));
      if (!changed.length) return changed;
      values = { ...values, ...patch };
      // A snapshot: a listener may unsubscribe another (a re-render destroys the widgets).
      for (const entry of [...listeners]) {
        const mine = entry.keys ? changed.filter((key) => entry.keys.has(key)) : changed;
        if (mine.length && listeners.has(entry)) entry.fn(mine, source);
      }
      return changed;
    },
    /** Replaces every value without telling anyone (the page re-renders after it). */
    replace(next) {
      values = { ...next };
    },
    /**
     * subscribe(keys, fn) or subscribe(fn): fn(changedKeys, source) after a `set` that changed
     * one of `keys` (every key when omitted or null). Returns the unsubscribe function.
     */
    subscribe(keys, fn) {
      if (typeof keys === 'function') [keys, fn] = [null, keys];
      const entry = { keys: keys ? new Set(keys) : null, fn };
      listeners.add(entry);
      return () => listeners.delete(entry);
    },
  };
}

export function sameValue(a, b) {
  if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((x, i) => x === b[i]);
  return a === b;
}
