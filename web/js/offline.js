// Offline use of the course: registers the service worker (web/sw.js, written by
// tools/service-worker.mjs) once the page has loaded, where it can work and is wanted; offers
// "a new version is ready: reload" when a new build has been installed beside the running one;
// `?nosw` in the address unregisters it and deletes its caches (debugging). offlineStatus() and
// onOfflineChange() tell section 0 what is true for this page.
import { Workbox } from '../vendor/workbox-window.js';
import { t } from './i18n.js';
import { h } from './dom.js';

const CACHE_PREFIX = 'grpo-lab-'; // tools/service-worker.mjs CACHE_ID
const listeners = new Set();
let status = { state: 'pending' };

/**
 * {state, files?, bytes?, message?}; state: active, pending, interrupted, file, singleFile, scorm,
 * frame, unsupported, disabled, failed.
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
const ownCaches = async () => (await caches.keys()).filter((name) => name.startsWith(CACHE_PREFIX));

const precaches = async () => Promise.all((await ownCaches()).filter((name) => name.includes('precache')).map((name) => caches.open(name)));

/** Files in this build's precache and, with `weigh`, their bytes, read from the cache itself. */
async function cached({ weigh }) {
  let files = 0;
  let bytes = weigh ? 0 : null;
  for (const cache of await precaches()) {
    for (const request of await cache.keys()) {
      files += 1;
      if (weigh) bytes += (await (await cache.match(request))?.blob())?.size ?? 0;
    }
  }
  return { files, bytes };
}

async function unregister() {
  const scope = siteScope();
  for (const registration of await navigator.serviceWorker.getRegistrations()) {
    if (registration.scope === scope) await registration.unregister();
  }
  await Promise.all((await ownCaches()).map((name) => caches.delete(name)));
}

// The count at once; the bytes (every cached body read back, ~0.1 s) once the page has loaded.
async function showActive() {
  try {
    setStatus({ state: 'active', ...(await cached({ weigh: false })) });
    if (document.readyState !== 'complete') await loaded();
    setStatus({ state: 'active', ...(await cached({ weigh: true })) });
  } catch (error) {
    setStatus({ state: 'failed', message: error?.message ?? String(error) });
  }
}

const loaded = () => new Promise((resolve) => window.addEventListener('load', resolve, { once: true }));

/** A bar at the bottom of the page; outside #app, so a re-render (language switch) keeps it. */
function offerReload(workbox) {
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
    // The waiting worker takes over (its cache is complete); every open page of the course then
    // reloads on it (startOffline's 'controlling' listener).
    workbox.messageSkipWaiting();
  });
  document.body.append(bar);
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
      setStatus({ state: 'disabled' });
      return;
    }
    if (navigator.serviceWorker.controller) showActive();
    // After the page's own loads: the precache download waits until the reader has the page.
    if (document.readyState !== 'complete') await loaded();
    const workbox = new Workbox(new URL('../sw.js', import.meta.url).href, { scope: siteScope() });
    workbox.addEventListener('waiting', () => offerReload(workbox));
    // The first install gave up (a file could not be downloaded): the browser tries again on the
    // next visit. A failed update leaves the running build as it was.
    workbox.addEventListener('redundant', () => {
      if (!navigator.serviceWorker.controller) setStatus({ state: 'interrupted' });
    });
    // The first install takes this page over (clientsClaim) once every file is in the cache.
    workbox.addEventListener('controlling', (event) => {
      // A new build took over (the reader pressed Reload here or in another tab): this page's
      // modules are of the old build, so it reloads rather than mix (the state is in the URL).
      if (event.isUpdate) {
        location.reload();
        return;
      }
      performance.mark('grpo:offline-ready');
      showActive();
    });
    // The two marks time the first install for `npm run bench` (tools/bench_page.mjs).
    performance.mark('grpo:offline-register');
    await workbox.register();
  } catch (error) {
    // A registration that resolved to nothing (a browser or an automation that turns service
    // workers off) is "not allowed here"; a refusal with a reason says it.
    const registered = await navigator.serviceWorker?.getRegistration(siteScope()).catch(() => null);
    if (!registered && error instanceof TypeError) setStatus({ state: 'unsupported' });
    else setStatus({ state: 'failed', message: error?.message ?? String(error) });
  }
}
