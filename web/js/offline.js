// Offline use of the course: registers the service worker (web/sw.js, written by
// tools/service-worker.mjs) once the page has loaded, where it can work and is wanted; offers
// "a new version is ready: reload" when a new build has been installed beside the running one,
// in every tab and for every later build; removes the worker and its copy when the site no longer
// serves sw.js (404/410, or a page in its place); `?nosw` in the address unregisters it and
// deletes its caches (debugging).
// offlineStatus() and onOfflineChange() tell section 0 what is true for this page. The browser's
// own API, not workbox-window: that one decides at register() whether a later takeover is an
// update (its `isUpdate`), so the tab of the first visit never reloaded onto a new build.
import { t } from './i18n.js';
import { h } from './dom.js';

const CACHE_PREFIX = 'grpo-lab-'; // tools/service-worker.mjs CACHE_ID
const listeners = new Set();
let status = { state: 'pending' };

/**
 * {state, files?, bytes?, message?, refused?}; state: active, pending, interrupted, file,
 * singleFile, scorm, frame, unsupported, disabled, withdrawn, failed. `refused`: a new build could
 * not be installed (a file failed to download or did not match its build's hash); this one stays.
 */
export function offlineStatus() {
  return status;
}

/** Calls `listener(status)` on every change; returns the unsubscribe function. */
export function onOfflineChange(listener) {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

function setStatus(next) {
  status = next;
  for (const listener of listeners) listener(status);
}

/** Why this page does not use a service worker, or null when it does. */
function notHere() {
  const html = document.documentElement;
  if (location.protocol === 'file:') return 'file';
  // Packaged pages (tools/package.mjs) carry everything, or are served by an LMS: leave them be.
  if ('singleFile' in html.dataset) return 'singleFile';
  if ('scorm' in html.dataset) return 'scorm';
  // In an iframe (an LMS page, the teacher page's preview) the worker would be the framing
  // site's business, partitioned per site at best: only the page opened as itself saves a copy.
  if (window.top !== window) return 'frame';
  if (!('serviceWorker' in navigator) || !window.isSecureContext || typeof caches === 'undefined') return 'unsupported';
  return null;
}

const siteScope = () => new URL('..', import.meta.url).href;
const workerUrl = () => new URL('../sw.js', import.meta.url).href;
const ownCaches = async () => (await caches.keys()).filter((name) => name.startsWith(CACHE_PREFIX));

const precaches = async () => Promise.all((await ownCaches()).filter((name) => name.includes('precache')).map((name) => caches.open(name)));

/**
 * Files in the saved copy and, with `weigh`, their bytes, read from the cache itself. While a new
 * build waits, its cache stands beside the running one's: each file is counted once.
 */
async function cached({ weigh }) {
  const seen = new Set();
  let bytes = weigh ? 0 : null;
  for (const cache of await precaches()) {
    for (const request of await cache.keys()) {
      if (seen.has(request.url)) continue;
      seen.add(request.url);
      if (weigh) bytes += (await (await cache.match(request))?.blob())?.size ?? 0;
    }
  }
  return { files: seen.size, bytes };
}

async function unregister() {
  const scope = siteScope();
  for (const registration of await navigator.serviceWorker.getRegistrations()) {
    if (registration.scope === scope) await registration.unregister();
  }
  await Promise.all((await ownCaches()).map((name) => caches.delete(name)));
}

// The count at once; the bytes (every cached body read back, ~0.1 s) once the page has loaded.
// Unless the copy was removed meanwhile (sw.js gone from the host): that news stays.
let refused = false;
let removed = false;
async function showActive() {
  const show = (counts) => removed || setStatus({ state: 'active', refused, ...counts });
  try {
    show(await cached({ weigh: false }));
    if (document.readyState !== 'complete') await loaded();
    show(await cached({ weigh: true }));
  } catch (error) {
    if (!removed) setStatus({ state: 'failed', message: error?.message ?? String(error) });
  }
}

const loaded = () => new Promise((resolve) => window.addEventListener('load', resolve, { once: true }));

/** A bar at the bottom of the page; outside #app, so a re-render (language switch) keeps it. */
function offerReload(registration, installed = registration.waiting) {
  if (document.querySelector('.update-ready')) return;
  const text = h('span');
  const button = h('button', { type: 'button', dataset: { action: 'reload-update' } });
  const label = () => {
    text.textContent = `${t('offline.updateReady')} `;
    button.textContent = t('offline.reload');
  };
  label();
  window.addEventListener('grpo:shell', label);
  const bar = h('div', { class: 'callout update-ready', role: 'status' }, text, button);
  Object.assign(bar.style, { position: 'fixed', insetInline: '1rem', bottom: '1rem', zIndex: 10, background: '#fff', margin: 0 });
  button.addEventListener('click', () => {
    button.disabled = true;
    // The waiting worker takes over (its cache is complete and checked); every open page of the
    // course then reloads on it (the 'controllerchange' listener of startOffline). If another tab
    // switched first there is no waiting worker left, and that switch reloads this page too.
    (registration.waiting ?? installed)?.postMessage({ type: 'SKIP_WAITING' });
  });
  document.body.append(bar);
}

/** Follows one installing worker: a finished install of a new build is offered, a failed one noted. */
function watch(registration, worker) {
  if (!worker) return;
  worker.addEventListener('statechange', () => {
    const controlled = Boolean(navigator.serviceWorker.controller);
    // 'installed' is the waiting state: the bar does not also wait for registration.waiting to
    // name this worker. (A build these events miss is offered by offerWhenWaiting.)
    if (worker.state === 'installed' && controlled) offerReload(registration, worker);
    if (worker.state !== 'redundant' || registration.active === worker) return;
    // The first install gave up (a file could not be downloaded): the browser tries again on the
    // next visit. A failed update leaves the running build as it was, and section 0 says so.
    if (!controlled) setStatus({ state: 'interrupted' });
    else if (!registration.waiting && status.state === 'active') {
      refused = true;
      setStatus({ ...status, refused });
    }
  });
}

// How often a visible page looks whether a build waits that no event offered (offerWhenWaiting).
const WAITING_CHECK_MS = 1000;

/**
 * Offers a waiting build however it came to wait. WebKit now and then gives this page no event
 * for it: under test:stress (2026-12-06) and in CI (2026-12-07, offline-updates.test) a build
 * waited, the page was controlled and loaded, and no bar came for 60 s; the update had been found
 * while the page was between its load and its register(). So the registration is looked at every
 * WAITING_CHECK_MS while the page is visible (a property read) until the bar is there.
 */
function offerWhenWaiting(registration) {
  const offer = () => registration.waiting && navigator.serviceWorker.controller && offerReload(registration);
  offer(); // a build already waiting at register()
  const timer = setInterval(() => {
    if (document.querySelector('.update-ready')) clearInterval(timer);
    else if (document.visibilityState === 'visible') offer();
  }, WAITING_CHECK_MS);
}

/**
 * Does the host still serve the worker? false only for a definite 404 or 410, or a page where the
 * script was (a host that answers every missing file with its own page and status 200): the
 * browser refuses such a script too, so the old worker would stay forever. A lost network, a
 * redirect (a login page) or an answer with no type is no news.
 */
async function workerServed() {
  if (navigator.onLine === false) return true; // nothing to learn, and no failed request to log
  try {
    const response = await fetch(workerUrl(), { method: 'HEAD', cache: 'no-store' });
    if (response.status === 404 || response.status === 410) return false;
    const type = response.headers.get('content-type');
    return !(response.ok && !response.redirected && type && !/\b(java|ecma)script\b/i.test(type));
  } catch {
    return true;
  }
}

/** Starts offline support for the page; never throws (a failure only shows in section 0). */
export async function startOffline() {
  try {
    const reason = notHere();
    if (reason) {
      setStatus({ state: reason });
      return;
    }
    if (new URLSearchParams(location.search).has('nosw')) {
      await unregister();
      // A page the worker answered stays its client until it is left: reloaded, the page comes
      // from the network, and the second pass finds nothing to delete.
      if (navigator.serviceWorker.controller) {
        location.reload();
        return;
      }
      setStatus({ state: 'disabled' });
      return;
    }
    const container = navigator.serviceWorker;
    // A page that had a controller and gets another: a new build took over (the reader pressed
    // Reload here or in another tab). This page's modules are of the old build, so it reloads
    // rather than mix (its state is in the URL). The first takeover of a page that had none is
    // the first install's (clientsClaim): nothing to reload, the copy is complete.
    let controlled = Boolean(container.controller);
    let reloading = false;
    container.addEventListener('controllerchange', () => {
      if (controlled) {
        if (!reloading) location.reload();
        reloading = true;
        return;
      }
      controlled = true;
      performance.mark('grpo:offline-ready');
      showActive();
    });
    if (controlled) showActive();
    // After the page's own loads: the precache download waits until the reader has the page.
    if (document.readyState !== 'complete') await loaded();
    // The site took sw.js away: the worker and its copy go too, so the next visit (any tab) gets
    // what the host serves now instead of the old build forever. (A tab the worker still answers
    // may put a file back into its cache; the next visit, from the network, deletes that too.)
    if (!(await workerServed())) {
      removed = true;
      await unregister();
      setStatus({ state: 'withdrawn' });
      return;
    }
    // The two marks time the first install for `npm run bench` (tools/bench_page.mjs).
    performance.mark('grpo:offline-register');
    const registration = await container.register(workerUrl(), { scope: siteScope() });
    performance.mark('grpo:offline-registered');
    offerWhenWaiting(registration);
    watch(registration, registration.installing);
    registration.addEventListener('updatefound', () => watch(registration, registration.installing));
  } catch (error) {
    // A registration that resolved to nothing (a browser or an automation that turns service
    // workers off) is "not allowed here"; a refusal with a reason says it.
    const registered = await navigator.serviceWorker?.getRegistration(siteScope()).catch(() => null);
    if (!registered && error instanceof TypeError) setStatus({ state: 'unsupported' });
    else setStatus({ state: 'failed', message: error?.message ?? String(error) });
  }
}
