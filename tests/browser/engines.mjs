// One small adapter over three browser engines, so a test is written once: Chromium
// (playwright-core), Firefox ESR (puppeteer-core over WebDriver BiDi) and WebKit (MiniBrowser
// through WebKitWebDriver and selenium-webdriver, on an X display). Plus the test server that
// puts the probe (engines-probe.js) first in every page, the record every engine can read.
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { CHROMIUM_ARGS, LAPTOP, SHOTS, WEB, serverHandle } from './helpers.mjs';
import { serve } from '../../tools/serve.mjs';

export const ENGINES = ['chromium', 'firefox', 'webkit'];

// Under js/, so that a service worker built over a test's copy of the site precaches it with the
// pages (writeProbe): a page served offline from the cache still has its probe.
const PROBE_PATH = '/js/__engine-probe.js';
const PROBE = readFileSync(fileURLToPath(new URL('./engines-probe.js', import.meta.url)));
const MINIBROWSER = process.env.MINIBROWSER_PATH ?? '/usr/lib/x86_64-linux-gnu/webkit2gtk-4.1/MiniBrowser';

/** Puts the probe's <script> right after the page's CSP <meta> (or first in <head>). */
function withProbe(html) {
  const tag = `<script src="${PROBE_PATH}"></script>`;
  if (html.includes(tag)) return html; // written into the file already (writeProbe)
  const csp = html.match(/<meta http-equiv="Content-Security-Policy"[^>]*>/i);
  if (csp) return html.replace(csp[0], `${csp[0]}\n  ${tag}`);
  return html.replace(/<head>/i, `<head>\n  ${tag}`);
}

/**
 * The static server of tools/serve.mjs over `root` (same headers), whose HTML pages carry the
 * probe; serves the probe itself at /js/__engine-probe.js. Returns {origin, close(),
 * answerWith(pathname, {status, type, body} | null)}: answerWith makes one path answer as a
 * misconfigured host would (null: the file again).
 */
export async function startProbedServer(root = WEB, { headers } = {}) {
  const server = await serve({ root, port: 0, host: '127.0.0.1', ...(headers ? { headers } : {}) });
  const [handler] = server.listeners('request');
  const overrides = new Map();
  server.removeAllListeners('request');
  server.on('request', (request, response) => {
    const { pathname } = new URL(request.url, 'http://localhost');
    const override = overrides.get(pathname);
    if (override) {
      response.writeHead(override.status, { 'Content-Type': override.type, 'Cache-Control': 'no-cache' }).end(request.method === 'HEAD' ? undefined : override.body);
      return;
    }
    if (pathname === PROBE_PATH) {
      response.writeHead(200, { 'Content-Type': 'text/javascript; charset=utf-8', 'Cache-Control': 'no-cache' }).end(PROBE);
      return;
    }
    // An engine asks for /favicon.ico on a page that names no icon (the fixtures): no icon, no error.
    if (pathname === '/favicon.ico' && !existsSync(join(root, 'favicon.ico'))) {
      response.writeHead(204).end();
      return;
    }
    if (pathname.endsWith('/') || pathname.endsWith('.html')) {
      delete request.headers['accept-encoding']; // plain text, to edit
      injectInto(response);
    }
    handler(request, response);
  });
  return {
    ...serverHandle(server),
    answerWith: (pathname, answer) => (answer ? overrides.set(pathname, answer) : overrides.delete(pathname)),
  };
}

/**
 * Writes the probe into `root` at the path the pages load it from, and its <script> into every
 * page under it (before a service worker is built over it; the server adds it to any .html it
 * serves, data/docs/*.html too): the pages then serve as the files are, so they match the hashes
 * the worker checks them against.
 */
export function writeProbe(root) {
  mkdirSync(join(root, dirname(PROBE_PATH)), { recursive: true });
  writeFileSync(join(root, PROBE_PATH), PROBE);
  for (const page of readdirSync(root, { recursive: true }).filter((name) => name.endsWith('.html'))) {
    writeFileSync(join(root, page), withProbe(readFileSync(join(root, page), 'utf8')));
  }
}

