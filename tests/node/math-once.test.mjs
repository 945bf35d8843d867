// The GRPO math exists once: the section 3 and 4 APIs and the training objective give the same
// advantages, clipped-surrogate terms, clip flags and token weights for the same inputs, and a
// rollout row's advantage is the one the update uses (dynamic sampling with batch scaling).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadCore } from '../../web/core/index.js';

const core = await loadCore();

// Equal up to the last bits: the JS ratios come from Math.exp, the objective's from C++ exp, and
// a weight is A * (1 / D) in the objective and A / D in section 4 (one rounding apart).
function near(actual, expected, what, tolerance = 4e-16) {
  assert.ok(Math.abs(actual - expected) <= tolerance * Math.max(1, Math.abs(expected)), `${what}: ${actual} vs ${expected}`);
}

test('group advantages: section 3 and the objective compute the same numbers, bit for bit', () => {
  for (const rewards of [[1, 0, 0.5, 0], [0.3, 0.3, 0.3, 0.3], [2, -1, 7, 0.25, 0.25, 3, 1, 1]]) {
    for (const scale of [true, false]) {
      const section = core.groupRelativeAdvantages(rewards, scale);
      const objective = core.grpoObjective({
        rewards, groupSize: rewards.length, logProbs: rewards.map(() => [-0.5]), scaleRewards: scale ? 'group' : 'none',
      });
      assert.deepEqual(objective.advantages, section, `${rewards} scale ${scale}`);
    }
  }
});

test('clipped surrogate: section 3\'s terms and clip flags are the objective\'s per-token terms', () => {
  const rewards = [1, 0, 0.5, 0, 1, 1, 0, 0.25];  // N = 8: the objective's weight 1/8 is exact
  const n = rewards.length;
  const logRatios = [0.35, -0.4, 0.05, 0.3, 1.3, 0.1, -0.02, -0.8];
  for (const [epsLow, epsHigh] of [[0.2, 0.28], [0.1, 0.1], [0.5, 2]]) {
    const result = core.grpoObjective({
      rewards, groupSize: n, lossType: 'grpo', epsLow, epsHigh,
      logProbs: logRatios.map((l) => [l - 1]), oldLogProbs: logRatios.map(() => [-1]),
    });
    const advantages = result.advantages;
    const ratios = logRatios.map((l) => Math.exp(l));
    const terms = core.clippedSurrogateTerms(ratios, advantages, epsLow, epsHigh);
    const active = core.clipActivity(ratios, advantages, epsLow, epsHigh);
    assert.ok(active.some(Boolean) && !active.every(Boolean), 'some tokens clipped, some not');
    let sum = 0;
    for (let i = 0; i < n; i += 1) {
      const grad = result.gradLogProbs[i][0];  // (1/N) * d loss_i / d log r_i
      // Clipped where the objective's gradient vanishes (A != 0 here); unclipped, the term is r*A.
      assert.equal(grad === 0, active[i], `flag ${i} (eps ${epsLow}, ${epsHigh})`);
      if (!active[i]) near(-n * grad, terms[i], `term ${i}`);
      sum += terms[i];
    }
    near(-n * result.loss, sum, 'loss = -mean of the terms', 4e-15);  // eight roundings of a sum
  }
});

test('token weights: section 4\'s weights are the objective\'s normalisers times the advantages', () => {
  const rewards = [1, 0, 0, 1, 0.5, 0];
  const lengths = [2, 5, 1, 3, 4, 4];
  const logProbs = lengths.map((length) => Array.from({ length }, () => -0.7));
  const cases = [
    ['originalGrpoTokenWeights', core.originalGrpoTokenWeights(rewards, lengths), { lossType: 'grpo', scaleRewards: 'group' }],
    ['drGrpoTokenWeights', core.drGrpoTokenWeights(rewards, lengths, 8), { lossType: 'dr_grpo', scaleRewards: 'none', maxCompletionLength: 8 }],
    ['dapoTokenWeights', core.dapoTokenWeights(rewards, lengths), { lossType: 'dapo', scaleRewards: 'group' }],
  ];
  for (const [name, weights, options] of cases) {
    // On-policy (ratio 1, inside the band): d loss / d logp_it = -A_i / D_i.
    const result = core.grpoObjective({ rewards, groupSize: rewards.length, logProbs, ...options });
    assert.deepEqual(weights.map((row) => row.length), lengths, name);
    weights.forEach((row, i) => row.forEach((w, t) => near(-result.gradLogProbs[i][t], w, `${name}[${i}][${t}]`)));
  }
});

test('a rollout row\'s advantage is the one the update uses: dynamic sampling with batch scaling', () => {
  const run = core.runToyGrpoExperiment({ profile: 'smoke', seed: 9, updates: 1 });
  let checked = 0;
  for (let seed = 1; seed <= 40 && checked < 2; seed += 1) {
    const config = { profile: 'smoke', dynamicSampling: true, scaleRewards: 'batch', groupSize: 4, promptBatch: 8 };
    const batch = core.collectRollouts(run.checkpoint, run.prompts, config, { seed });
    const equal = (group) => group.every((row) => row.reward === group[0].reward);
    const kept = batch.groups.filter((group) => !equal(group));
    if (kept.length === 0 || kept.length === batch.groups.length) continue;  // need both kinds
    const update = core.grpoObjective({
      rewards: kept.flat().map((row) => row.reward),
      groupSize: 4,
      scaleRewards: 'batch',
      logProbs: kept.flat().map((row) => row.oldLogProbs),
    });
    assert.deepEqual(kept.flat().map((row) => row.advantage), update.advantages, `seed ${seed}`);
    for (const group of batch.groups.filter(equal)) for (const row of group) assert.equal(row.advantage, 0);
    // Over all groups (what rows said before) the batch std, and so the advantages, differ.
    const everyGroup = core.grpoObjective({
      rewards: batch.groups.flat().map((row) => row.reward),
      groupSize: 4,
      scaleRewards: 'batch',
      logProbs: batch.groups.flat().map((row) => row.oldLogProbs),
    });
    assert.notDeepEqual(everyGroup.advantages.filter((a) => a !== 0), update.advantages.filter((a) => a !== 0));
    checked += 1;
  }
  assert.equal(checked, 2, 'two batches with kept and dropped groups');
});
