// Section 6's "GRPO and its ancestors" presets in real headless Chromium: each chip sets the
// advantageEstimator field (and nothing else away from the defaults), the URL carries it, the
// section text explains the group baseline in both languages; screenshot of the chips.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { LAPTOP, gotoReady, launchBrowser, openPage, screenshot, startServer } from './helpers.mjs';
import en from '../../web/js/i18n/en.js';
import ru from '../../web/js/i18n/ru.js';

let server;
let browser;
before(async () => {
  [server, browser] = await Promise.all([startServer(), launchBrowser({ viewport: LAPTOP })]);
});
after(async () => {
  await browser?.close();
  await server?.close();
});

test('the ancestors presets set advantageEstimator, one at a time', async () => {
  const { page, problems } = await openPage(browser.context, server.origin);
  await gotoReady(page, `${server.origin}/index.html#rl-loop`);
  const section = page.locator('section#rl-loop');
  assert.ok((await section.textContent()).includes(en['train.ancestorsLabel']));
  const select = section.locator('[data-key="rl.advantageEstimator"]');
  assert.equal(await select.inputValue(), 'grpo', 'the default');
  for (const estimator of ['dr_grpo', 'rloo', 'reinforce_baseline', 'reinforce', 'grpo']) {
    await section.locator(`[data-preset="estimator_${estimator}"]`).click();
    assert.equal(await select.inputValue(), estimator);
    assert.equal(await section.locator('.preset-note').textContent(), en[`train.presetNote.estimator_${estimator}`]);
  }
  await section.locator('[data-preset="estimator_rloo"]').click();
  await page.waitForFunction(() => decodeURIComponent(location.hash).includes('rl.advantageEstimator=rloo'));
  await section.locator('.presets-ancestors').scrollIntoViewIfNeeded();
  const box = await section.locator('.presets-ancestors').boundingBox();
  await screenshot(page, 'section6-ancestors-presets-en', {
    clip: { x: 0, y: Math.max(0, box.y - 420), width: LAPTOP.width, height: 560 },
  });
  assert.deepEqual(problems.page, []);
  assert.deepEqual(problems.console, []);
  for (const key of Object.keys(en).filter((k) => k.includes('estimator') || k.includes('ancestors'))) assert.ok(ru[key], `ru ${key}`);
});
