// What section 7's panel says about the run library itself, under its list: records set aside by
// their check (named, with the reason; "Clear the library" removes them), the last run shown but
// too large to keep (and why), and a database this page cannot use, with "Reset the library".
import { h } from '../dom.js';
import { formatNumber } from '../i18n.js';
import { plainText } from '../quote.js';
import { errorText } from '../core-errors.js';
import * as library from './run-library.js';

const SHOWN = 3; // set-aside records named one by one; the rest counted

/** The notes element and its setters; `refresh()` reads the library again after a reset. */
export function libraryNotes(ctx, { refresh }) {
  const { t } = ctx;
  const el = h('div', { class: 'library-notes' });
  let failure = null;
  const mib = (bytes) => formatNumber(bytes / (1024 * 1024), { maximumFractionDigits: 2 }, ctx.lang);

  const resetButton = () => {
    const button = h('button', { type: 'button', dataset: { action: 'reset-library' }, text: t('library.reset') });
    button.addEventListener('click', async () => {
      button.disabled = true;
      try {
        await library.reset();
        failure = null;
      } catch (error) {
        failure = error;
      }
      draw();
      refresh();
    });
    return button;
  };

  const draw = () => {
    const parts = [];
    const bad = library.quarantine();
    if (bad.length) {
      const reason = (b) => (b.cause ? `run.config: ${errorText(b.cause)}` : t('library.reason', { field: b.field, detail: b.detail }));
      const named = bad.slice(0, SHOWN).map((b) => t('library.record', { label: b.label, message: plainText(reason(b)) })).join('; ');
      const more = bad.length > SHOWN ? t('library.more', { n: bad.length - SHOWN }) : '';
      parts.push(h('p', { class: 'library-quarantined', role: 'alert', text: t('library.quarantined', { n: bad.length, records: named, more }) }));
    }
    const notKept = library.notKept();
    if (notKept) parts.push(h('p', { class: 'library-not-kept', role: 'status', text: t('library.notKept', { name: notKept.name, size: mib(notKept.bytes), max: mib(notKept.maxBytes) }) }));
    if (failure) {
      const code = ['version', 'schema', 'blocked'].includes(failure.code) ? failure.code : 'unavailable';
      parts.push(h('p', { class: 'library-failed', role: 'alert' }, `${t(`library.failed.${code}`, { message: plainText(failure.message ?? failure) })} `, resetButton()));
    }
    el.replaceChildren(...parts);
    el.dataset.quarantined = String(bad.length);
  };

  return {
    el,
    draw,
    /** The library could not be read or written (a LibraryError), or null. */
    failed(error) {
      failure = error;
      draw();
    },
  };
}
