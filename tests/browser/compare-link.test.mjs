// Comparison links (`#cmp=`) that stay bounded, in Chromium on embed.html, with the issue-29
// attacks: 12 batches of 16 seeds at every config maximum start no batch and no worker before a
// click, and after it Stop ends the batch and every worker within 1 s (a worker inside one long
// call leaves it at the interrupt flag, seed-batch.js); so does a link of small runs; a link
// needing more runs than the library keeps says so, trains once and shows every seed (batches
// named by their β); values the trainer refuses (a seed past 2^32 - 1, 200 + 200 prompts) are
// refused before any run; refused link text is quoted as text, cut, without bidi marks (EN, RU).
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { launchBrowser, openPage, screenshot, startServer } from './helpers.mjs';
import en from '../../web/js/i18n/en.js';

describe('comparison links within a budget', () => {
  let server;
  let browser;
  const panel = '.compare-panel';
  const embed = (cmp, extra = '') => `${server.origin}/embed.html#section=updates${extra}&cmp=${encodeURIComponent(cmp)}`;
  /** A page whose dedicated workers are counted as they start and end (not the threaded core's own threads). */
  async function counted() {
    const { page, problems } = await openPage(browser.context, server.origin);
    const live = new Set();
    page.on('worker', (worker) => {
      if (worker.url().endsWith('grpo_core_mt.worker.js')) return;
      live.add(worker);
      worker.on('close', () => live.delete(worker));
    });
    return { page, problems, live };
  }
  const statusText = (page) => page.locator(`${panel} .seeds-status`).textContent();
  /** How many seed batches the page started (seed-batch.js marks each). */
  const batchesStarted = (page) => page.evaluate(() => performance.getEntriesByName('grpo:seeds-start').length);
  /** Trains the link asked about, waits for its seed workers, clicks Stop: {ms} until every one closed, {panelMs} until the panel ended the batch. */
  async function stopAfterStart(page, live, idle, started = () => true) {
    await page.click('button[data-action="train-link"]');
    await page.waitForFunction((s) => document.querySelector(s).dataset.phase === 'running', panel);
    for (const until = Date.now() + 60000; live.size <= idle && Date.now() < until; ) await page.waitForTimeout(50);
    assert.ok(live.size > idle, 'the seed workers started');
    await page.waitForFunction(started, null, { timeout: 60000 });
    const at = Date.now();
    await page.click('button[data-action="stop-seeds"]');
    while (live.size > idle && Date.now() - at < 10000) await page.waitForTimeout(20);
    const ms = Date.now() - at;
    assert.equal(live.size, idle, 'every seed worker ended');
    await page.waitForFunction((s) => document.querySelector(s).dataset.phase === 'stopped', panel);
    const panelMs = await page.evaluate(() => {
      const [stop] = performance.getEntriesByName('grpo:seeds-stop');
      const [ended] = performance.getEntriesByName('grpo:seeds-ended');
      return Math.round(ended.startTime - stop.startTime);
    });
    return { ms, panelMs };
  }

  before(async () => {
    [server, browser] = await Promise.all([startServer(), launchBrowser()]);
  });
  after(async () => {
    await browser?.close();
    await server?.close();
  });

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

  it('more runs than the library keeps (4 x 16): it says so, trains once, shows every seed, names the batches by β', async () => {
    const { page, problems } = await counted();
    // Small runs (1 update, no warm-up), the four batches different in β only.
    const small = 'updates:1,warmupSteps:0,finalEvalSamples:4,evalSamples:1,seed:1,n:16';
    const link = [0, 0.01, 0.02, 0.03].map((beta) => `beta:${beta},${small}`).join(';');
    await page.goto(embed(link));
    await page.locator(`${panel} .link-confirm[data-over-cap="true"][data-over-budget="false"][data-to-train="64"]`).waitFor({ timeout: 60000 });
    await page.click('button[data-action="train-link"]');
    await page.waitForSelector(`${panel}[data-phase="finished"]`, { state: 'attached', timeout: 600000 });
    const table = await page.$$eval(`${panel} .seed-estimators`, ([t]) => ({
      caption: t.querySelector('caption').textContent,
      columns: [...t.querySelectorAll('thead th')].map((th) => th.textContent),
      cells: [...t.querySelectorAll('tbody td')].map((td) => td.textContent),
    }));
    assert.deepEqual(table.columns.slice(2), ['β = 0', 'β = 0.01', 'β = 0.02', 'β = 0.03'], 'columns named by what differs');
    assert.match(table.caption, /one column per batch \(16 seeds; the batches differ in β\)/);
    assert.equal(table.cells.length, 16 * 5);
    assert.deepEqual(table.cells.filter((cell) => !/^\d/.test(cell)), [], 'no empty cell: every seed trained is shown');
    const legend = await page.evaluate(() => window.Chart.getChart(document.querySelector('.compare-panel canvas')).data.datasets.map((d) => d.label).filter((l) => /β/.test(l)));
    assert.ok(legend.some((label) => label.includes('(β = 0.03)')), `chart: ${legend}`);
    assert.match(await page.locator(`${panel} .paired-estimators li`).first().textContent(), /β = 0\b.*β = 0\.01/);
    // Opened again: the library kept 50, the rest would train again, and the question says so.
    await page.goto('about:blank');
    await page.goto(embed(link));
    const again = page.locator(`${panel} .link-confirm[data-over-cap="true"]`);
    await again.waitFor({ timeout: 60000 });
    const toTrain = Number(await again.getAttribute('data-to-train'));
    assert.ok(toTrain >= 14 && toTrain <= 15, `runs to train again: ${toTrain}`);
    await page.click('button[data-action="decline-link"]');
    await page.waitForSelector(`${panel}[data-phase="declined"]`, { state: 'attached' });
    assert.equal(await statusText(page), en['compare.link.declined']);
    assert.match(page.url(), /cmp=/, 'the declined link stays in the address');
    assert.deepEqual(problems.page, []);
    await page.close();
  });

  it('refuses before any run what the trainer would refuse; quotes link text cut, with no bidi marks (EN, RU)', async () => {
    const { page, problems, live } = await counted();
    const refusal = async (cmp, extra = '') => {
      await page.goto('about:blank');
      await page.goto(embed(cmp, extra));
      await page.waitForSelector(`${panel}[data-phase="refused"]`, { state: 'attached', timeout: 60000 });
      return statusText(page);
    };
    const idle = live.size;
    assert.match(await refusal('seed:4294967295,n:16'), /cannot be opened: seed: .*4294967295.*4294967296/);
    assert.match(await refusal('trainPrompts:150,heldoutPrompts:150'), /cannot be opened: heldoutPrompts: at most 155 in total, got 300/);
    assert.match(await refusal('trainPrompts:200,heldoutPrompts:200'), /cannot be opened: trainPrompts: .*200/);
    assert.match(await refusal('__proto__:x'), /cannot be opened: run 1: «__proto__:x» is not field:value/);
    // Markup in the link is quoted as text, cut: the status holds no element.
    const markup = await refusal('seed:9;<img src=x onerror=alert(1)>:1');
    assert.ok(markup.includes('run 2: «<img src=x onerror=alert(1)>:1» is not field:value'), markup);
    assert.equal(await page.locator(`${panel} .seeds-status *`).count(), 0);
    const bidi = await refusal(`seed:9,lossType:\u202Egrpo\u2066${'x'.repeat(200)}`);
    assert.doesNotMatch(bidi, /[\u202a-\u202e\u2066-\u2069]/);
    assert.ok(bidi.includes(`«lossType:grpo${'x'.repeat(27)}…»`), bidi);
    assert.match(await refusal('seed:9,seed:3', '&lang=ru'), /^Сравнение из ссылки открыть нельзя: запуск 1: поле seed задано дважды/);
    assert.equal(live.size, idle, 'no seed worker started');
    assert.match(page.url(), /cmp=/, 'the refused link stays in the address');
    assert.deepEqual(problems.page, []);
    await page.close();
  });
});
