// Bench rows for tools/bench.mjs: the step inspector (docs/inspector.md). In Node, the bytes a run's
// record keeps (smoke, full, and the scratch task's variable-length responses) and what keeping
// it costs the run's time; in headless Chromium, opening an update from section 7: the longest
// main-thread task from the click to the drawn update (target < 100 ms) and the time the reader
// waits (the worker's part included), from a live run's record and by a replay from the seed, and
// a counterfactual dapo -> cispo. Run alone: node tools/bench_inspector.mjs
import { fileURLToPath } from 'node:url';
import { loadCore } from '../web/core/index.js';
import { launchBrowser, openPage, startServer } from '../tests/browser/helpers.mjs';

// What the record keeps when asked for nothing else (api_inspect.cpp kDefaultMaxBytes).
const BUDGET_BYTES = 32 * 1024 * 1024;

const RUNS = [
  { name: 'smoke', config: { profile: 'smoke', seed: 9 } },
  { name: 'full', config: { profile: 'full', seed: 9 } },
  // The scratch task (responses of 2 to ~31 tokens) as its docs say to run it.
  { name: 'scratch', config: { profile: 'smoke', seed: 9, task: 'scratch', maxNewTokens: 32 } },
];

/** Node: the bytes each run's record keeps, its largest update, and the run's time with and without it. */
async function recordBytes() {
  const core = await loadCore();
  const rows = [];
  for (const { name, config } of RUNS) {
    const time = (keep) => {
      const experiment = core.createExperiment(config);
      const record = keep ? experiment.keepInspection() : null;
      const started = performance.now();
      while (!experiment.done) experiment.step(1);
      const seconds = (performance.now() - started) / 1000;
      const stats = record?.stats();
      let largest = 0;
      if (record) for (let u = stats.firstKept; u <= stats.lastKept; u += 1) largest = Math.max(largest, record.view(u).bytes);
      record?.dispose();
      experiment.dispose();
      return { seconds, stats, largest };
    };
    const plain = time(false);
    const kept = time(true);
    const mb = kept.stats.bytes / (1024 * 1024);
    console.error(`# inspector record, ${name}: ${kept.stats.bytes} bytes (${mb.toFixed(2)} MB) for updates ${kept.stats.firstKept}-${kept.stats.lastKept}, dropped ${kept.stats.dropped}; largest update ${kept.largest} bytes; run ${plain.seconds.toFixed(2)} s without, ${kept.seconds.toFixed(2)} s with`);
    rows.push({ name: `inspector-bytes-${name}`, variant: 'wasm-node', value: mb, unit: 'MB', reference: `< ${BUDGET_BYTES / 1024 / 1024} MB budget` });
    rows.push({ name: `inspector-update-bytes-${name}`, variant: 'wasm-node', value: kept.largest / 1024, unit: 'kB' });
    rows.push({ name: `inspector-keep-cost-${name}`, variant: 'wasm-node', value: kept.seconds / plain.seconds, unit: 'x run time' });
  }
  return rows;
}

/** In the page: opens `update` from the launcher and measures it. {longestTask, waitMs, tokens} */
async function openUpdate(page, update, { counterfactual = false } = {}) {
  await page.evaluate(() => document.querySelector('#inspector-pick').scrollIntoView({ block: 'center', behavior: 'instant' }));
  await page.fill('#inspector-pick', String(update));
  await page.evaluate(() => {
    window.__tasks = [];
    window.__taskObserver?.disconnect();
    window.__taskObserver = new PerformanceObserver((list) => window.__tasks.push(...list.getEntries().map((e) => e.duration)));
    window.__taskObserver.observe({ type: 'longtask' });
    window.__opened = performance.now();
  });
  await page.click('section#updates button[data-action="inspect-update"]');
  await page.waitForFunction((n) => {
    const el = document.querySelector('#step-inspector');
    return el?.dataset.state === 'ready' && el.dataset.shown?.includes(`:${n}:`);
  }, update, { timeout: 600000 });
  if (counterfactual) {
    await page.evaluate(() => (window.__cfStart = performance.now()));
    await page.click('#step-inspector button[data-action="cf-cispo"]');
    await page.waitForFunction(() => document.querySelector('#step-inspector').dataset.counterfactual, null, { timeout: 60000 });
  }
  // Two frames: the drawing's last task is over.
  return page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(() => {
    window.__taskObserver.disconnect();
    resolve({ longestTask: Math.max(0, ...window.__tasks), waitMs: performance.now() - window.__opened, tokens: document.querySelectorAll('#step-inspector button.tok').length });
  }))));
}

/** Chromium: the longest main-thread task and the wait while an update opens. */
async function openTimes() {
  const server = await startServer();
  const browser = await launchBrowser();
  const rows = [];
  const add = (name, measured, note) => {
    console.error(`# inspector open, ${name}: longest main-thread task ${measured.longestTask.toFixed(0)} ms (0: none over 50 ms), wait ${measured.waitMs.toFixed(0)} ms, ${measured.tokens} token buttons${note ? `, ${note}` : ''}`);
    rows.push({ name: `inspector-open-task-${name}`, variant: 'chromium', value: measured.longestTask, unit: 'ms', reference: '< 100 ms' });
    rows.push({ name: `inspector-open-wait-${name}`, variant: 'chromium', value: measured.waitMs / 1000, unit: 's' });
  };
  try {
    // The precomputed run (the page's first): its updates are replayed from the seed.
    const { page } = await openPage(browser.context, server.origin);
    await page.goto(`${server.origin}/index.html#updates`);
    await page.waitForFunction(() => document.querySelector('section#updates [data-drawn]')?.dataset.drawn?.endsWith(':precomputed'), null, { timeout: 120000 });
    add('replay-smoke-60', await openUpdate(page, 60), 'replayed from the seed');
    add('replay-smoke-30', await openUpdate(page, 30), 'replay kept its records');
    add('counterfactual-smoke', await openUpdate(page, 54, { counterfactual: true }), 'with dapo -> cispo');
    await page.close();
    // Live runs: the worker's record.
    for (const { name, hash, update } of [
      { name: 'live-smoke', hash: 'rl.updates=60', update: 30 },
      { name: 'live-scratch', hash: 'rl.task=scratch&rl.maxNewTokens=32&rl.updates=20', update: 20 },
    ]) {
      const live = (await openPage(browser.context, server.origin)).page;
      await live.goto(`${server.origin}/index.html#${hash}&rl-loop`);
      await live.locator('section#rl-loop .run-bar button[data-action="run"]').click({ timeout: 120000 });
      await live.waitForSelector('section#rl-loop .run-bar[data-phase="finished"]', { timeout: 600000, state: 'attached' });
      await live.evaluate(() => document.getElementById('updates').scrollIntoView({ behavior: 'instant' }));
      await live.waitForFunction(() => document.querySelector('section#updates [data-drawn]')?.dataset.drawn?.includes(':finished'), null, { timeout: 120000 });
      add(name, await openUpdate(live, update), 'from the record');
      await live.close();
    }
  } finally {
    await browser.close();
    await server.close();
  }
  return rows;
}

/** Every row: Node's bytes, then Chromium's times. */
export async function benchInspector() {
  return [...(await recordBytes()), ...(await openTimes())];
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  for (const row of await benchInspector()) console.log(`${row.name.padEnd(34)} ${row.variant.padEnd(9)} ${row.value.toFixed(3)} ${row.unit}${row.reference ? `  (target ${row.reference})` : ''}`);
}
