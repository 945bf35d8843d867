// Every chart's accessible twin in real Chromium, in English and Russian: the axis titles the
// canvas draws (dictionary seed strings such as INFO_X, COVERAGE_Y) are named in the canvas's
// aria-label and in the header cells of its "numbers as a table".
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { inflateSync } from 'node:zlib';
import { gotoReady, openPage, useServerAndBrowser } from './helpers.mjs';
import en from '../../web/js/i18n/en.js';
import ru from '../../web/js/i18n/ru.js';
import enTraining from '../../web/js/i18n/en-training.js';
import ruTraining from '../../web/js/i18n/ru-training.js';

const env = useServerAndBrowser();

// The sections that draw charts, and how many each draws (sections 2-5, 7 and 8: train and held-out
// coverage, pass@k, completion lengths).
const EXPECTED = { 'informative-groups': 1, advantages: 1, reductions: 1, 'finite-policy': 3, updates: 6, coverage: 4 };

/** Every chart on the page: its section, the axis titles Chart.js draws, its aria-label, its table's headers. */
function charts(page) {
  return page.evaluate(() =>
    [...document.querySelectorAll('main figure.chart canvas')].map((canvas) => {
      const chart = window.Chart.getChart(canvas);
      const titles = Object.entries(chart?.options.scales ?? {})
        .filter(([, scale]) => scale?.title?.display && scale.title.text)
        .map(([id, scale]) => ({ id, text: scale.title.text }));
      const figure = canvas.closest('figure');
      return {
        section: canvas.closest('section.section')?.id,
        drawn: Boolean(chart),
        titles,
        aria: canvas.getAttribute('aria-label') ?? '',
        headers: [...figure.querySelectorAll('details.chart-data th')].map((th) => th.textContent),
      };
    }),
  );
}

for (const [lang, dict] of [
  ['en', { ...en, ...enTraining }],
  ['ru', { ...ru, ...ruTraining }],
]) {
  test(`${lang}: every chart names the axes it draws in its aria text and its table headers`, async () => {
    const { page, problems } = await openPage(env.browser.context, env.server.origin);
    await gotoReady(page, `${env.server.origin}/index.html#lang=${lang}`);
    const found = await charts(page);
    const counts = {};
    for (const c of found) counts[c.section] = (counts[c.section] ?? 0) + 1;
    assert.deepEqual(counts, EXPECTED);
    const seeds = new Set(Object.values(dict));
    let named = 0;
    for (const c of found) {
      assert.ok(c.drawn, `${c.section}: a chart is drawn`);
      for (const { id, text } of c.titles) {
        const where = `${c.section} ${id} axis "${text}"`;
        assert.ok(seeds.has(text), `${where} is a ${lang} dictionary string`);
        assert.ok(c.aria.includes(text), `${where} in the aria-label: ${c.aria}`);
        assert.ok(c.headers.some((th) => th.includes(text)), `${where} in the table headers: ${c.headers.join(' | ')}`);
        named += 1;
      }
    }
    assert.ok(named >= 14, `axis titles checked: ${named}`);
    assert.deepEqual([...problems.console, ...problems.page], []);
    await page.close();
  });
}

test('every chart saves as a PNG of what it draws, on a white ground, named by its section', async () => {
  const { page, problems } = await openPage(env.browser.context, env.server.origin);
  await gotoReady(page, `${env.server.origin}/index.html`);
  const buttons = page.locator('main figure.chart button[data-action="chart-png"]');
  assert.equal(await buttons.count(), Object.values(EXPECTED).reduce((a, b) => a + b, 0), 'one PNG button per chart');
  // The first chart of section 7 (its canvas pixels, device-pixel sized).
  const figure = page.locator('section#updates figure.chart').first();
  const size = await figure.locator('canvas').evaluate((canvas) => [canvas.width, canvas.height]);
  const [download] = await Promise.all([page.waitForEvent('download'), figure.locator('button[data-action="chart-png"]').click()]);
  assert.equal(download.suggestedFilename(), 'grpo-lab-updates-1.png');
  const png = readFileSync(await download.path());
  assert.deepEqual([...png.subarray(0, 8)], [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a], 'a PNG signature');
  assert.deepEqual([png.readUInt32BE(16), png.readUInt32BE(20)], size, 'the canvas size (IHDR width, height)');
  assert.equal(png[25], 6, 'RGBA (colour type 6)');
  // The top-left pixel (outside the plot): opaque white. In row 0 every PNG filter leaves the
  // first pixel's bytes as they are, so the inflated IDAT data after the filter byte is the pixel.
  const idat = [];
  for (let at = 8; at < png.length; ) {
    const length = png.readUInt32BE(at);
    if (png.toString('latin1', at + 4, at + 8) === 'IDAT') idat.push(png.subarray(at + 8, at + 8 + length));
    at += 12 + length;
  }
  const pixels = inflateSync(Buffer.concat(idat));
  assert.deepEqual([...pixels.subarray(1, 5)], [255, 255, 255, 255], 'a white, opaque ground');
  assert.deepEqual([...problems.console, ...problems.page], []);
  await page.close();
});
