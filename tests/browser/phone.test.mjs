// The course page on a phone (390 x 844, touch, Chromium), every section in both languages, opened
// at its own link as a reader opens it: the section's heading lands at the top of the screen and
// stays there while the widgets around it mount and fill in (within 16 px), the page never
// scrolls sideways, no two text boxes overlap, touch targets are at least 24 x 24 px, chart text
// is at least 11 px and legends stay off the plot. Saves a screenshot of every section under
// test-results/screenshots/phone/. Then what a thumb does: the run bar docked under sections 7-8
// (Run/Pause from it drive the page's one run; it covers no chart text and steps aside for
// section 6's own bar), and the "Mode probabilities at step" slider dragged by touch. The
// measurements are plain functions over the page (phone-measure.mjs), so another engine's driver
// can run them unchanged (tools/measure_links.mjs runs the landing in Chromium, Firefox, WebKit).
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { chromium } from 'playwright-core';
import { CHROMIUM_ARGS, PHONE, SHOTS, startServer } from './helpers.mjs';
import { chartText, layoutFaults, watchHeading } from './phone-measure.mjs';
import en from '../../web/js/i18n/en.js';

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

/**
 * A fresh phone tab (its own context: touch, mobile viewport, 3x pixels) recording errors. The
 * service worker only with `offline` (section 0 says what it saved): each fresh context's worker
 * downloads the whole site beside the landing, ~0.9 CPU-s a tab (2026-12-07), and no other
 * section's layout reads it (landing.test.mjs lands every engine without one).
 */
async function phoneTab({ offline = false } = {}) {
  const context = await browser.newContext({ viewport: PHONE, isMobile: true, hasTouch: true, deviceScaleFactor: 3, locale: 'en-US', serviceWorkers: offline ? 'allow' : 'block' });
  const page = await context.newPage();
  const errors = [];
  page.on('console', (message) => message.type() === 'error' && errors.push(message.text()));
  page.on('pageerror', (error) => errors.push(String(error)));
  return { page, errors, close: () => context.close() };
}

const measure = (page, fn, ...args) => page.evaluate(`(${fn})(...${JSON.stringify(args)})`);

// Two sections at once, a core each: each test mostly waits out its 3.5 s watch. Four at once
// beside other work (load 8) landed #coverage 991 px and #real-model 52 px off their headings.
const TABS_AT_ONCE = 2;

for (const lang of ['en', 'ru']) {
  describe(`phone 390 px, ${lang}`, { concurrency: TABS_AT_ONCE }, () => {
    for (const id of IDS) {
      test(`#${id}: lands on its heading, no sideways scroll, no overlapping text, touch-sized targets`, async () => {
        const { page, errors, close } = await phoneTab({ offline: id === 'setup' });
        try {
          await page.goto(`${server.origin}/index.html#lang=${lang}&${id}`);
          // 3.5 s as a reader waits, sampled as painted; the first second is the page's to land.
          const landing = await measure(page, watchHeading, id, 3500, 1000);
          assert.ok(Math.abs(landing.last) <= LANDING_PX, `#${id}: heading at ${landing.last} px from the top after 3.5 s`);
          assert.ok(Math.abs(landing.worst) <= LANDING_PX, `#${id}: heading moved to ${landing.worst} px while the widgets filled in`);
          await page.waitForSelector(`section#${id}[data-rendered="true"]`, { timeout: 30000 });
          await page.waitForTimeout(200); // Chart.js settles its responsive size
          // The docked run bar is fixed to the screen: a whole-section shot would paint it mid-section.
          // One pixel per CSS pixel: PNG-encoding a whole section at 3x cost ~0.9 CPU-s a shot.
          await page.locator(`section#${id}`).screenshot({ path: join(PHONE_SHOTS, `${lang}-${id}.png`), scale: 'css', style: '.run-dock { display: none !important; }' });
          const faults = await measure(page, layoutFaults, id);
          assert.ok(faults.overflow <= 0, `#${id}: the page scrolls sideways by ${faults.overflow} px: ${faults.wide.join('; ')}`);
          assert.deepEqual(faults.wide, [], `#${id}: wider than the screen without a box of its own to scroll in`);
          assert.deepEqual(faults.overlaps, [], `#${id}: overlapping text boxes`);
          assert.deepEqual(faults.smallTargets, [], `#${id}: touch targets under 24 x 24 px`);
          for (const chart of await measure(page, chartText, id)) {
            assert.ok(chart.minFont >= 11, `#${id}: chart text of ${chart.minFont} px`);
            assert.equal(chart.legendOverlapsPlot, false, `#${id}: the legend covers the plot`);
            assert.deepEqual(chart.legendCut, [], `#${id}: legend labels cut at the chart's edge`);
          }
          assert.deepEqual(errors, [], 'console errors');
        } finally {
          await close();
        }
      });
    }
  });
}

