// Writes the site's service worker (web/sw.js, git-ignored) with Workbox's generateSW: a precache
// of every file the build writes that a page can load, each with a content hash as its revision,
// served cache-first. A new build is a new sw.js (its manifest changed): the browser installs it
// beside the old one, which keeps answering its pages until the reader accepts the reload
// (web/js/offline.js), so a page never mixes files of two builds. Every entry also carries its
// file's SHA-384 as subresource integrity: the worker downloads each file with it, so a deploy
// caught half-way (a new sw.js, an old module still served) fails the install, and the running
// build stays. Run by tools/build.sh site after vendor.mjs and precompute.mjs; exits non-zero on
// any failure. `generateServiceWorker({webRoot})` is used by the offline tests on their own copies.
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { generateSW } from 'workbox-build';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

/** Prefix of every cache the worker owns (offline.js finds and clears them by it). */
export const CACHE_ID = 'grpo-lab';

// Every file the build writes into web/ (the core's files, modules, vendor files, data: whatever
// a build adds, with no list to keep up), except what no course page loads: the instructor page
// (used online, and rewritten by tools/package.mjs), the glossary (read by
// tests/node/glossary.test.mjs, never by a page), developer docs and type declarations, licences,
// the worker itself, and what tools/package.mjs adds to a packaged site (downloads/, host config).
const PRECACHE = ['**/*'];
const NOT_PRECACHED = ['sw.js', 'teacher.html', 'js/teacher.js', 'css/teacher.css', 'js/i18n/glossary.js', '**/*.md', '**/*.d.ts', 'vendor/LICENSES/**', 'downloads/**'];

/** A file's subresource integrity value (what fetch() checks the downloaded bytes against). */
export const integrityOf = (bytes) => `sha384-${createHash('sha384').update(bytes).digest('base64')}`;

export async function generateServiceWorker({ webRoot = join(ROOT, 'web') } = {}) {
  // Workbox fetches each file with its entry's `integrity` at install: a byte of another build and
  // the fetch fails, the install fails, and the browser tries again on the next visit.
  const withIntegrity = async (entries) => ({
    manifest: await Promise.all(entries.map(async (entry) => ({ ...entry, integrity: integrityOf(await readFile(join(webRoot, entry.url))) }))),
    warnings: [],
  });
  const { count, size, warnings } = await generateSW({
    globDirectory: webRoot,
    globPatterns: PRECACHE,
    globIgnores: NOT_PRECACHED,
    manifestTransforms: [withIntegrity],
    swDest: join(webRoot, 'sw.js'),
    cacheId: CACHE_ID,
    mode: 'production',
    sourcemap: false,
    // One file: the Workbox runtime inside sw.js, nothing else to serve or to keep in step.
    inlineWorkboxRuntime: true,
    // The first visit's page is taken over as soon as the cache is complete (it can go offline
    // at once); a later build waits for the reader's reload (offline.js sends SKIP_WAITING).
    clientsClaim: true,
    skipWaiting: false,
    cleanupOutdatedCaches: true,
    directoryIndex: 'index.html',
    // ?nosw (offline.js) and tracking parameters name the same cached file.
    ignoreURLParametersMatching: [/^utm_/, /^fbclid$/, /^nosw$/],
    // The core's .wasm is ~0.5 MB; the limit only guards against a stray huge file.
    maximumFileSizeToCacheInBytes: 8 * 1024 * 1024,
  });
  if (warnings.length) throw new Error(`service-worker: ${warnings.join('; ')}`);
  return { count, size };
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
