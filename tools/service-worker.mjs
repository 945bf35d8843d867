// Writes the site's service worker (web/sw.js, git-ignored): the code of
// tools/service-worker-runtime.js after the build's manifest, every file the build writes that a
// page can load, each with its SHA-384. A new build is a new sw.js: the browser installs it beside
// the old one, which keeps answering its pages until the reader accepts the reload
// (web/js/offline.js), so a page never mixes files of two builds; the worker downloads each file
// with its hash as subresource integrity, so a deploy caught half-way (a new sw.js, an old module
// still served) fails the install, and the running build stays. Run by tools/build.sh site after
// vendor.mjs and precompute.mjs; exits non-zero on any failure. `generateServiceWorker({webRoot})`
// is used by the offline tests on their own copies of web/.
import { createHash } from 'node:crypto';
import { readFile, readdir, stat, writeFile } from 'node:fs/promises';
import { join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const RUNTIME = fileURLToPath(new URL('./service-worker-runtime.js', import.meta.url));

/** Prefix of every cache the worker owns (offline.js finds and clears them by it). */
export const CACHE_ID = 'grpo-lab';

// Every file the build writes into web/ (the core's files, modules, vendor files, data: whatever
// a build adds, with no list to keep up), except what no course page loads: the instructor page
// (used online, and rewritten by tools/package.mjs), the glossary (read by
// tests/node/glossary.test.mjs, never by a page), developer docs and type declarations, licences,
// the worker itself, hidden files, and what tools/package.mjs adds to a packaged site
// (downloads/, host config).
const NOT_PRECACHED = [/^sw\.js$/, /^teacher\.html$/, /^js\/teacher\.js$/, /^css\/teacher\.css$/, /^js\/i18n\/glossary\.js$/, /\.md$/, /\.d\.ts$/, /^vendor\/LICENSES\//, /^downloads\//, /(^|\/)\./, /^_headers$/];
// The core's .wasm is ~0.5 MB; the limit only guards against a stray huge file.
const MAX_FILE_BYTES = 8 * 1024 * 1024;

/** A file's subresource integrity value (what fetch() checks the downloaded bytes against). */
export const integrityOf = (bytes) => `sha384-${createHash('sha384').update(bytes).digest('base64')}`;

async function filesUnder(dir) {
  const found = [];
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) found.push(...(await filesUnder(path)));
    else if (entry.isFile()) found.push(path);
  }
  return found;
}

/**
 * Writes `webRoot`/sw.js for the files under `webRoot`; returns {count, size, manifest}:
 * manifest is [{url, integrity}] in URL order, what the worker downloads and keeps.
 */
export async function generateServiceWorker({ webRoot = join(ROOT, 'web') } = {}) {
  const manifest = [];
  let size = 0;
  for (const path of await filesUnder(webRoot)) {
    const url = relative(webRoot, path).split(sep).join('/');
    if (NOT_PRECACHED.some((pattern) => pattern.test(url))) continue;
    const { size: bytes } = await stat(path);
    if (bytes > MAX_FILE_BYTES) throw new Error(`service-worker: ${url} is ${bytes} bytes, more than the ${MAX_FILE_BYTES} a precached file may have`);
    manifest.push({ url, integrity: integrityOf(await readFile(path)) });
    size += bytes;
  }
  manifest.sort((a, b) => (a.url < b.url ? -1 : 1));
  // A new build is a new sw.js (another manifest, another BUILD): the browser installs it beside
  // the running one.
  const build = createHash('sha256').update(JSON.stringify(manifest)).digest('hex').slice(0, 16);
  const runtime = await readFile(RUNTIME, 'utf8');
  const worker = [
    `// GRPO Lab's service worker, build ${build}: written by tools/service-worker.mjs, not to be edited.`,
    `const BUILD = ${JSON.stringify(build)};`,
    `const MANIFEST = ${JSON.stringify(manifest)};`,
    runtime,
  ].join('\n');
  await writeFile(join(webRoot, 'sw.js'), worker);
  return { count: manifest.length, size, manifest };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  try {
    const { count, size } = await generateServiceWorker();
    console.log(`service-worker: ${count} files precached (${(size / 1e6).toFixed(2)} MB) -> web/sw.js`);
  } catch (error) {
    console.error(error.message ?? error);
    process.exit(1);
  }
}
