// The claims the notebook and the page make about sections 1-5, one test per sentence, each
// asserted against the live computation: the WASM core through web/core/index.js, fed the
// page's default state (the section modules' schema defaults and compute()). A claim quoted
// from the page's dictionary must still be there, word for word: a reworded sentence fails here
// until its test is re-read. Sections 6-8 come later (their lessons are being reworked).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadCore } from '../../web/core/index.js';
import { CASES } from '../../web/js/sections/verifier.js';
import * as groups from '../../web/js/sections/informative-groups.js';
import * as advantages from '../../web/js/sections/advantages.js';
import * as reductions from '../../web/js/sections/reductions.js';
import * as finite from '../../web/js/sections/finite-policy.js';
import en from '../../web/js/i18n/en.js';

const core = await loadCore();

/** The page's default state of a section: its schema defaults, as a fresh page opens. */
const defaults = (section) => Object.fromEntries(Object.entries(section.schema).map(([key, spec]) => [key, spec.default]));
const state = (section, patch = {}) => section.compute(core, { ...defaults(section), ...patch });

/** A claim of the page: the test is named after the sentence, which must be in en[key]. */
function pageClaim(key, sentence, check) {
  test(`page ${key}: "${sentence}"`, () => {
    assert.ok(en[key]?.includes(sentence), `en['${key}'] no longer says: ${sentence}`);
    check();
  });
}
/** A claim of the notebook (its text is not in this repository: quoted here). */
function notebookClaim(section, sentence, check) {
  test(`notebook §${section}: "${sentence}"`, check);
}

const close = (actual, expected, tolerance = 1e-12, what = '') =>
  assert.ok(Math.abs(actual - expected) <= tolerance, `${what} ${actual} is not within ${tolerance} of ${expected}`);

// A small deterministic generator for "every input" sweeps (the widget accepts any list).
function* lcg(seed) {
  let x = seed >>> 0;
  for (;;) {
    x = (Math.imul(x, 1664525) + 1013904223) >>> 0;
    yield x / 2 ** 32;
  }
}

// --- 1. Verifier -------------------------------------------------------------------------------
notebookClaim(1, 'assert verifier_table["observed"].tolist() == verifier_table["expected"].tolist()', () => {
  assert.equal(CASES.length, 5);
  assert.deepEqual(
    CASES.map(([text, reference]) => core.verifyNumericAnswer(text, reference)),
    CASES.map(([, , expected]) => expected),
  );
});

pageClaim('verifier.notice', 'Case 2 mentions the reference 42, but the last number is 41: the verifier is not fooled by an earlier number.', () => {
  const [text, reference] = CASES[1];
  assert.match(text, /42/);
  const check = core.checkNumericAnswer(text, reference);
  assert.deepEqual([check.candidate, check.rule, check.accuracy], ['41', 'last_number', 0]);
});

pageClaim('verifier.notice', 'In case 3 the corrected (last) box wins.', () => {
  const [text, reference] = CASES[2];
  const check = core.checkNumericAnswer(text, reference);
  assert.deepEqual([check.candidate, check.rule, check.accuracy], ['3', 'last_box', 1]);
  assert.equal(core.checkNumericAnswer(text, '2').accuracy, 0, 'the first box does not count');
});

pageClaim('verifier.notice', 'In case 5, `1/0` is invalid, not infinity.', () => {
  const [text, reference] = CASES[4];
  const check = core.checkNumericAnswer(text, reference);
  assert.deepEqual([check.status, check.rule, check.value], ['invalid', 'zero_denominator', null]);
});

pageClaim('verifier.notice', 'Try `H2O` or `v1.5`: a number never starts inside a word.', () => {
  for (const text of ['H2O', 'v1.5', 'AB12CD', 'x_1']) {
    assert.equal(core.checkNumericAnswer(text, '1').status, 'no_answer', text);
  }
  assert.equal(core.checkNumericAnswer('H2O gives 7', '7').candidate, '7');
});

// --- 2. Informative groups ---------------------------------------------------------------------
notebookClaim(2, 'With binary rewards, a centered group signal requires at least one success and one failure.', () => {
  for (const G of [2, 4, 8]) {
    for (const value of [0, 1]) {
      assert.deepEqual(core.groupRelativeAdvantages(Array(G).fill(value), true), Array(G).fill(0), `all ${value}, G=${G}`);
    }
    const mixed = core.groupRelativeAdvantages([1, ...Array(G - 1).fill(0)], true);
    assert.ok(mixed.every((a) => a !== 0), `one success in ${G}`);
  }
  // P_info is exactly "not all the same": 1 - p^G - (1-p)^G.
  for (const p of groups.EXAMPLE_P) close(core.informativeGroupProbability(p, 8), 1 - p ** 8 - (1 - p) ** 8, 1e-12, `p=${p}`);
});

