// Issue 16 in real headless Chromium: inputs within the documented limits never freeze the tab.
// One test per row of the issue's table (scenarios in tools/bench_hostile.mjs, which generate the
// inputs), each asserting that the longest main-thread task (PerformanceObserver 'longtask')
// stays under LIMIT_MS (the best of up to 3 measurements, bestOfAttempts), and printing it with the
// machine's load; plus a run file whose name holds markup, shown as text. HOSTILE_LONGTASK_MS
// overrides the limit (default LONGEST_TASK_LIMIT_MS, 200).
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { bestOfAttempts, launchBrowser, openPage, screenshot, startServer } from './helpers.mjs';
import { SCENARIOS, runFileText } from '../../tools/bench_hostile.mjs';
import { LONGEST_TASK_LIMIT_MS } from '../../tools/load-tasks.mjs';

const LIMIT_MS = Number(process.env.HOSTILE_LONGTASK_MS ?? LONGEST_TASK_LIMIT_MS);
const SLOW = { timeout: 30 * 60 * 1000 }; // a loaded machine imports 50 000 rows slowly

let server;
let browser;
let files;

before(async () => {
  [server, browser] = await Promise.all([startServer(), launchBrowser()]);
  files = mkdtempSync(join(tmpdir(), 'grpo-hostile-test-'));
});

after(async () => {
  await browser?.close();
  await server?.close();
  rmSync(files, { recursive: true, force: true });
});

// A scenario over the limit is measured again (bestOfAttempts: a fresh clone's timing part once
// saw 223 ms where the same scenario alone took 111-155 ms, 2026-12-07), every attempt printed.
async function measure(t, name) {
  const { best } = await bestOfAttempts(async (attempt) => {
    const result = await SCENARIOS[name]({ context: browser.context, origin: server.origin, files });
    t.diagnostic(`${name}${attempt > 1 ? ` (attempt ${attempt})` : ''}: longest main-thread task ${result.longestMs} ms (load average ${result.load}); tasks over 50 ms: ${result.tasks.join(', ') || 'none'}`);
    assert.deepEqual(result.details.errors, [], 'no console or page error');
    return result;
  }, { value: (result) => result.longestMs, within: (result) => result.longestMs < LIMIT_MS });
  return best;
}