describe('phone 390 px, the run bar docked under sections 7-8', () => {
  test('#updates: the dock shows, Pause pauses a running smoke run, it covers no chart text, and steps aside for section 6', async () => {
    const { page, errors, close } = await phoneTab();
    try {
      // 1000 smoke updates: long enough (tens of seconds) that Pause lands while it runs.
      await page.goto(`${server.origin}/index.html#profile=smoke&seed=9&rl.updates=1000&updates`);
      await page.waitForSelector('section#updates[data-rendered="true"]', { timeout: 30000 });
      const dock = page.locator('.run-dock');
      await dock.waitFor({ state: 'visible', timeout: 15000 });
      const shown = await page.evaluate(() => {
        const el = document.querySelector('.run-dock');
        const rect = el.getBoundingClientRect();
        const buttons = [...el.querySelectorAll('button, a')].map((b) => {
          const r = b.getBoundingClientRect();
          return { text: b.textContent.trim(), width: r.width, height: r.height };
        });
        return { role: el.getAttribute('role'), label: el.getAttribute('aria-label'), top: rect.top, bottom: rect.bottom, width: rect.width, buttons, pad: parseFloat(getComputedStyle(document.body).paddingBottom) };
      });
      assert.equal(shown.role, 'region');
      assert.equal(shown.label, en['train.dock.label']);
      assert.ok(Math.abs(shown.bottom - 844) <= 1 && shown.width === 390, `the dock spans the bottom of the screen: ${JSON.stringify(shown)}`);
      assert.ok(shown.pad >= shown.bottom - shown.top - 1, `the page's bottom is padded by the dock's height (${shown.pad} px for ${shown.bottom - shown.top} px)`);
      assert.deepEqual(shown.buttons.map((b) => b.text), ['Run', 'Pause', 'Step', 'Stop', 'Settings']);
      for (const b of shown.buttons) assert.ok(b.width >= 24 && b.height >= 24, `${b.text}: ${b.width} x ${b.height} px`);

      // Run and Pause from the dock drive the page's one run (section 6's bar shows the same).
      const bar = page.locator('.run-dock-bar');
      await bar.locator('button[data-action="run"]').tap();
      await page.waitForSelector('.run-dock-bar[data-phase="running"]', { timeout: 60000 });
      await page.waitForFunction(() => Number(document.querySelector('.run-dock-bar').dataset.updatesDone) >= 3, null, { timeout: 60000 });
      await bar.locator('button[data-action="pause"]').tap();
      await page.waitForSelector('.run-dock-bar[data-phase="paused"]', { timeout: 15000 });
      const pausedAt = Number(await bar.getAttribute('data-updates-done'));
      await page.waitForTimeout(600);
      assert.equal(Number(await bar.getAttribute('data-updates-done')), pausedAt, 'no update after Pause');
      assert.ok(pausedAt < 1000, `paused at ${pausedAt} of 1000`);
      assert.match(await bar.locator('[data-testid="dock-progress-text"]').textContent(), new RegExp(`^${pausedAt} / 1000 `));
      await page.screenshot({ path: join(PHONE_SHOTS, 'en-run-dock-paused.png') });

      // A chart scrolled to the bottom of the screen (as focus or find-in-page scroll) ends above the dock.
      const covered = await page.evaluate(async () => {
        const frames = () => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)));
        const out = [];
        for (const figure of document.querySelectorAll('section#updates figure[data-chart]')) {
          // Again if the page's view keeper took a scroll in the frame of a layout change for its own.
          for (let tries = 0; tries < 5 && (tries === 0 || figure.getBoundingClientRect().bottom > innerHeight); tries += 1) {
            figure.scrollIntoView({ block: 'end', behavior: 'instant' });
            await frames();
          }
          const dockEl = document.querySelector('.run-dock');
          if (dockEl.hidden) {
            out.push(`${figure.dataset.chart}: dock hidden`);
            continue;
          }
          // The figure's last row of text: the lowest text line box inside it.
          let last = -Infinity;
          const walker = document.createTreeWalker(figure, NodeFilter.SHOW_TEXT);
          for (let node = walker.nextNode(); node; node = walker.nextNode()) {
            if (!node.textContent.trim() || node.parentElement.closest('details:not([open]) > :not(summary), .visually-hidden')) continue;
            const range = document.createRange();
            range.selectNodeContents(node);
            for (const r of range.getClientRects()) if (r.height >= 1) last = Math.max(last, r.bottom);
          }
          const top = dockEl.getBoundingClientRect().top;
          if (last > top) out.push(`${figure.dataset.chart}: text to ${Math.round(last)} px, dock from ${Math.round(top)} px`);
        }
        return out;
      });
      assert.deepEqual(covered, []);

      // Section 6's own bar on screen: the dock steps aside (one set of controls at a time).
      await page.evaluate(() => document.getElementById('rl-loop').scrollIntoView({ block: 'start', behavior: 'instant' }));
      await page.waitForSelector('section#rl-loop .run-bar', { timeout: 30000 });
      await page.evaluate(() => document.querySelector('section#rl-loop .run-bar').scrollIntoView({ block: 'center', behavior: 'instant' }));
      await dock.waitFor({ state: 'hidden', timeout: 5000 });
      assert.equal(await page.locator('section#rl-loop .run-bar').getAttribute('data-phase'), 'paused');
      assert.deepEqual(errors, [], 'console errors');
    } finally {
      await close();
    }
  });
});

