// Bench rows for tools/bench.mjs: the step inspector (docs/inspector.md). In Node, the bytes a run's
// record keeps (smoke, full, and the scratch task's variable-length responses) and what keeping
// it costs the run's time; in headless Chromium, opening an update from section 7: the longest
// main-thread task from the click to the drawn update (target < 100 ms) and the time the reader
// waits (the worker's part included), from a live run's record and by a replay from the seed, and
// a counterfactual dapo -> cispo; each after the page is idle, the median of three opens (the
// first open, which loads the module and builds the panel, on its own). Run alone:
// node tools/bench_inspector.mjs
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
  const largestSeen = new Map(); // the largest update's bytes, read once per run
  for (const { name, config } of RUNS) {
    const time = (keep) => {
      const experiment = core.createExperiment(config);
      const record = keep ? experiment.keepInspection() : null;
      const started = performance.now();
      while (!experiment.done) experiment.step(1);
      const seconds = (performance.now() - started) / 1000;
      const stats = record?.stats();
      let largest = 0;
      if (record && !largestSeen.has(name)) {
        for (let u = stats.firstKept; u <= stats.lastKept; u += 1) largest = Math.max(largest, record.view(u).bytes);
        largestSeen.set(name, largest);
      }
      largest = largestSeen.get(name) ?? 0;
      record?.dispose();
      experiment.dispose();
      return { seconds, stats, largest };
    };
    // Three times each, alternating, the fastest kept (the first run also warms the JIT up; the
    // machine is shared).
    const runs = [0, 1, 2].flatMap(() => [time(false), time(true)]);
    const fastest = (list) => list.reduce((a, b) => (b.seconds < a.seconds ? b : a));
    const plain = fastest(runs.filter((_, i) => i % 2 === 0));
    const kept = fastest(runs.filter((_, i) => i % 2 === 1));
    const mb = kept.stats.bytes / (1024 * 1024);
    console.error(`# inspector record, ${name}: ${kept.stats.bytes} bytes (${mb.toFixed(2)} MB) for updates ${kept.stats.firstKept}-${kept.stats.lastKept}, dropped ${kept.stats.dropped}; largest update ${kept.largest} bytes; run ${plain.seconds.toFixed(2)} s without, ${kept.seconds.toFixed(2)} s with`);
    rows.push({ name: `inspector-bytes-${name}`, variant: 'wasm-node', value: mb, unit: 'MB', reference: `< ${BUDGET_BYTES / 1024 / 1024} MB budget` });
    rows.push({ name: `inspector-update-bytes-${name}`, variant: 'wasm-node', value: kept.largest / 1024, unit: 'kB' });
    rows.push({ name: `inspector-keep-cost-${name}`, variant: 'wasm-node', value: kept.seconds / plain.seconds, unit: 'x run time' });
  }
  return rows;
}

/** Waits until the page has run no long task for `quiet` ms (at most `limit` ms): a busy page's work is not the inspector's. */
async function idle(page, { quiet = 1500, limit = 30000 } = {}) {
  await page.evaluate(({ quiet, limit }) => new Promise((resolve) => {
    let last = performance.now();
    const started = last;
    const observer = new PerformanceObserver(() => (last = performance.now()));
    observer.observe({ type: 'longtask' });
    const check = () => {
      const now = performance.now();
      if (now - last >= quiet || now - started >= limit) {
        observer.disconnect();
        resolve();
      } else setTimeout(check, 100);
    };
    check();
  }), { quiet, limit });
}

/**
 * In the page: opens `update` from the launcher and measures it: the longest animation frame that
 * ran the inspector's code (the worker's answer arriving, the view drawn in slices: script, style,
 * layout, paint), the longest task of any kind meanwhile, and the wait. {frame, task, waitMs, tokens}
 */
