// tools/link-cache.sh (the WASM modules' link cache) over a stand-in linker that counts its runs:
// a second link of the same inputs restores the first one's outputs without linking, a changed
// input byte or response file links again, and GRPO_LINK_CACHE=off always links.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const SCRIPT = fileURLToPath(new URL('../../tools/link-cache.sh', import.meta.url));

test('a link of the same inputs is restored, not run; a changed input links again', (t) => {
  const work = mkdtempSync(join(tmpdir(), 'grpo-link-cache-'));
  t.after(() => rmSync(work, { recursive: true, force: true }));
  const out = join(work, 'out');
  mkdirSync(out);
  // The stand-in linker: counts its runs, writes OUT (.js) and its .wasm from the inputs' bytes.
  const linker = join(work, 'ld.sh');
  writeFileSync(linker, '#!/bin/sh\necho run >> runs\nfor last; do :; done\ncat a.o $(cat b.rsp) > "${last%.js}.wasm"\necho js > "$last"\n', { mode: 0o755 });
  writeFileSync(join(work, 'a.o'), 'object a');
  writeFileSync(join(work, 'lib.a'), 'archive 1');
  writeFileSync(join(work, 'b.rsp'), 'lib.a');
  const link = (cache = join(work, 'cache')) =>
    execFileSync('bash', [SCRIPT, linker, 'a.o', '@b.rsp', '-o', join(out, 'm.js')], { cwd: work, env: { ...process.env, GRPO_LINK_CACHE: cache } });
  const runs = () => readFileSync(join(work, 'runs'), 'utf8').split('\n').filter(Boolean).length;
  const wasm = () => readFileSync(join(out, 'm.wasm'), 'utf8');

  link();
  assert.equal(runs(), 1);
  assert.equal(wasm(), 'object aarchive 1');
  rmSync(out, { recursive: true });
  mkdirSync(out);
  link();
  assert.equal(runs(), 1, 'the same inputs: restored from the cache');
  assert.equal(wasm(), 'object aarchive 1');
  assert.equal(readFileSync(join(out, 'm.js'), 'utf8'), 'js\n', 'every output of the link');

  writeFileSync(join(work, 'lib.a'), 'archive 2'); // named by the response file only
  link();
  assert.equal(runs(), 2, 'a file a response file names changed: linked again');
  assert.equal(wasm(), 'object aarchive 2');
  link('off');
  assert.equal(runs(), 3, 'GRPO_LINK_CACHE=off: linked');
});
