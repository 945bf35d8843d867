// Comparison links (`#cmp=`) that stay bounded, in Chromium on embed.html, with the issue-29
// attacks: 12 batches of 16 seeds at every config maximum start no batch and no worker before a
// click, and after it Stop ends the batch and every worker within 1 s (a worker inside one long
// call leaves it at the interrupt flag, seed-batch.js); so does a link of small runs. A timing
// file (it runs alone); compare-link-library.test.mjs has the links' library and refusals.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { screenshot } from './helpers.mjs';
import { batchesStarted, panel, statusText, stopAfterStart, useCompareLinkPage } from './compare-link-page.mjs';

describe('comparison links within a budget', () => {
  const { embed, counted } = useCompareLinkPage();

  it('12 batches x 16 seeds at every maximum: nothing trains before the click; after it, Stop ends the batch and every worker within 1 s', async (t) => {
    const { page, problems, live } = await counted();
    const max = 'hidden:512,embed:256,warmupSteps:100000,updates:50000,groupSize:64,promptBatch:64,updateEpochs:16,maxNewTokens:16,finalEvalSamples:256,evalSamples:64,trainPrompts:120,heldoutPrompts:35,n:16';
    await page.goto(embed(Array.from({ length: 12 }, (_, i) => `${max},seed:${i * 100}`).join(';')));
    const ask = page.locator(`${panel}[data-phase="asking"] .link-confirm[data-over-budget="true"][data-over-cap="true"][data-to-train="192"]`);
    await ask.waitFor({ timeout: 60000 });
    const text = await ask.textContent();
    assert.match(text, /^This link compares 12 runs or batches: 192 runs, 192 of them not in your run library\. Training those is about [\d,.]+ years of work/);
    assert.ok(text.includes("That is more than the 5 minutes a link trains at one click"), text);
    assert.ok(text.includes('keeps the newest 50 runs, fewer than the 192'), text);
    // Asked, and nothing trains while the question waits: no batch, no worker started.
    const idle = live.size; // the page's own (section 6's training worker)
    await page.waitForTimeout(2000);
    assert.equal(await batchesStarted(page), 0, 'no seed batch before the click');
    assert.equal(live.size, idle, 'no worker started while asking');
    assert.equal(await page.locator(panel).getAttribute('data-phase'), 'asking');
    await screenshot(page.locator(`${panel} .link-confirm`), 'compare-link-over-budget');
    // The reader trains it anyway, then stops: the panel is stopped at once, and every worker
    // goes. These workers are inside one call of minutes (a warm-up of 100 000 steps at hidden
    // 512). A terminated worker inside a call would close only after Chromium's forcible-
    // termination delay of 2 s (a worker in a busy loop: 2.0 s, an idle one 10 ms); on this
    // cross-origin isolated page the batch's interrupt flag takes each out of its call first.
    assert.equal(await page.evaluate(() => crossOriginIsolated), true, 'the test server isolates the page');
    const { ms, panelMs } = await stopAfterStart(page, live, idle);
    t.diagnostic(`Stop: the batch ended (every worker terminated) after ${panelMs} ms, the last worker closed after ${ms} ms`);
    assert.ok(panelMs < 1000, `the panel stopped ${panelMs} ms after Stop`);
    assert.ok(ms < 1000, `every worker ended ${ms} ms after Stop`);
    assert.match(await statusText(page), /^Stopped: 0 of the 192 runs of the link trained/);
    assert.deepEqual(problems.page, []);
    await page.close();
  });

  it('a link of small runs: Stop ends every worker within 1 s', async (t) => {
    const { page, problems, live } = await counted();
    await page.goto(embed('updates:400,warmupSteps:0,seed:20,n:4'));
    await page.locator(`${panel} .link-confirm[data-over-budget="false"][data-to-train="4"]`).waitFor({ timeout: 60000 });
    const idle = live.size;
    // Stopped while the seeds train (the progress bar has moved).
    const { ms, panelMs } = await stopAfterStart(page, live, idle, () => document.querySelector('.compare-panel progress').value > 0);
    t.diagnostic(`Stop: the batch ended after ${panelMs} ms, the last worker closed after ${ms} ms`);
    assert.ok(ms < 1000, `every worker ended ${ms} ms after Stop (the panel: ${panelMs} ms)`);
    assert.match(await statusText(page), /^Stopped: 0 of the 4 runs of the link trained/);
    assert.deepEqual(problems.page, []);
    await page.close();
  });
});
