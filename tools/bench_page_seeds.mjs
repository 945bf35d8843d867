// Bench rows for tools/bench.mjs: run across seeds in headless Chromium. One smoke seed in one
// worker, then N seeds in W workers (web/js/training/seed-batch.js), each timed from the batch's
// start (workers' WASM compile included) to its last result; parallel efficiency =
// (N x one-seed time) / (W x batch time). The main thread's longest task while the workers train
// comes from a longtask PerformanceObserver. The load average goes with the rows: other work on
// the machine takes cores from the workers. Run alone: node tools/bench_page_seeds.mjs
import { loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import { launchBrowser, openPage, startServer } from '../tests/browser/helpers.mjs';

const BATCHES = [
  { seeds: 2, workers: 2 },
  { seeds: 4, workers: 2 },
];

/** Times a batch of `seeds` smoke seeds in `workers` workers in the page: {ms, longestTaskMs}. */
function timeBatch(page, seeds, workers) {
  return page.evaluate(
    async ({ seeds, workers }) => {
      const { loadCore } = await import('/core/index.js');
      const { runSeeds, seedList } = await import('/js/training/seed-batch.js');
      const core = await loadCore();
      const config = core.experimentConfig({ profile: 'smoke', seed: 0 });
      let longest = 0;
      const observer = new PerformanceObserver((list) => {
        for (const entry of list.getEntries()) longest = Math.max(longest, entry.duration);
      });
      observer.observe({ type: 'longtask' }); // entries only for tasks >= 50 ms: 0 means none
      const t0 = performance.now();
      await runSeeds(config, seedList(1, seeds), { workers }).promise;
      const ms = performance.now() - t0;
      await new Promise((r) => setTimeout(r, 50)); // the observer's last entries
      observer.disconnect();
      return { ms, longestTaskMs: longest };
    },
    { seeds, workers },
  );
}

/** Rows: seeds-1x1-s, seeds-NxW-s, parallel-efficiency-NxW, seeds-longest-task-NxW. */
export async function benchPageSeeds() {
  const server = await startServer();
  const browser = await launchBrowser();
  const rows = [];
  const load = () => `load ${loadavg().map((v) => v.toFixed(1)).join(' ')}`;
  try {
    const { page } = await openPage(browser.context, server.origin);
    await page.goto(`${server.origin}/embed.html#section=rl-loop&profile=smoke&seed=9`);
    await page.waitForSelector('html[data-ready="true"]', { state: 'attached', timeout: 60000 });
    const one = await timeBatch(page, 1, 1);
    rows.push({ name: 'seeds-1x1-s', variant: 'chromium', value: one.ms / 1000, unit: 's', note: load() });
    for (const { seeds, workers } of BATCHES) {
      const batch = await timeBatch(page, seeds, workers);
      const tag = `${seeds}x${workers}`;
      const efficiency = (seeds * one.ms) / (workers * batch.ms);
      rows.push({ name: `seeds-${tag}-s`, variant: 'chromium', value: batch.ms / 1000, unit: 's', note: load() });
      rows.push({ name: `parallel-efficiency-${tag}`, variant: 'chromium', reference: '>= 80 %', value: 100 * efficiency, unit: '%', note: load() });
      rows.push({ name: `seeds-longest-task-${tag}`, variant: 'chromium', reference: '< 50 ms', value: batch.longestTaskMs, unit: 'ms', note: load() });
    }
    // The machine's load while measured (other work takes cores from the workers).
    rows.push({ name: 'seeds-load-average-1min', variant: 'chromium', value: loadavg()[0], unit: 'load' });
  } finally {
    await browser.close();
    await server.close();
  }
  return rows;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  for (const row of await benchPageSeeds()) console.log(`${row.name.padEnd(28)} ${row.variant}  ${row.value.toFixed(3)} ${row.unit}  ${row.reference ?? ''}  (${row.note})`);
}
