// The first load (issue 28 item 3) in headless Chromium: the course page opened at section 2
// fetches at most 400 kB gzip (the core's reference build, not the full one), and no main-thread
// task of the course page, embed.html or the teacher page's load runs over 200 ms, wall time on
// this machine (a timing file: alone, tools/run-tests.mjs; the best of up to 3 loads) nor in the
// task's own CPU time (a trace: what the page costs whatever else runs). Prints every figure with
// the load average.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { loadavg } from 'node:os';
import { bestOfAttempts, launchBrowser, startServer } from './helpers.mjs';
import { coldLoad } from '../../tools/bench_page.mjs';
import { LOAD_PAGES, LONGEST_TASK_LIMIT_MS, measureLoadTasks } from '../../tools/load-tasks.mjs';

const FIRST_LOAD_GZIP_BYTES = 400_000;

let server;

before(async () => {
  server = await startServer();
});

after(async () => {
  await server?.close();
});

describe('the first load', () => {
  test(`the course page opened at section 2 fetches at most ${FIRST_LOAD_GZIP_BYTES / 1000} kB gzip, the core's reference build included`, async (t) => {
    const { weight } = await coldLoad(server.origin, { weigh: true });
    const files = weight.files.sort((a, b) => b.gzip - a.gzip);
    t.diagnostic(`first load at section 2: ${weight.gzip} B gzip in ${weight.requests} requests; ${files.slice(0, 8).map((f) => `${f.url} ${f.gzip}`).join(', ')}`);
    const paths = files.map((f) => f.url);
    assert.ok(paths.includes('/core/grpo_core_reference.wasm'), 'the reference build');
    assert.ok(!paths.includes('/core/grpo_core.wasm') && !paths.includes('/core/grpo_core.js'), 'not the full build');
    assert.ok(weight.gzip <= FIRST_LOAD_GZIP_BYTES, `${weight.gzip} B gzip`);
  });

  test('the test browser runs no hidden Chromium page of its own beside the test\'s (DISABLED_FEATURES)', async () => {
    const browser = await launchBrowser();
    try {
      const tab = await browser.context.newPage();
      await tab.goto(`${server.origin}/favicon.svg`);
      const cdp = await browser.context.newCDPSession(tab);
      const { targetInfos } = await cdp.send('Target.getTargets');
      const hidden = targetInfos.filter((target) => target.url.startsWith('chrome://'));
      assert.deepEqual(hidden.map((target) => target.url), [], 'the omnibox popup and preloaded WebUI pages start with no browser of the tests');
    } finally {
      await browser.close();
    }
  });

  for (const page of LOAD_PAGES) {
    test(`${page.name} (${page.path}): no main-thread task over ${LONGEST_TASK_LIMIT_MS} ms while it loads`, async (t) => {
      const load = loadavg()[0].toFixed(1);
      // A task's wall time also holds what the browser's other threads took of the 2 cores: a
      // fresh clone once saw embed's at 214 ms for 68 ms of CPU (2026-12-07). A load over the
      // limit is measured again in a new browser (bestOfAttempts), each printed; the CPU check
      // has one load.
      const { best: wall, all: walls } = await bestOfAttempts(async () => {
        const browser = await launchBrowser({ reducedMotion: 'reduce' });
        try {
          return await measureLoadTasks(browser.context, server.origin, page);
        } finally {
          await browser.close();
        }
      }, { value: (load) => load.longest, within: (load) => load.longest <= LONGEST_TASK_LIMIT_MS });
      let traced;
      const again = await launchBrowser({ reducedMotion: 'reduce' });
      try {
        traced = await measureLoadTasks(again.context, server.origin, page, { trace: true });
      } finally {
        await again.close();
      }
      const list = (tasks) => tasks.map((task) => `${task.frame === 'top' ? '' : `${task.frame} `}${task.ms}`).join(', ') || 'none over 50 ms';
      const retried = walls.length > 1 ? ` (the best of ${walls.length} loads: ${walls.map((w) => w.longest).join(', ')} ms)` : '';
      t.diagnostic(`${page.name}: longest task ${wall.longest} ms${retried} (load average ${load} / ${loadavg()[0].toFixed(1)}): ${list(wall.tasks)}; traced load: longest task CPU time ${traced.longestCpu} ms`);
      assert.ok(traced.longestCpu <= LONGEST_TASK_LIMIT_MS, `a task took ${traced.longestCpu} ms of CPU`);
      assert.ok(wall.longest <= LONGEST_TASK_LIMIT_MS, `longest task ${wall.longest} ms: ${list(wall.tasks)}`);
    });
  }
});