pageClaim('groups.chartAria', 'Every curve is 0 at p = 0 and p = 1 and peaks at p = 0.5; larger groups are higher and flatter.', () => {
  const model = state(groups);
  const sizes = model.curves.map((c) => c.g).sort((a, b) => a - b);
  assert.deepEqual(sizes, [2, 4, 8, 16, 32]);
  for (const g of sizes) {
    assert.equal(core.informativeGroupProbability(0, g), 0);
    assert.equal(core.informativeGroupProbability(1, g), 0);
    const values = core.informativeGroupCurve(groups.P_GRID, g);
    const peak = groups.P_GRID[values.indexOf(Math.max(...values))];
    assert.ok(Math.abs(peak - 0.5) < 0.0013, `G=${g} peaks at ${peak}`);
  }
  // Higher: pointwise. Flatter: the band within 10% of the curve's peak widens.
  const width = (g) => {
    const values = core.informativeGroupCurve(groups.P_GRID, g);
    const peak = Math.max(...values);
    return values.filter((v) => v >= 0.9 * peak).length;
  };
  for (let i = 1; i < sizes.length; i += 1) {
    const low = core.informativeGroupCurve(groups.P_GRID, sizes[i - 1]);
    const high = core.informativeGroupCurve(groups.P_GRID, sizes[i]);
    assert.ok(high.every((v, j) => v > low[j]), `G=${sizes[i]} above G=${sizes[i - 1]}`);
    assert.ok(width(sizes[i]) > width(sizes[i - 1]), `G=${sizes[i]} flatter`);
  }
});

notebookClaim(2, 'Increasing $G$ helps in the middle difficulty band, but it does not eliminate rare success near $p\\approx0$ or rare failure near $p\\approx1$.', () => {
  assert.ok(core.informativeGroupProbability(0.5, 16) > 0.999);
  for (const p of [0.01, 0.99]) assert.ok(core.informativeGroupProbability(p, 16) < 0.15, `p=${p}`);
});

pageClaim('groups.notice', 'With $G = 8$ (the notebook’s table), at $p = 0.5$ almost every group is informative; at $p = 0.01$ fewer than one group in twelve is, so about 1 300 draws buy 100 informative prompts.', () => {
  const model = state(groups);
  const at = (p) => model.examples.find((row) => row.p === p);
  assert.equal(model.tableG, 8, 'the table opens at the notebook’s G = 8');
  assert.ok(at(0.5).pinfo > 0.99);
  assert.ok(at(0.01).pinfo < 1 / 12);
  assert.ok(Math.abs(at(0.01).draws - 1300) < 50, `draws ${at(0.01).draws}`);
});

pageClaim('groups.notice', 'From $G = 2$ to $G = 16$ the middle band ($0.1 \\le p \\le 0.9$) rises by about 0.5 or more, the ends near $p = 0.01$ and $p = 0.99$ by only about 0.13', () => {
  const lift = (p) => core.informativeGroupProbability(p, 16) - core.informativeGroupProbability(p, 2);
  const band = groups.P_GRID.filter((p) => p >= 0.1 && p <= 0.9);
  assert.ok(Math.min(...band.map(lift)) > 0.499, `smallest lift in the band ${Math.min(...band.map(lift))}`);
  for (const p of [0.01, 0.99]) assert.ok(Math.abs(lift(p) - 0.13) < 0.005, `lift at ${p}: ${lift(p)}`);
});

pageClaim('groups.formulaNote', 'where $D_n$ is the number of prompts (groups) drawn until $n$ of them are informative.', () => {
  for (const row of state(groups).examples) close(row.draws, groups.DRAWS_FOR / row.pinfo, 1e-9 * row.draws, `p=${row.p}`);
});

// --- 3. Advantages and clipping ----------------------------------------------------------------
notebookClaim(3, 'assert abs(float(advantages.sum())) < 1e-10', () => {
  const model = state(advantages);
  assert.ok(Math.abs(model.sum) < 1e-10, `sum ${model.sum}`);
  // For every reward list the widget accepts (up to 64 entries), scaled or not.
  const random = lcg(7);
  for (let trial = 0; trial < 200; trial += 1) {
    const n = 2 + Math.floor(random.next().value * 63);
    const rewards = Array.from({ length: n }, () => Math.round(random.next().value * 4) / 2);
    for (const scale of [true, false]) {
      const sum = core.groupRelativeAdvantages(rewards, scale).reduce((a, b) => a + b, 0);
      assert.ok(Math.abs(sum) < 1e-10, `${rewards} scale=${scale}: ${sum}`);
    }
  }
});

