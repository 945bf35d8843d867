// The course offline in every engine of engines.mjs, with its service worker (web/sw.js, built
// here into a copy of web/ served on a port of its own, never the engines test's origin): first
// visit online; then with no network every section mounts, a smoke run trains, a run exports and
// imports, the page reloads and does all of that again, with no console error. "No network" is
// the engine's own switch where it has one under automation (engine.setOffline): Chromium, the
// context's setOffline (playwright); Firefox, WebDriver BiDi's offline mode (puppeteer's
// setOfflineMode; it holds for the service worker's fetches too). WebKitWebDriver has none, so for
// WebKit the test stops the server: every request of the page goes to its own origin, and a dead
// origin is what a lost network looks like to the page. Either way a fetch of a file the worker
// does not keep must fail. All three give a service worker under test here (Chromium 156,
// Firefox ESR 153, WebKitGTK 2.50 MiniBrowser); one that did not would be skipped with the
// reason. Deploys (a new build, a partial one, a broken one, sw.js gone) in every engine:
// offline-updates.test.mjs. ENGINES=firefox,webkit picks some.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { ENGINES, mountAll } from './engines.mjs';
import { controlledOrWhyNot, offlineCell, useOfflineSite } from './offline-site.mjs';
import en from '../../web/js/i18n/en.js';

const chosen = process.env.ENGINES ? process.env.ENGINES.split(',') : ENGINES;

/** A smoke run short enough to train twice per engine in this test. */
const UPDATES = 10;

/** A file the worker does not keep: fetching it shows whether the network is really gone. */
const NOT_CACHED = 'README.md';

/** Has sections 6-8 drawn all of the run on display, in `phase` (they draw in slices)? */
const drawnIn = (phase) => {
  const run = document.querySelector('section#rl-loop .run-bar').dataset;
  const key = `${run.runKey}:${run.updatesDone}:${run.phase}`;
  const bodies = document.querySelectorAll('section#rl-loop .section-widget, section#updates .section-widget, section#coverage .section-widget');
  return run.phase === phase && [...bodies].every((body) => body.dataset.drawn === key);
};

/** The run bar's data and each training section's drawn marker, for a timeout's message. */
const runState = () => ({
  bar: { ...document.querySelector('section#rl-loop .run-bar')?.dataset },
  drawn: [...document.querySelectorAll('section#rl-loop .section-widget, section#updates .section-widget, section#coverage .section-widget')].map((body) => body.dataset.drawn ?? null),
  errors: [...document.querySelectorAll('.callout-error')].map((node) => node.textContent.slice(0, 200)),
});

const historyTable = () => [...document.querySelectorAll('section#updates .history-table tbody tr')].map((tr) => tr.textContent);

/** Every section mounted with its widget, a smoke run trained, exported and imported back. */
async function useEverything(engine) {
  const { name } = engine;
  await mountAll(engine);
  const sections = await engine.evaluate(() => [...document.querySelectorAll('main section.section')].map((s) => `${s.id}:${s.dataset.rendered}`));
  assert.equal(sections.length, 10, `${name}: ten sections (${sections})`);
  assert.ok(sections.every((s) => s.endsWith(':true')), `${name}: every section rendered: ${sections}`);
  assert.equal(await engine.evaluate(() => document.querySelectorAll('.lazy-failed').length), 0, `${name}: no section waits for a Retry`);
  assert.ok(await engine.evaluate(() => document.querySelectorAll('section#updates canvas').length > 0), `${name}: Chart.js drew section 7`);

  await engine.captureDownloads();
  await engine.click('section#rl-loop button[data-action="run"]');
  try {
    await engine.waitFor(drawnIn, { args: ['finished'], message: 'phase finished, drawn', timeout: 120000 });
  } catch (error) {
    // Once seen under heavy load (Firefox, CI-like): say where the run stood, for the next look.
    const state = await engine.evaluate(runState).catch((e) => String(e));
    throw new Error(`${error.message}; ${JSON.stringify(state)}`);
  }
  const trained = await engine.evaluate(historyTable);
  assert.equal(trained.length, UPDATES, `${name}: the smoke run of ${UPDATES} updates finished`);

  await engine.click('section#rl-loop button[data-export="json"]');
  await engine.waitFor(() => window.__downloads.length === 1, { message: 'the exported run' });
  const [saved] = await engine.downloads();
  assert.equal(JSON.parse(saved.text).history.length, UPDATES, `${name}: the exported run`);
  await engine.click('section#rl-loop button[data-action="reset"]');
  await engine.waitFor(drawnIn, { args: ['precomputed'], message: 'phase precomputed, drawn' });
  await engine.setFile('section#rl-loop input[type="file"]', { name: saved.name, type: 'application/json', text: saved.text });
  await engine.waitFor(drawnIn, { args: ['imported'], message: 'phase imported, drawn' });
  assert.deepEqual(await engine.evaluate(historyTable), trained, `${name}: the imported run shows the trained history`);
}

