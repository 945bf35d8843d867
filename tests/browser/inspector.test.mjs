// The step inspector (section 7, docs/inspector.md) written once and run in Chromium, Firefox and
// WebKit (engines.mjs): on the precomputed run, update 54 (clipped tokens in its second epoch) is
// replayed in the worker; every token's weight on the page equals Node's WASM core's for the same
// update bit for bit, the clip marks are those tokens', a click (or Enter) takes a token apart to
// its weight, a counterfactual dapo -> cispo changes what Node's grpoObjective changes; in Russian
// the same. A live scratch-task run is inspected from the worker's record (no replay), and at
// 390 px its long token strips scroll sideways and a tap opens the decomposition (Chromium, whose
// window can be a phone's). Screenshots: test-results/screenshots/inspector-*.png.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { ENGINES, openEngine, startProbedServer } from './engines.mjs';
import { chromium } from 'playwright-core';
import { CHROMIUM_ARGS, PHONE, nodeCore, openPage, screenshot, startServer } from './helpers.mjs';
import { sig } from '../../web/js/training/inspector-terms.js';

const chosen = process.env.ENGINES ? process.env.ENGINES.split(',') : ENGINES;
const UPDATE = 54; // the precomputed run's update with clipped tokens low and high (epoch 2)
const PRECOMPUTED = { profile: 'smoke', seed: 9 };
const SCRATCH = { hash: 'rl.task=scratch&rl.maxNewTokens=32&rl.updates=3&rl.warmupSteps=60', update: 2 };

let expected;
async function nodeView() {
  if (!expected) {
    const core = await nodeCore();
    const { view } = core.inspectUpdate(PRECOMPUTED, UPDATE);
    const step = view.steps[1];
    const cispo = core.grpoCounterfactual({ batch: step.objective, change: { lossType: 'cispo' } });
    // -0 reads back as 0 from the page's data-weight text: the same weight.
    expected = { weights: step.terms.map((row) => row.weight.map((w) => (w === 0 ? 0 : w))), clipped: step.terms.reduce((n, row) => n + row.clippedLow.filter(Boolean).length + row.clippedHigh.filter(Boolean).length, 0), tokensChanged: cispo.tokensChanged };
  }
  return expected;
}

/** The inspector as drawn: the shown step's weights by step row, marks and state. */
const readInspector = () => {
  const el = document.querySelector('#step-inspector');
  const weights = [];
  for (const button of el.querySelectorAll('.inspector-groups button.tok[data-which="original"]')) {
    const j = Number(button.dataset.j);
    (weights[j] ??= [])[Number(button.dataset.t)] = Number(button.dataset.weight);
  }
  return {
    state: el.dataset.state,
    shown: el.dataset.shown,
    status: el.querySelector('.inspector-status').textContent,
    weights,
    clipped: el.querySelectorAll('.inspector-groups button.tok-clippedLow[data-which="original"], .inspector-groups button.tok-clippedHigh[data-which="original"]').length,
    summaryTokens: Number(el.querySelector('.inspector-summary').dataset.tokens),
    summaryClipped: Number(el.querySelector('.inspector-summary').dataset.clipped),
    selected: el.dataset.selected ?? null,
    detailWeight: el.querySelector('.inspector-term-original table tr[data-term="weight"] td')?.textContent ?? null,
    counterfactual: el.dataset.counterfactual ?? null,
  };
};

async function assertClean(engine, where) {
  const { console: logged, page, csp, outside } = await engine.problems();
  assert.deepEqual({ logged, page, csp, outside }, { logged: [], page: [], csp: [], outside: [] }, `${engine.name} ${where}`);
}

/** Opens the inspector at `update` from the launcher under section 7's charts. */
async function openAt(engine, update) {
  // Section 7 mounts when the reader reaches it: bring it into view until it has drawn the run.
  await engine.waitFor(() => {
    document.getElementById('updates')?.scrollIntoView({ block: 'start', behavior: 'instant' });
    return document.querySelector('section#updates [data-drawn]')?.dataset.drawn?.split(':')[1] > 0;
  }, { message: 'section 7 drew a run', timeout: 180000 });
  await engine.evaluate(() => document.querySelector('#inspector-pick').scrollIntoView({ block: 'center', behavior: 'instant' }));
  await engine.fill('#inspector-pick', String(update));
  await engine.click('section#updates button[data-action="inspect-update"]');
  await engine.waitFor((n) => {
    const el = document.querySelector('#step-inspector');
    return el && (el.dataset.state === 'error' || (el.dataset.state === 'ready' && el.dataset.update === String(n)));
  }, { args: [update], message: `update ${update} opens`, timeout: 240000 });
}

