// The notebook's lessons, shown by the runs themselves across seeds 0-9, in both profiles the page
// offers (docs/coverage.md): success concentrates on fewer train prompts after RL, and the
// lessons of sections 6-7 hold. Not a lucky seed: at least 7 of 10 seeds in each profile.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadCore } from '../../web/core/index.js';
import { lessonSeeds } from '../../tools/lesson-seeds.mjs';

const core = await loadCore();
const AT_LEAST = 7;

for (const profile of ['smoke', 'full']) {
  test(`${profile}: "After RL, mean train accuracy is higher but success is concentrated on fewer prompts" on >= ${AT_LEAST} of seeds 0-9`, () => {
    const result = lessonSeeds(core, profile);
    const table = result.runs.map((r) => {
      const c = r.run.coverage;
      return `seed ${r.seed}: acc ${c.beforeTrain.meanAccuracy.toFixed(3)}->${c.afterTrain.meanAccuracy.toFixed(3)} solved ${c.beforeTrain.solved}->${c.afterTrain.solved} share ${c.beforeTrain.topQuarterShare.toFixed(2)}->${c.afterTrain.topQuarterShare.toFixed(2)} cross train ${r.crossTrain} held-out ${r.crossHeldout}`;
    });
    console.log(`${profile}: concentrates on ${result.concentrates}/10, held-out narrows ${result.heldoutNarrows}/10, pass@k crosses on held-out ${result.crossHeldout}/10\n  ${table.join('\n  ')}`);
    assert.ok(result.concentrates >= AT_LEAST, `success concentrated on ${result.concentrates} of 10 seeds`);
    // Sections 6-7's lessons on every seed: a base policy right only sometimes, accuracy up,
    // entropy down, informative groups every update, mean ratios near 1.
    for (const r of result.runs) {
      for (const field of ['baseAccuracyInBand', 'accuracyUp', 'entropyDown', 'informativeEveryUpdate', 'ratioMeanNearOne']) {
        assert.ok(r[field], `seed ${r.seed}: ${field}`);
      }
    }
  });
}

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
