// The service worker's manifest (tools/service-worker.mjs) over a copy of the built web/: every
// file the build writes is precached with its SHA-384, a file a later build adds included with no
// list to edit (a second core, a new module folder, a data file), and what no course page loads
// is left out (the instructor page, the glossary, docs, licences, sw.js itself).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { generateServiceWorker, integrityOf } from '../../tools/service-worker.mjs';

const WEB = fileURLToPath(new URL('../../web', import.meta.url));

const filesUnder = (dir) =>
  readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? filesUnder(join(dir, entry.name)) : [join(dir, entry.name)],
  );

test('every file the build writes is precached with its hash, new kinds of files included', { skip: !existsSync(join(WEB, 'core', 'grpo_core.wasm')) && 'web/ is not built' }, async () => {
  const root = mkdtempSync(join(tmpdir(), 'grpo-sw-manifest-'));
  try {
    cpSync(WEB, root, { recursive: true });
    const added = {
      'core/grpo_core_reference.wasm': Buffer.from([0, 97, 115, 109, 1, 0, 0, 0]),
      'js/later/section-extra.mjs': 'export const later = 1;\n',
      'data/extra-run.bin': Buffer.from('binary data'),
    };
    for (const [path, bytes] of Object.entries(added)) {
      mkdirSync(join(root, path, '..'), { recursive: true });
      writeFileSync(join(root, path), bytes);
    }
    const { manifest: entries } = await generateServiceWorker({ webRoot: root });
    const manifest = new Map(entries.map(({ url, integrity }) => [url, integrity]));
    // What the browser gets is that manifest.
    assert.ok(readFileSync(join(root, 'sw.js'), 'utf8').includes(`const MANIFEST = ${JSON.stringify(entries)};`));
    const files = filesUnder(root).map((path) => relative(root, path).split(sep).join('/'));
    const left = files.filter((path) => !manifest.has(path)).sort();
    assert.deepEqual(
      left.filter((path) => !/\.(md|d\.ts)$/.test(path) && !path.startsWith('vendor/LICENSES/')),
      ['css/teacher.css', 'js/i18n/glossary.js', 'js/teacher.js', 'sw.js', 'teacher.html'],
      'left out: the instructor page, the glossary, sw.js (and docs, type declarations, licences)',
    );
    assert.equal(manifest.size, files.length - left.length, 'each file once');
    for (const path of [...Object.keys(added), 'index.html', 'embed.html', 'core/grpo_core.wasm', 'js/boot-guard.js']) {
      assert.equal(manifest.get(path), integrityOf(readFileSync(join(root, path))), `${path}: precached with its SHA-384`);
    }
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});
