// The site the offline tests run on, in any engine of engines.mjs: a copy of the built web/ with
// the engines' probe written into its pages, its service worker built over it, served on a port
// of its own (never another test's origin), and an engine with service workers on. Plus what those
// tests read from section 0: whether the worker controls the page, or why not.
import { after, before } from 'node:test';
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openEngine, startProbedServer, writeProbe } from './engines.mjs';
import { WEB } from './helpers.mjs';
import { generateServiceWorker } from '../../tools/service-worker.mjs';
import en from '../../web/js/i18n/en.js';

/**
 * What the page's service worker registration holds (a page function): each worker's state, whether
 * one controls the page, its readyState and offline marks. Tests add it to a timeout's message, to
 * tell a build never installed from one installed but not offered, or offered but not taken.
 */
export async function registrationState() {
  const registration = await navigator.serviceWorker.getRegistration();
  const of = (worker) => worker?.state ?? null;
  const marks = performance.getEntriesByType('mark').filter((mark) => mark.name.startsWith('grpo:offline')).map((mark) => mark.name);
  return { installing: of(registration?.installing), waiting: of(registration?.waiting), active: of(registration?.active), controlled: Boolean(navigator.serviceWorker.controller), readyState: document.readyState, marks };
}

/**
 * Chromium under Playwright only: a build that called skipWaiting() can wait up to 5 minutes
 * behind the old worker, because DevTools (Playwright attaches to every service worker) keeps an
 * old worker from idling when it was not RUNNING as the new one asked
 * (ServiceWorkerVersion::OnRequestTermination); no reader's browser has DevTools attached. If
 * `reloads` has not settled within `ms` and `page` shows the new build 'installed' behind the
 * 'activated' one, stops the workers through CDP, as Chromium's idle timer would, and says so in a
 * diagnostic. Any other state is left to the caller's own timeout.
 */
export async function releaseHeldWorker(t, context, page, reloads, ms = 15000) {
  let timer;
  const waited = new Promise((resolve) => (timer = setTimeout(resolve, ms, false)));
  const settled = await Promise.race([reloads.then(() => true, () => true), waited]);
  clearTimeout(timer);
  if (settled) return;
  const state = await page.evaluate(registrationState).catch(() => null);
  if (state?.waiting !== 'installed' || state?.active !== 'activated') return;
  const cdp = await context.newCDPSession(page);
  await cdp.send('ServiceWorker.enable');
  await cdp.send('ServiceWorker.stopAllWorkers');
  await cdp.detach().catch(() => {});
  t.diagnostic(`no reload ${ms / 1000} s after the click, the new build waiting behind the active one: DevTools kept the old worker from idling; stopped it through CDP, as Chromium's idle timer would`);
}

/** Section 0's "Works offline" cell (a page function: `label` is the row's heading). */
export const offlineCell = (label) =>
  [...document.querySelectorAll('section#setup table tr')].find((tr) => tr.textContent.includes(label))?.querySelector('td')?.textContent ?? '';

/**
 * Registers before/after hooks in the current describe block; returns {root, server, engine,
 * files} (files: how many the worker keeps), filled in by the time the tests run. `prefix` names
 * the temporary folder.
 */
export function useOfflineSite(name, prefix) {
  const site = { root: null, server: null, engine: null, files: 0 };
  before(async () => {
    site.root = mkdtempSync(join(tmpdir(), `${prefix}-${name}-`));
    cpSync(WEB, site.root, { recursive: true });
    // The probe is precached with the pages, so a page from the cache still records.
    writeProbe(site.root);
    site.files = (await generateServiceWorker({ webRoot: site.root })).count;
    site.server = await startProbedServer(site.root);
    site.engine = await openEngine(name, { origins: [site.server.origin], serviceWorkers: true });
  });
  after(async () => {
    await site.engine?.close();
    await site.server?.close();
    if (site.root) rmSync(site.root, { recursive: true, force: true });
  });
  return site;
}

/**
 * Waits until the page is controlled by its worker (null) or section 0 says why not (its text).
 * The text is en['setup.where.offline.unsupported'] when the engine gives no service worker under
 * test: the caller skips then; any other "no" is a failure.
 */
export async function controlledOrWhyNot(engine, message) {
  const label = JSON.stringify(en['setup.where.offline']);
  const state = await engine.waitFor(`navigator.serviceWorker?.controller ? 'controlled' : /^no: /.test((${offlineCell})(${label})) && (${offlineCell})(${label})`, {
    message,
    timeout: 60000,
  });
  return state === 'controlled' ? null : state;
}
