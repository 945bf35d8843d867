// The URL notes: what the page says about the values it found in the link (a bad or unknown key
// falls back to its default), from the schema check at parse time and the core's check once it is
// loaded; shown in one box at the top of the page until the reader dismisses it.
import { SECTIONS } from '../sections/index.js';
import { t } from '../i18n.js';
import { defaults, formatValue } from '../state.js';
import { h } from '../dom.js';
import { noteLines } from '../url-notes.js';
import { errorKey, errorText } from '../core-errors.js';

/**
 * Runs each section's validation on URL-given values (`present`: the keys the link set); a value
 * the core rejects goes back to its default with a note carrying the core's message. Changes
 * `values` and `present` in place; returns the notes added.
 */
export function validateWithCore(core, schema, values, present) {
  const notes = [];
  const base = defaults(schema);
  for (const section of SECTIONS) {
    if (!section.validate || !section.schema) continue;
    const keys = Object.keys(section.schema).filter((key) => present.has(key));
    if (!keys.length) continue;
    for (let attempt = 0; attempt <= keys.length; attempt += 1) {
      let error = null;
      try {
        section.validate(core, values);
      } catch (caught) {
        error = caught;
      }
      if (!error) break;
      const message = errorText(error);
      const key = errorKey(error, section.params);
      const culprits = key && present.has(key) ? [key] : keys.filter((k) => present.has(k));
      if (!culprits.length) break;
      for (const culprit of culprits) {
        notes.push({
          key: culprit,
          value: formatValue(schema[culprit], values[culprit]),
          message,
          fallback: formatValue(schema[culprit], base[culprit]),
        });
        values[culprit] = base[culprit];
        present.delete(culprit);
      }
    }
  }
  return notes;
}

/**
 * The notes of the link on display. `set` starts over (a new link), `add` appends (the core's
 * checks), `box` builds the callout for a fresh render, `show` puts it at the top of `main` now.
 */
export function createUrlNotes(root) {
  let notes = [];
  const box = () => {
    if (!notes.length) return null;
    const dismiss = h('button', { type: 'button', class: 'button-quiet', text: t('url.dismiss') });
    const callout = h(
      'div',
      { class: 'callout callout-warn url-notes', role: 'status' },
      h('p', {}, h('strong', { text: t('url.noteTitle') })),
      h('ul', {}, noteLines(notes).map((text) => h('li', { text }))),
      dismiss,
    );
    dismiss.addEventListener('click', () => {
      notes = [];
      callout.remove();
    });
    return callout;
  };
  return {
    set(list) {
      notes = [...list];
    },
    add(list) {
      notes.push(...list);
    },
    box,
    show() {
      root.querySelector('.url-notes')?.remove();
      const callout = box();
      if (callout) root.querySelector('main')?.prepend(callout);
    },
  };
}