/** Buffers what the static handler writes, and sends it with the probe added. */
function injectInto(response) {
  const writeHead = response.writeHead.bind(response);
  const end = response.end.bind(response);
  const chunks = [];
  let head = [200, {}];
  response.writeHead = (status, headers = {}) => {
    head = [status, headers];
    return response;
  };
  response.write = (chunk) => {
    chunks.push(Buffer.from(chunk));
    return true;
  };
  response.end = (chunk) => {
    if (chunk) chunks.push(Buffer.from(chunk));
    const [status, headers] = head;
    const body = status === 200 ? withProbe(Buffer.concat(chunks).toString('utf8')) : Buffer.concat(chunks);
    const rest = Object.fromEntries(Object.entries(headers).filter(([k]) => k.toLowerCase() !== 'content-length'));
    writeHead(status, { ...rest, 'Content-Length': Buffer.byteLength(body) });
    return end(body);
  };
}

/** A free TCP port on the loopback. */
function freePort() {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address();
      probe.close(() => resolve(port));
    });
  });
}

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** Wraps `fn` (a function or an expression string) into one expression whose value is JSON text. */
function expression(fn, args) {
  const call = typeof fn === 'function' ? `(${fn})(...${JSON.stringify(args)})` : `(${fn})`;
  return `(async () => { const v = await ${call}; return JSON.stringify(v === undefined ? null : v); })()`;
}

/** Is `url` the page's origin (or data:/blob:/about:)? */
const sameOrigin = (origins, url) =>
  /^(data|blob|about):/.test(url) || origins.some((o) => url === o || url.startsWith(`${o}/`));

/**
 * Opens one engine: {name, goto(url), evaluate(fn | string, ...args), click(selector),
 * fill(selector, value), type(selector, text), setFile(selector, file), waitFor(fn | string,
 * {timeout, args}), captureDownloads(), downloads(), screenshot(name), setViewport({width,
 * height}), reload(), setOffline(on), problems(), requests(), close()}.
 * `evaluate` runs in the top page (async functions are awaited; values travel as JSON).
 * `origins`: the origins a request may go to (others are recorded in problems().outside).
 * `serviceWorkers`: off unless asked for (tests/browser/offline-engines.test.mjs asks), so that a
 * worker registered by one page never answers another test's page from its cache.
 */
