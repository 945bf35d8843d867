// Run across seeds in Chromium: a batch of seeds in parallel workers gives each seed exactly the
// numbers of the same seed run alone through the page's controller (byte for byte), Pause holds
// every worker, Stop ends them all, and a bad seed count is refused with the allowed range.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { launchBrowser, openPage, startServer } from './helpers.mjs';

describe('run across seeds (parallel workers)', () => {
  let server;
  let browser;
  let page;
  let problems;
  before(async () => {
    server = await startServer();
    browser = await launchBrowser();
    ({ page, problems } = await openPage(browser.context, server.origin));
    await page.goto(`${server.origin}/embed.html#section=rl-loop&profile=smoke&seed=9`);
    await page.waitForSelector('html[data-ready="true"]', { state: 'attached', timeout: 60000 });
  });
  after(async () => {
    await browser?.close();
    await server?.close();
  });

  it('gives each seed of a 3-seed, 2-worker batch the bytes of its single run', async () => {
    const out = await page.evaluate(async () => {
      const { loadCore } = await import('/core/index.js');
      const { runSeeds } = await import('/js/training/seed-batch.js');
      const training = await import('/js/training/controller.js');
      const core = await loadCore();
      const config = core.experimentConfig({ profile: 'smoke', seed: 0 });
      const progress = [];
      const batch = runSeeds(config, [3, 4, 5], { workers: 2, onProgress: (p) => progress.push(p.done) });
      const runs = await batch.promise;
      training.start({ ...config, seed: 4 });
      await new Promise((resolve) => {
        const off = training.subscribe((s) => {
          if (s.phase === 'finished') {
            off();
            resolve();
          }
        });
      });
      const single = training.getState().result;
      const four = runs.find((r) => r.seed === 4).result;
      return {
        workers: batch.workers,
        seeds: runs.map((r) => r.seed),
        batchHistory: JSON.stringify(four.history),
        singleHistory: JSON.stringify(single.history),
        batchAfter: JSON.stringify([four.afterTrain, four.afterHeldout, four.beforeTrain]),
        singleAfter: JSON.stringify([single.afterTrain, single.afterHeldout, single.beforeTrain]),
        otherHistory: JSON.stringify(runs.find((r) => r.seed === 3).result.history),
        lastProgress: progress.at(-1),
        total: 3 * config.updates,
        updates: config.updates,
      };
    });
    assert.equal(out.workers, 2);
    assert.deepEqual(out.seeds, [3, 4, 5]);
    assert.equal(JSON.parse(out.batchHistory).length, out.updates);
    assert.equal(out.batchHistory, out.singleHistory, 'seed 4 of the batch has the history of seed 4 run alone');
    assert.equal(out.batchAfter, out.singleAfter, 'and the same before/after metrics');
    assert.notEqual(out.otherHistory, out.batchHistory, 'another seed trains differently');
    assert.equal(out.lastProgress, out.total, 'one progress for the whole batch reaches N x updates');
  });

  it('pauses every worker, resumes, and stops them all', async () => {
    const out = await page.evaluate(async () => {
      const { loadCore } = await import('/core/index.js');
      const { runSeeds } = await import('/js/training/seed-batch.js');
      const core = await loadCore();
      const config = core.experimentConfig({ profile: 'smoke', seed: 0, updates: 400 });
      let done = 0;
      let perSeed = new Map();
      const batch = runSeeds(config, [1, 2, 3, 4], { workers: 2, onProgress: (p) => ((done = p.done), (perSeed = p.perSeed)) });
      const wait = (ms) => new Promise((r) => setTimeout(r, ms));
      // Both running seeds past their warm-up (under load one worker can start seconds after the
      // other: fresh55 saw seed 1 stopped with no update while seed 2 had made them all).
      while ([1, 2].some((seed) => (perSeed.get(seed) ?? 0) < 2)) await wait(20);
      batch.pause();
      await wait(300);
      const atPause = done;
      await wait(500);
      const stillPaused = done;
      batch.resume();
      while (done < stillPaused + 4) await wait(20);
      batch.stop();
      const runs = await batch.promise;
      // A seed still inside a call STOP_GRACE_MS after Stop is ended with its worker: result null.
      return { atPause, stillPaused, runs: runs.map((r) => ({ seed: r.seed, stopped: r.stopped, n: r.result?.history.length ?? null })) };
    });
    assert.equal(out.stillPaused, out.atPause, 'no update while paused');
    assert.equal(out.runs.length, 2, 'the two running seeds end, the two queued are dropped');
    for (const run of out.runs) {
      assert.equal(run.stopped, true);
      if (run.n !== null) assert.ok(run.n > 0 && run.n < 400, `seed ${run.seed} stopped after ${run.n} updates`);
    }
  });

  it('refuses a seed count outside [1, 16], naming it', async () => {
    const message = await page.evaluate(async () => {
      const { seedList } = await import('/js/training/seed-batch.js');
      try {
        seedList(0, 17);
        return null;
      } catch (error) {
        return `${error.name}: ${error.message}`;
      }
    });
    assert.equal(message, 'RangeError: seeds: must be an integer in [1, 16], got 17');
    assert.deepEqual(problems.page, []);
    assert.deepEqual(problems.console, []);
  });
});