/** Asserts no console error, uncaught error, CSP violation or request off the origin (the deliberate miss aside). */
async function assertClean(engine, where) {
  const problems = await engine.problems();
  assert.ok(problems.probe, `${engine.name} ${where}: the probe ran`);
  const ours = (line) => line.includes(`/${NOT_CACHED}`);
  const logged = problems.console.filter((line) => !ours(line));
  const { page, csp, outside } = problems;
  assert.deepEqual({ logged, page, csp, outside }, { logged: [], page: [], csp: [], outside: [] }, `${engine.name} ${where}`);
}

for (const name of chosen) {
  describe(`${name} offline`, () => {
    const site = useOfflineSite(name, 'grpo-offline');

    test('first visit online; then offline: every section, a smoke run, export and import, a reload and all of it again', async (t) => {
      // How long each step took, printed at the end (the suites must stay fast).
      const started = Date.now();
      const steps = [];
      const lap = (step) => steps.push(`${step} ${((Date.now() - started) / 1000).toFixed(1)} s`);
      const { engine, server, files } = site;
      await engine.goto(`${server.origin}/index.html#seed=3&rl.updates=${UPDATES}`);
      await engine.waitFor(() => document.querySelector('section#setup')?.dataset.rendered === 'true', { message: 'section 0' });
      // The page controlled by its worker, or section 0 saying why not (an engine that refuses
      // service workers under test is skipped with that reason; any other "no" fails).
      const label = en['setup.where.offline'];
      const whyNot = await controlledOrWhyNot(engine, 'the page controlled by the service worker');
      if (whyNot === en['setup.where.offline.unsupported']) {
        t.skip(`${name} gives no service worker under test: "${whyNot}"`);
        return;
      }
      assert.equal(whyNot, null, `${name}: section 0 says ${whyNot}`);
      // Section 0 says "yes" once the worker has every file and controls the page.
      const cell = await engine.waitFor(`(${offlineCell})(${JSON.stringify(label)}).match(/^yes: \\d+ files cached \\(\\d+(\\.\\d)? MB\\)/)?.[0]`, {
        message: 'section 0: works offline, with the size',
      });
      assert.match(cell, new RegExp(`^yes: ${files} files cached`), `${name}: ${cell}`);
      lap('installed');

      const how = (await engine.setOffline(true)) ? 'the engine is offline' : 'the server is stopped';
      if (how === 'the server is stopped') await server.close();
      const miss = await engine.evaluate((url) => fetch(url).then(() => 'answered', () => 'failed'), NOT_CACHED);
      assert.equal(miss, 'failed', `${name}: the network is really gone (${how}; a file the worker does not keep fails)`);
      await useEverything(engine);
      await assertClean(engine, 'offline');
      lap('used offline');

      await engine.reload();
      await useEverything(engine);
      assert.match(await engine.evaluate(offlineCell, label), /^yes: /, `${name}: after the reload`);
      await engine.evaluate(() => document.querySelector('section#setup table').scrollIntoView({ block: 'center', behavior: 'instant' }));
      await engine.screenshot(`offline-${name}-reloaded`);
      await assertClean(engine, 'offline, reloaded');
      lap('reloaded and used again');
      console.log(`# ${name} offline: ${how}; ${steps.join(', ')}`);
    });
  });
}
