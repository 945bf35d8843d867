// What an instructor can hide in an embedded section, carried in the link like the rest of the
// state: `#section=advantages&lang=en&hide=text,notice,adv.eh`. A flag names a part of every
// section (below) or one control by its state key. Pure CSS: the flags become one <style> rule
// set (style-src 'unsafe-inline' is in the page's policy), so a re-render needs nothing more.

/** The parts every section has, in the order the teacher page lists them. */
export const HIDE_PARTS = {
  title: ['.section > h2'],
  text: [':is(.section-body, .section-widget) > :is(p:not([class]), .math-display, .math-row)'],
  controls: [
    '.section-body .controls:not(.controls-scrub)',
    '.section-body .presets',
    '.section-body .presets-label',
    '.section-body .preset-note',
  ],
  notice: ['.section-body .callout-notice'],
  footer: ['.embed-footer', '.section-tools'],
};

const KEY_RE = /^[A-Za-z][\w.-]{0,63}$/;

/**
 * Parses a hide value ("text,notice,ig.p"): the known part names and the state keys (any other
 * word of letters, digits, '.', '_', '-'; a key no control carries hides nothing). Anything else
 * is dropped, so a flag can never inject CSS.
 */
export function parseHide(raw) {
  const flags = [];
  for (const token of String(raw ?? '').split(',')) {
    const flag = token.trim();
    if (!flag || flags.includes(flag)) continue;
    if (flag in HIDE_PARTS || KEY_RE.test(flag)) flags.push(flag);
  }
  return flags;
}

export function formatHide(flags) {
  return flags.join(',');
}

/** The CSS that hides `flags`. */
export function hideCss(flags) {
  const selectors = [];
  for (const flag of flags) {
    if (flag in HIDE_PARTS) selectors.push(...HIDE_PARTS[flag]);
    else selectors.push(`.section-body .field:has([data-key="${flag}"])`);
  }
  return selectors.length ? `${selectors.join(',\n')} { display: none !important; }\n` : '';
}

let styleNode = null;

/** Applies `flags` to the document (replacing earlier flags); [] shows everything. */
export function applyHide(flags) {
  const css = hideCss(flags);
  if (!styleNode && !css) return;
  if (!styleNode) {
    styleNode = document.createElement('style');
    styleNode.dataset.grpoHide = '';
    document.head.append(styleNode);
  }
  styleNode.textContent = css;
  if (flags.length) document.documentElement.dataset.hide = flags.join(' ');
  else delete document.documentElement.dataset.hide;
}
