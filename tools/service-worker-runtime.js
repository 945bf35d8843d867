// The service worker's code (a classic worker script): tools/service-worker.mjs writes web/sw.js as
// this file after two constants of the build, MANIFEST ([{url, integrity}], every file a page can
// load) and BUILD (a hash of MANIFEST). One cache per build; the install downloads every file with
// its SHA-384 (a file of another build fails the fetch, and the install), reusing the previous
// build's copy of a file that did not change; the files are answered cache-first; the build waits
// for the page's SKIP_WAITING (the reader's Reload) before it takes over from an older one.
/* global MANIFEST, BUILD */
const PREFIX = 'grpo-lab-precache-'; // offline.js and tools/bench_page.mjs find the copy by it
const CACHE = `${PREFIX}${BUILD}`;
const BASE = new URL('./', self.location).href;
const FILES = new Map(MANIFEST.map(({ url, integrity }) => [new URL(url, BASE).href, integrity]));
// ?nosw (offline.js) and tracking parameters name the same file.
const IGNORED_PARAMS = [/^utm_/, /^fbclid$/, /^nosw$/];

/** The SRI value of a response's bytes (`sha384-...`), as the build computed it. */
async function integrityOf(response) {
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-384', await response.arrayBuffer()));
  return `sha384-${btoa(String.fromCharCode(...digest))}`;
}

/** This file as an earlier build kept it, if its bytes are the ones this build wants. */
async function fromEarlierBuild(url, integrity) {
  for (const name of await caches.keys()) {
    if (!name.startsWith(PREFIX) || name === CACHE) continue;
    const kept = await caches.match(url, { cacheName: name });
    if (kept && (await integrityOf(kept.clone())) === integrity) return kept;
  }
  return null;
}

/** A response fit to keep: downloaded past the HTTP cache, its bytes checked against the build. */
async function download(url, integrity) {
  const response = (await fromEarlierBuild(url, integrity)) ?? (await fetch(new Request(url, { integrity, cache: 'reload', credentials: 'same-origin' })));
  if (!response.ok) throw new Error(`${url}: HTTP ${response.status}`);
  // A redirected response cannot answer a navigation: keep its body and headers only.
  if (!response.redirected) return response;
  return new Response(await response.blob(), { status: response.status, statusText: response.statusText, headers: response.headers });
}

self.addEventListener('install', (event) => {
  event.waitUntil(
    (async () => {
      const cache = await caches.open(CACHE);
      try {
        await Promise.all([...FILES].map(async ([url, integrity]) => cache.put(url, await download(url, integrity))));
      } catch (error) {
        await caches.delete(CACHE); // no half copy: the browser tries the whole install again later
        throw error;
      }
    })(),
  );
});

// The first install takes the open pages over at once (they can go offline); a later build
// activates on SKIP_WAITING, and the pages then reload on it (offline.js).
self.addEventListener('activate', (event) => {
  event.waitUntil(
    (async () => {
      await Promise.all((await caches.keys()).filter((name) => name.startsWith(PREFIX) && name !== CACHE).map((name) => caches.delete(name)));
      await self.clients.claim();
    })(),
  );
});

self.addEventListener('message', (event) => {
  // Inside the message event's lifetime: the worker is not stopped before the browser has it.
  if (event.data?.type === 'SKIP_WAITING') event.waitUntil(self.skipWaiting());
});

/** The build's URL for a request (index.html for a folder, ignored parameters dropped), or null. */
function fileOf(request) {
  if (request.method !== 'GET') return null;
  const url = new URL(request.url);
  if (!url.href.startsWith(BASE)) return null;
  for (const name of [...url.searchParams.keys()]) if (IGNORED_PARAMS.some((pattern) => pattern.test(name))) url.searchParams.delete(name);
  url.hash = '';
  if (url.pathname.endsWith('/')) url.pathname += 'index.html';
  return FILES.has(url.href) ? url.href : null;
}

/**
 * A page as kept, without its <link rel="modulepreload">: WebKit keeps a module preloaded from a
 * worker's answer in its memory cache and gives it to the tab's next documents even after a new
 * build has taken over (the request never reaches the new worker), so a reload mixed two builds.
 * From this cache the imports cost no round trip anyway; the network copy keeps its preloads.
 */
async function withoutModulePreloads(response) {
  const text = (await response.text()).replace(/[ \t]*<link rel="modulepreload"[^>]*>\r?\n?/g, '');
  const headers = new Headers(response.headers);
  for (const name of ['content-length', 'content-encoding']) headers.delete(name);
  return new Response(text, { status: response.status, statusText: response.statusText, headers });
}

/**
 * The cross-origin isolation headers of tools/serve.mjs on every answer from the cache, as the
 * server sends them: a file kept from an earlier build (fromEarlierBuild) carries the headers it
 * was downloaded with, and a page answered without them would lose its threads (a worker script
 * without COEP would not even start under an isolated page). The site loads nothing from another
 * origin, so they block nothing.
 */
const ISOLATION = { 'Cross-Origin-Opener-Policy': 'same-origin', 'Cross-Origin-Embedder-Policy': 'require-corp' };
function isolated(response) {
  if (Object.entries(ISOLATION).every(([name, value]) => response.headers.get(name) === value)) return response;
  const headers = new Headers(response.headers);
  for (const [name, value] of Object.entries(ISOLATION)) headers.set(name, value);
  return new Response(response.body, { status: response.status, statusText: response.statusText, headers });
}

async function answer(request, url) {
  const kept = await caches.match(url, { cacheName: CACHE });
  if (!kept) return fetch(request); // evicted or removed meanwhile: the network
  return isolated(request.mode === 'navigate' && url.endsWith('.html') ? await withoutModulePreloads(kept) : kept);
}

self.addEventListener('fetch', (event) => {
  const url = fileOf(event.request);
  if (url) event.respondWith(answer(event.request, url));
});