pageClaim('advantages.notice', 'With the notebook’s numbers, row 1 has $A>0$ and ratio 1.35 above $1+\\varepsilon_{\\text{high}}$: its term is flat, so it stops pushing the ratio up.', () => {
  const model = state(advantages);
  assert.deepEqual(model.ratios, [1.35, 0.85, 1.1, 0.7]);
  assert.ok(model.used[0] > 0 && model.ratios[0] > 1 + model.epsHigh);
  assert.equal(model.active[0], true);
  close(model.terms[0], (1 + model.epsHigh) * model.used[0], 1e-12);
  const flat = core.clippedSurrogateTerms([1.35, 1.5], [model.used[0], model.used[0]], model.epsLow, model.epsHigh);
  close(flat[0], flat[1], 1e-15, 'flat beyond the clip');
});

pageClaim('advantages.notice', 'Row 4 has $A<0$ and ratio 0.70 below $1-\\varepsilon_{\\text{low}}$: also clipped.', () => {
  const model = state(advantages);
  assert.ok(model.used[3] < 0 && model.ratios[3] < 1 - model.epsLow);
  assert.equal(model.active[3], true);
  close(model.terms[3], (1 - model.epsLow) * model.used[3], 1e-12);
});

pageClaim('advantages.notice', 'Row 2 ($A>0$, ratio 0.85) lies inside $[1-\\varepsilon_{\\text{low}}, 1+\\varepsilon_{\\text{high}}]$: not clipped, so the gradient still acts.', () => {
  const model = state(advantages);
  assert.ok(model.used[1] > 0 && model.ratios[1] > 1 - model.epsLow && model.ratios[1] < 1 + model.epsHigh);
  assert.equal(model.active[1], false);
  close(model.terms[1], 0.85 * model.used[1], 1e-12);
  // The clip rows of the notebook's table: rows 1 and 4 clipped, rows 2 and 3 not.
  assert.deepEqual(model.active.map(Boolean), [true, false, false, true]);
});

pageClaim('advantages.notice', 'A row with $A>0$ below $1-\\varepsilon_{\\text{low}}$ is not clipped either: the minimum keeps the unclipped, more pessimistic branch.', () => {
  const { used, epsLow, epsHigh } = state(advantages);
  const A = used[0];
  for (const ratio of [0.1, 0.5, 0.7, 0.79]) {
    assert.equal(core.clipActivity([ratio], [A], epsLow, epsHigh)[0], false, `ratio ${ratio}`);
    const [term] = core.clippedSurrogateTerms([ratio], [A], epsLow, epsHigh);
    close(term, ratio * A, 1e-12, `ratio ${ratio}`);
    assert.ok(term < (1 - epsLow) * A, 'the unclipped branch is the smaller, more pessimistic one');
  }
});

pageClaim('advantages.notice', 'Widen $\\varepsilon_{\\text{high}}$ past 0.35 and watch row 1 come back (DAPO’s “clip higher” value 0.28 is not enough for this row).', () => {
  assert.equal(state(advantages, { 'adv.eh': 0.28 }).active[0], true);
  assert.equal(state(advantages, { 'adv.eh': 0.36 }).active[0], false);
});

// --- 4. Reductions -----------------------------------------------------------------------------
const contributions = (model, name) => model.rows.find((row) => row.name === name).contributions;

pageClaim('reductions.formulaNote', 'These are the weights TRL applies for `loss_type` `grpo`, `dr_grpo` and `dapo`.', () => {
  // The notebook's reduction table, from the formulas the page prints (reductions.formula).
  const model = state(reductions);
  const { rewards, lengths, fixed } = model;
  const G = rewards.length;
  const A = core.groupRelativeAdvantages(rewards, true);
  const centered = core.groupRelativeAdvantages(rewards, false);
  const total = lengths.reduce((a, b) => a + b, 0);
  const expected = {
    original_grpo: A.map((a) => a / G),
    dr_grpo: centered.map((a, i) => (a * lengths[i]) / (G * fixed)),
    dapo: A.map((a, i) => (a * lengths[i]) / total),
  };
  for (const [name, values] of Object.entries(expected)) {
    contributions(model, name).forEach((c, i) => close(c, values[i], 1e-12, `${name} response ${i + 1}`));
    const absSum = values.reduce((acc, v) => acc + Math.abs(v), 0);
    close(model.rows.find((row) => row.name === name).absSum, absSum, 1e-12, `${name} absolute sum`);
  }
});

