// Deploys that update cleanly, in headless Chromium with the service worker, on a copy of web/
// served on a port of its own and changed as a deploy changes it, one story in one tab (the tab of
// the first visit): a partial deploy (a new sw.js while one module is still the old one) is
// refused and the running build stays; the completed deploy is offered and "Reload" switches that
// first tab; a build that cannot start takes the page out of the worker, to the network, and
// says so, and the next good deploy is reached with one click; when the host no longer serves
// sw.js (404) the worker and its copy go, and the next tab comes from the network.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { appendFileSync, cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { WEB, launchBrowser, openPage, reloaded, screenshot, startServer } from './helpers.mjs';
import { generateServiceWorker } from '../../tools/service-worker.mjs';
import en from '../../web/js/i18n/en.js';

const networkLine = (text) => /^Failed to load resource: net::/.test(text);

describe('deploys under the service worker', () => {
  let root;
  let server;
  let browser;
  let tab; // the tab of the first visit, kept through the story
  const original = {};
  const file = (path) => join(root, path);
  const read = (path) => readFileSync(file(path), 'utf8');

  /** What build the page's own files are: the marker the test appends to css/main.css. */
  const buildOf = (page) => page.evaluate(() => fetch('css/main.css').then((r) => r.text()).then((text) => [...text.matchAll(/build (\d+)/g)].at(-1)?.[1] ?? '1'));
  /** Asks the browser to check for a new sw.js now, and waits until that check has ended. */
  const checkForUpdate = (page) =>
    page.evaluate(async () => {
      const registration = await navigator.serviceWorker.getRegistration();
      await registration.update().catch(() => {});
      const worker = registration.installing;
      if (worker) await new Promise((resolve) => worker.addEventListener('statechange', () => ['installed', 'redundant', 'activated'].includes(worker.state) && resolve()));
      return { waiting: Boolean(registration.waiting), active: Boolean(registration.active) };
    });
  const offlineCell = (page) => page.locator('section#setup table tr', { hasText: en['setup.where.offline'] }).locator('td').textContent();
  before(async () => {
    root = mkdtempSync(join(tmpdir(), 'grpo-deploy-'));
    cpSync(WEB, root, { recursive: true });
    for (const path of ['css/main.css', 'js/app.js', 'js/load.js']) original[path] = readFileSync(join(root, path), 'utf8');
    await generateServiceWorker({ webRoot: root });
    [server, browser] = await Promise.all([startServer(root), launchBrowser({ serviceWorkers: 'allow' })]);
  });

  after(async () => {
    await browser?.close();
    await server?.close();
    if (root) rmSync(root, { recursive: true, force: true });
  });

  test('a partial deploy is refused: the install fails on the old module, the running build stays and says so', async () => {
    tab = await openPage(browser.context, server.origin);
    await tab.page.goto(`${server.origin}/index.html`);
    await tab.page.waitForFunction(() => navigator.serviceWorker.controller !== null, null, { timeout: 60000 });
    await tab.page.waitForFunction(() => /^yes: /.test([...document.querySelectorAll('section#setup td')].map((td) => td.textContent).join('|').split('|').find((s) => s.startsWith('yes:')) ?? ''));
    // Build 2 adds an export to js/load.js that js/app.js imports; the upload stops before load.js.
    appendFileSync(file('css/main.css'), '\n/* build 2 */\n');
    writeFileSync(file('js/load.js'), `${original['js/load.js']}\nexport const buildMark = 2;\n`);
    writeFileSync(file('js/app.js'), `import { buildMark } from './load.js';\n${original['js/app.js']}\ndocument.documentElement.dataset.buildMark = String(buildMark);\n`);
    await generateServiceWorker({ webRoot: root });
    writeFileSync(file('js/load.js'), original['js/load.js']);
    assert.deepEqual(await checkForUpdate(tab.page), { waiting: false, active: true }, 'no build waits: its install failed');
    await tab.page.waitForFunction((text) => document.querySelector('section#setup table').textContent.includes(text), en['setup.where.offline.refused']);
    assert.match(await offlineCell(tab.page), /^yes: \d+ files cached/);
    assert.equal(await buildOf(tab.page), '1', 'the page keeps its own build');
    await screenshot(tab.page.locator('section#setup'), 'offline-update-refused');
  });

  test('the completed deploy is offered, and Reload switches the tab of the first visit to it', async () => {
    writeFileSync(file('js/load.js'), `${original['js/load.js']}\nexport const buildMark = 2;\n`);
    assert.deepEqual(await checkForUpdate(tab.page), { waiting: true, active: true });
    const bar = tab.page.locator('.update-ready');
    await bar.waitFor({ timeout: 30000 });
    const before = await tab.page.evaluate(() => performance.timeOrigin);
    await bar.locator('button').click();
    await reloaded(tab.page, before, 'html[data-shell="true"][data-build-mark="2"]');
    assert.equal(await buildOf(tab.page), '2');
    await tab.page.waitForFunction(() => /^yes: \d+ files/.test([...document.querySelectorAll('section#setup td')].find((td) => td.textContent.startsWith('yes:'))?.textContent ?? ''));
  });

  test('a build that cannot start leaves the worker for the network and says so; the next good deploy is one click away', async () => {
    // Build 3 is whole but broken: app.js imports a name no module exports.
    appendFileSync(file('css/main.css'), '\n/* build 3 */\n');
    writeFileSync(file('js/app.js'), `import { notExported } from './load.js';\n${original['js/app.js']}\nconsole.log(notExported);\n`);
    await generateServiceWorker({ webRoot: root });
    assert.deepEqual(await checkForUpdate(tab.page), { waiting: true, active: true });
    await tab.page.locator('.update-ready').waitFor({ timeout: 30000 });
    // Every sentence the loading line shows, kept across the reloads (the first lasts a moment).
    await tab.page.addInitScript(() => {
      const seen = () => JSON.parse(sessionStorage.getItem('test-boot-lines') ?? '[]');
      new MutationObserver(() => {
        const text = document.getElementById('boot-status')?.textContent;
        if (text && seen().at(-1) !== text) sessionStorage.setItem('test-boot-lines', JSON.stringify([...seen(), text]));
      }).observe(document, { subtree: true, childList: true, characterData: true });
    });
    const before = await tab.page.evaluate(() => performance.timeOrigin);
    await tab.page.locator('.update-ready button').click();
    // Under the worker it fails, leaves it and reloads; from the network it fails again and stops there.
    await reloaded(tab.page, before, 'html[data-boot-failed="true"]');
    const state = await tab.page.evaluate(async () => ({
      controlled: navigator.serviceWorker.controller !== null,
      registrations: (await navigator.serviceWorker.getRegistrations()).length,
      caches: (await caches.keys()).filter((name) => name.startsWith('grpo-lab-')).length,
      status: document.getElementById('boot-status').textContent,
      role: document.getElementById('boot-status').getAttribute('role'),
    }));
    assert.deepEqual(
      { ...state, status: state.status.replace(/:.*/, ':') },
      { controlled: false, registrations: 0, caches: 0, status: 'GRPO Lab could not start:', role: 'alert' },
      state.status,
    );
    assert.match(state.status, /notExported/, 'the message names what failed');
    const lines = await tab.page.evaluate(() => JSON.parse(sessionStorage.getItem('test-boot-lines')));
    assert.ok(lines.some((line) => line.startsWith('This saved copy of GRPO Lab could not start (') && line.endsWith('Loading it from the network…')), `first, under the worker: ${lines}`);
    await screenshot(tab.page, 'boot-failed', { clip: { x: 0, y: 0, width: 1280, height: 200 } });
    // A new tab in Russian meets the same broken host: the same way out, in its language.
    const ru = await browser.context.newPage();
    await ru.goto(`${server.origin}/index.html#lang=ru`);
    await ru.waitForSelector('html[data-boot-failed="true"] #boot-status button', { state: 'attached' });
    assert.match(await ru.locator('#boot-status').textContent(), /^GRPO Lab не удалось запустить: .*notExported.* Перезагрузить$/);
    await ru.close();
    // The fix is deployed; the reader's one click reaches it, and the offline copy comes back.
    writeFileSync(file('js/app.js'), original['js/app.js']);
    appendFileSync(file('css/main.css'), '\n/* build 4 */\n');
    await generateServiceWorker({ webRoot: root });
    const stuck = await tab.page.evaluate(() => performance.timeOrigin);
    await tab.page.locator('button[data-action="reload-after-failure"]').click();
    await reloaded(tab.page, stuck);
    assert.equal(await buildOf(tab.page), '4');
    await tab.page.waitForFunction(() => navigator.serviceWorker.controller !== null, null, { timeout: 60000 });
    assert.deepEqual(tab.problems.page.filter((text) => !/notExported/.test(text)), [], 'no other uncaught error');
  });

  test('sw.js gone from the host (404): the worker removes itself and its copy; the next tab comes from the network', async () => {
    rmSync(file('sw.js'));
    const ruText = (await import('../../web/js/i18n/ru.js')).default['setup.where.offline.withdrawn'];
    const withdrawn = (page, text) => page.waitForFunction((t) => document.querySelector('section#setup table')?.textContent.includes(t), text, { timeout: 30000 });
    const left = (page) => page.evaluate(async () => ({ registrations: (await navigator.serviceWorker.getRegistrations()).length, caches: (await caches.keys()).filter((n) => n.startsWith('grpo-lab-')).length }));
    const other = await openPage(browser.context, server.origin);
    await other.page.goto(`${server.origin}/index.html#lang=ru`);
    assert.ok(await other.page.evaluate(() => navigator.serviceWorker.controller !== null), 'this tab still came from the copy');
    await withdrawn(other.page, ruText);
    assert.equal((await left(other.page)).registrations, 0, 'unregistered');
    // The one line logged is the browser's own, for the page's look at sw.js (the 404 itself).
    assert.deepEqual(other.problems.console.filter((text) => !networkLine(text) && !/status of 404/.test(text)), []);
    await Promise.all([other.page.close(), tab.page.close()]);
    // The next tab: from the network; what the old tabs' worker put back into a cache meanwhile is gone too.
    const next = await browser.context.newPage();
    await next.goto(`${server.origin}/index.html`);
    await withdrawn(next, en['setup.where.offline.withdrawn']);
    assert.equal(await next.evaluate(() => navigator.serviceWorker.controller), null, 'a new tab is not served by the old worker');
    assert.deepEqual(await left(next), { registrations: 0, caches: 0 });
    await next.close();
  });
});
