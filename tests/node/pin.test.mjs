// Pins what training computes: the SHA-256 of the JSON of the seed-9 smoke history and its
// before/after metrics, plus two short runs that cross the other code paths of the objective
// (beta > 0, batch scaling, dynamic sampling, grpo/dr_grpo, sequence-level ratios, epsHigh).
// When an issue changes training on purpose, the pin moves in that commit, with the reason.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { loadCore } from '../../web/core/index.js';
import { LATER_FIELDS, LENGTH_FIELDS, fieldsOf, withoutLater } from './pin-fields.mjs';

const core = await loadCore();
const sha256 = (value) => createHash('sha256').update(JSON.stringify(value)).digest('hex');

// The history's fields before TRL 1.9 parity added TRL's metrics: their hash is the old pin, so
// adding the columns changed nothing that was computed before.
const FIRST_FIELDS = ['update', 'evalAccuracy', 'evalEntropy', 'informativeFraction', 'discardedFraction', 'ratioMin', 'ratioMean', 'ratioMax', 'clipFractionLow', 'clipFractionHigh', 'clipFractionRegion', 'kl', 'loss', 'gradNorm', 'meanReward', 'accuracy', 'meanLength', 'truncatedFraction', 'entropy'];
// The slot `entropy` hashes the sampler's entropy: until issue 26 the history's `entropy` was the
// sampler's, which is now `samplerEntropy` (and `entropy` the learner's, TRL's). The same hashes as
// before the rename show that nothing computed before changed.
const FIRST_FIELD_SOURCE = { entropy: 'samplerEntropy' };
// In the core's key order (nlohmann's objects are sorted by key).
const firstFields = (row) => Object.fromEntries([...FIRST_FIELDS].sort().map((key) => [key, row[FIRST_FIELD_SOURCE[key] ?? key]]));
// Columns added since historyAll was pinned, each list with its own hash (pin-fields.mjs): adding
// one leaves the pin of the rest as it was, so it shows that nothing computed before moved.
const laterFields = fieldsOf(LATER_FIELDS);
const lengthFields = fieldsOf(LENGTH_FIELDS);