pageClaim('reductions.notice', 'Under original GRPO every completion carries the total weight $A_i/G$ whatever its length.', () => {
  const random = lcg(11);
  for (let trial = 0; trial < 100; trial += 1) {
    const n = 2 + Math.floor(random.next().value * 8);
    const rewards = Array.from({ length: n }, () => (random.next().value < 0.5 ? 0 : 1));
    const lengths = Array.from({ length: n }, () => 1 + Math.floor(random.next().value * 40));
    const model = state(reductions, { 'red.r': rewards, 'red.len': lengths, 'red.fixed': 40 });
    const A = core.groupRelativeAdvantages(rewards, true);
    contributions(model, 'original_grpo').forEach((c, i) => close(c, A[i] / n, 1e-12, `${rewards} / ${lengths}`));
  }
});

pageClaim('reductions.notice', 'With the notebook’s rewards 1, 0, 1 and lengths 2, 5, 8, the 2 tokens of completion 1 therefore each weigh four times as much as the 8 tokens of completion 3', () => {
  const model = state(reductions);
  assert.deepEqual([model.rewards, model.lengths], [[1, 0, 1], [2, 5, 8]]);
  const perToken = model.rows.find((row) => row.name === 'original_grpo').perToken;
  close(perToken[0] / perToken[2], 4, 1e-12);
});

pageClaim('reductions.notice', 'Dr. GRPO and DAPO give every token of the group the same scale, so a completion’s total grows with its length.', () => {
  const model = state(reductions);
  for (const name of ['dr_grpo', 'dapo']) {
    const row = model.rows.find((r) => r.name === name);
    // Responses 1 and 3 have the same reward: same per-token weight, totals in the ratio of lengths.
    close(row.perToken[0], row.perToken[2], 1e-15, `${name} per token`);
    close(row.contributions[2] / row.contributions[0], 8 / 2, 1e-12, `${name} totals`);
  }
});

// --- 5. Exact finite policy --------------------------------------------------------------------
const successfulOthers = (row) => {
  const successful = row.probabilities.filter((_, i) => row.successful[i]);
  const top = row.probabilities.indexOf(Math.max(...successful));
  return row.probabilities.filter((_, i) => row.successful[i] && i !== top);
};
const topShare = (row) => {
  const successful = row.probabilities.filter((_, i) => row.successful[i]);
  return Math.max(...successful) / successful.reduce((a, b) => a + b, 0);
};

notebookClaim(5, 'It demonstrates a basic possibility: pass@1 and expected reward can improve while entropy and alternative coverage shrink.', () => {
  const { rows, steps } = state(finite);
  assert.equal(steps, 60);
  const [first, last] = [rows[0], rows[steps]];
  assert.ok(last.expectedReward > first.expectedReward, 'expected reward (= pass@1 with binary rewards) rises');
  close(last.successfulMass, last.expectedReward, 1e-12, 'pass@1 is the successful mass');
  assert.ok(last.entropy < first.entropy, 'entropy falls');
  successfulOthers(last).forEach((p, i) => assert.ok(p < successfulOthers(first)[i], `alternative successful mode ${i + 1} shrinks`));
});

pageClaim('finite.notice', 'With $\\beta_{\\text{ent}} = 0$ and $\\eta = 0.18$, expected reward rises while entropy falls, and the successful mass concentrates on one successful mode', () => {
  const model = state(finite);
  assert.deepEqual([model.beta, model.lr], [0, 0.18]);
  for (let step = 1; step < model.rows.length; step += 1) {
    assert.ok(model.rows[step].expectedReward > model.rows[step - 1].expectedReward, `reward up at step ${step}`);
    assert.ok(model.rows[step].entropy < model.rows[step - 1].entropy, `entropy down at step ${step}`);
    assert.ok(topShare(model.rows[step]) > topShare(model.rows[step - 1]), `concentrates at step ${step}`);
  }
});

pageClaim('finite.notice', 'raise $\\beta_{\\text{ent}}$ to keep them alive at some cost in reward.', () => {
  const base = state(finite).rows[60];
  const kept = state(finite, { 'fp.beta': 0.1 }).rows[60];
  successfulOthers(kept).forEach((p, i) => assert.ok(p > successfulOthers(base)[i], `mode ${i + 1} kept alive`));
  assert.ok(kept.expectedReward < base.expectedReward, 'at some cost in reward');
});

pageClaim('finite.title', 'Exact finite policy: reward can rise while support narrows', () => {
  const { rows } = state(finite);
  const support = (row) => row.probabilities.filter((p) => p >= 0.05).length;
  assert.ok(rows[60].expectedReward > rows[0].expectedReward);
  assert.ok(support(rows[60]) < support(rows[0]), `modes holding >= 5%: ${support(rows[0])} -> ${support(rows[60])}`);
});