export async function openEngine(name, { viewport = LAPTOP, locale = 'en-US', origins = [], serviceWorkers = false } = {}) {
  const driver = await DRIVERS[name]({ viewport, locale, serviceWorkers });
  const outsideOf = (urls) => urls.filter((url) => !sameOrigin(origins, url));
  const engine = {
    name,
    /** Loads `url` as a fresh document (also when only the hash differs); starts a new record. */
    async goto(url) {
      const current = await engine.evaluate(() => location.href).catch(() => null);
      if (current && current.split('#')[0] === url.split('#')[0]) await driver.goto('about:blank');
      for (const list of [driver.console, driver.errors, driver.requests]) list.length = 0;
      await driver.goto(url);
    },
    /** Reloads the document (as the reader's Reload does); starts a new record. */
    async reload() {
      for (const list of [driver.console, driver.errors, driver.requests]) list.length = 0;
      await driver.reload();
    },
    /**
     * Turns the engine's own network emulation on or off; false when the engine has none under
     * automation (the test then takes the network away itself: it stops the server).
     */
    async setOffline(on) {
      if (!driver.setOffline) return false;
      await driver.setOffline(on);
      return true;
    },
    async evaluate(fn, ...args) {
      return JSON.parse(await driver.run(expression(fn, args)));
    },
    /** Polls `fn` in the page until it returns a truthy value (returned), or fails at `timeout`. */
    async waitFor(fn, { timeout = 30000, args = [], message } = {}) {
      const deadline = Date.now() + timeout;
      let last;
      for (;;) {
        try {
          last = await engine.evaluate(fn, ...args);
          if (last) return last;
        } catch (error) {
          last = error; // a navigation in progress, or the page not ready yet
        }
        if (Date.now() > deadline) throw new Error(`${name}: timed out after ${timeout} ms waiting for ${message ?? String(fn).slice(0, 200)} (last: ${last})`);
        await sleep(100);
      }
    },
    async click(selector) {
      await engine.waitFor((s) => !!document.querySelector(s), { args: [selector], message: `selector ${selector}` });
      await driver.click(selector);
    },
    /** Sets an input's value as a reader's edit would end: value, then input and change events. */
    async fill(selector, value) {
      await engine.waitFor((s) => !!document.querySelector(s), { args: [selector], message: `selector ${selector}` });
      await engine.evaluate(
        (s, v) => {
          const input = document.querySelector(s);
          input.focus();
          input.value = v;
          input.dispatchEvent(new Event('input', { bubbles: true }));
          input.dispatchEvent(new Event('change', { bubbles: true }));
        },
        selector,
        String(value),
      );
    },
    /** Types `text` with the engine's own key events into the element. */
    async type(selector, text) {
      await driver.type(selector, text);
    },
    /**
     * Gives a file input a file, as a reader's pick would (a DataTransfer's FileList, then
     * input and change events): one path for every engine, none needs its driver's upload.
     */
    async setFile(selector, { name, type = 'application/octet-stream', text }) {
      await engine.evaluate(
        (s, file) => {
          const input = document.querySelector(s);
          const list = new DataTransfer();
          list.items.add(new File([file.text], file.name, { type: file.type }));
          input.files = list.files;
          input.dispatchEvent(new Event('input', { bubbles: true }));
          input.dispatchEvent(new Event('change', { bubbles: true }));
        },
        selector,
        { name, type, text },
      );
    },
    /**
     * From now on in this document, a click on an <a download> of a blob: URL (how the page
     * saves files) is kept in the page instead of saved to disk: read them with downloads().
     */
    async captureDownloads() {
      await engine.evaluate(() => {
        if (window.__downloads) return;
        window.__downloads = [];
        const blobs = new Map();
        const createObjectURL = URL.createObjectURL.bind(URL);
        URL.createObjectURL = (blob) => {
          const url = createObjectURL(blob);
          blobs.set(url, blob);
          return url;
        };
        const click = HTMLAnchorElement.prototype.click;
        HTMLAnchorElement.prototype.click = function () {
          const blob = this.hasAttribute('download') && blobs.get(this.href);
          if (!blob) return click.call(this);
          window.__downloads.push(blob.text().then((text) => ({ name: this.getAttribute('download'), type: blob.type, text })));
        };
      });
    },
    /** The files saved since captureDownloads(): [{name, type, text}]. */
    async downloads() {
      return engine.evaluate(() => Promise.all(window.__downloads ?? []));
    },
    async screenshot(shot) {
      mkdirSync(SHOTS, { recursive: true });
      const path = shot.includes('/') ? shot : join(SHOTS, `${shot}.png`);
      mkdirSync(dirname(path), { recursive: true });
      writeFileSync(path, await driver.screenshot());
      return path;
    },
    async setViewport(size) {
      await driver.setViewport(size);
    },
    /** Every request seen: the driver's own record (where it has one) plus the page's Resource Timing. */
    async requests() {
      const probe = await engine.evaluate(() => window.__probe?.resources ?? []).catch(() => []);
      return [...new Set([...driver.requests, ...probe])];
    },
    /**
     * {console, page, csp, outside, notices, probe}: what went wrong, from the driver and from
     * the probe; `notices` are ResizeObserver loop notices (not errors: reported, not failed).
     */
    async problems() {
      const probe = await engine.evaluate(() => window.__probe ?? null).catch(() => null);
      return {
        console: [...driver.console, ...(probe?.console ?? [])],
        page: [...driver.errors, ...(probe?.page ?? [])],
        csp: probe?.csp ?? [],
        outside: outsideOf([...driver.requests, ...(probe?.resources ?? [])]),
        notices: probe?.notices ?? [],
        probe: probe !== null,
      };
    },
    async close() {
      await driver.close();
    },
  };
  return engine;
}

const DRIVERS = { chromium: openChromium, firefox: openFirefox, webkit: openWebKit };