describe('phone 390 px, the "Mode probabilities at step" slider by thumb', () => {
  test('#finite-policy: a 44 px tall target; a touch drag from the thumb moves the step, the chart follows', async () => {
    const { page, errors, close } = await phoneTab();
    try {
      await page.goto(`${server.origin}/index.html#finite-policy`);
      await page.waitForSelector('section#finite-policy[data-rendered="true"]', { timeout: 30000 });
      const slider = page.locator('section#finite-policy input[data-key="fp.at"]');
      await slider.scrollIntoViewIfNeeded();
      const box = await slider.boundingBox();
      assert.ok(box.height >= 44 - 0.5 && box.width >= 200, `the slider is ${box.width} x ${box.height} px`);
      const max = Number(await slider.getAttribute('max'));
      const from = Number(await slider.inputValue());
      assert.equal(from, max, 'the slider starts at the last step');
      // A real touch sequence (CDP), from the thumb at the right end to a quarter of the track.
      const cdp = await page.context().newCDPSession(page);
      const y = box.y + box.height / 2;
      const x0 = box.x + box.width - 8;
      const x1 = box.x + box.width / 4;
      await cdp.send('Input.dispatchTouchEvent', { type: 'touchStart', touchPoints: [{ x: x0, y }] });
      for (let i = 1; i <= 12; i += 1) await cdp.send('Input.dispatchTouchEvent', { type: 'touchMove', touchPoints: [{ x: x0 + ((x1 - x0) * i) / 12, y }] });
      await cdp.send('Input.dispatchTouchEvent', { type: 'touchEnd', touchPoints: [] });
      const step = Number(await slider.inputValue());
      assert.ok(step > 0 && step < max / 2, `dragged to a quarter of the track: step ${step} of ${max}`);
      await page.waitForFunction((s) => document.querySelector('section#finite-policy h3')?.textContent.endsWith(` ${s}`), step, { timeout: 5000 });
      assert.equal(await page.locator('section#finite-policy output.range-value').textContent(), String(step));
      assert.match(page.url(), new RegExp(`fp\\.at=${step}(&|$)`), 'the step is in the link');
      assert.deepEqual(errors, [], 'console errors');
    } finally {
      await close();
    }
  });
});

describe('phone 390 px, a link followed in the open page', () => {
  test('#lang=ru&updates from section 1 (values and a section: the page re-renders) lands on section 7', async () => {
    const { page, errors, close } = await phoneTab();
    try {
      await page.goto(`${server.origin}/index.html#verifier`);
      await page.waitForSelector('section#verifier[data-rendered="true"]', { timeout: 30000 });
      await page.evaluate(() => (location.hash = 'lang=ru&updates'));
      const landing = await measure(page, watchHeading, 'updates', 3500, 1000);
      assert.ok(Math.abs(landing.last) <= LANDING_PX && Math.abs(landing.worst) <= LANDING_PX, `heading at ${landing.last} px (worst ${landing.worst} px)`);
      assert.equal(await page.evaluate(() => document.documentElement.lang), 'ru');
      assert.deepEqual(errors, [], 'console errors');
    } finally {
      await close();
    }
  });
});
