// Shared setup for the browser tests: a static server over web/ on a free port, Debian's
// Chromium through playwright-core (fresh profile), a page that records console errors,
// uncaught errors, CSP violations and every request leaving the origin, and screenshots.
import { mkdirSync, readFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { after, before } from 'node:test';
import { chromium } from 'playwright-core';
import { serve } from '../../tools/serve.mjs';

export const ROOT = fileURLToPath(new URL('../..', import.meta.url));
export const WEB = process.env.GRPO_WEB_ROOT ?? join(ROOT, 'web');
export const SHOTS = join(ROOT, 'test-results', 'screenshots');

/**
 * Chromium features off in every test browser. Chromium 156 starts two hidden renderers with each
 * browser for the omnibox's WebUI popup: ~0.5 s of CPU per launch, spent while the test's first
 * page loads, where on 2 cores it made the page's load tasks take 2-3x their CPU time
 * (docs/performance.md, "Long tasks"). PreloadTopChromeWebUI is the same kind of hidden page.
 */
export const DISABLED_FEATURES = ['WebUIOmniboxPopup', 'WebUIOmniboxAimPopup', 'PreloadTopChromeWebUI'];

/**
 * The --disable-features switch for a launcher that disables `launcherFeatures` itself: Chromium
 * reads only the last --disable-features of its command line, so this one repeats the launcher's.
 */
export function disableFeatures(launcherFeatures) {
  return `--disable-features=${[...new Set([...launcherFeatures, ...DISABLED_FEATURES])].join(',')}`;
}

/** The features Playwright disables (its chromiumSwitches), read from the installed playwright-core. */
function playwrightDisabledFeatures() {
  const source = readFileSync(createRequire(import.meta.url).resolve('playwright-core/lib/coreBundle'), 'utf8');
  const list = source.match(/disabledFeatures = \[([\s\S]*?)\]/)?.[1] ?? '';
  const names = [...list.matchAll(/^\s*"(\w+)",?\s*$/gm)].map((match) => match[1]);
  if (!names.length) throw new Error("helpers.mjs: Playwright's disabled Chromium features were not found in playwright-core/lib/coreBundle.js (its bundle changed): update playwrightDisabledFeatures");
  return names;
}

/** Chromium's flags for a launch through Playwright (tools/bench_lighthouse.mjs swaps the features switch for chrome-launcher's). */
export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--disable-quic',
  disableFeatures(playwrightDisabledFeatures()),
];

export const LAPTOP = { width: 1280, height: 800 };
export const PHONE = { width: 390, height: 844 };

/** A listening http.Server as {origin, close()}: close() ends open connections and resolves once closed. */
export function serverHandle(server) {
  const { port } = server.address();
  return {
    origin: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections?.();
        server.close(() => resolve());
      }),
  };
}

/** Starts the static server over `root` on a free port; returns {origin, close()}. */
export async function startServer(root = WEB, { headers } = {}) {
  return serverHandle(await serve({ root, port: 0, host: '127.0.0.1', ...(headers ? { headers } : {}) }));
}

/**
 * Registers before/after hooks in the current file or describe block: the static server over
 * web/ and Chromium (launchBrowser(launchOptions)), started together and closed after. Returns
 * {server, browser}, filled in by the time the tests run.
 */
export function useServerAndBrowser(launchOptions = {}) {
  const env = { server: null, browser: null };
  before(async () => {
    [env.server, env.browser] = await Promise.all([startServer(), launchBrowser(launchOptions)]);
  });
  after(async () => {
    await env.browser?.close();
    await env.server?.close();
  });
  return env;
}

/**
 * Launches headless Chromium with a fresh user-data-dir (a persistent context in a new temp
 * folder, removed on close); `extraArgs` adds Chromium flags. The page's service worker
 * (js/offline.js) is blocked unless `serviceWorkers: 'allow'` (offline.test.mjs): with it, later
 * pages of a context would be served from its cache, out of reach of page.route() and the
 * recorded requests. Returns {context, close()}.
 */