for (const name of chosen) {
  describe(name, () => {
    let site;
    let engine;

    before(async () => {
      site = await startProbedServer();
      engine = await openEngine(name, { origins: [site.origin] });
    });

    after(async () => {
      await engine?.close();
      await site?.close();
    });

    for (const lang of ['en', 'ru']) {
      test(`${lang}: update ${UPDATE} of the precomputed run, replayed: weights, clip marks, a token's term, dapo -> cispo`, async () => {
        const want = await nodeView();
        await engine.goto(`${site.origin}/index.html#lang=${lang}&updates`);
        await openAt(engine, UPDATE);
        // The second epoch: ratios moved, some clipped.
        await engine.evaluate(() => {
          const select = document.querySelector('#inspector-step');
          select.value = '1';
          select.dispatchEvent(new Event('change'));
        });
        await engine.waitFor(() => {
          const el = document.querySelector('#step-inspector');
          return el.dataset.state === 'ready' && el.dataset.shown.endsWith(':1');
        }, { message: 'the second epoch is drawn' });
        const shown = await engine.evaluate(readInspector);
        assert.equal(shown.state, 'ready', shown.status);
        assert.ok(shown.status.length > 0, 'it says the update was replayed');
        assert.deepEqual(shown.weights, want.weights, `${name}: the page's weights are Node's, bit for bit`);
        assert.equal(shown.clipped, want.clipped);
        assert.ok(shown.clipped > 0, 'update 54 has clipped tokens');
        assert.equal(shown.summaryClipped, want.clipped);
        assert.equal(shown.summaryTokens, want.weights.flat().length);
        if (name === 'chromium') await engine.screenshot(`inspector-${lang}-update${UPDATE}`);

        // A clipped token, taken apart.
        const target = await engine.evaluate(() => {
          const button = document.querySelector('#step-inspector button.tok-clippedLow[data-which="original"], #step-inspector button.tok-clippedHigh[data-which="original"]');
          button.id = 'inspector-target';
          button.scrollIntoView({ block: 'center', behavior: 'instant' });
          return { j: button.dataset.j, t: button.dataset.t, weight: Number(button.dataset.weight) };
        });
        // Two frames: its group, skipped while off screen (content-visibility), is laid out.
        await engine.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
        // Under two busy loops Firefox's click missed the token once (the driver aims, then sends
        // its mouse events; the layout can move in between): a reader clicks again, so does this.
        for (let attempt = 1; ; attempt++) {
          await engine.click('#inspector-target');
          try {
            await engine.waitFor((key) => document.querySelector('#step-inspector').dataset.selected === key, { args: [`${target.j}:${target.t}`], message: 'the token is selected', timeout: 10000 });
            break;
          } catch (error) {
            if (attempt === 3) throw error;
          }
        }
        const picked = await engine.evaluate(readInspector);
        assert.equal(picked.detailWeight, sig(target.weight, 6));
        assert.equal(target.weight, 0, 'a clipped token carries no weight');
        if (name === 'chromium') await engine.screenshot(`inspector-${lang}-decomposition`);

        // Counterfactual: dapo -> cispo on the same batch.
        await engine.evaluate(() => document.querySelector('#step-inspector button[data-action="cf-cispo"]').scrollIntoView({ block: 'center', behavior: 'instant' }));
        await engine.click('#step-inspector button[data-action="cf-cispo"]');
        await engine.waitFor(() => document.querySelector('#step-inspector').dataset.counterfactual, { message: 'the counterfactual', timeout: 60000 });
        const cf = await engine.evaluate(readInspector);
        assert.equal(Number(cf.counterfactual), want.tokensChanged, cf.counterfactual);
        const changed = await engine.evaluate(() => document.querySelectorAll('#step-inspector button.tok-changed[data-which="counterfactual"]').length);
        assert.equal(changed, want.tokensChanged);
        if (name === 'chromium') await engine.screenshot(`inspector-${lang}-counterfactual-cispo`);

        // A click on a chart at an update opens the inspector there (its middle: about update 30).
        await engine.evaluate(() => document.querySelector('section#updates figure.chart-loss canvas').scrollIntoView({ block: 'center', behavior: 'instant' }));
        await engine.click('section#updates figure.chart-loss canvas');
        const clicked = await engine.waitFor(() => {
          const el = document.querySelector('#step-inspector');
          const update = Number(el.dataset.update);
          return el.dataset.state === 'ready' && update !== 54 && update;
        }, { message: 'a chart click opens another update', timeout: 240000 });
        assert.ok(clicked > 15 && clicked < 45, `the chart's middle is about update 30, got ${clicked}`);

        // The run library: every run has its way in (the precomputed run is in it), at update 1.
        await engine.waitFor(() => {
          const button = document.querySelector('section#updates button[data-action="inspect-run"]');
          button?.scrollIntoView({ block: 'center', behavior: 'instant' });
          return Boolean(button);
        }, { message: 'the library lists a run with "Inspect its updates"', timeout: 60000 });
        await engine.click('section#updates button[data-action="inspect-run"]');
        await engine.waitFor(() => {
          const el = document.querySelector('#step-inspector');
          return el.dataset.state === 'ready' && el.dataset.update === '1' && el.dataset.shown.startsWith('library:');
        }, { message: 'the library run opens at update 1', timeout: 240000 });
        await assertClean(engine, `${lang} inspector`);
      });
    }

    test('a live scratch-task run is inspected from the worker’s record, without a replay', async () => {
      await engine.goto(`${site.origin}/index.html#${SCRATCH.hash}&rl-loop`);
      await engine.waitFor(() => {
        document.getElementById('rl-loop')?.scrollIntoView({ block: 'start', behavior: 'instant' });
        return document.querySelector('section#rl-loop .run-bar button[data-action="run"]');
      }, { message: 'the run bar', timeout: 120000 });
      await engine.click('section#rl-loop .run-bar button[data-action="run"]');
      await engine.waitFor(() => document.querySelector('section#rl-loop .run-bar')?.dataset.phase === 'finished', { message: 'the scratch run finishes', timeout: 300000 });
      await engine.evaluate(() => document.getElementById('updates').scrollIntoView({ behavior: 'instant' }));
      await openAt(engine, SCRATCH.update);
      const shown = await engine.evaluate(readInspector);
      assert.equal(shown.state, 'ready', shown.status);
      assert.equal(shown.status, '', 'kept by the worker: not replayed');
      const longest = Math.max(...shown.weights.map((row) => row.length));
      assert.ok(longest > 4, `scratch responses are long (${longest} tokens)`);
      await assertClean(engine, 'live scratch');
    });
  });
}

