// Deploys that update cleanly, with the service worker, in every engine of engines.mjs (ENGINES
// picks some): on a copy of web/ served on a port of its own and changed as a deploy changes it,
// one story in one tab. A new build is offered in the tab of the first visit and its "Reload"
// switches that tab; a partial deploy (a new sw.js while one module is still the old one, served
// 200) is refused, the running build stays, and the completed deploy installs; a build that
// cannot start takes the page out of the worker, to the network, and says so, and the next good
// deploy is reached with one click; when the host no longer serves sw.js (404, or its own "not
// found" page with 200) the worker and its copy go, and the next visit comes from the network.
import { before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { appendFileSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ENGINES } from './engines.mjs';
import { controlledOrWhyNot, offlineCell, registrationState, useOfflineSite } from './offline-site.mjs';
import { generateServiceWorker } from '../../tools/service-worker.mjs';
import en from '../../web/js/i18n/en.js';
import ru from '../../web/js/i18n/ru.js';

const chosen = process.env.ENGINES ? process.env.ENGINES.split(',') : ENGINES;

/** What build the page's own files are: the marker the test appends to css/main.css. */
const buildOf = () => fetch('css/main.css').then((r) => r.text()).then((text) => [...text.matchAll(/build (\d+)/g)].at(-1)?.[1] ?? '1');

/** Asks the browser to check for a new sw.js now, and waits until that check has ended. */
async function checkForUpdate() {
  const registration = await navigator.serviceWorker.getRegistration();
  await registration.update().catch(() => {});
  const worker = registration.installing;
  if (worker) await new Promise((resolve) => worker.addEventListener('statechange', () => ['installed', 'redundant', 'activated'].includes(worker.state) && resolve()));
  return { waiting: Boolean(registration.waiting), active: Boolean(registration.active) };
}

/** Registrations and caches of the site left in the browser. */
const leftBehind = async () => ({
  registrations: (await navigator.serviceWorker.getRegistrations()).length,
  caches: (await caches.keys()).filter((name) => name.startsWith('grpo-lab-')).length,
});

for (const name of chosen) {
  describe(`${name}: deploys under the service worker`, () => {
    const site = useOfflineSite(name, 'grpo-deploy');
    let root;
    let server;
    let engine;
    let skip = null; // why this engine gives no service worker under test, if it does not
    const original = {};
    const file = (path) => join(root, path);
    const label = en['setup.where.offline'];
    /** Waits until section 0's "Works offline" cell says `pattern`; returns the cell. */
    const cellSays = (pattern, message) => engine.waitFor(`(${offlineCell})(${JSON.stringify(label)}).match(${pattern})?.[0]`, { message, timeout: 60000 });
    /** Presses `selector` and waits for a new document where the expression `ready` holds. */
    async function pressAndReload(selector, ready, message) {
      const before = await engine.evaluate(() => performance.timeOrigin);
      await engine.click(selector);
      await engine.waitFor(`performance.timeOrigin !== ${before} && (${ready})`, { message, timeout: 90000 });
    }

    before(() => {
      ({ root, server, engine } = site);
      for (const path of ['css/main.css', 'js/app.js', 'js/load.js']) original[path] = readFileSync(file(path), 'utf8');
    });

    /**
     * Writes build `n` as a deploy does: a marker in css/main.css, a new export of js/load.js that
     * js/app.js imports (so the two must come from the same build), then sw.js. With `staleLoad`
     * the upload stops short: js/load.js is still the previous build's, served 200. Returns the
     * function that completes the upload.
     */
    async function deploy(n, { staleLoad = false } = {}) {
      const previousLoad = readFileSync(file('js/load.js'), 'utf8');
      const load = `${original['js/load.js']}\nexport const build${n} = ${n};\n`;
      appendFileSync(file('css/main.css'), `\n/* build ${n} */\n`);
      writeFileSync(file('js/load.js'), load);
      writeFileSync(file('js/app.js'), `import { build${n} } from './load.js';\n${original['js/app.js']}\ndocument.documentElement.dataset.buildMark = String(build${n});\n`);
      await generateServiceWorker({ webRoot: root });
      if (staleLoad) writeFileSync(file('js/load.js'), previousLoad);
      return () => writeFileSync(file('js/load.js'), load);
    }
    /**
     * The tab runs build `n` from the new worker, every module of it: no module of the old build
     * made it fail to start (the loading line never said so) and it was not left for the network.
     */
    async function assertSwitchedWhole(n) {
      const { controlled, lines } = await engine.evaluate(() => ({
        controlled: navigator.serviceWorker.controller !== null,
        lines: JSON.parse(sessionStorage.getItem('engines-probe-boot-lines') ?? '[]'),
      }));
      assert.equal(controlled, true, `${name}: build ${n} served by its worker`);
      assert.deepEqual(lines.filter((line) => /could not start/.test(line)), [], `${name}: build ${n} started at once`);
    }
    /**
     * Waits for the bar that offers the waiting build. On a timeout the error says what the page's
     * registration held then, to tell a build never installed from one installed but not offered.
     */
    async function reloadBar() {
      try {
        await engine.waitFor(() => Boolean(document.querySelector('.update-ready button')), { message: 'the Reload bar', timeout: 60000 });
      } catch (error) {
        const state = await engine.evaluate(registrationState).catch((why) => String(why));
        error.message += ` (page: ${JSON.stringify(state)})`;
        throw error;
      }
    }
    /** An expression: the page is up, on build `n`. */
    const onBuild = (n) => `document.documentElement.dataset.shell === 'true' && document.documentElement.dataset.buildMark === '${n}'`;

    test('a new build is offered in the tab of the first visit, and its Reload switches that tab', async (t) => {
      await engine.goto(`${server.origin}/index.html`);
      const whyNot = await controlledOrWhyNot(engine, 'the first visit controlled by its worker');
      if (whyNot === en['setup.where.offline.unsupported']) {
        skip = `${name} gives no service worker under test: "${whyNot}"`;
        t.skip(skip);
        return;
      }
      assert.equal(whyNot, null, `${name}: section 0 says ${whyNot}`);
      await cellSays('/^yes: \\d+ files cached/', 'section 0: works offline');
      // This document is the first visit's: it had no worker when it registered one.
      await deploy(2);
      assert.deepEqual(await engine.evaluate(checkForUpdate), { waiting: true, active: true });
      await reloadBar();
      assert.equal(await engine.evaluate(buildOf), '1', `${name}: until Reload, the page's own build`);
      await pressAndReload('.update-ready button', onBuild(2), 'the first tab on build 2');
      assert.equal(await engine.evaluate(buildOf), '2');
      await assertSwitchedWhole(2);
      await cellSays('/^yes: \\d+ files cached/', 'section 0: works offline, build 2');
    });

    test('a partial deploy is refused (the install fails on the old module), the running build stays and says so; the completed deploy installs', async (t) => {
      if (skip) return t.skip(skip);
      const completeUpload = await deploy(3, { staleLoad: true });
      assert.deepEqual(await engine.evaluate(checkForUpdate), { waiting: false, active: true }, `${name}: no build waits, its install failed`);
      const refused = en['setup.where.offline.refused'];
      await engine.waitFor((text) => document.querySelector('section#setup table').textContent.includes(text), { args: [refused], message: 'section 0: refused' });
      assert.match(await engine.evaluate(offlineCell, label), /^yes: \d+ files cached/);
      assert.equal(await engine.evaluate(buildOf), '2', `${name}: the page keeps its own build`);
      assert.equal(await engine.evaluate(() => Boolean(document.querySelector('.update-ready'))), false, `${name}: nothing offered`);
      await engine.evaluate(() => document.querySelector('section#setup table').scrollIntoView({ block: 'center', behavior: 'instant' }));
      await engine.screenshot(`offline-update-refused-${name}`);
      // Loaded again meanwhile, the page is the running build, whole.
      await engine.reload();
      await engine.waitFor(onBuild(2), { message: 'build 2 again' });
      assert.equal(await engine.evaluate(() => navigator.serviceWorker.controller !== null), true);
      assert.deepEqual((await engine.problems()).page, [], `${name}: no uncaught error`);
      // The upload completes: the browser's next check installs it, and Reload reaches it.
      completeUpload();
      assert.deepEqual(await engine.evaluate(checkForUpdate), { waiting: true, active: true });
      await reloadBar();
      await pressAndReload('.update-ready button', onBuild(3), 'build 3');
      assert.equal(await engine.evaluate(buildOf), '3');
      await assertSwitchedWhole(3);
    });

    test('a build that cannot start leaves the worker for the network and says so; the next good deploy is one click away', async (t) => {
      if (skip) return t.skip(skip);
      // Build 4 is whole but broken: app.js imports a name no module exports.
      appendFileSync(file('css/main.css'), '\n/* build 4 */\n');
      writeFileSync(file('js/app.js'), `import { notExported } from './load.js';\n${original['js/app.js']}\nconsole.log(notExported);\n`);
      await generateServiceWorker({ webRoot: root });
      assert.deepEqual(await engine.evaluate(checkForUpdate), { waiting: true, active: true });
      await reloadBar();
      // Under the worker it fails, leaves it and reloads; from the network it fails again and stops there.
      await pressAndReload('.update-ready button', "document.documentElement.dataset.bootFailed === 'true'", 'the page failed from the network');
      const state = {
        ...(await engine.evaluate(leftBehind)),
        ...(await engine.evaluate(() => {
          const status = document.getElementById('boot-status');
          return { controlled: navigator.serviceWorker.controller !== null, text: status.textContent, role: status.getAttribute('role') };
        })),
      };
      assert.deepEqual({ ...state, text: state.text.replace(/:.*/s, ':') }, { controlled: false, registrations: 0, caches: 0, text: 'GRPO Lab could not start:', role: 'alert' }, state.text);
      assert.match(state.text, /notExported/, `${name}: the message names what failed`);
      assert.match(state.text, /Reload$/, `${name}: with the way out`);
      const lines = await engine.evaluate(() => JSON.parse(sessionStorage.getItem('engines-probe-boot-lines') ?? '[]'));
      assert.ok(
        lines.some((line) => line.startsWith('This saved copy of GRPO Lab could not start (') && line.includes('notExported') && line.endsWith('Loading it from the network…')),
        `${name}: first, under the worker, the page said it goes to the network: ${JSON.stringify(lines)}`,
      );
      await engine.screenshot(`boot-failed-${name}`);
      // The same broken host in Russian (a new document, from the network): the same way out.
      await engine.goto(`${server.origin}/index.html#lang=ru`);
      const ruText = await engine.waitFor(() => document.querySelector('html[data-boot-failed="true"] #boot-status button') && document.getElementById('boot-status').textContent, {
        message: 'the Russian failure line',
      });
      assert.match(ruText, /^GRPO Lab не удалось запустить: .*notExported.* Перезагрузить$/s);
      // The fix is deployed; the reader's one click reaches it, and the offline copy comes back.
      await deploy(5);
      await pressAndReload('button[data-action="reload-after-failure"]', onBuild(5), 'build 5 from the network');
      assert.equal(await engine.evaluate(buildOf), '5');
      await engine.waitFor(() => navigator.serviceWorker.controller !== null, { message: 'build 5 saved for offline use', timeout: 60000 });
      // (The driver's record goes back to the Russian page's load: its link error is build 4's.)
      assert.deepEqual((await engine.problems()).page.filter((text) => !/notExported/.test(text)), [], `${name}: no other uncaught error`);
    });

    test('sw.js gone from the host (404, or a "not found" page with 200): the worker removes itself and its copy; the next visit comes from the network', async (t) => {
      if (skip) return t.skip(skip);
      for (const [how, lang] of [
        ['404', 'ru'],
        ['html', 'en'],
      ]) {
        // A worker of the current build controls the tab (installed anew after the first case).
        await engine.goto(`${server.origin}/index.html#lang=${lang}`);
        await engine.waitFor(() => navigator.serviceWorker.controller !== null, { message: `${how}: a controlled page`, timeout: 60000 });
        const dictionary = lang === 'ru' ? ru : en;
        const yes = dictionary['setup.where.offline.active'].split('{')[0];
        await engine.waitFor(`(${offlineCell})(${JSON.stringify(dictionary['setup.where.offline'])}).startsWith(${JSON.stringify(yes)})`, { message: `${how}: saved for offline use`, timeout: 60000 });
        if (how === '404') rmSync(file('sw.js'));
        else server.answerWith('/sw.js', { status: 200, type: 'text/html; charset=utf-8', body: readFileSync(file('index.html')) });
        // The next visit still comes from the copy; it finds sw.js gone and removes it.
        await engine.goto(`${server.origin}/index.html#lang=${lang}`);
        assert.equal(await engine.evaluate(() => navigator.serviceWorker.controller !== null), true, `${name} ${how}: this visit still came from the copy`);
        await engine.waitFor((text) => document.querySelector('section#setup table')?.textContent.includes(text), { args: [dictionary['setup.where.offline.withdrawn']], message: `${how}: section 0 says the copy was removed`, timeout: 30000 });
        assert.equal((await engine.evaluate(leftBehind)).registrations, 0, `${name} ${how}: unregistered`);
        const problems = await engine.problems();
        const logged = problems.console.filter((line) => !/sw\.js|404|Failed to load resource/.test(line));
        assert.deepEqual({ logged, page: problems.page }, { logged: [], page: [] }, `${name} ${how}: only the look at sw.js itself is logged`);
        // The visit after: from the network; what the old page's worker put back into a cache meanwhile is gone too.
        await engine.goto(`${server.origin}/index.html`);
        await engine.waitFor((text) => document.querySelector('section#setup table')?.textContent.includes(text), { args: [en['setup.where.offline.withdrawn']], message: `${how}: the next visit`, timeout: 30000 });
        assert.equal(await engine.evaluate(() => navigator.serviceWorker.controller === null), true, `${name} ${how}: not served by the old worker`);
        assert.deepEqual(await engine.evaluate(leftBehind), { registrations: 0, caches: 0 }, `${name} ${how}: nothing left`);
        // The host serves sw.js again (the next case starts from a saved copy).
        await generateServiceWorker({ webRoot: root });
        server.answerWith('/sw.js', null);
      }
    });
  });
}
