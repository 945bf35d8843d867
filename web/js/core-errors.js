// Errors of the core as a reader sees them: the sentence in the page's language, rendered from
// the error's code and parameters (web/js/i18n/*-core.js), and the state key of the input it
// concerns, read from its field (never from the English message).
import { t, has, language } from './i18n.js';

/** The reader's sentence for `error` (a core error or a page check with a code). */
export function errorText(error) {
  const code = error?.code;
  if (!code || !has(`core.${code}`)) return error?.message ?? String(error);
  // A rule not given a code yet ('invalid'): its English message says more than a generic text.
  if (code === 'invalid' && language() === 'en') return error.message ?? String(error);
  const params = { field: error.field ?? '' };
  for (const [name, value] of Object.entries(error.params ?? {})) params[name] = String(value);
  return t(`core.${code}`, params);
}

/**
 * The state key `error` belongs to: its field without an index ('rewards[1]' -> 'rewards'),
 * through `params` ({coreParamName: stateKey}) when the section names it differently; null if
 * the error names no field.
 */
export function errorKey(error, params = {}) {
  const field = typeof error?.field === 'string' ? error.field.replace(/\[.*$/, '') : '';
  if (!field) return null;
  return params[field] ?? field;
}

/** The reader's sentence for a config warning (core.configWarnings: {code, field, params}). */
export function warningText(warning) {
  const params = { field: warning.field };
  for (const [name, value] of Object.entries(warning.params ?? {})) params[name] = String(value);
  return t(`warn.${warning.code}`, params);
}

/** An error of a check the page makes itself, shaped like the core's (code, field, params). */
export function codedError(Type, { code, field, params = {}, message }) {
  return Object.assign(new Type(message), { code, field, params });
}
