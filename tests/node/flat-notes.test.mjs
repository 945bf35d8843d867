// Section 7's clip chart says why it is flat, from real runs of the WASM core, and by rows made
// by hand for the sides no short run reaches (ratios out only where the clip leaves them alone,
// verl's dual clip alone).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadCore } from '../../web/core/index.js';
import { clipFlatNotes } from '../../web/js/training/flat-notes.js';
import { t, loadLanguage } from '../../web/js/i18n.js';

const core = await loadCore();
await loadLanguage('en');
await loadLanguage('ru');
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

test('a flat clip chart under a clip family loss says whether any ratio left the range, by the ratios', () => {
  const config = { lossType: 'dapo', epsLow: 0.2, epsHigh: 0.28, beta: 0.04 };
  const row = (ratioMin, ratioMax, extra = {}) => ({ ratioMin, ratioMax, clipFractionRegion: 0, clipFractionLow: 0, clipFractionHigh: 0, ...extra });
  // Inside [0.8, 1.28]: no ratio left it.
  assert.deepEqual(clipFlatNotes(config, [row(0.9, 1.1), row(0.85, 1.2)]), [['train.flat.noneClipped', { lo: '0.80', hi: '1.28' }]]);
  // A ratio of 0.7 left it, yet nothing was clipped: the side the clip leaves alone.
  assert.deepEqual(clipFlatNotes(config, [row(0.7, 1.1)]), [['train.flat.clipSideUnused', { lo: '0.80', hi: '1.28' }]]);
  assert.deepEqual(clipFlatNotes({ ...config, importanceSamplingLevel: 'sequence' }, [row(0.9, 1.1)]), [['train.flat.noneClippedSeq', { lo: '0.80', hi: '1.28' }]]);
  // verl's vanilla loss: its dual clip acted although the PPO range clipped nothing.
  const verl = { ...config, engine: 'verl', verlLossMode: 'vanilla', clipRatioC: 3, beta: 0 };
  assert.deepEqual(clipFlatNotes(verl, [row(0.9, 3.5, { 'actor/pg_clipfrac_lower': 0.01 })]), [['train.flat.dualOnly', { lo: '0.80', hi: '1.28', c: '3' }], ['train.flat.klUnusedVerl', {}]]);
  // verl's kl_cov clips nothing: the chart's columns count a PPO clip's range all the same.
  assert.deepEqual(clipFlatNotes({ ...verl, verlLossMode: 'kl_cov' }, [row(0.9, 1.1)]), [['train.flat.verlOwnClip', { lossType: 'kl_cov', lo: '0.80', hi: '1.28' }], ['train.flat.klUnusedVerl', {}]]);
  assert.deepEqual(clipFlatNotes({ ...verl, verlLossMode: 'kl_cov' }, [row(0.7, 1.5, { clipFractionRegion: 0.02, clipFractionLow: 0.02 })]), [['train.flat.klUnusedVerl', {}]], 'not flat: no note on the clip lines');
  for (const [key, params] of [...clipFlatNotes(config, [row(0.7, 1.1)]), ...clipFlatNotes(verl, [row(0.9, 3.5, { 'actor/pg_clipfrac_lower': 0.01 })])]) {
    for (const lang of ['en', 'ru']) assert.doesNotMatch(t(key, params, lang), /\{\w+\}|train\.flat/, `${key} in ${lang}`);
  }
});