// A phone (Playwright's touch emulation): the strip of a long response scrolls sideways, a tap
// opens the decomposition.
if (chosen.includes('chromium')) {
  describe('chromium at 390 px, touch', () => {
    let site;
    let browser;
    before(async () => {
      site = await startServer();
      browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', headless: true, args: CHROMIUM_ARGS });
    });
    after(async () => {
      await browser?.close();
      await site?.close();
    });

    test('the token strip scrolls and a tap shows the term', async () => {
      const context = await browser.newContext({ viewport: PHONE, hasTouch: true, isMobile: true, serviceWorkers: 'block', locale: 'en-US' });
      const { page, problems } = await openPage(context, site.origin);
      await page.goto(`${site.origin}/index.html#${SCRATCH.hash}&rl-loop`);
      const run = page.locator('section#rl-loop .run-bar button[data-action="run"]');
      await run.waitFor({ timeout: 120000 });
      await run.tap();
      await page.waitForSelector('section#rl-loop .run-bar[data-phase="finished"]', { timeout: 300000, state: 'attached' });
      await page.evaluate(() => document.getElementById('updates').scrollIntoView({ behavior: 'instant' }));
      await page.waitForFunction(() => document.querySelector('section#updates [data-drawn]')?.dataset.drawn?.split(':')[1] > 0, null, { timeout: 120000 });
      await page.fill('#inspector-pick', String(SCRATCH.update));
      await page.tap('section#updates button[data-action="inspect-update"]');
      await page.waitForSelector('#step-inspector[data-state="ready"]', { timeout: 240000 });
      const strip = await page.evaluate(() => {
        const strips = [...document.querySelectorAll('#step-inspector .tok-strip-original')];
        const wide = strips.find((s) => s.scrollWidth > s.clientWidth + 1);
        if (!wide) return null;
        wide.scrollIntoView({ block: 'center', behavior: 'instant' });
        wide.scrollLeft = wide.scrollWidth;
        const last = wide.querySelector('button.tok:last-child');
        last.id = 'tap-target';
        return { scrolled: wide.scrollLeft > 0, page: document.documentElement.scrollWidth <= window.innerWidth + 1, key: `${last.dataset.j}:${last.dataset.t}` };
      });
      assert.ok(strip, 'a long response is wider than the phone');
      assert.ok(strip.scrolled, 'its strip scrolls sideways');
      assert.ok(strip.page, 'the page itself does not scroll sideways');
      await page.tap('#tap-target');
      await page.waitForFunction((key) => document.querySelector('#step-inspector').dataset.selected === key, strip.key);
      const detail = await page.evaluate(() => {
        const box = document.querySelector('#step-inspector .inspector-detail');
        box.scrollIntoView({ block: 'start', behavior: 'instant' });
        return { rows: box.querySelectorAll('.inspector-term-original table tr').length, right: box.getBoundingClientRect().right };
      });
      assert.ok(detail.rows > 5, 'the decomposition is shown');
      assert.ok(detail.right <= PHONE.width + 1, 'within the phone');
      await screenshot(page, 'inspector-phone-decomposition');
      assert.deepEqual(problems, { console: [], page: [], csp: [], outside: [] });
      await context.close();
    });
  });
}