const PINS = [
  {
    name: 'the default smoke experiment at seed 9',
    config: { profile: 'smoke', seed: 9 },
    // Moved in issue 12 (was 71e3c12e... / e4e96a6f...): the profiles changed on purpose so the
    // runs show the notebook's lessons (teacher 0.15, 64 train prompts, 60 updates, 64 fresh
    // samples; docs/training-page.md). The same hashes came out of the code before and after
    // issue 11's refactor with the new profile, so the refactor kept every bit.
    history: 'f0a25e9695e6e12472c2535be815793b47f3c5dba43442b5908faf77c21a6435',
    // Added in issue 13 (TRL 1.9 parity) with TRL's metrics in every row. Moved in issue 26 (was
    // 90d76d1a...): `entropy` is now the learner's over the loss mask (TRL's) beside
    // samplerEntropy, and the sampling/* columns are gone without a separate sampler.
    historyAll: '6a46fa3e8def17056c022025cac110236b92f5f7c6f8835c743e97ca860b4c68',
    // Added in issue 24: correctnessInformativeFraction (historyAll above does not hash it).
    later: 'b6c6266e9080e09b4e730f89a3e59bbc1405caae5bb9dabdab7c4ec529733c15',
    // Added in issue 23: meanLengthCorrect, meanLengthIncorrect (the hashes above do not hash them).
    lengths: '5c8e7e5706084b59c023b34b5bf5c7a97cfcce56fe7829d09b2cb4feb3f18b8c',
    metrics: 'd05b9524f1ce027fa2965c0e0130163ea1843b1c08888f5000da02dc9cdb8668',
  },
  {
    name: 'grpo loss, KL, batch scaling, dynamic sampling, 3 epochs',
    config: { profile: 'smoke', seed: 9, updates: 12, beta: 0.04, scaleRewards: 'batch', dynamicSampling: true, lossType: 'grpo', updateEpochs: 3 },
    // Moved in issue 11 part 2 (was 2d087b9b...): the k3 KL is written once, expm1(d) - d (the
    // trainer's), where the objective wrote exp(d) - d - 1; the history's kl and loss values move
    // in their last bits. The gradient (1 - exp(d)) is unchanged, so the parameters and the
    // before/after metrics below are bit for bit the same.
    // Moved again in issue 12 with the profiles (the metrics hash a475460a... is the same before
    // and after issue 11's refactor with the new profile).
    history: '2d7fe5191d69b90e6da2d7068a1ada566e03261b630f978cdd9b77e76431712a',
    // Added in issue 13 (TRL 1.9 parity) with TRL's metrics in every row. Moved in issue 26 (was
    // 743f6de2...): the learner's entropy and samplerEntropy, no sampling/* without a sampler, and
    // fracRewardZeroStd over every group before dynamic sampling drops any (it read 0 here).
    historyAll: 'd0b82d7932a1b6f92cfff440e45164ad99748cfde0d657ac3045eca682f932a0',
    // Added in issue 24: correctnessInformativeFraction (historyAll above does not hash it).
    later: 'ac68c1599a0ed38d72eac4d315c0d0929a7cba6ccf3f0efe4cf7ac1e7a9a7c54',
    // Added in issue 23: meanLengthCorrect, meanLengthIncorrect (the hashes above do not hash them).
    lengths: '2f2c7bb3748364f56d1b10889a04f5c7bea7ef678656ab612191900ec90c8c1a',
    metrics: 'a475460a9f35ce2e062959d521a126cbacd8063a4431861f6578265a28bd315d',
  },
  {
    name: 'sequence-level ratios, dr_grpo, no scaling, no truncation mask, wider epsHigh',
    config: { profile: 'smoke', seed: 9, updates: 8, importanceSamplingLevel: 'sequence', lossType: 'dr_grpo', scaleRewards: 'none', maskTruncated: false, updateEpochs: 2, epsHigh: 0.5 },
    // Moved in issue 12 with the profiles; the same before and after issue 11's refactor.
    history: '11ffd31e12aa1c698172d8c4c9c6ab5aefc6e619751cd2ad1f57d7e5228a91df',
    // Added in issue 13 (TRL 1.9 parity) with TRL's metrics in every row. Moved in issue 26 (was
    // d3d680b1...): the learner's entropy and samplerEntropy, no sampling/* without a sampler.
    historyAll: 'b7f323bf821d876c13347d61b12bc8727da19e534d0979042f4219633cbbfd1c',
    // Added in issue 24: correctnessInformativeFraction (historyAll above does not hash it).
    later: 'b42a2b326a2cd22956b8d657e98e753fd56add0be1cc3bee1194d8c7bdf75f4e',
    // Added in issue 23: meanLengthCorrect, meanLengthIncorrect (the hashes above do not hash them).
    lengths: '443ae584230af8a905f6948c751618b58af59485d050892583c863ba951b9d08',
    metrics: '1db88a651c3bfddf8e1bad0a1c92aa611aedd5af297d40beba115f3f46209f4b',
  },
  {
    // Issue 27: section 6's "verl GRPO" preset (engine verl: verl's estimator, vanilla loss with
    // the dual clip, token-mean, KL loss 0.001 low_var_kl). Native pins its own bits
    // (tests/cpp/test_trainer_verl.cpp); the browsers hash it against Node (engines.test.mjs).
    name: 'engine verl: the verl GRPO preset',
    config: { profile: 'smoke', seed: 9, updates: 15, engine: 'verl', epsHigh: 0.2, beta: 0.001 },
    history: 'bd49681902cbda42f01cb5573c2151ca19b83d70ecb610bb79cfa3fd59f382fa',
    // Moved in issue 27 (was aa530bfe...): actor/pg_loss and actor/kl_loss are now summed over the
    // update's optimizer steps, as verl v0.7.0's dp_actor logs them (dp_actor.py:536,549), not
    // averaged; halving both (updateEpochs 2, one step each) gives the old hash back exactly.
    historyAll: '193a9a3a8eb345f830a32d3c99f21fd29d24f9687f33624893d8037b63047df8',
    later: '413450ec901fc00e78e5d428d8efb739f689ad3a866b91baead867a24fbace2d',
    // Added in issue 23: meanLengthCorrect, meanLengthIncorrect (the hashes above do not hash them).
    lengths: '13357009cda3878329a7dcdae85286f54c39c35639b78a715bd92949507406ff',
    metrics: '5ec478ab6a7ddbb83de168d26ed8397fa599df5546f3c03dc12067c9b1768e20',
  },
];

for (const pin of PINS) {
  test(`pinned training: ${pin.name}`, () => {
    const run = core.runToyGrpoExperiment(pin.config);
    const { beforeTrain, beforeHeldout, afterTrain, afterHeldout } = run;
    assert.equal(sha256(run.history.map(firstFields)), pin.history, 'history (the first fields)');
    assert.equal(sha256(run.history.map(withoutLater)), pin.historyAll, 'history (every field pinned in issue 13)');
    assert.equal(sha256(run.history.map(laterFields)), pin.later, 'history (the columns added later)');
    assert.equal(sha256(run.history.map(lengthFields)), pin.lengths, 'history (issue 23: lengths of correct and incorrect completions)');
    assert.equal(sha256({ beforeTrain, beforeHeldout, afterTrain, afterHeldout }), pin.metrics, 'before/after metrics');
  });
}
