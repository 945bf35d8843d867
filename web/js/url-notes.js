// The notes the page shows about its link's settings (state.js parseHash, the core's checks):
// one per key, at most MAX_NOTES of them and "and N more", keys and values cut short, so a
// hostile link of any length costs a few list items. DOM-free: the page and the tests use it.
import { t } from './i18n.js';

export const MAX_NOTES = 10;
export const VALUE_CHARS = 80;
export const KEY_CHARS = 40;
const REASON_CHARS = 240;

/** `text` cut to `max` UTF-16 units (never half a surrogate pair), with "…" when cut. */
export function cut(text, max) {
  const value = String(text);
  if (value.length <= max) return value;
  const end = /[\ud800-\udbff]/.test(value[max - 1]) ? max - 1 : max;
  return `${value.slice(0, end)}…`;
}

/** The sentence for one note, in the current language. */
export function noteText(note) {
  if (note.hashTooLong) return t('url.hashTooLong', { size: note.size, max: note.max });
  const key = cut(note.key, KEY_CHARS);
  if (note.unknown) return t('url.unknown', { key });
  const reason = cut(note.message ?? t(note.error[0], note.error[1]), REASON_CHARS);
  return t('url.bad', { key, value: cut(note.value, VALUE_CHARS), reason, fallback: cut(note.fallback, VALUE_CHARS) });
}

/**
 * The lines to show for `notes`: one per key (the last note about a key, in the order keys first
 * appear), at most `max`, then one "and N more" line.
 */
export function noteLines(notes, { max = MAX_NOTES } = {}) {
  const byKey = new Map();
  for (const note of notes) byKey.set(note.key, note);
  const unique = [...byKey.values()];
  const lines = unique.slice(0, max).map(noteText);
  if (unique.length > max) lines.push(t('url.more', { n: unique.length - max }));
  return lines;
}