describe('hostile inputs within the documented limits', () => {
  // 50 000 rows: the most updates a run may have (docs/limits.md), a 37 MB file.
  test('a valid run file with 50 000 history rows, imported, then sections 7-8 viewed', SLOW, async (t) => {
    const result = await measure(t, 'hostile-import-50k');
    assert.equal(result.details.tableRows, 200, 'the last page of the history table: its last 200 rows');
    assert.equal(result.details.laidOutAtFirst, 50, 'of them, the first 50 laid out');
    assert.equal(result.details.laidOutScrolled, 200, 'every row laid out once the reader scrolled the table to its end');
    assert.match(result.details.pager, /^Rows 1–300 of 50000/);
    assert.match(result.details.lastPage, /^Rows 49801–50000 of 50000/);
    assert.equal(result.details.lastUpdate, '50000');
    assert.match(result.details.notKept, /^The run «dapo, updates = 50000, seed 9» is shown but not kept in the run library: it is \d+(\.\d+)? MiB, and the library keeps at most 20 MiB\. Export it to keep it\.$/);
    assert.ok(result.details.points.every((n) => n <= 4 * 1280), `charts draw thinned series: ${result.details.points}`);
    assert.ok(result.longestMs < LIMIT_MS, `longest task ${result.longestMs} ms`);
  });

  test('the same with 10 000 rows', SLOW, async (t) => {
    const result = await measure(t, 'hostile-import-10k');
    assert.equal(result.details.tableRows, 300);
    assert.ok(result.longestMs < LIMIT_MS, `longest task ${result.longestMs} ms`);
  });

  test('a link with 20 000 bad settings: one note, defaults used', SLOW, async (t) => {
    const result = await measure(t, 'hostile-link-20k');
    assert.equal(result.details.notes.length, 1);
    assert.match(result.details.notes[0], /characters of settings, more than the 65536/);
    assert.ok(result.longestMs < LIMIT_MS, `longest task ${result.longestMs} ms`);
  });

  test('5 MB pasted into the rewards list of section 3 is cut to what the link keeps', SLOW, async (t) => {
    const result = await measure(t, 'hostile-paste-5mb');
    assert.equal(result.details.maxLength, 64 * 26);
    assert.ok(result.details.valueLength <= result.details.maxLength);
    assert.ok(result.longestMs < LIMIT_MS, `longest task ${result.longestMs} ms`);
  });

  test('a run library of 50 corrupt records: each set aside and named, the page responsive', SLOW, async (t) => {
    const result = await measure(t, 'hostile-library-50');
    assert.deepEqual(result.details.listed.map((text) => text.trim()), ['dapo, seed 9 (precomputed)'], 'only the valid run is listed');
    assert.match(result.details.notes, /^Records of the run library set aside, not listed and not used: 50 \(.*\)\. «corrupt 0»: run\.packedHistory\.length: must be an integer in \[0, 60\] .*, got 30000000; «corrupt 1»: .*got 1000000000; .*\. And 47 more\. "Clear the library" removes them\.$/);
    assert.ok(result.longestMs < LIMIT_MS, `longest task ${result.longestMs} ms`);
  });

  test('a comparison link at the budget (192 runs) is checked and priced, and asks before training', SLOW, async (t) => {
    const result = await measure(t, 'hostile-link-budget');
    t.diagnostic(`the plan and the mounts: ${result.details.measures.join(', ')}`);
    const { LINK_BUDGET_SECONDS } = await import('../../web/js/training/link-plan.js');
    assert.equal(result.details.toTrain, 192);
    assert.equal(result.details.overBudget, 'false');
    assert.ok(result.details.seconds >= 0.99 * LINK_BUDGET_SECONDS && result.details.seconds <= LINK_BUDGET_SECONDS, `${result.details.seconds} s`);
    assert.ok(result.longestMs < LIMIT_MS, `longest task ${result.longestMs} ms`);
  });

  test('a 48 MB run file is read and parsed off the main thread', SLOW, async (t) => {
    const result = await measure(t, 'hostile-import-48mb');
    assert.ok(result.details.fileBytes >= 48e6);
    assert.ok(result.longestMs < LIMIT_MS, `longest task ${result.longestMs} ms`);
  });
});

test('a run file named with markup shows its name as text, not bold, code or a formula', SLOW, async () => {
  const { page, problems } = await openPage(browser.context, server.origin);
  await page.goto(`${server.origin}/index.html#rl-loop`);
  await page.locator('section#rl-loop').scrollIntoViewIfNeeded();
  await page.waitForSelector('section#rl-loop .run-bar[data-phase="precomputed"]', { timeout: 120000, state: 'attached' });
  const name = 'a` **OFFICIAL** $\\href{https://evil.example}{x}$ .json';
  await page.locator('section#rl-loop input[type="file"]').setInputFiles({ name, mimeType: 'application/json', buffer: Buffer.from(runFileText(100)) });
  await page.waitForSelector('section#rl-loop .run-bar[data-phase="imported"]', { timeout: 120000, state: 'attached' });
  const source = page.locator('section#rl-loop .run-source');
  const shown = await source.evaluate((node) => ({
    text: node.textContent,
    strong: [...node.querySelectorAll('strong')].map((n) => n.textContent),
    math: node.querySelectorAll('.math, .katex, a').length,
    code: [...node.querySelectorAll('code')].map((n) => n.textContent),
  }));
  assert.ok(shown.text.includes(name), shown.text);
  assert.deepEqual(shown.strong, [], 'no bold from the name');
  assert.equal(shown.math, 0, 'no formula or link from the name');
  assert.ok(shown.code.includes(name), `the name is one code span: ${JSON.stringify(shown.code)}`);
  assert.match(await page.locator('section#rl-loop .data-status').textContent(), /OFFICIAL/);
  await source.scrollIntoViewIfNeeded();
  await screenshot(page, 'hostile-file-name', { clip: await source.boundingBox().then((box) => ({ x: 0, y: Math.max(0, box.y - 80), width: 1280, height: box.height + 160 })) });
  assert.deepEqual([...problems.console, ...problems.page], []);
  await page.close();
});
