// The coverage block and its measures through the JS API. The notebook's lessons across seeds 0-9
// (success concentrating on fewer prompts, sections 6-7's lessons on every seed) are checked in
// tests/node/verdicts-matrix.test.mjs, on the notebook runs it makes for its sentences.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadCore } from '../../web/core/index.js';

const core = await loadCore();

test('coverage block: recomputed by importRun from the by-prompt accuracies, equal to the fresh result', () => {
  const run = core.runToyGrpoExperiment({ profile: 'smoke', seed: 9, updates: 5 });
  const imported = core.importRun({ ...run, coverage: { forged: true } });
  assert.deepEqual(imported.coverage, run.coverage);
  assert.equal(run.coverage.samples, run.config.finalEvalSamples);
  assert.equal(run.coverage.beforeTrain.prompts, run.config.trainPrompts);
  assert.deepEqual(run.coverage.beforeTrain.passAtK.ks, [1, 2, 4, 8, 16, 32, 64]);
});

test('coverageConcentration and passAtKCurve through the JS API, by hand', () => {
  const c = core.coverageConcentration({ successes: [4, 0, 1, 2, 0], samples: 4 });
  assert.equal(c.solved, 3);
  assert.ok(Math.abs(c.topQuarterShare - 6 / 7) < 1e-15);
  const curve = core.passAtKCurve({ successes: [2, 0], samples: 4 });
  assert.deepEqual(curve.ks, [1, 2, 4]);
  [0.25, 5 / 12, 0.5].forEach((expected, i) => assert.ok(Math.abs(curve.values[i] - expected) < 1e-15, `k = ${curve.ks[i]}`));
  assert.throws(() => core.coverageConcentration({ successes: [5], samples: 4 }), /successes\[0\]: must be an integer in \[0, samples=4\], got 5/);
});
