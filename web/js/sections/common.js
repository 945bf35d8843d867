// Pieces every section uses: the "what to notice" box, the live-form wiring, error tagging.
import { h, bindForm } from '../dom.js';
import { chartsDrawn } from '../charts.js';

/** The "What to notice" callout. */
export function notice(ctx, key, params) {
  return h(
    'aside',
    { class: 'callout callout-notice' },
    h('p', { class: 'callout-title', text: ctx.t('common.notice') }),
    ctx.rich(ctx.t(key, params)),
  );
}

/**
 * The usual end of a section widget: binds its fields to the core (computing and rendering on
 * every change, committing valid values to the URL state), runs it once, adds the notice and
 * tells the page the section is drawn once its charts are (charts.js chartSlot: a task later).
 */
export function mountForm(ctx, host, { fields, params, compute, render, outputs, noticeKey, commit }) {
  const form = bindForm({
    fields,
    params,
    compute: (draft) => compute(ctx.core, draft),
    render,
    commit: commit ?? ((draft) => ctx.commit(draft)),
    outputs,
    staleText: ctx.t('common.stale'),
  });
  form.run();
  host.append(notice(ctx, noticeKey));
  // Not for a widget a re-render (a language switch) has replaced meanwhile: its section is the new one's.
  chartsDrawn().then(() => host.isConnected && ctx.rendered());
  return form;
}

/** Runs fn(); an error it throws is tagged with the state key of the field it concerns. */
export function forField(key, fn) {
  try {
    return fn();
  } catch (error) {
    if (error && typeof error === 'object' && !error.field) error.field = key;
    throw error;
  }
}

/** A RangeError in the core's style ("name: must be ..., got x"), for checks made in the page. */
export function rangeError(message, key) {
  const error = new RangeError(message);
  error.field = key;
  return error;
}

/**
 * A "What to notice" box whose last paragraph is built from the run on display: set(lines) with
 * lines = [{key, params}] (web/js/training/verdicts.js) or null (nothing run yet).
 */
export function runNotice(ctx, key) {
  const box = notice(ctx, key);
  const lines = h('p', { class: 'run-lesson', dataset: { lesson: key } });
  box.append(lines);
  return {
    el: box,
    // text(line): its words (verdicts.js verdictText, which also translates parameters that are keys).
    set(list, text = ({ key: k, params }) => ctx.t(k, params)) {
      lines.textContent = list ? list.map(text).join(' ') : '';
    },
  };
}
