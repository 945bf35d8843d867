// Issue 27 on the page, in real headless Chromium, EN and RU: section 6's verl presets write their
// run as a verl launch in section 9 (every override the Node translation gives, every path in verl
// v0.7.0's config), with the table of namesakes that differ; section 7's table of verl's metric
// names beside TRL's. Screenshots in test-results/screenshots/: verl-preset-section9-<lang>.png (the verl
// tab), verl-vs-trl-table-<lang>.png, verl-metric-names-<lang>.png.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { SHOTS, gotoReady, launchBrowser, nodeCore, openPage, startServer, tableText } from './helpers.mjs';
import en from '../../web/js/i18n/en.js';
import ru from '../../web/js/i18n/ru.js';
import { VERL_PRESETS } from '../../web/js/training/presets.js';
import { HISTORY_COLUMNS } from '../../web/js/training/run-format.js';
import { CONFIG_FIELDS } from '../../web/js/training/run-config.js';
import { VERL_DIFFERENCES, verlOverrides } from '../../web/js/training/verl-launch.js';
import { verlMetricRows } from '../../web/js/training/metric-names.js';

const DICT = { en, ru };
const PATHS = new Set(JSON.parse(readFileSync(new URL('../fixtures/verl-v0.7.0-ppo-trainer-paths.json', import.meta.url), 'utf8')).paths);
const byKey = new Map(CONFIG_FIELDS.map((f) => [f.key, f.core]));
const options = (patch) => Object.fromEntries(Object.entries(patch).map(([k, v]) => [byKey.get(k), v]));
// What rich() shows of a dictionary string: its text without the **bold** and `code` marks.
const shown = (text) => text.replace(/\*\*|`/g, '');

let server;
let browser;
let core;
before(async () => {
  [server, browser, core] = await Promise.all([startServer(), launchBrowser({ viewport: { width: 1280, height: 900 } }), nodeCore()]);
  mkdirSync(SHOTS, { recursive: true });
});
after(async () => {
  await browser?.close();
  await server?.close();
});

/**
 * A screenshot of `locator` with all of it on screen: sections skip painting while off screen
 * (content-visibility: auto), so a shot of an element taller than the window could come out blank.
 */
async function shoot(page, locator, name) {
  const { height } = await locator.boundingBox();
  await page.setViewportSize({ width: 1280, height: Math.max(900, Math.ceil(height) + 80) });
  await locator.evaluate((el) => el.scrollIntoView({ block: 'center', behavior: 'instant' }));
  await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
  await locator.screenshot({ path: join(SHOTS, name) });
  await page.setViewportSize({ width: 1280, height: 900 });
}

/** The launch's override lines as [path, value], as the page shows them. */
const overridesShown = (launch) => [...launch.matchAll(/^ {4}(\S+?)=(\S+)/gm)].map((m) => [m[1], m[2]]);

for (const lang of ['en', 'ru']) {
  const dict = DICT[lang];
  test(`${lang}: each verl preset's launch in section 9 is the Node translation, every path in verl v0.7.0; the namesakes table`, async () => {
    const { page, problems } = await openPage(browser.context, server.origin);
    await gotoReady(page, `${server.origin}/index.html#lang=${lang}`);
    const s9 = page.locator('section#real-model');
    await s9.locator('button[role="tab"][data-engine="verl"]').click();
    for (const preset of VERL_PRESETS) {
      await page.click(`section#rl-loop [data-preset="${preset.id}"]`);
      const expected = verlOverrides(core.experimentConfig(options(preset.patch)));
      // Until the launch shows this preset's overrides (two presets may share a loss mode).
      const lines = expected.map(([path, value]) => `${path}=${value}`);
      await page
        .waitForFunction((want) => {
          const text = document.querySelector('section#real-model .verl-launch').textContent;
          return JSON.stringify([...text.matchAll(/^ {4}(\S+?=\S+)/gm)].map((m) => m[1])) === JSON.stringify(want);
        }, lines, { timeout: 30000 })
        .catch(() => {}); // the assertion below says what differs
      const launch = await s9.locator('.verl-launch').textContent();
      assert.deepEqual(overridesShown(launch), expected, `${preset.id}: the page writes the Node translation`);
      assert.deepEqual(expected.map(([path]) => path).filter((path) => !PATHS.has(path)), [], `${preset.id}: paths in verl v0.7.0`);
      assert.match(launch, /^python3 -m verl\.trainer\.main_ppo "\$\{overrides\[@\]\}" "\$@"$/m);
      assert.ok(launch.includes(`\n# ${dict['verl.untranslated']}: `), 'the toy’s own settings, in the reader’s language');
      if (preset.id === 'verlGrpo') {
        await shoot(page, s9.locator('#real-model-verl'), `verl-preset-section9-${lang}.png`);
      }
    }
    const table = s9.locator('.table-wrap:has(table.verl-differences)');
    const rows = await tableText(table.locator('table'));
    assert.deepEqual(rows.map((r) => r[0]), VERL_DIFFERENCES.map((id) => dict[`verl.diff.${id}.name`]));
    VERL_DIFFERENCES.forEach((id, i) => {
      assert.equal(rows[i][1], shown(dict[`verl.diff.${id}.trl`]), `${id}: TRL`);
      assert.equal(rows[i][2], shown(dict[`verl.diff.${id}.verl`]), `${id}: verl`);
    });
    await shoot(page, table, `verl-vs-trl-table-${lang}.png`);
    assert.deepEqual(problems.console, []);
    assert.deepEqual(problems.page, []);
    await page.close();
  });

  test(`${lang}: section 7's table of verl's metric names: each verl metric, its column, TRL's metric and where they differ`, async () => {
    const { page, problems } = await openPage(browser.context, server.origin);
    await gotoReady(page, `${server.origin}/index.html#lang=${lang}`);
    const details = page.locator('section#updates details.verl-names');
    assert.equal(await details.locator('summary').textContent(), dict['train.verlNames.title']);
    await details.locator('summary').click();
    const rows = await tableText(details.locator('table'));
    assert.deepEqual(
      rows,
      verlMetricRows().map((r) => [r.verl, r.column, r.trl ?? '—', shown(dict[`train.verlNames.diff.${r.verl}`])]),
    );
    const head = await details.locator('thead th').allTextContents();
    assert.deepEqual(head, ['verl', 'ours', 'trl', 'diff'].map((id) => dict[`train.verlNames.${id}`]));
    await shoot(page, details, `verl-metric-names-${lang}.png`);
    // Beside it, the same kind of table for TRL (one helper draws both).
    const trl = page.locator('section#updates details.trl-names:not(.verl-names)');
    assert.equal(await trl.locator('summary').textContent(), dict['train.trlNames.title']);
    await trl.locator('summary').click();
    assert.deepEqual(await tableText(trl.locator('table')), HISTORY_COLUMNS.filter((c) => c.trl && c.key !== 'update').map((c) => [c.label, c.trl]));
    assert.deepEqual(problems.console, []);
    assert.deepEqual(problems.page, []);
    await page.close();
  });
}
