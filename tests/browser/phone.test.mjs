// The course page on a phone (390 x 844, touch, Chromium), every section in both languages, opened
// at its own link as a reader opens it: the section's heading lands at the top of the screen and
// stays there while the widgets around it mount and fill in (within 16 px), the page never
// scrolls sideways, no two text boxes overlap, touch targets are at least 24 x 24 px, chart text
// is at least 11 px and legends stay off the plot. Saves a screenshot of every section under
// test-results/screenshots/phone/. The measurements are plain functions over the page
// (phone-measure.mjs), so another engine's driver can run them unchanged.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { chromium } from 'playwright-core';
import { CHROMIUM_ARGS, PHONE, SHOTS, startServer } from './helpers.mjs';
import { chartText, layoutFaults, watchHeading } from './phone-measure.mjs';

const IDS = ['setup', 'verifier', 'informative-groups', 'advantages', 'reductions', 'finite-policy', 'rl-loop', 'updates', 'coverage', 'real-model'];
const PHONE_SHOTS = join(SHOTS, 'phone');
const LANDING_PX = 16;

let server;
let browser;

before(async () => {
  [server, browser] = await Promise.all([
    startServer(),
    chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', headless: true, args: CHROMIUM_ARGS }),
  ]);
  mkdirSync(PHONE_SHOTS, { recursive: true });
});

after(async () => {
  await browser?.close();
  await server?.close();
});

/** A fresh phone tab (its own context: touch, mobile viewport, 3x pixels) recording errors. */
async function phoneTab() {
  const context = await browser.newContext({ viewport: PHONE, isMobile: true, hasTouch: true, deviceScaleFactor: 3, locale: 'en-US' });
  const page = await context.newPage();
  const errors = [];
  page.on('console', (message) => message.type() === 'error' && errors.push(message.text()));
  page.on('pageerror', (error) => errors.push(String(error)));
  return { page, errors, close: () => context.close() };
}

const measure = (page, fn, ...args) => page.evaluate(`(${fn})(...${JSON.stringify(args)})`);

for (const lang of ['en', 'ru']) {
  describe(`phone 390 px, ${lang}`, () => {
    for (const id of IDS) {
      test(`#${id}: lands on its heading, no sideways scroll, no overlapping text, touch-sized targets`, async () => {
        const { page, errors, close } = await phoneTab();
        try {
          await page.goto(`${server.origin}/index.html#lang=${lang}&${id}`);
          // 3.5 s as a reader waits, sampled as painted; the first second is the page's to land.
          const landing = await measure(page, watchHeading, id, 3500, 1000);
          assert.ok(Math.abs(landing.last) <= LANDING_PX, `#${id}: heading at ${landing.last} px from the top after 3.5 s`);
          assert.ok(Math.abs(landing.worst) <= LANDING_PX, `#${id}: heading moved to ${landing.worst} px while the widgets filled in`);
          await page.waitForSelector(`section#${id}[data-rendered="true"]`, { timeout: 30000 });
          await page.waitForTimeout(200); // Chart.js settles its responsive size
          await page.locator(`section#${id}`).screenshot({ path: join(PHONE_SHOTS, `${lang}-${id}.png`) });
          const faults = await measure(page, layoutFaults, id);
          assert.ok(faults.overflow <= 0, `#${id}: the page scrolls sideways by ${faults.overflow} px: ${faults.wide.join('; ')}`);
          assert.deepEqual(faults.wide, [], `#${id}: wider than the screen without a box of its own to scroll in`);
          assert.deepEqual(faults.overlaps, [], `#${id}: overlapping text boxes`);
          assert.deepEqual(faults.smallTargets, [], `#${id}: touch targets under 24 x 24 px`);
          for (const chart of await measure(page, chartText, id)) {
            assert.ok(chart.minFont >= 11, `#${id}: chart text of ${chart.minFont} px`);
            assert.equal(chart.legendOverlapsPlot, false, `#${id}: the legend covers the plot`);
          }
          assert.deepEqual(errors, [], 'console errors');
        } finally {
          await close();
        }
      });
    }
  });
}
