// Text from outside the page (a link, a stored record) as a message may quote it: control
// characters and bidirectional marks removed (they could reorder the sentence around them), then
// cut. The page puts it in as text (textContent, rich()), never as markup.

// C0/C1 controls, the Arabic letter mark, LRM/RLM, the embeddings, overrides and isolates.
// eslint-disable-next-line no-control-regex
const UNSAFE = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;

/** `text` without controls or bidi marks (whole: for a message the page composed itself). */
export const plainText = (text) => String(text).replace(UNSAFE, '');

/** `text` as a quote: plain, cut to `max` characters with "…" (the cut never splits a surrogate pair). */
export function quoted(text, max = 40) {
  const plain = plainText(String(text).slice(0, max * 4 + 8));
  const chars = [...plain];
  return chars.length > max ? `${chars.slice(0, max).join('')}…` : plain;
}