async function openChromium({ viewport, locale, serviceWorkers }) {
  const { chromium } = await import('playwright-core');
  const profile = mkdtempSync(join(tmpdir(), 'grpo-chromium-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    headless: true,
    args: CHROMIUM_ARGS,
    viewport,
    locale,
    serviceWorkers: serviceWorkers ? 'allow' : 'block', // blocked as in helpers.mjs and Firefox below
  });
  const page = context.pages()[0] ?? (await context.newPage());
  const record = { console: [], errors: [], requests: [] };
  page.on('console', (message) => {
    if (message.type() === 'error') record.console.push(`${message.text()} (${message.location().url})`);
  });
  page.on('pageerror', (error) => record.errors.push(String(error)));
  context.on('request', (request) => record.requests.push(request.url()));
  return {
    ...record,
    goto: (url) => page.goto(url),
    reload: () => page.reload(),
    setOffline: (on) => context.setOffline(on),
    run: (source) => page.evaluate(source),
    click: (selector) => page.locator(selector).first().click(),
    type: (selector, text) => page.locator(selector).first().pressSequentially(text),
    screenshot: () => page.screenshot(),
    setViewport: (size) => page.setViewportSize(size),
    async close() {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}

async function openFirefox({ viewport, locale, serviceWorkers }) {
  const { default: puppeteer } = await import('puppeteer-core');
  const browser = await puppeteer.launch({
    browser: 'firefox',
    executablePath: process.env.FIREFOX_PATH ?? '/usr/bin/firefox-esr',
    headless: true,
    defaultViewport: viewport,
    // No service worker unless asked for, as the Chromium tests block it (helpers.mjs): one
    // registered by the course page would serve later pages from its cache (a SCORM page's
    // Chart.js failed through it once); the offline tests are where the service worker is tested.
    extraPrefsFirefox: { 'intl.accept_languages': locale, 'intl.locale.requested': locale, 'dom.serviceWorkers.enabled': serviceWorkers },
  });
  const [page] = await browser.pages();
  await page.setViewport(viewport); // the launch's defaultViewport does not reach BiDi's first tab
  const record = { console: [], errors: [], requests: [] };
  page.on('console', (message) => {
    if (message.type() === 'error') record.console.push(message.text());
  });
  page.on('pageerror', (error) => record.errors.push(String(error)));
  page.on('request', (request) => record.requests.push(request.url()));
  return {
    ...record,
    goto: (url) => page.goto(url),
    reload: () => page.reload(),
    // WebDriver BiDi's network emulation: it holds for the service worker's fetches too.
    setOffline: (on) => page.setOfflineMode(on),
    run: (source) => page.evaluate(source),
    click: (selector) => page.click(selector),
    type: (selector, text) => page.type(selector, text),
    screenshot: () => page.screenshot(),
    setViewport: (size) => page.setViewport(size),
    close: () => browser.close(),
  };
}

/** An X display for MiniBrowser: $DISPLAY when set (xvfb-run), else an Xvfb of our own. */
async function display() {
  if (process.env.DISPLAY) return { name: process.env.DISPLAY, close() {} };
  const xvfb = spawn('Xvfb', ['-displayfd', '3', '-screen', '0', '1920x1080x24', '-nolisten', 'tcp'], {
    stdio: ['ignore', 'ignore', 'ignore', 'pipe'],
  });
  const number = await new Promise((resolve, reject) => {
    let text = '';
    xvfb.stdio[3].on('data', (chunk) => {
      text += chunk;
      if (text.includes('\n')) resolve(text.trim());
    });
    xvfb.once('exit', (code) => reject(new Error(`Xvfb exited (${code}) before giving a display`)));
    xvfb.once('error', reject);
  });
  return { name: `:${number}`, close: () => xvfb.kill() };
}

async function openWebKit({ viewport, locale }) {
  const { Builder, By } = await import('selenium-webdriver');
  const screen = await display();
  const lang = locale.replace('-', '_');
  const env = { ...process.env, DISPLAY: screen.name, LANG: `${lang}.UTF-8`, LANGUAGE: lang.split('_')[0] };
  // WebKitWebDriver can wait for ever for a MiniBrowser that never came up (fresh59, 2026-12-08:
  // the landing test idle for minutes, the driver alive, no MiniBrowser process): a session not
  // made within SESSION_MS is given up, its driver killed, and asked once more of a new driver.
  // WEBKIT_SESSION_MS shortens it to try the retry by hand (docs/DEVELOPING.md).
  const SESSION_MS = Number(process.env.WEBKIT_SESSION_MS ?? 60000);
  let server;
  let driver;
  for (let attempt = 1; !driver; attempt++) {
    const port = await freePort();
    // In a process group of its own: a session given up on takes the browser it started along.
    server = spawn(process.env.WEBKIT_DRIVER_PATH ?? '/usr/bin/WebKitWebDriver', [`--port=${port}`], { env, stdio: 'ignore', detached: true });
    const url = `http://127.0.0.1:${port}`;
    let timer;
    try {
      for (let i = 0; ; i++) {
        const ready = await fetch(`${url}/status`).then((r) => r.ok, () => false);
        if (ready) break;
        if (i > 100) throw new Error('WebKitWebDriver did not start');
        await sleep(100);
      }
      const session = new Builder()
        .usingServer(url)
        .withCapabilities({
          browserName: 'MiniBrowser',
          'webkitgtk:browserOptions': { binary: MINIBROWSER, args: ['--automation'] },
        })
        .build();
      session.catch(() => {}); // a session given up on rejects once its driver is killed
      const late = new Promise((_, reject) => (timer = setTimeout(() => reject(new Error(`WebKitWebDriver made no MiniBrowser session in ${SESSION_MS / 1000} s (attempt ${attempt})`)), SESSION_MS)));
      driver = await Promise.race([session, late]);
    } catch (error) {
      process.kill(-server.pid, 'SIGKILL');
      if (attempt >= 2) {
        screen.close();
        throw error;
      }
    } finally {
      clearTimeout(timer);
    }
  }
  await driver.manage().setTimeouts({ script: 120000, pageLoad: 60000 });
  const run = async (source) => {
    const result = await driver.executeAsyncScript(
      `const done = arguments[arguments.length - 1];
       (${source}).then((v) => done({ v }), (e) => done({ error: String(e && e.stack || e) }));`,
    );
    if (result?.error) throw new Error(result.error);
    return result.v;
  };
  // The window includes MiniBrowser's own bars: size it so that the page gets `size`.
  const setViewport = async ({ width, height }) => {
    await driver.manage().window().setRect({ width, height });
    const inner = JSON.parse(await run(expression(() => [window.innerWidth, window.innerHeight], [])));
    await driver.manage().window().setRect({ width: width + (width - inner[0]), height: height + (height - inner[1]) });
  };
  await setViewport(viewport);
  return {
    console: [],
    errors: [],
    requests: [],
    goto: (target) => driver.get(target),
    reload: () => driver.navigate().refresh(),
    run,
    // WebKitWebDriver refuses a click on an element that is not in view yet; the page scrolls
    // smoothly (scroll-behavior), so scroll it instantly, let a frame pass, and retry a little.
    click: async (selector) => {
      for (let attempt = 0; ; attempt++) {
        const element = await driver.findElement(By.css(selector));
        await driver.executeAsyncScript(
          `const [el, done] = arguments; el.scrollIntoView({block: 'center', behavior: 'instant'});
           requestAnimationFrame(() => requestAnimationFrame(() => done()));`,
          element,
        );
        try {
          return await element.click();
        } catch (error) {
          if (attempt >= 10 || !/NotInteractable|ClickIntercepted/.test(error.name)) throw error;
          await sleep(200);
        }
      }
    },
    type: async (selector, text) => (await driver.findElement(By.css(selector))).sendKeys(text),
    screenshot: async () => Buffer.from(await driver.takeScreenshot(), 'base64'),
    setViewport,
    async close() {
      await driver.quit().catch(() => {});
      server.kill();
      screen.close();
    },
  };
}

/**
 * Scrolls through every section as a reader would (a widget mounts when the reader comes near
 * it), waits until each reports it is rendered and the page is ready, then goes back to the top.
 */
export async function mountAll(engine) {
  await engine.waitFor(() => document.documentElement.dataset.shell === 'true', { message: 'the page shell' });
  const ids = await engine.evaluate(() => [...document.querySelectorAll('main section.section:not([data-rendered])')].map((s) => s.id));
  // Scrolled to again while it waits, as a reader would: after a reload the engine may still be
  // restoring the place the reader had (Firefox does, while the page loads), and move it away.
  const scrolledToAndRendered = (s) => {
    const section = document.getElementById(s);
    if (section.dataset.rendered === 'true') return true;
    if (Math.abs(section.getBoundingClientRect().top) > window.innerHeight) section.scrollIntoView({ block: 'start', behavior: 'instant' });
    return false;
  };
  for (const id of ids) {
    await engine.evaluate((s) => document.getElementById(s).scrollIntoView({ block: 'start', behavior: 'instant' }), id);
    await engine.waitFor(scrolledToAndRendered, { args: [id], message: `section ${id} rendered` });
  }
  await engine.waitFor(() => document.documentElement.dataset.ready === 'true', { message: 'the page ready' });
  await engine.evaluate(() => window.scrollTo({ top: 0, behavior: 'instant' }));
}
