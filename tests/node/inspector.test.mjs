// The step inspector through the real WASM module (docs/inspector.md): on one update of the
// seed-9 smoke run every token's weight is the gradient the trainer applied (to 1e-12; in fact
// bit for bit), the history's loss is its steps' losses, the counterfactual under the run's own
// settings is the original, a replay from the seed gives the live record, keeping the record
// leaves the run's bytes as pinned, and bad input names its field.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { loadCore } from '../../web/core/index.js';
import { replayMismatch } from '../../web/js/training/inspector-worker.js';
import { changeFrom, decompose, tokenFacts, zeroAdvantageFact } from '../../web/js/training/inspector-terms.js';
import { withoutLater } from './pin-fields.mjs';

const core = await loadCore();
const sha256 = (value) => createHash('sha256').update(JSON.stringify(value)).digest('hex');
const CONFIG = { profile: 'smoke', seed: 9 };
const UPDATE = 30;

const experiment = core.createExperiment(CONFIG);
const record = experiment.keepInspection({ applied: true });
const history = [];
while (!experiment.done) history.push(...experiment.step(1));
const result = experiment.finish();
experiment.dispose();
const view = record.view(UPDATE);

test('one update of the smoke run: every token weight is the gradient the trainer applied (1e-12)', () => {
  assert.equal(view.update, UPDATE);
  assert.equal(view.steps.length, 2); // updateEpochs 2, stepsPerGeneration 1
  let tokens = 0;
  let largest = 0;
  for (const step of view.steps) {
    assert.ok(step.applied, 'kept with applied: true');
    step.applied.forEach((row, j) => row.forEach((applied, t) => {
      const weight = step.terms[j].weight[t];
      largest = Math.max(largest, Math.abs(weight + applied));
      assert.ok(Math.abs(weight + applied) <= 1e-12, `epoch ${step.epoch} row ${j} token ${t}: ${weight} vs ${-applied}`);
      tokens += 1;
    }));
    // The public grpoObjective on the step's batch gives the same gradient.
    const again = core.grpoObjective(step.objective);
    assert.deepEqual(again.gradLogProbs, step.applied);
    assert.equal(again.loss, step.loss);
  }
  // The history's loss is the mean of the update's steps' losses, bit for bit.
  assert.equal(history[UPDATE - 1].loss, (0 + view.steps[0].loss + view.steps[1].loss) / 2);
  console.log(`# inspector: update ${UPDATE}, ${tokens} token weights, largest |weight - applied| ${largest}`);
  assert.ok(tokens > 100);
});

test('the decomposition adds up to each weight; the first epoch has ratio 1 and no clip', () => {
  const [first, second] = view.steps;
  for (const [j, row] of first.terms.entries()) for (const ratio of row.ratio) assert.equal(ratio, 1, `row ${j}`);
  let clipped = 0;
  for (const step of view.steps) {
    step.terms.forEach((x, j) => x.weight.forEach((w, t) => {
      const policy = x.shared[t] ? x.policy[t] * x.share[t] * Number(x.offPolicyKept[t]) : x.policy[t] * Number(x.offPolicyKept[t]) * Number(x.entropyKept[t]) * x.sampler[t];
      const rebuilt = x.active[t] ? (policy - x.klGrad[t]) / x.normalizer[t] : 0;
      assert.ok(Math.abs(rebuilt - w) <= 1e-12 * Math.max(1, Math.abs(w)), `row ${j} token ${t}`);
      const facts = tokenFacts(step, j, t, 'dapo');
      if (facts.flags.includes('clippedLow') || facts.flags.includes('clippedHigh')) {
        clipped += 1;
        assert.equal(w, 0, 'a clipped token carries no weight (beta 0)');
      }
      const parts = decompose(step, j, t, { config: step.config, engine: 'trl' });
      assert.equal(parts.numbers.at(-1).key, 'weight');
      assert.equal(parts.numbers.at(-1).value, w);
    }));
  }
  assert.ok(second.terms.some((x) => x.ratio.some((r) => r !== 1)), 'the second epoch moved the ratios');
  console.log(`# inspector: ${clipped} clipped tokens in update ${UPDATE}`);
});

test('keeping the record leaves the run as pinned (history and checkpoint)', () => {
  const plain = core.runToyGrpoExperiment(CONFIG);
  assert.equal(JSON.stringify(history), JSON.stringify(plain.history));
  assert.equal(sha256(history.map(withoutLater)), '6a46fa3e8def17056c022025cac110236b92f5f7c6f8835c743e97ca860b4c68');
  assert.deepEqual(result.checkpoint.tensors, plain.checkpoint.tensors);
});

test('the counterfactual under the run’s own settings is the original; dapo -> cispo is not', () => {
  const step = view.steps[1];
  const own = { lossType: step.config.lossType, epsHigh: step.config.epsHigh, delta: null, importanceSamplingLevel: step.config.importanceSamplingLevel, vllmImportanceSamplingMode: step.config.vllmImportanceSamplingMode };
  for (const change of [{}, own]) {
    const same = core.grpoCounterfactual({ batch: step.objective, change });
    assert.deepEqual(same.counterfactual.terms, step.terms);
    assert.deepEqual(same.original.terms, step.terms);
    assert.equal(same.counterfactual.loss, step.loss);
    assert.equal(same.tokensChanged, 0);
    assert.equal(same.lossChange, 0);
    assert.equal(same.gradNormChange, 0);
  }
  assert.deepEqual(changeFrom(own, step.config), {}, 'the form with the run’s values changes nothing');
  const cispo = core.grpoCounterfactual({ batch: step.objective, change: { lossType: 'cispo' } });
  assert.ok(cispo.tokensChanged > 0);
  assert.notEqual(cispo.lossChange, 0);
  // TRL's trap: with epsHigh 0.28 every ratio above 0.28 is capped, so each weight is 0.28 A / D.
  cispo.counterfactual.terms.forEach((x, j) => x.weight.forEach((w, t) => {
    if (!x.active[t]) return;
    assert.ok(Math.abs(w - (0.28 * step.advantages[j]) / x.normalizer[t]) < 1e-15, `row ${j} token ${t}`);
  }));
  console.log(`# counterfactual dapo -> cispo: ${cispo.tokensChanged} of ${cispo.tokens} weights changed, loss ${cispo.original.loss} -> ${cispo.counterfactual.loss}, |dL/dlogp| ${cispo.original.gradNorm} -> ${cispo.counterfactual.gradNorm}`);
});

