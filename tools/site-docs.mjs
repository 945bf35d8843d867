// The repository documents the page names (`docs/NAME.md` in a dictionary string), as pages of the
// site: web/data/docs/NAME.html (git-ignored, like the rest of web/data), the Markdown as it is in
// a <pre>, so a reader can follow the link the page draws for each such name (js/math.js).
import { mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { docName } from '../web/js/mathtext.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const I18N = join(ROOT, 'web', 'js', 'i18n');
const OUT = join(ROOT, 'web', 'data', 'docs');

const escapeHtml = (text) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** Every `docs/NAME.md` the dictionaries name in code spans. */
export function namedDocs() {
  const names = new Set();
  for (const file of readdirSync(I18N).filter((f) => f.endsWith('.js'))) {
    for (const [, code] of readFileSync(join(I18N, file), 'utf8').matchAll(/`([^`\n]+)`/g)) {
      const name = docName(code);
      if (name) names.add(name);
    }
  }
  return [...names].sort();
}

function page(name, markdown) {
  const title = /^# (.+)$/m.exec(markdown)?.[1] ?? `docs/${name}.md`;
  return `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; base-uri 'none'; form-action 'none'">
  <title>${escapeHtml(title)} · GRPO Lab</title>
  <style>body { margin: 0 auto; max-width: 52rem; padding: 1rem; font: 15px/1.5 ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; color: #1f2328; } pre { white-space: pre-wrap; overflow-wrap: anywhere; font: inherit; }</style>
</head>
<body>
  <p>docs/${escapeHtml(name)}.md · <a href="../../index.html">GRPO Lab</a></p>
  <pre>${escapeHtml(markdown)}</pre>
</body>
</html>
`;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  mkdirSync(OUT, { recursive: true });
  const names = namedDocs();
  for (const name of names) writeFileSync(join(OUT, `${name}.html`), page(name, readFileSync(join(ROOT, 'docs', `${name}.md`), 'utf8')));
  console.log(`site-docs: ${names.length} documents -> web/data/docs/ (${names.join(', ')})`);
}
