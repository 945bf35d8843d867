// A timing file (tools/run-tests.mjs runs it alone): the variable-length task of issue 23 in the
// page. Section 6's "scratch" preset (profile smoke) runs in the worker in under 10 s from the
// click on Run to section 8's last sentence (the worker's start and WASM compile included), and
// section 8 then shows the response lengths of the warm-up policy spread over at least 8 tokens
// between the 10th and 90th percentile, in the words Node computes for the same run.
//
// Instances of this machine kind differ in speed: Lighthouse's benchmark index (lighthouse.test)
// read 1640-2862 over our fresh clones, and CI's instance at 1611 took this run 11.2 s where ours
// take 6.9-8.3 s. So the test also times the core's own run of the same config in Node, on the
// same instance right after: the page may add at most PAGE_OVERHEAD_S to it (the worker's start,
// the messages, the drawing), and must be under the budget unless the core alone is already
// over BUDGET_S - PAGE_OVERHEAD_S there (then the core's arithmetic is what is slow: issue 28).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { gotoReady, nodeCore, openPage, useServerAndBrowser } from './helpers.mjs';
import { PRESETS } from '../../web/js/training/presets.js';
import { lengthSentences, lengthSummary } from '../../web/js/training/length-histogram.js';
import { verdictText } from '../../web/js/training/verdicts.js';
import { loadLanguage, t } from '../../web/js/i18n.js';

/** The page budget of the issue: a smoke run of the scratch task in under 10 s on this machine. */
const BUDGET_S = 10;
/** What the page may add to the core's own run (the worker's start, messages, drawing): -1.8 to 0.9 s here. */
const PAGE_OVERHEAD_S = 2;

const env = useServerAndBrowser();
await loadLanguage('en');

test('the scratch preset trains in the page in under 10 s; section 8 shows its warm-up lengths spread over >= 8 tokens', async () => {
  const preset = PRESETS.find((p) => p.id === 'scratch').patch;
  const hash = `#${Object.entries(preset).map(([key, value]) => `${key}=${value}`).join('&')}&rl-loop`;
  const { page, problems } = await openPage(env.browser.context, env.server.origin);
  await gotoReady(page, `${env.server.origin}/index.html${hash}`);
  const started = Date.now();
  await page.locator('section#rl-loop button[data-action="run"]').click();
  await page.waitForSelector('section#rl-loop .run-bar[data-phase="finished"]', { timeout: 120000, state: 'attached' });
  await page.waitForFunction(() => document.querySelector('section#coverage .lengths-summary')?.textContent.includes('After RL'), null, { timeout: 30000 });
  const seconds = (Date.now() - started) / 1000;
  const config = await page.evaluate(async () => (await import('/js/training/controller.js')).getState().result.config);
  assert.equal(config.task, 'scratch');
  const shown = await page.textContent('section#coverage .lengths-summary');
  const bars = await page.evaluate(() => window.Chart.getChart(document.querySelector('section#coverage figure[data-chart="lengths"] canvas'))?.data.datasets.map((d) => d.data.reduce((a, b) => a + b, 0)));
  assert.deepEqual([...problems.console, ...problems.page], []);
  // Closed before the core's own run: its worker (the step inspector's first look after a run)
  // would share the cores with it.
  await page.close();

  const core = await nodeCore();
  const nodeStarted = performance.now();
  const run = core.runToyGrpoExperiment(config);
  const coreSeconds = (performance.now() - nodeStarted) / 1000;
  console.log(`# scratch smoke run in the page: ${seconds.toFixed(1)} s; the core's own run in Node ${coreSeconds.toFixed(1)} s (task ${config.task}, ${config.trainPrompts}/${config.heldoutPrompts} prompts, ${config.updates} updates, warm-up ${config.warmupSteps} steps)`);
  const overhead = `the page ${seconds.toFixed(1)} s, the core alone ${coreSeconds.toFixed(1)} s`;
  assert.ok(seconds - coreSeconds <= PAGE_OVERHEAD_S, `${overhead}: the page adds over ${PAGE_OVERHEAD_S} s`);
  assert.ok(seconds < BUDGET_S || coreSeconds > BUDGET_S - PAGE_OVERHEAD_S, `${overhead}, budget ${BUDGET_S} s`);
  const s = lengthSummary(run.lengthHistogram.before);
  assert.ok(s.spread >= 8, `warm-up spread p10 ${s.p10} .. p90 ${s.p90}`);
  assert.equal(shown, lengthSentences(run.lengthHistogram).map((line) => verdictText((k, p) => t(k, p, 'en'), line)).join(' '));
  assert.deepEqual(bars, [run.lengthHistogram.before.correct, run.lengthHistogram.before.incorrect, run.lengthHistogram.after.correct, run.lengthHistogram.after.incorrect].map((c) => c.reduce((a, b) => a + b, 0)));
});
