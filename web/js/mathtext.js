// Splits dictionary text into plain, inline-markup and TeX pieces and lays them out in blocks;
// pure (no DOM), shared by the page (math.js rich()) and by tools/vendor.mjs, which pre-renders
// every TeX piece with KaTeX at build time.
//
// Markup inside dictionary strings (kept deliberately tiny):
//   $$...$$  display formula       $...$  inline formula      \$  a literal dollar
//   `...`    code                  **...**  strong             blank line  new paragraph

/** Returns [{kind: 'text'|'code'|'strong'|'tex', value, display?}] for one paragraph. */
export function splitMarkup(text) {
  const pieces = [];
  let plain = '';
  const flush = () => {
    if (plain) pieces.push({ kind: 'text', value: plain });
    plain = '';
  };
  let i = 0;
  while (i < text.length) {
    const ch = text[i];
    if (ch === '\\' && text[i + 1] === '$') {
      plain += '$';
      i += 2;
    } else if (ch === '$') {
      const display = text[i + 1] === '$';
      const open = display ? 2 : 1;
      const close = findClose(text, i + open, display ? '$$' : '$');
      if (close < 0) {
        plain += text.slice(i);
        break;
      }
      flush();
      pieces.push({ kind: 'tex', value: text.slice(i + open, close).trim(), display });
      i = close + open;
    } else if (ch === '`') {
      const close = text.indexOf('`', i + 1);
      if (close < 0) {
        plain += text.slice(i);
        break;
      }
      flush();
      pieces.push({ kind: 'code', value: text.slice(i + 1, close) });
      i = close + 1;
    } else if (ch === '*' && text[i + 1] === '*') {
      const close = text.indexOf('**', i + 2);
      if (close < 0) {
        plain += text.slice(i);
        break;
      }
      flush();
      pieces.push({ kind: 'strong', value: text.slice(i + 2, close) });
      i = close + 2;
    } else {
      plain += ch;
      i += 1;
    }
  }
  flush();
  return pieces;
}

function findClose(text, from, marker) {
  for (let j = from; j < text.length; j += 1) {
    if (text[j] === '\\') {
      j += 1; // skip the escaped character (\$ inside TeX, \\ etc.)
      continue;
    }
    if (text.startsWith(marker, j)) return j;
  }
  return -1;
}

/** Fills {name} placeholders of `text` with the params' plain text (only the params' own keys). */
export function fill(text, params) {
  return text.replace(/\{(\w+)\}/g, (whole, name) => (Object.hasOwn(params, name) ? String(params[name]) : whole));
}

/**
 * The blocks rich() draws from dictionary text: [{kind: 'display' | 'row' | 'p', pieces}]
 * (block=false: one 'inline' block). `params` are filled into the plain, code and strong pieces
 * after the template is split, so they are text: no markup, formula or paragraph comes from a
 * parameter. A formula stays as the dictionary wrote it (its {G} and {i} are TeX groups).
 */
export function layout(template, params = null, { block = true } = {}) {
  const filled = (pieces) =>
    params ? pieces.map((piece) => (piece.kind === 'tex' ? piece : { ...piece, value: fill(piece.value, params) })) : pieces;
  if (!block) return [{ kind: 'inline', pieces: filled(splitMarkup(template)) }];
  const blocks = [];
  for (const paragraph of template.split(/\n\s*\n/)) {
    const trimmed = paragraph.trim();
    if (!trimmed) continue;
    const pieces = splitMarkup(trimmed);
    const solid = pieces.filter((piece) => piece.kind !== 'text' || piece.value.trim());
    if (solid.length === 1 && solid[0].kind === 'tex' && solid[0].display) blocks.push({ kind: 'display', pieces: solid });
    // Several display formulas side by side, wrapping onto new lines on narrow screens.
    else if (solid.length > 1 && solid.every((piece) => piece.kind === 'tex' && piece.display)) blocks.push({ kind: 'row', pieces: solid });
    else blocks.push({ kind: 'p', pieces: filled(pieces) });
  }
  return blocks;
}

/** Every TeX piece of a string, as {tex, display}. */
export function texPieces(text) {
  return text
    .split(/\n\s*\n/)
    .flatMap((paragraph) => splitMarkup(paragraph))
    .filter((piece) => piece.kind === 'tex')
    .map((piece) => ({ tex: piece.value, display: piece.display }));
}

/** The key under which a pre-rendered formula is stored. */
export function texKey(tex, display) {
  return `${display ? 'D' : 'I'}:${tex}`;
}

/**
 * A code span naming one of the repository's documents (`docs/NAME.md`) is a link to the site's
 * copy of it (tools/site-docs.mjs writes data/docs/NAME.html); returns that NAME, or null.
 */
export function docName(code) {
  return /^docs\/([\w-]+)\.md$/.exec(code)?.[1] ?? null;
}
