// The course page written once and run in Chromium, Firefox and WebKit (engines.mjs), one suite
// per engine: loads with no console error and no request off the origin, every section mounts
// and answers its first input, the language switch, a training run in the worker with Pause and
// Resume, export and import of a run, the embed page's height message, the SCORM package under
// scorm-again; and cross-engine determinism: the same seed and config give the same bytes of run
// history (SHA-256 of its JSON) in Node and in every engine. ENGINES=firefox,webkit picks some.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { ENGINES, openEngine, startProbedServer } from './engines.mjs';
import { nodeCore } from './helpers.mjs';
import { CONFIG_FIELDS } from '../../web/js/training/run-config.js';

const chosen = process.env.ENGINES ? process.env.ENGINES.split(',') : ENGINES;

/** The loss types the page offers (one list: the config form's). */
export const LOSS_TYPES = CONFIG_FIELDS.find((field) => field.core === 'lossType').options;

/** The determinism configs: the seed-9 smoke run, then one smoke-sized run per loss type. */
const DETERMINISM = [
  { name: 'smoke', options: { profile: 'smoke', seed: 9 } },
  ...LOSS_TYPES.map((lossType) => ({ name: lossType, options: { profile: 'smoke', seed: 9, lossType } })),
];

const sha256 = (text) => createHash('sha256').update(text).digest('hex');

/** Node's hashes, computed once for every engine's suite. */
let nodeHashes;
async function nodeHistoryHashes() {
  if (!nodeHashes) {
    const core = await nodeCore();
    nodeHashes = Object.fromEntries(
      DETERMINISM.map(({ name, options }) => [name, sha256(JSON.stringify(core.runToyGrpoExperiment(options).history))]),
    );
    console.log(`# determinism node: ${JSON.stringify(nodeHashes)}`);
  }
  return nodeHashes;
}

/** Asserts the page recorded no console error, uncaught error, CSP violation or outside request. */
async function assertClean(engine, where) {
  const problems = await engine.problems();
  assert.ok(problems.probe, `${engine.name} ${where}: the probe ran`);
  const { console: logged, page, csp, outside } = problems;
  assert.deepEqual({ logged, page, csp, outside }, { logged: [], page: [], csp: [], outside: [] }, `${engine.name} ${where}`);
}

for (const name of chosen) {
  describe(`${name}`, () => {
    let site;
    let engine;

    before(async () => {
      site = await startProbedServer();
      engine = await openEngine(name, { origins: [site.origin] });
    });

    after(async () => {
      await engine?.close();
      await site?.close();
    });

    test('the page loads with no console error and no request off the origin', async () => {
      await engine.goto(`${site.origin}/index.html`);
      await engine.waitFor(() => document.documentElement.dataset.shell === 'true', { message: 'the page shell' });
      const requests = await engine.requests();
      assert.ok(requests.some((url) => url.endsWith('/js/page.js')), `${name}: the requests were seen: ${requests.slice(0, 5)}`);
      await engine.screenshot(`engines-${name}-top-en`);
      await assertClean(engine, 'page load');
    });

    test('the same seed and config give the same run history as in Node (SHA-256 of its JSON)', async () => {
      const expected = await nodeHistoryHashes();
      await engine.goto(`${site.origin}/index.html`);
      const hashes = await engine.evaluate(async (configs) => {
        const { loadCore } = await import('/core/index.js');
        const core = await loadCore();
        const hex = async (text) => {
          const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(text));
          return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, '0')).join('');
        };
        const out = {};
        for (const { name: config, options } of configs) out[config] = await hex(JSON.stringify(core.runToyGrpoExperiment(options).history));
        return out;
      }, DETERMINISM);
      console.log(`# determinism ${name}: ${JSON.stringify(hashes)}`);
      assert.deepEqual(hashes, expected);
      await assertClean(engine, 'determinism');
    });
  });
}
