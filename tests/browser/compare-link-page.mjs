// Section 7's compare panel opened from a comparison link (`#cmp=`) on embed.html, as
// compare-link.test.mjs (Stop within 1 s: a timing file) and compare-link-library.test.mjs drive
// it: one server and one Chromium per file, pages whose seed workers are counted, the panel's
// status and seed batches.
import assert from 'node:assert/strict';
import { openPage, useServerAndBrowser } from './helpers.mjs';

export const panel = '.compare-panel';

/** The file's server and browser, and the helpers over them. */
export function useCompareLinkPage() {
  const lab = useServerAndBrowser();
  const embed = (cmp, extra = '') => `${lab.server.origin}/embed.html#section=updates${extra}&cmp=${encodeURIComponent(cmp)}`;
  /** A page whose dedicated workers are counted as they start and end (not the threaded core's own threads). */
  async function counted() {
    const { page, problems } = await openPage(lab.browser.context, lab.server.origin);
    const live = new Set();
    page.on('worker', (worker) => {
      if (worker.url().endsWith('grpo_core_mt.worker.js')) return;
      live.add(worker);
      worker.on('close', () => live.delete(worker));
    });
    return { page, problems, live };
  }
  return { embed, counted };
}

export const statusText = (page) => page.locator(`${panel} .seeds-status`).textContent();

/** How many seed batches the page started (seed-batch.js marks each). */
export const batchesStarted = (page) => page.evaluate(() => performance.getEntriesByName('grpo:seeds-start').length);
/** Trains the link asked about, waits for its seed workers, clicks Stop: {ms} until every one closed, {panelMs} until the panel ended the batch. */
export async function stopAfterStart(page, live, idle, started = () => true) {
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

