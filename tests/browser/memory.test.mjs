// Memory over repeated runs in one tab: the smoke profile trains five times in a row with Reset
// between runs. The training worker is reused (one worker for all five), no console error, the
// worker's C++ core holds no object once a run has finished or been reset (liveHandles 0), and
// neither the page's JS heap (performance.memory, after a forced GC) nor the worker's WASM heap
// grows from the second run to the fifth beyond a small margin. The first run is the warm-up
// (worker start, WASM memory growing to what a run needs, JIT, Chart.js caches), so it is not
// compared. First, one Step shows that the counter counts (a paused run holds 1 object). Prints a
// table of the five measurements.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { LAPTOP, cspViolations, gotoReady, launchBrowser, openPage, startServer } from './helpers.mjs';

const RUNS = 5;
const MAX_JS_GROWTH = 10 * 1024 * 1024; // bytes, run 2 -> run 5
const MAX_WASM_GROWTH = 1024 * 1024;

let server;
let browser;

before(async () => {
  server = await startServer();
  // Precise (unquantised) performance.memory and window.gc().
  browser = await launchBrowser({ viewport: LAPTOP, extraArgs: ['--enable-precise-memory-info', '--js-flags=--expose-gc'] });
});

after(async () => {
  await browser?.close();
  await server?.close();
});

const debugInfo = (page) => page.evaluate(async () => (await import('/js/training/controller.js')).debugInfo());

/** Waits until the worker's last core report was made after `event` (finished, reset, ...). */
async function waitCoreReport(page, event) {
  await page.waitForFunction(
    async (after) => (await import('/js/training/controller.js')).debugInfo().coreStats?.after === after,
    event,
    { timeout: 30000, polling: 50 },
  );
  return (await debugInfo(page)).coreStats;
}

/** Forces full GCs in the worker and the page, then reads the page's JS heap in bytes. */
async function jsHeapAfterGc(page) {
  // Not the threaded core's own threads: one of them waits in Atomics.wait for the next pass and
  // would never run the evaluation.
  for (const worker of page.workers()) if (!worker.url().endsWith('grpo_core_mt.worker.js')) await worker.evaluate(() => globalThis.gc?.());
  return page.evaluate(async () => {
    for (let i = 0; i < 3; i += 1) {
      window.gc();
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    return performance.memory.usedJSHeapSize;
  });
}

test(`${RUNS} smoke runs in one tab with Reset between them: one worker, no leak of handles or heap`, { timeout: 300000 }, async () => {
  const started = Date.now();
  const { page, problems } = await openPage(browser.context, server.origin);
  const workers = [];
  page.on('worker', (worker) => workers.push(worker.url()));
  await gotoReady(page, `${server.origin}/index.html#profile=smoke`);
  const section = page.locator('section#rl-loop');
  await section.scrollIntoViewIfNeeded();
  const bar = section.locator('.run-bar');
  await bar.locator('button[data-action="run"]').waitFor({ timeout: 30000 });
  assert.equal(await page.evaluate(() => typeof window.gc), 'function', 'Chromium runs with --js-flags=--expose-gc');

  // The counter counts: one Step creates the experiment and pauses, holding one C++ object.
  await bar.locator('button[data-action="step"]').click();
  await page.waitForSelector('section#rl-loop .run-bar[data-phase="paused"]', { timeout: 60000, state: 'attached' });
  assert.equal((await waitCoreReport(page, 'created')).liveHandles, 1, 'a paused run holds its experiment');
  assert.equal(await bar.getAttribute('data-live-handles'), '1');
  await bar.locator('button[data-action="reset"]').click();
  assert.equal((await waitCoreReport(page, 'reset')).liveHandles, 0, 'Reset disposes a paused run');

  const rows = [];
  for (let run = 1; run <= RUNS; run += 1) {
    const runStarted = Date.now();
    await bar.locator('button[data-action="run"]').click();
    await page.waitForSelector('section#rl-loop .run-bar[data-phase="finished"]', { timeout: 120000, state: 'attached' });
    const finished = await waitCoreReport(page, 'finished');
    assert.equal(await bar.getAttribute('data-updates-done'), '60', `run ${run}: the smoke profile's 60 updates`);
    assert.equal(finished.liveHandles, 0, `run ${run}: the experiment is disposed when the run finishes`);
    // The notebook's inspected group is drawn right after a run: let it land before Reset.
    await page.waitForFunction(
      async () => (await import('/js/training/controller.js')).getState().inspection?.loading === false,
      null,
      { timeout: 30000, polling: 50 },
    );

    await bar.locator('button[data-action="reset"]').click();
    await page.waitForSelector('section#rl-loop .run-bar[data-phase="precomputed"]', { timeout: 30000, state: 'attached' });
    const reset = await waitCoreReport(page, 'reset');
    assert.equal(reset.liveHandles, 0, `run ${run}: no C++ object is left after Reset`);
    // The run bar shows the same report (for DevTools), as data attributes.
    assert.equal(await bar.getAttribute('data-live-handles'), '0');
    assert.equal(await bar.getAttribute('data-wasm-heap-bytes'), String(reset.heapBytes));

    const jsHeap = await jsHeapAfterGc(page);
    rows.push({ run, jsHeap, wasmHeap: reset.heapBytes, liveHandles: reset.liveHandles, seconds: (Date.now() - runStarted) / 1000 });
  }

  const mb = (bytes) => (bytes / 1024 / 1024).toFixed(2);
  const line = (cells) => cells.map((cell, i) => String(cell).padStart([3, 11, 16, 13, 6][i])).join(' ');
  console.log(`\n${line(['run', 'JS heap MB', 'WASM heap B', 'live handles', 's'])}`);
  for (const r of rows) console.log(line([r.run, mb(r.jsHeap), r.wasmHeap, r.liveHandles, r.seconds.toFixed(1)]));
  console.log(`total ${((Date.now() - started) / 1000).toFixed(1)} s`);

  const debug = await debugInfo(page);
  assert.equal(debug.worker, true);
  assert.equal(workers.filter((url) => url.includes('/training/worker.js')).length, 1, `one training worker for all runs: ${workers.join(', ')}`);
  const second = rows[1];
  const fifth = rows[RUNS - 1];
  assert.ok(
    fifth.jsHeap - second.jsHeap <= MAX_JS_GROWTH,
    `the page's JS heap grew by ${mb(fifth.jsHeap - second.jsHeap)} MB from run 2 to run ${RUNS} (at most ${mb(MAX_JS_GROWTH)})`,
  );
  assert.ok(
    fifth.wasmHeap - second.wasmHeap < MAX_WASM_GROWTH,
    `the WASM heap grew by ${fifth.wasmHeap - second.wasmHeap} bytes from run 2 to run ${RUNS} (less than ${MAX_WASM_GROWTH})`,
  );
  assert.deepEqual([...problems.console, ...problems.page, ...problems.outside, ...(await cspViolations(page))], []);
  await page.close();
});
