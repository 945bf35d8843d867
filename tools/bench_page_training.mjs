// Bench rows for tools/bench.mjs: the smoke and full profiles (seed 9, dapo) trained in the page's
// Web Worker in headless Chromium, timed by the worker from the start of the run (warm-up and
// "before" evaluation included) to its finished result, as the same runs are timed in Node
// through the JS API. Run alone: node tools/bench_page_training.mjs
import { fileURLToPath } from 'node:url';
import { launchBrowser, openPage, startServer } from '../tests/browser/helpers.mjs';

const PROFILES = [
  { name: 'profile_smoke_s', profile: 'smoke' },
  { name: 'profile_full_s', profile: 'full' },
];

/** [{name: 'profile_smoke_s', variant: 'chromium', value, unit: 's'}, {name: 'profile_full_s', ...}] */
export async function benchPageTraining() {
  const server = await startServer();
  const browser = await launchBrowser();
  const rows = [];
  try {
    for (const { name, profile } of PROFILES) {
      const { page } = await openPage(browser.context, server.origin);
      // The embed page of section 6 alone: the same worker and core, without the rest of the course.
      await page.goto(`${server.origin}/embed.html#section=rl-loop&profile=${profile}&seed=9`);
      await page.waitForSelector('html[data-ready="true"]', { timeout: 60000 });
      await page.locator('.run-bar button[data-action="run"]').click();
      await page.waitForSelector('.run-bar[data-phase="finished"]', { timeout: 600000 });
      const ms = Number(await page.locator('.run-bar').getAttribute('data-run-ms'));
      rows.push({ name, variant: 'chromium', value: ms / 1000, unit: 's' });
      // The smoke run a learner starts in the page (64 fresh samples per prompt before and after
      // RL for section 8's coverage and pass@k): it must stay within a few seconds.
      if (profile === 'smoke') rows.push({ name: 'smoke-run-page', variant: 'chromium', reference: '< 5 s', value: ms / 1000, unit: 's' });
      await page.close();
    }
  } finally {
    await browser.close();
    await server.close();
  }
  return rows;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  for (const row of await benchPageTraining()) console.log(`${row.name.padEnd(18)} ${row.variant}  ${row.value.toFixed(3)} ${row.unit}`);
}
