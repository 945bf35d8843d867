// Every finished run goes into the run library whatever is mounted, however quickly the next run
// starts (issue 24): three presets run back to back from section 6 with section 7 never shown are
// all in IndexedDB, and section 7's panel lists them once it mounts; runs started the moment the
// last one ended are all saved too. Real Chromium, the real worker and IndexedDB.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { launchBrowser, openPage, startServer } from './helpers.mjs';

let server;
let browser;
before(async () => {
  [server, browser] = await Promise.all([startServer(), launchBrowser({ viewport: { width: 1280, height: 900 } })]);
});
after(async () => {
  await browser?.close();
  await server?.close();
});

/** The library's runs, read in the page: [{name, source, config}] (run-library.js list()). */
const libraryRuns = (page) =>
  page.evaluate(async () => (await (await import('/js/training/run-library.js')).list()).map((e) => ({ name: e.name, source: e.source, config: e.run.config })));

/** Waits until the library holds every config of `configs` (saving is asynchronous); returns it. */
async function waitSaved(page, configs, timeout = 30000) {
  const started = Date.now();
  for (;;) {
    const saved = await libraryRuns(page);
    const stored = new Set(saved.map((r) => JSON.stringify(r.config)));
    const missing = configs.filter((c) => !stored.has(JSON.stringify(c)));
    if (!missing.length || Date.now() - started > timeout) return { saved, missing: missing.length };
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

const PRESETS = ['smallGroup', 'kl', 'dynamic'];

test('three presets run back to back from section 6, section 7 never shown: all three saved, then listed', async () => {
  const { page, problems } = await openPage(browser.context, server.origin);
  // Section 7's module arrives late (a slow network): the runs end before its panel exists, as in
  // the lost-run report. Released after the three runs.
  let release;
  const held = new Promise((resolve) => (release = resolve));
  await page.route('**/js/sections/updates.js', async (route) => {
    await held;
    await route.continue();
  });
  await page.goto(`${server.origin}/index.html#rl-loop`);
  await page.waitForSelector('section#rl-loop[data-rendered="true"] .run-bar[data-phase="precomputed"]', { timeout: 60000 });
  const configs = [];
  for (const preset of PRESETS) {
    await page.click(`section#rl-loop [data-preset="${preset}"]`);
    await page.click('section#rl-loop .run-bar button[data-action="run"]');
    await page.waitForSelector('section#rl-loop .run-bar[data-source="live"][data-phase="finished"]', { timeout: 120000 });
    configs.push(await page.evaluate(async () => (await import('/js/training/controller.js')).getState().config));
  }
  assert.equal(new Set(configs.map((c) => JSON.stringify(c))).size, 3, 'three different configs');
  assert.equal(await page.locator('section#updates[data-rendered]').count(), 0, 'section 7 never mounted');
  const { saved, missing } = await waitSaved(page, configs);
  assert.equal(missing, 0, `runs missing from the library, which holds: ${saved.map((r) => r.name).join(' | ') || 'nothing'}`);
  for (const config of configs) assert.ok(saved.some((r) => r.source === 'live' && JSON.stringify(r.config) === JSON.stringify(config)), `${JSON.stringify(config)} saved`);

  // Section 7's panel, mounted now, lists the three.
  release();
  await page.evaluate(() => document.getElementById('updates').scrollIntoView({ behavior: 'instant' }));
  await page.waitForSelector('section#updates[data-rendered="true"] .compare-panel[data-library-count]', { timeout: 60000 });
  const listed = await page.$$eval('section#updates .compare-panel ul.library li', (items) => items.map((li) => li.textContent));
  for (const run of saved.filter((r) => r.source === 'live')) assert.ok(listed.some((text) => text.includes(run.name)), `${run.name} listed in ${listed.join(' | ')}`);
  assert.deepEqual([...problems.console, ...problems.page], []);
  await page.close();
});

test('runs started the moment the last one ended are all saved', async () => {
  const { page, problems } = await openPage(browser.context, server.origin);
  await page.goto(`${server.origin}/index.html#updates`); // section 7 mounted this time: its panel must not be the saver
  await page.waitForSelector('section#updates[data-rendered="true"] .compare-panel', { timeout: 60000 });
  const configs = await page.evaluate(async () => {
    const training = await import('/js/training/controller.js');
    const { loadCore } = await import('/core/index.js');
    const core = await loadCore();
    const made = [];
    for (const seed of [21, 22, 23]) {
      const config = core.experimentConfig({ profile: 'smoke', seed, updates: 3 });
      training.start(config);
      // Poll faster than subscribers are told (once a frame, at most every 200 ms while streaming):
      // the next run starts in the task the worker's "finished" arrives in.
      await new Promise((resolve) => {
        const poll = () => (training.getState().phase === 'finished' ? resolve() : setTimeout(poll, 0));
        poll();
      });
      made.push(config);
    }
    return made;
  });
  const { saved, missing } = await waitSaved(page, configs);
  assert.equal(missing, 0, `runs missing from the library, which holds: ${saved.map((r) => r.name).join(' | ')}`);
  assert.deepEqual([...problems.console, ...problems.page], []);
  await page.close();
});
