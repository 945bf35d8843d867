// Screenshots of the step inspector (issue 25, docs/inspector.md) in English and Russian at 1280 px
// (and 390 px with --phone): the precomputed run's update 54 (clipped tokens in its second epoch),
// a clipped token's decomposition, a counterfactual dapo -> cispo; beside them section 5's
// entropy chart and section 7's entropy-mechanism chart after a 12-update run with
// entropyMechanism on. node tools/shot_inspector.mjs [--out dir] [--phone]
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { launchBrowser, openPage, startServer } from '../tests/browser/helpers.mjs';

const { values } = parseArgs({ options: { out: { type: 'string', default: 'test-results/inspector' }, phone: { type: 'boolean', default: false } } });
mkdirSync(values.out, { recursive: true });
const UPDATE = 54;
const server = await startServer();
const problems = [];

/** A screenshot of the page region of `selector` (from its top, at most `height` px), the run dock hidden. */
async function shot(page, selector, name, { height = 1400, from = null } = {}) {
  const box = await page.evaluate(([sel, start]) => {
    const el = document.querySelector(sel);
    const top = start ? document.querySelector(start) : el;
    const r = el.getBoundingClientRect();
    const t = top.getBoundingClientRect();
    return { x: r.left + scrollX, y: t.top + scrollY, width: r.width, height: r.bottom - t.top };
  }, [selector, from]);
  const path = join(values.out, `${name}.png`);
  await page.screenshot({ path, fullPage: true, clip: { x: Math.max(0, box.x - 8), y: Math.max(0, box.y - 8), width: box.width + 16, height: Math.min(box.height, height) + 16 } });
  console.log(path);
}

for (const width of values.phone ? [1280, 390] : [1280]) {
  // Reduced motion: the charts draw at once (no animation caught half-way).
  const browser = await launchBrowser({ viewport: { width, height: width > 800 ? 900 : 844 }, reducedMotion: 'reduce' });
  const tag = width > 800 ? '' : '-phone';
  for (const lang of ['en', 'ru']) {
    const { page, problems: seen } = await openPage(browser.context, server.origin);
    await page.addInitScript(() => {
      // The run dock follows the reader down the page; it would cover the regions shot here.
      document.addEventListener('DOMContentLoaded', () => {
        const style = document.createElement('style');
        // Off-screen groups are not rendered until scrolled near (content-visibility): a shot of
        // the whole panel shows them as a reader scrolling sees them.
        style.textContent = '.run-dock { display: none !important; } .inspector-group { content-visibility: visible !important; }';
        document.head.append(style);
      });
    });
    // Section 5: its entropy chart (exact change beside the first-order prediction).
    await page.goto(`${server.origin}/index.html#lang=${lang}&finite-policy`);
    await page.waitForFunction(() => {
      document.getElementById('finite-policy')?.scrollIntoView({ block: 'start', behavior: 'instant' });
      return document.querySelector('section#finite-policy[data-rendered="true"] [data-testid="entropy-claim"]')?.textContent;
    }, null, { timeout: 120000, polling: 200 });
    await page.evaluate(() => {
      const figure = document.querySelector('section#finite-policy figure.chart-entropy');
      figure.previousElementSibling.id = 'shot-finite-title';
      figure.scrollIntoView({ block: 'start', behavior: 'instant' });
    });
    await page.waitForTimeout(1000);
    await shot(page, 'section#finite-policy [data-testid="entropy-claim"]', `section5-entropy-${lang}${tag}`, { from: '#shot-finite-title' });

    // The inspector on the precomputed run.
    await page.goto(`${server.origin}/index.html#lang=${lang}&updates`);
    await page.waitForFunction(() => {
      document.getElementById('updates')?.scrollIntoView({ block: 'start', behavior: 'instant' });
      return document.querySelector('section#updates [data-drawn]')?.dataset.drawn?.endsWith(':precomputed');
    }, null, { timeout: 120000, polling: 200 });
    await page.fill('#inspector-pick', String(UPDATE));
    await page.click('section#updates button[data-action="inspect-update"]');
    await page.waitForSelector('#step-inspector[data-state="ready"]', { timeout: 300000 });
    await page.selectOption('#inspector-step', '1');
    await page.waitForFunction(() => document.querySelector('#step-inspector').dataset.shown.endsWith(':1') && document.querySelector('#step-inspector').dataset.state === 'ready');
    await shot(page, '#step-inspector', `inspector-update${UPDATE}-clipped-${lang}${tag}`, { height: 1500 });
    const target = await page.evaluate(() => {
      const button = document.querySelector('#step-inspector button.tok-clippedHigh[data-which="original"]') ?? document.querySelector('#step-inspector button.tok-clippedLow[data-which="original"]');
      button.id = 'shot-target';
      return button.closest('.inspector-group') ? true : false;
    });
    if (!target) throw new Error('no clipped token on update 54');
    await page.click('#shot-target');
    await page.waitForTimeout(1500); // the numbers' formula renders with KaTeX (loaded now)
    await page.evaluate(() => document.querySelector('#step-inspector .inspector-detail').scrollIntoView({ block: 'start', behavior: 'instant' }));
    await shot(page, '#step-inspector .inspector-detail', `inspector-decomposition-${lang}${tag}`, { from: '#shot-target' });
    await page.click('#step-inspector button[data-action="cf-cispo"]');
    await page.waitForFunction(() => document.querySelector('#step-inspector').dataset.counterfactual, null, { timeout: 60000 });
    await page.waitForTimeout(1500);
    await shot(page, '#step-inspector .inspector-groups', `inspector-counterfactual-cispo-groups-${lang}${tag}`, { height: 900 });
    await shot(page, '#step-inspector .inspector-counterfactual', `inspector-counterfactual-cispo-${lang}${tag}`, { height: 700 });
    await shot(page, '#step-inspector .inspector-detail', `inspector-counterfactual-cispo-term-${lang}${tag}`, { height: 1400 });

    // Section 7's entropy-mechanism chart after a short run with entropyMechanism on.
    await page.goto(`${server.origin}/index.html#lang=${lang}&rl.updates=12&rl.entropyMechanism=1&rl-loop`);
    await page.locator('section#rl-loop .run-bar button[data-action="run"]').click({ timeout: 120000 });
    await page.waitForSelector('section#rl-loop .run-bar[data-phase="finished"]', { timeout: 300000, state: 'attached' });
    await page.waitForFunction(() => {
      document.getElementById('updates')?.scrollIntoView({ block: 'start', behavior: 'instant' });
      return document.querySelector('section#updates [data-drawn]')?.dataset.drawn?.endsWith(':12:finished');
    }, null, { timeout: 120000, polling: 200 });
    await page.evaluate(() => document.querySelector('section#updates figure.chart-mechanism').scrollIntoView({ block: 'start', behavior: 'instant' }));
    await page.waitForTimeout(800);
    await shot(page, 'section#updates figure.chart-mechanism', `section7-entropy-mechanism-${lang}${tag}`);
    problems.push(...seen.console, ...seen.page, ...seen.outside);
    await page.close();
  }
  await browser.close();
}
await server.close();
if (problems.length) {
  console.error(problems);
  process.exitCode = 1;
}