test('a replay from the seed gives the live record, and its rows the saved history', () => {
  const { view: replayed, rows } = core.inspectUpdate(CONFIG, UPDATE);
  assert.equal(rows.length, UPDATE);
  assert.equal(replayMismatch(rows, history), null);
  for (let k = 0; k < view.steps.length; k += 1) {
    assert.deepEqual(replayed.steps[k].terms, view.steps[k].terms);
    assert.deepEqual(replayed.steps[k].objective, view.steps[k].objective);
  }
  // Another run's history does not pass for this one.
  const other = core.runToyGrpoExperiment({ ...CONFIG, seed: 10, updates: 3 }).history;
  assert.equal(replayMismatch(rows.slice(0, 3), other).update, 1);
  assert.equal(core.liveHandles(), 0);
});

test('bad input names its field, and the core stays usable', () => {
  const expectError = (fn, field, Type = RangeError) => {
    assert.throws(fn, (error) => {
      assert.ok(error instanceof Type, `${error.name}: ${error.message}`);
      assert.equal(error.field, field, error.message);
      return true;
    });
  };
  expectError(() => record.view(UPDATE + 1000), 'update');
  expectError(() => record.view(UPDATE, { klCovRatio: 2 }), 'klCovRatio');
  expectError(() => core.inspectUpdate(CONFIG, 0), 'update');
  expectError(() => core.inspectUpdate(CONFIG, 61), 'update');
  const batch = view.steps[0].objective;
  expectError(() => core.grpoCounterfactual({ batch, change: { lossType: 'ppo' } }), 'change.lossType');
  expectError(() => core.grpoCounterfactual({ batch, change: { epsHigh: 50 } }), 'change.epsHigh');
  expectError(() => core.grpoCounterfactual({ batch, change: { beta: 1 } }), 'change.beta', TypeError);
  expectError(() => core.grpoCounterfactual({ batch: { ...batch, logProbs: [[0]] }, change: {} }), 'batch.logProbs');
  const fresh = core.createExperiment({ ...CONFIG, updates: 2 });
  expectError(() => fresh.keepInspection({ maxBytes: 0 }), 'maxBytes');
  expectError(() => fresh.replay(3), 'to');
  fresh.dispose();
  record.dispose();
  assert.throws(() => record.view(UPDATE), /already disposed/);
  assert.equal(core.liveInspections(), 0);
  assert.equal(core.grpoCounterfactual({ batch, change: {} }).tokensChanged, 0);
});

test('engine verl: its steps recomputed by verl_objective, a counterfactual in TRL’s objective on its batch', () => {
  const config = { profile: 'smoke', seed: 9, updates: 3, engine: 'verl', verlLossMode: 'kl_cov', klCovRatio: 0.02 };
  const experiment = core.createExperiment(config);
  const kept = experiment.keepInspection({ applied: true });
  experiment.step(3);
  const verl = kept.view(3);
  assert.equal(verl.engine, 'verl');
  for (const step of verl.steps) {
    step.applied.forEach((row, j) => row.forEach((applied, t) => assert.equal(step.terms[j].weight[t], -applied, `row ${j} token ${t}`)));
    // KL-Cov's own selection at the run's ratio: the tokens the run's loss treated apart.
    assert.equal(step.covariance.klCovRatio, 0.02);
    assert.ok(step.covariance.klCov.length >= 1);
    const other = core.grpoCounterfactual({ batch: step.objective, change: { lossType: 'cispo' } });
    assert.ok(other.tokens > 0);
  }
  kept.dispose();
  experiment.dispose();
});

test('a zero advantage says its group was all equal only when it was (REINFORCE gives zeros in groups that differ)', () => {
  const experiment = core.createExperiment({ profile: 'smoke', seed: 9, updates: 1, advantageEstimator: 'reinforce', formatWeight: 0 });
  const kept = experiment.keepInspection({ applied: true });
  experiment.step(1);
  const view = kept.view(1);
  const [step] = view.steps;
  const seen = new Set();
  for (const group of view.groups) {
    if (!group.kept) continue;
    const rewards = group.rows.map((row) => row.reward);
    for (const row of group.rows) {
      const j = step.rows.indexOf(row.keptRow);
      if (j < 0 || !tokenFacts(step, j, 0, 'dapo').flags.includes('zeroAdvantage')) continue;
      const fact = zeroAdvantageFact(rewards);
      seen.add(fact);
      // REINFORCE's advantage is the raw reward: a wrong completion's 0 beside a right one's 1.
      assert.equal(fact === 'zeroAdvantage', rewards.every((r) => r === rewards[0]), `rewards ${rewards}`);
    }
  }
  assert.ok(seen.has('zeroAdvantageOther'), `a zero advantage in a group whose rewards differ (seen: ${[...seen]})`);
  kept.dispose();
  experiment.dispose();
});
