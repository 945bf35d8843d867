// Section 7's clip chart says why it is flat, from real runs of the WASM core.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadCore } from '../../web/core/index.js';
import { clipFlatNotes } from '../../web/js/training/flat-notes.js';

const core = await loadCore();
const SHORT = { profile: 'smoke', seed: 9, updates: 6, warmupSteps: 30, finalEvalSamples: 4 };
const keys = (run) => clipFlatNotes(run.config, run.history).map(([key]) => key);

test('the clip chart says why it is flat: no clip region, nothing clipped, or beta = 0', () => {
  const grpo = core.runToyGrpoExperiment(SHORT);
  assert.ok(grpo.history.some((row) => row.clipFractionRegion > 0), 'the default run clips some tokens');
  assert.deepEqual(keys(grpo), ['train.flat.klUnused'], 'beta 0: the KL line is flat, the clip lines are not');
  const cispo = core.runToyGrpoExperiment({ ...SHORT, lossType: 'cispo', epsHigh: 5 });
  assert.ok(cispo.history.every((row) => row.clipFractionRegion === 0));
  assert.deepEqual(clipFlatNotes(cispo.config, cispo.history), [['train.flat.noClipRegion', { lossType: 'cispo' }], ['train.flat.klUnused', {}]]);
  const kl = core.runToyGrpoExperiment({ ...SHORT, beta: 0.04, updateEpochs: 1 });
  const clipped = kl.history.some((row) => row.clipFractionRegion > 0);
  assert.deepEqual(keys(kl), clipped ? [] : ['train.flat.noneClipped'], 'beta > 0: the KL line is live');
  assert.ok(kl.history.some((row) => row.kl > 0));
  assert.deepEqual(clipFlatNotes(null, []), []);
});
