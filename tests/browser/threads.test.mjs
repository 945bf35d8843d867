// Chromium: the course's server (tools/serve.mjs: COOP same-origin + COEP require-corp) makes its
// pages cross-origin isolated, so a worker's loadCore() there takes the threaded core (grpo_core_mt,
// 2 threads; a page's own thread with {threads: true}), and a run gives Node's bytes on it (issue
// 28 item 2: SHA-256 of the history JSON, as engines.test.mjs); the page's loadCore() takes the
// single-thread core, with the same bytes.
// The threaded core's argument errors keep their type, message, code, field and params (the last
// test: Emscripten 3.1.6's -pthread build once lost them, cpp/bindings/wasm_eh_pthreads.cpp). Each
// run's milliseconds on both builds are printed (`# threads ...`): the 2-thread speed-up in a
// browser, on a machine that may be loaded.
// Stop on the threaded core, a timing assertion, runs alone: threads-stop.test.mjs.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { nodeCore, openPage, useServerAndBrowser } from './helpers.mjs';

const RUNS = [
  { name: 'smoke', options: { profile: 'smoke', seed: 9, updates: 15 } },
  { name: 'scratch', options: { profile: 'smoke', seed: 9, updates: 4, task: 'scratch', maxNewTokens: 24 } },
];

const sha256 = (text) => createHash('sha256').update(text).digest('hex');

const env = useServerAndBrowser();

/** Loads the core in a fresh isolated page (loadCore(options)) and runs every RUN there. */
async function runInPage(options) {
  const { page, problems } = await openPage(env.browser.context, env.server.origin);
  await page.goto(`${env.server.origin}/core/index.js`); // any file of the origin: a document with its headers
  const result = await page.evaluate(async (loadOptions) => {
    const api = await import('/core/index.js');
    const available = api.threadedCoreAvailable(loadOptions);
    const core = await api.loadCore(loadOptions);
    return { isolated: globalThis.crossOriginIsolated, available, ready: Boolean(core) };
  }, options);
  const runs = {};
  for (const { name, options: runOptions } of RUNS) {
    runs[name] = await page.evaluate(async (opts) => {
      const core = await (await import('/core/index.js')).loadCore(); // the one loaded above
      const start = performance.now();
      const history = JSON.stringify(core.runToyGrpoExperiment(opts).history);
      return { ms: performance.now() - start, history };
    }, runOptions);
  }
  const wasm = await page.evaluate(() => performance.getEntriesByType('resource').map((entry) => entry.name.split('/').pop()).filter((file) => file.endsWith('.wasm')));
  await page.close();
  return { ...result, runs, wasm, problems };
}

test('an isolated page trains on the threaded core with the bytes of Node (threads: true); without, its own thread takes the single-thread core', async () => {
  const node = await nodeCore();
  const expected = Object.fromEntries(RUNS.map(({ name, options }) => [name, sha256(JSON.stringify(node.runToyGrpoExperiment(options).history))]));
  const threaded = await runInPage({ threads: true });
  assert.equal(threaded.isolated, true, 'tools/serve.mjs makes the page cross-origin isolated');
  assert.equal(threaded.available, true);
  assert.deepEqual(threaded.wasm, ['grpo_core_mt.wasm']);
  const single = await runInPage({});
  assert.equal(single.available, false);
  assert.deepEqual(single.wasm, ['grpo_core.wasm']);
  for (const { name } of RUNS) {
    assert.equal(sha256(threaded.runs[name].history), expected[name], `${name}: the threaded core gives Node's bytes`);
    assert.equal(sha256(single.runs[name].history), expected[name], `${name}: the single-thread core gives Node's bytes`);
    const [one, two] = [single.runs[name].ms, threaded.runs[name].ms];
    console.log(`# threads ${name}: 1 thread ${one.toFixed(0)} ms, 2 threads ${two.toFixed(0)} ms, speed-up ${(one / two).toFixed(2)}x`);
  }
  for (const run of [threaded, single]) {
    assert.deepEqual(run.problems.console, []);
    assert.deepEqual(run.problems.page, []);
    assert.deepEqual(run.problems.outside, []);
  }
});

