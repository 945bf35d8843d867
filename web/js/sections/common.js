// Pieces every section uses: the "what to notice" box and the error-tagging helper.
import { h } from '../dom.js';

/** The "What to notice" callout. */
export function notice(ctx, key, params) {
  return h(
    'aside',
    { class: 'callout callout-notice' },
    h('p', { class: 'callout-title', text: ctx.t('common.notice') }),
    ctx.rich(ctx.t(key, params)),
  );
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