async function openUpdate(page, update, { counterfactual = false } = {}) {
  await idle(page);
  await page.evaluate(() => document.querySelector('#inspector-pick').scrollIntoView({ block: 'center', behavior: 'instant' }));
  await page.fill('#inspector-pick', String(update));
  await page.evaluate(() => {
    window.__tasks = [];
    window.__frames = [];
    window.__taskObserver?.disconnect();
    window.__frameObserver?.disconnect();
    window.__taskObserver = new PerformanceObserver((list) => window.__tasks.push(...list.getEntries().map((e) => e.duration)));
    window.__taskObserver.observe({ type: 'longtask' });
    window.__frameObserver = new PerformanceObserver((list) => {
      for (const e of list.getEntries()) {
        if (e.scripts.some((x) => /controller\.js|step-inspector\.js|inspector-launcher\.js|inspector-terms\.js/.test(x.sourceURL))) window.__frames.push(e.duration);
      }
    });
    window.__frameObserver.observe({ type: 'long-animation-frame' });
    window.__opened = performance.now();
  });
  if (counterfactual) {
    await page.click('#step-inspector button[data-action="cf-cispo"]');
    await page.waitForFunction(() => document.querySelector('#step-inspector').dataset.counterfactual, null, { timeout: 60000, polling: 100 });
  } else {
    await page.click('section#updates button[data-action="inspect-update"]');
    await page.waitForFunction((n) => {
      const el = document.querySelector('#step-inspector');
      return el?.dataset.state === 'ready' && el.dataset.update === String(n);
    }, update, { timeout: 600000, polling: 100 });
  }
  // Two frames: the drawing's last frame is over.
  return page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(() => {
    window.__taskObserver.disconnect();
    window.__frameObserver.disconnect();
    resolve({ task: Math.max(0, ...window.__tasks), frame: Math.max(0, ...window.__frames), waitMs: performance.now() - window.__opened, tokens: document.querySelectorAll('#step-inspector button.tok').length });
  }))));
}

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

/** Chromium: opening updates, the first (the module loads, the panel is built) and later ones. */
async function openTimes() {
  const server = await startServer();
  const browser = await launchBrowser();
  const rows = [];
  const add = (name, opens, note) => {
    const frame = median(opens.map((o) => o.frame));
    const task = median(opens.map((o) => o.task));
    const wait = median(opens.map((o) => o.waitMs));
    console.error(`# inspector open, ${name} (${note}; median of ${opens.length}): longest frame running the inspector ${frame.toFixed(0)} ms [${opens.map((o) => o.frame.toFixed(0)).join(', ')}], longest task of any kind ${task.toFixed(0)} ms [${opens.map((o) => o.task.toFixed(0)).join(', ')}] (0: none over 50 ms), wait ${wait.toFixed(0)} ms, ${opens[0].tokens} token buttons`);
    rows.push({ name: `inspector-open-frame-${name}`, variant: 'chromium', value: frame, unit: 'ms', reference: '< 100 ms' });
    rows.push({ name: `inspector-open-task-${name}`, variant: 'chromium', value: task, unit: 'ms' });
    rows.push({ name: `inspector-open-wait-${name}`, variant: 'chromium', value: wait / 1000, unit: 's' });
  };
  try {
    // The precomputed run (the page's first): its updates are replayed from the seed. The first
    // open of a page, three times in fresh pages; then later opens in the last one.
    const precomputed = async () => {
      const { page } = await openPage(browser.context, server.origin);
      await page.goto(`${server.origin}/index.html#updates`);
      await page.waitForFunction(() => {
        document.getElementById('updates')?.scrollIntoView({ block: 'start', behavior: 'instant' });
        return document.querySelector('section#updates [data-drawn]')?.dataset.drawn?.endsWith(':precomputed');
      }, null, { timeout: 120000, polling: 200 });
      return page;
    };
    const firsts = [];
    let page = null;
    for (let i = 0; i < 3; i += 1) {
      await page?.close();
      page = await precomputed();
      firsts.push(await openUpdate(page, 60));
    }
    add('first', firsts, 'a fresh page: the module loads, the panel is built, the run replayed to 60');
    add('replay-smoke', [await openUpdate(page, 30), await openUpdate(page, 31), await openUpdate(page, 32)], 'updates the replay kept');
    await openUpdate(page, 54);
    add('counterfactual-smoke', [await openUpdate(page, 54, { counterfactual: true }), await openUpdate(page, 54, { counterfactual: true }), await openUpdate(page, 54, { counterfactual: true })], 'dapo -> cispo on update 54');
    await page.close();
    // Live runs: the worker's record.
    for (const { name, hash, updates } of [
      { name: 'live-smoke', hash: 'rl.updates=60', updates: [30, 31, 32] },
      { name: 'live-scratch', hash: 'rl.task=scratch&rl.maxNewTokens=32&rl.updates=20', updates: [20, 19, 18] },
    ]) {
      const live = (await openPage(browser.context, server.origin)).page;
      await live.goto(`${server.origin}/index.html#${hash}&rl-loop`);
      await live.locator('section#rl-loop .run-bar button[data-action="run"]').click({ timeout: 120000 });
      await live.waitForSelector('section#rl-loop .run-bar[data-phase="finished"]', { timeout: 600000, state: 'attached' });
      await live.waitForFunction(() => {
        document.getElementById('updates')?.scrollIntoView({ block: 'start', behavior: 'instant' });
        return document.querySelector('section#updates [data-drawn]')?.dataset.drawn?.includes(':finished');
      }, null, { timeout: 120000, polling: 200 });
      const opens = [];
      for (const update of updates) opens.push(await openUpdate(live, update));
      add(name, opens.slice(1), 'from the record, after a first open');
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