export async function launchBrowser({ viewport = LAPTOP, reducedMotion = 'no-preference', extraArgs = [], serviceWorkers = 'block' } = {}) {
  const profile = mkdtempSync(join(tmpdir(), 'grpo-chromium-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    headless: true,
    args: [...CHROMIUM_ARGS, ...extraArgs],
    viewport,
    reducedMotion,
    serviceWorkers,
    locale: 'en-US',
  });
  return {
    context,
    async close() {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}

/**
 * Opens a page that records problems and requests: {page, problems: {console, page, csp, outside},
 * requests: [url]}.
 * `origin`: requests to any other origin are recorded (and aborted).
 */
export async function openPage(context, origin, { allowOrigins = [] } = {}) {
  const page = await context.newPage();
  const problems = { console: [], page: [], csp: [], outside: [] };
  const requests = [];
  page.on('console', (message) => {
    if (message.type() === 'error') problems.console.push(message.text());
  });
  page.on('pageerror', (error) => problems.page.push(String(error)));
  await page.route('**/*', (route) => {
    const url = route.request().url();
    requests.push(url);
    const allowed = [origin, ...allowOrigins].some((o) => url.startsWith(`${o}/`)) || url.startsWith('data:') || url.startsWith('blob:');
    if (allowed) return route.continue();
    problems.outside.push(url);
    return route.abort();
  });
  await page.addInitScript(() => {
    window.__cspViolations = [];
    document.addEventListener('securitypolicyviolation', (event) => {
      window.__cspViolations.push(`${event.violatedDirective} ${event.blockedURI}`);
    });
  });
  return { page, problems, requests };
}

/**
 * Scrolls through every section of a page or frame as a reader would (a section's widget mounts
 * when the reader comes near it) and waits until every section reports it is rendered.
 */
export async function mountAll(target) {
  await target.waitForSelector('html[data-shell="true"]', { timeout: 30000 });
  const ids = await target.$$eval('main section.section:not([data-rendered])', (nodes) => nodes.map((n) => n.id));
  for (const id of ids) {
    await target.locator(`section#${id}`).scrollIntoViewIfNeeded();
    await target.waitForSelector(`section#${id}[data-rendered="true"]`, { timeout: 30000 });
  }
  await target.waitForSelector('html[data-ready="true"]', { timeout: 30000 });
}

/**
 * Navigates, mounts every section (mountAll) and goes back to where the page opened: the section
 * a plain anchor names (`#advantages`), else the top. (Read from the URL, not from the page: while
 * a widget mounts, the layout moves until the page's scroll anchoring settles it in the next frame.)
 */
export async function gotoReady(page, url) {
  await page.goto(url);
  await mountAll(page);
  const anchor = decodeURIComponent(new URL(url).hash.slice(1));
  await page.evaluate((id) => {
    const section = id && document.querySelector(`main section.section[id="${CSS.escape(id)}"]`);
    if (section) section.scrollIntoView({ block: 'start', behavior: 'instant' });
    else window.scrollTo({ top: 0, behavior: 'instant' });
  }, anchor);
}

/**
 * Resolves once `page` holds a new document (its timeOrigin is no longer `before`) with
 * `selector` attached: a reload the page starts itself (a service worker's new build), whose
 * 'load' event a listener may miss or wait for long under load.
 */
export async function reloaded(page, before, selector = 'html[data-shell="true"]') {
  for (const until = Date.now() + 90000; Date.now() < until; ) {
    const now = await page.evaluate(() => performance.timeOrigin).catch(() => before);
    if (now !== before) return page.waitForSelector(selector, { timeout: 60000, state: 'attached' });
    await page.waitForTimeout(100);
  }
  throw new Error('the page did not reload in 90 s');
}

export async function cspViolations(page) {
  return page.evaluate(() => window.__cspViolations ?? []);
}

export async function screenshot(page, name, options = {}) {
  mkdirSync(SHOTS, { recursive: true });
  const path = join(SHOTS, `${name}.png`);
  await page.screenshot({ path, ...options });
  return path;
}

/** The JS API in this Node process, the same wrapper the page uses. */
export async function nodeCore() {
  const { loadCore } = await import(pathToFileURL(join(WEB, 'core', 'index.js')).href);
  return loadCore();
}

export function axeSource() {
  return readFileSync(join(ROOT, 'node_modules', 'axe-core', 'axe.min.js'), 'utf8');
}

/** Runs axe-core in the page (evaluated through the DevTools protocol, so CSP does not block it). */
export async function runAxe(page, context = 'document') {
  const loaded = await page.evaluate(() => typeof window.axe === 'object');
  if (!loaded) await page.evaluate(axeSource());
  return page.evaluate(async (selector) => {
    const target = selector === 'document' ? document : document.querySelector(selector);
    const result = await window.axe.run(target, { resultTypes: ['violations'] });
    return result.violations.map((v) => ({
      id: v.id,
      impact: v.impact,
      help: v.help,
      nodes: v.nodes.slice(0, 5).map((n) => `${n.target.join(' ')}: ${n.failureSummary}`),
    }));
  }, context);
}

/** Reads a table's body as text cells: rows of strings (th and td). */
export async function tableText(locator) {
  return locator.evaluate((table) =>
    [...table.querySelectorAll('tbody tr')].map((tr) => [...tr.children].map((cell) => cell.textContent.trim())),
  );
}

/** Chart.js state of the canvas inside `selector`: labels, axis titles, dataset labels and data. */
export async function chartState(page, selector) {
  return page.evaluate((sel) => {
    const canvas = document.querySelector(sel);
    const chart = canvas && window.Chart.getChart(canvas);
    if (!chart) return null;
    const scale = (id) => chart.options.scales?.[id]?.title?.text ?? null;
    return {
      type: chart.config.type,
      xTitle: scale('x'),
      yTitle: scale('y'),
      labels: chart.data.labels ?? [],
      datasets: chart.data.datasets.map((d) => ({
        label: d.label,
        borderDash: d.borderDash ?? [],
        data: d.data.map((point) => (point && typeof point === 'object' ? [point.x, point.y] : point)),
      })),
      animation: chart.options.animation,
      role: canvas.getAttribute('role'),
      ariaLabel: canvas.getAttribute('aria-label'),
      width: canvas.clientWidth,
      height: canvas.clientHeight,
    };
  }, selector);
}

/** Absolute tolerance for a number shown with 4 decimals. */
export function near(shown, expected, digits = 4) {
  if (!Number.isFinite(expected)) return shown === (expected > 0 ? '∞' : '−∞');
  return Math.abs(Number(shown) - expected) <= 0.5 * 10 ** -digits + 1e-12;
}

/**
 * A wall-time figure on this 2-core machine also holds what the browser's other threads (V8's
 * compiles, raster, a worker) took of the cores. `measure(attempt)` runs again while its result
 * is not `within` the limit, up to `attempts` times in all; returns {best, all}: the result of
 * least `value`, and every result (each test prints them all).
 */
export async function bestOfAttempts(measure, { value, within, attempts = 3 }) {
  const all = [];
  while (all.length < attempts && !(all.length > 0 && within(all.at(-1)))) all.push(await measure(all.length + 1));
  return { best: all.reduce((best, result) => (value(result) < value(best) ? result : best)), all };
}