// Every kind of error the core returns in its envelope (a RangeError and a TypeError of the
// argument readers, one from a method's own check, an unknown method, a stepwise run's refusal)
// reaches the page as on Node's single-thread core: the same class, message, code, field, params.
const BAD_CALLS = [
  ['experimentConfig', { seed: -1 }],
  ['experimentConfig', { seed: 'nine' }],
  ['experimentConfig', { profile: 'smoke', epsilonHigh: 0.3 }],
  ['passAtKIndependent', { p: 2, k: 1 }],
  ['noSuchMethod', {}],
  ['experimentCreate', { profile: 'smoke', updates: 0 }],
];

const described = (error) => ({ name: error?.constructor?.name, message: error?.message, code: error?.code, field: error?.field, params: error?.params });

test('the threaded core keeps its errors: class, message, code, field and params as on one thread', async () => {
  const node = await nodeCore();
  const expected = BAD_CALLS.map(([method, args]) => {
    try {
      node.call(method, args);
      return 'no error';
    } catch (error) {
      return described(error);
    }
  });
  const { page, problems } = await openPage(env.browser.context, env.server.origin);
  await page.goto(`${env.server.origin}/core/index.js`);
  const got = await page.evaluate(async (calls) => {
    const api = await import('/core/index.js');
    const core = await api.loadCore({ threads: true });
    const wasm = performance.getEntriesByType('resource').map((entry) => entry.name.split('/').pop()).filter((file) => file.endsWith('.wasm'));
    const errors = calls.map(([method, args]) => {
      try {
        core.call(method, args);
        return 'no error';
      } catch (error) {
        return { name: error?.constructor?.name, message: error?.message, code: error?.code, field: error?.field, params: error?.params };
      }
    });
    // The core still works after its errors (nothing leaked into a broken state).
    const config = core.experimentConfig({ profile: 'smoke', seed: 9 });
    return { wasm, errors, seed: config.seed };
  }, BAD_CALLS);
  assert.deepEqual(got.wasm, ['grpo_core_mt.wasm']);
  for (const error of expected) assert.notEqual(error, 'no error');
  assert.ok(expected.some((error) => error.name === 'TypeError') && expected.some((error) => error.name === 'RangeError'));
  assert.deepEqual(got.errors, expected);
  assert.equal(got.seed, 9);
  assert.deepEqual(problems.console, []);
  assert.deepEqual(problems.page, []);
  await page.close();
});

test('a worker of an isolated page takes the threaded core by default from THREADED_MIN_CORES cores up (on fewer with threads: true), a seed worker (threads: false) the single-thread one', async () => {
  const { page, problems } = await openPage(env.browser.context, env.server.origin);
  await page.goto(`${env.server.origin}/core/index.js`);
  const inWorker = (options) =>
    page.evaluate(async (loadOptions) => {
      const source = `import('${location.origin}/core/index.js').then(async (api) => {
        const available = api.threadedCoreAvailable(${JSON.stringify(loadOptions)});
        const core = await api.loadCore(${JSON.stringify(loadOptions)});
        let code = 'no error';
        try { core.experimentConfig({ seed: -1 }); } catch (error) { code = error.code + ' ' + error.field; }
        const wasm = performance.getEntriesByType('resource').map((entry) => entry.name.split('/').pop()).filter((file) => file.endsWith('.wasm'));
        postMessage({ isolated: crossOriginIsolated, available, wasm, code, cores: navigator.hardwareConcurrency >= api.THREADED_MIN_CORES });
      }).catch((error) => postMessage({ failed: String(error) }));`;
      const worker = new Worker(URL.createObjectURL(new Blob([source], { type: 'text/javascript' })), { type: 'module' });
      const result = await new Promise((resolve) => (worker.onmessage = ({ data }) => resolve(data)));
      worker.terminate();
      return result;
    }, options);
  const byDefault = await inWorker(undefined);
  const threaded = { isolated: true, available: true, wasm: ['grpo_core_mt.wasm'], code: 'integer_range seed' };
  const single = { isolated: true, available: false, wasm: ['grpo_core.wasm'], code: 'integer_range seed' };
  assert.deepEqual(byDefault, { ...(byDefault.cores ? threaded : single), cores: byDefault.cores });
  assert.deepEqual(await inWorker({ threads: true }), { ...threaded, cores: byDefault.cores });
  assert.deepEqual(await inWorker({ threads: false }), { ...single, cores: byDefault.cores });
  assert.deepEqual(problems.console, []);
  assert.deepEqual(problems.page, []);
  await page.close();
});
