// verl v0.7.0's functions through the real WASM module and the wrapper (docs/verl.md):
// verlAdvantages, verlAggLoss, verlPolicyLoss, verlKlPenalty. Expected values are derived by hand
// in the comments; every gradient is checked by central differences of the returned loss; every
// case where verl raises is an Error naming the field.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadCore } from '../../web/core/index.js';

const core = await loadCore();

function near(actual, expected, what, tolerance = 1e-14) {
  assert.ok(Math.abs(actual - expected) <= tolerance * Math.max(1, Math.abs(expected)), `${what}: ${actual} vs ${expected}`);
}

// Central differences of f at x (a [B][T] array) against grad.
function checkGradient(f, x, grad, what, tolerance = 2e-7) {
  const h = 1e-6;
  x.forEach((row, i) => row.forEach((value, t) => {
    const up = x.map((r) => [...r]);
    const down = x.map((r) => [...r]);
    up[i][t] = value + h;
    down[i][t] = value - h;
    const numeric = (f(up) - f(down)) / (2 * h);
    assert.ok(Math.abs(grad[i][t] - numeric) <= tolerance, `${what} [${i}][${t}]: ${grad[i][t]} vs ${numeric}`);
  }));
}

const LOSS = [[1, 2, 3], [4, 5, 6]];
const MASK = [[1, 1, 0], [1, 0, 0]];

test('verlAggLoss: the four modes by hand, verl\'s keyword arguments', () => {
  const agg = (lossAggMode, extra = {}) => core.verlAggLoss({ lossMat: LOSS, lossMask: MASK, lossAggMode, ...extra });
  near(agg('token-mean').loss, 7 / 3, 'token-mean: (1 + 2 + 4) / 3');
  assert.equal(agg('token-mean', { batchNumTokens: 7, dpSize: 2 }).loss, 2);
  assert.equal(agg('seq-mean-token-sum').loss, 3.5, '(3 + 4) / 2 rows');
  assert.equal(agg('seq-mean-token-sum', { globalBatchSize: 4 }).loss, 1.75);
  near(agg('seq-mean-token-mean').loss, (3 / (2 + 1e-8) + 4 / (1 + 1e-8)) / 2, 'eps in the row denominator');
  near(agg('seq-mean-token-sum-norm').loss, 7 / 3, 'divided by T = 3');
  near(agg('seq-mean-token-sum-norm', { dpSize: 4 }).loss, 7 / 3, 'dp_size ignored');
  near(agg('seq-mean-token-sum-norm', { lossScaleFactor: 10, batchNumTokens: null }).loss, 0.7, 'loss_scale_factor replaces T');
});

test('verlAggLoss: seq-mean-token-sum-norm at two padded widths; an all-masked row', () => {
  const wide = core.verlAggLoss({ lossMat: [[1, 2, 3, 9, 9], [4, 5, 6, 9, 9]], lossMask: [[1, 1, 0, 0, 0], [1, 0, 0, 0, 0]], lossAggMode: 'seq-mean-token-sum-norm' });
  near(wide.loss, 7 / 5, 'the same tokens padded to T = 5: 7 / 5, never divided by B');
  for (const lossAggMode of ['token-mean', 'seq-mean-token-sum', 'seq-mean-token-mean', 'seq-mean-token-sum-norm']) {
    const two = core.verlAggLoss({ lossMat: LOSS, lossMask: MASK, lossAggMode });
    const three = core.verlAggLoss({ lossMat: [...LOSS, [7, 7, 7]], lossMask: [...MASK, [0, 0, 0]], lossAggMode });
    assert.equal(three.loss, two.loss, `${lossAggMode}: a fully masked row counts nowhere`);
    assert.deepEqual(three.gradLossMat[2], [0, 0, 0]);
    checkGradient((l) => core.verlAggLoss({ lossMat: l, lossMask: MASK, lossAggMode, dpSize: 2 }).loss, LOSS,
      core.verlAggLoss({ lossMat: LOSS, lossMask: MASK, lossAggMode, dpSize: 2 }).gradLossMat, lossAggMode);
  }
});

test('verlKlPenalty: the estimates by hand, verl\'s k3 clamps, gradients of the sum', () => {
  const kl = (klPenalty) => core.verlKlPenalty({ logProb: [[-1, 0, -1]], refLogProb: [[-1.5, -30, 2]], klPenalty });
  assert.equal(kl('kl').kl[0][0], 0.5);
  assert.equal(kl(undefined).kl[0][1], 30, 'default kl, no clamp');
  assert.equal(kl('abs').kl[0][0], 0.5);
  assert.equal(kl('mse').kl[0][0], 0.125);
  near(kl('low_var_kl').kl[0][0], Math.exp(-0.5) + 0.5 - 1, 'k3 at x = -0.5');
  near(kl('k3').gradLogProb[0][0], 1 - Math.exp(-0.5), 'd k3 / d lp');
  // x = ref - lp = -30 -> -20: 19 + e^-20 -> clamped to 10; x = 3: e^3 - 4 = 16.1 -> 10.
  assert.deepEqual(kl('k3').kl[0].slice(1), [10, 10]);
  assert.deepEqual(kl('k3').gradLogProb[0].slice(1), [0, 0]);
  const lp = [[-1, -0.2, -2.5], [-0.7, -3, -0.1]];
  const ref = [[-1.5, -0.9, -1], [-0.4, -1, -2]];
  for (const klPenalty of ['kl', 'k1', 'abs', 'mse', 'k2', 'low_var_kl', 'k3']) {
    const sum = (x) => core.verlKlPenalty({ logProb: x, refLogProb: ref, klPenalty }).kl.flat().reduce((a, b) => a + b, 0);
    checkGradient(sum, lp, core.verlKlPenalty({ logProb: lp, refLogProb: ref, klPenalty }).gradLogProb, klPenalty);
  }
});

test('verlKlPenalty: full, every "+" variant and an unknown name raise in verl v0.7.0: RangeError naming klPenalty', () => {
  for (const klPenalty of ['full', 'k3+', 'low_var_kl+', 'kl+', 'k1+', 'abs+', 'mse+', 'k2+', 'x']) {
    assert.throws(() => core.verlKlPenalty({ logProb: [[-1]], refLogProb: [[-1]], klPenalty }),
      (e) => e instanceof RangeError && e.field === 'klPenalty' && e.message.startsWith("klPenalty: must be one of 'kl', 'k1'") && e.message.includes(`got '${klPenalty}'`));
  }
});

// Scores [1, 0, 0.5 | 2]: uids 'a', 'a', 'a' and the number 7; row 1 all masked.
const BATCH = {
  tokenLevelRewards: [[0, 1, 0], [0, 0, 0], [0.25, 0.25, 0], [1, 0, 1]],
  responseMask: [[1, 1, 0], [0, 0, 0], [1, 1, 1], [1, 1, 1]],
  index: ['a', 'a', 'a', 7],
};

test('verlAdvantages grpo: eps 1e-6 on the unbiased std, a singleton group, norm off', () => {
  const r = core.verlAdvantages({ estimator: 'grpo', ...BATCH });
  near(r.advantages[0][0], 0.5 / (0.5 + 1e-6), 'mean 0.5, std sqrt((0.25 + 0.25) / 2) = 0.5');
  assert.equal(r.advantages[0][2], 0);
  assert.ok(r.advantages[1].every((a) => a === 0), 'the all-masked row');
  assert.equal(r.advantages[3][0], 2 / Math.fround(1 + 1e-6), 'singleton: std = torch.tensor(1.0), float32 + 1e-6');
  assert.deepEqual(r.returns, r.advantages);
  const off = core.verlAdvantages({ estimator: 'grpo', ...BATCH, normAdvByStdInGrpo: false });
  assert.equal(off.advantages[0][1], 0.5);
  assert.equal(off.advantages[3][0], 2);
  // A number uid and a string uid are different groups (numpy keeps 1 and '1' apart).
  const apart = core.verlAdvantages({ estimator: 'grpo', tokenLevelRewards: [[1], [0]], responseMask: [[1], [1]], index: [1, '1'] });
  assert.equal(apart.advantages[0][0], 1 / Math.fround(1 + 1e-6));
});

test('verlAdvantages grpo_passk: a tie at the group maximum gives 0 to all; a group of one raises', () => {
  const r = core.verlAdvantages({
    estimator: 'grpo_passk',
    tokenLevelRewards: [[1], [1], [0], [0], [0.2], [1], [0.5]],
    responseMask: [[1], [1], [1], [1], [1], [1], [1]],
    index: [1, 1, 1, 1, 2, 2, 2],
  });
  assert.deepEqual(r.advantages.slice(0, 4).flat(), [0, 0, 0, 0]);
  const m = 1.7 / 3;
  const std = Math.sqrt(((0.2 - m) ** 2 + (1 - m) ** 2 + (0.5 - m) ** 2) / 2);
  near(r.advantages[5][0], 0.5 / (std + 1e-6), '(r_max - r_2nd) / (std + 1e-6)');
  assert.equal(r.advantages[4][0], 0);
  const plain = core.verlAdvantages({ estimator: 'grpo_passk', tokenLevelRewards: [[0.2], [1], [0.5]], responseMask: [[1], [1], [1]], index: [2, 2, 2], normAdvByStdInGrpo: false });
  assert.deepEqual(plain.advantages, [[0], [0.5], [0]], 'norm off: r_max - r_2nd itself');
  assert.throws(() => core.verlAdvantages({ estimator: 'grpo_passk', tokenLevelRewards: [[1], [0], [1]], responseMask: [[1], [1], [1]], index: ['p', 'p', 'q'] }),
    (e) => e instanceof RangeError && e.field === 'index' && /group 'q' has 1/.test(e.message));
});

test('verlAdvantages rloo, opo, gpg, remax, reinforce_plus_plus by hand', () => {
  const adv = (estimator, extra = {}) => core.verlAdvantages({ estimator, ...BATCH, ...extra }).advantages;
  assert.equal(adv('rloo')[0][0], 0.75, '3 / 2 * (1 - 0.5)');
  assert.equal(adv('rloo')[3][0], 2, 'a singleton keeps its score');
  near(adv('opo')[0][0], 0.3, 'baseline (2 * 1 + 0 + 3 * 0.5) / 5 = 0.7');
  assert.equal(adv('opo')[3][0], 2, 'a singleton: baseline 0');
  assert.equal(adv('gpg')[0][0], Math.fround(4 / 3) * 0.5, 'alpha = 4 / 3 nonzero scores, float32');
  assert.equal(adv('gpg')[3][0], Math.fround(4 / 3) * 2, 'a singleton: its mean 0');
  assert.ok(adv('rloo')[1].every((a) => a === 0) && adv('opo')[1].every((a) => a === 0), 'the all-masked row: 0 (times its mask)');
  // reinforce_plus_plus_baseline: a = s - group mean (singleton: s), on tokens [0.5, 0.5 | -0.5 | 3],
  // whitened over those 4 tokens (unbiased variance, eps 1e-8 in the mean and the rsqrt).
  const rppb = core.verlAdvantages({ estimator: 'reinforce_plus_plus_baseline', tokenLevelRewards: [[1, 0], [0, 0], [3, 0]], responseMask: [[1, 1], [1, 0], [1, 0]], index: [0, 0, 1] });
  const bm = 3.5 / (4 + 1e-8);
  const bv = [0.5, 0.5, -0.5, 3].reduce((s, v) => s + (v - bm) ** 2, 0) / (4 + 1e-8) * (4 / 3);
  near(rppb.advantages[2][0], (3 - bm) / Math.sqrt(bv + 1e-8), 'the singleton row, whitened');
  near(rppb.advantages[0][1], (0.5 - bm) / Math.sqrt(bv + 1e-8), 'row 0, its second token');
  assert.ok(rppb.advantages[2][1] === 0, 'masked (0 or -0: A times the mask)');
  for (const estimator of ['grpo_vectorized', 'ppo', '']) {
    assert.throws(() => core.verlAdvantages({ estimator, ...BATCH }), (e) => e instanceof RangeError && e.field === 'estimator', estimator);
  }
  const remax = core.verlAdvantages({ estimator: 'remax', tokenLevelRewards: [[0.5, 0, 1]], responseMask: [[1, 1, 1]], rewardBaselines: [0.25] });
  assert.deepEqual(remax.returns, [[1.5, 1, 1]]);
  assert.deepEqual(remax.advantages, [[1.25, 0.75, 0.75]]);
  const rpp = core.verlAdvantages({ estimator: 'reinforce_plus_plus', tokenLevelRewards: [[0, 0, 1], [0, 2, 0]], responseMask: [[1, 1, 1], [1, 1, 0]], gamma: 0.5 });
  assert.deepEqual(rpp.returns, [[0.25, 0.5, 1], [1, 2, 0]], 'G_t = r_t + 0.5 G_{t+1}, reset by the mask');
  const mean = 4.75 / (5 + 1e-8);
  const variance = [0.25, 0.5, 1, 1, 2].reduce((s, v) => s + (v - mean) ** 2, 0) / (5 + 1e-8) * (5 / 4);
  near(rpp.advantages[1][1], (2 - mean) / Math.sqrt(variance + 1e-8), 'token-weighted whitening');
  assert.throws(() => core.verlAdvantages({ estimator: 'reinforce_plus_plus', tokenLevelRewards: [[1, 0]], responseMask: [[1, 0]] }),
    (e) => e instanceof RangeError && e.field === 'responseMask');
  assert.throws(() => core.verlAdvantages({ estimator: 'grpo_vectorized', ...BATCH }), (e) => e.field === 'estimator');
  assert.throws(() => core.verlAdvantages({ estimator: 'grpo', tokenLevelRewards: [[1]], responseMask: [[1]] }), (e) => e instanceof TypeError && e.field === 'index');
});

test('verlPolicyLoss vanilla: dual clip active, verl\'s metric names, clipRatioC must exceed 1', () => {
  // Token 0: A = 1, r = e^0.5 > 1.2: clipped (-1.2). Token 1: A = -1, r = 4 > c = 3: loss 3.
  const r = core.verlPolicyLoss({ oldLogProb: [[0, 0]], logProb: [[0.5, Math.log(4)]], advantages: [[1, -1]], responseMask: [[1, 1]] });
  near(r.pgLoss, (-1.2 + 3) / 2, 'token-mean');
  assert.deepEqual(r.gradLogProb, [[0, 0]]);
  assert.deepEqual(Object.keys(r.metrics), ['actor/pg_clipfrac', 'actor/pg_clipfrac_lower', 'actor/ppo_kl']);
  near(r.metrics['actor/pg_clipfrac'], 1 / (2 + 1e-8), 'one of two');
  near(r.metrics['actor/pg_clipfrac_lower'], 1 / (2 + 1e-8), 'the dual-clipped token');
  near(r.metrics['actor/ppo_kl'], -(0.5 + Math.log(4)) / (2 + 1e-8), 'k1 of old vs new: negative');
  const wide = core.verlPolicyLoss({ oldLogProb: [[0, 0]], logProb: [[0.5, Math.log(4)]], advantages: [[1, -1]], responseMask: [[1, 1]], config: { clipRatioC: 5 } });
  near(wide.pgLoss, (-1.2 + 4) / 2, 'no dual clip at c = 5');
  assert.throws(() => core.verlPolicyLoss({ oldLogProb: [[0]], logProb: [[0]], advantages: [[1]], responseMask: [[1]], config: { clipRatioC: 1 } }),
    (e) => e instanceof RangeError && e.field === 'clipRatioC');
});

test('verlPolicyLoss gspo, sapo, cispo, gpg, reinforce, geo_mean, kl_cov by hand', () => {
  const call = (lossMode, logProb, oldLogProb, advantages, config = {}) => core.verlPolicyLoss({
    lossMode, logProb, oldLogProb, advantages, responseMask: [[1, 1, 1].slice(0, logProb[0].length)], config, ...(lossMode === 'reinforce' ? { rolloutLogProb: oldLogProb } : {}),
  });
  // gspo: d = [0.1, 0.3], s = e^0.2 = 1.2214 > 1.2. A = 1: clipped at -1.2 per token, always
  // seq-mean-token-mean: -2.4 / (2 + 1e-8); gradient 0. A = -1: loss s, gradient s / (2 + 1e-8).
  const g = call('gspo', [[-0.9, -0.7]], [[-1, -1]], [[1, 1]]);
  near(g.pgLoss, -2.4 / (2 + 1e-8), 'gspo clipped');
  assert.deepEqual(g.gradLogProb, [[0, 0]]);
  const gn = call('gspo', [[-0.9, -0.7]], [[-1, -1]], [[-1, -1]]);
  near(gn.pgLoss, (2 * Math.exp(0.2)) / (2 + 1e-8), 'gspo A < 0', 1e-13);
  near(gn.gradLogProb[0][0], Math.exp(0.2) / (2 + 1e-8), 'gspo gradient', 1e-13);
  // sapo at r = 1: gate sigmoid(0) * 4 / tau = 2 / tau; loss -2 A / tau (tau 1 for A > 0, 1.05 else).
  const s = call('sapo', [[-1, -2]], [[-1, -2]], [[1, -1]]);
  near(s.pgLoss, (-2 + 2 / 1.05) / (2 + 1e-8), 'sapo', 1e-13);
  near(s.gradLogProb[0][1], 1 / (2 + 1e-8), 'sapo gradient -A W at r = 1', 1e-13);
  // cispo: r = 0.5 is clamped to 0.8 (verl's lower clip at clip_ratio_low 0.2), r = 1 not.
  const c = call('cispo', [[Math.log(0.5) - 1, -2]], [[-1, -2]], [[1, 1]]);
  near(c.pgLoss, (-0.8 * (Math.log(0.5) - 1) + 1 * -2 * -1) / 2, 'cispo -sg(clip r) A lp', 1e-13);
  near(c.gradLogProb[0][0], -0.4, 'cispo gradient -clip(r) A / N', 1e-13);
  near(c.metrics['actor/pg_clipfrac'], 0.5, 'cispo clipfrac', 1e-8);
  // gpg: -lp A, token-mean: (2 + 3) / 2; no metrics.
  const p = call('gpg', [[-1, -3]], [[0, 0]], [[2, 1]]);
  assert.equal(p.pgLoss, 2.5);
  assert.deepEqual(p.metrics, {});
  // reinforce: seq-mean-token-sum by default: -(2 * -1 + 1 * -3) / 1 row = 5; ppo_kl mm(rollout - lp).
  const rf = call('reinforce', [[-1, -3]], [[-1.5, -3]], [[2, 1]]);
  assert.equal(rf.pgLoss, 5);
  assert.deepEqual(rf.gradLogProb, [[-2, -1]]);
  near(rf.metrics['actor/ppo_kl'], -0.5 / (2 + 1e-8), 'reinforce ppo_kl');
  // geo_mean: A > 0, d = [0.1, 0.5] clipped at 0.2: [0.1, 0.2], rho = e^(0.3 / (2 + 1e-8)).
  const gm = call('geo_mean', [[-0.9, -0.5]], [[-1, -1]], [[1, 1]]);
  near(gm.pgLoss, -(2 / (2 + 1e-8)) * Math.exp(0.3 / (2 + 1e-8)), 'geo_mean');
  assert.ok(gm.gradLogProb[0][1] === 0, 'the clipped token');
  near(gm.metrics['actor/pg_clipfrac'], 0.5, 'geo_mean A > 0 clipped', 1e-8);
  // kl_cov: A = [1, -1, 2], lp = [-1, -2, -0.5]: cov of token 1 = (-5/3)(-5/6) is the largest;
  // k = max(1, int(3 * 2e-4)) = 1: -A r + 0.1 |d| there (d = 0.5), no clipping anywhere.
  const kl = call('kl_cov', [[-1, -2, -0.5]], [[-1, -2.5, -0.5]], [[1, -1, 2]]);
  assert.deepEqual(kl.selectedTokens, [[0, 1]]);
  near(kl.pgLoss, (-3 + Math.exp(0.5) + 0.05) / 3, 'kl_cov');
  near(kl.gradLogProb[0][1], (Math.exp(0.5) + 0.1) / 3, 'kl_cov gradient');
  assert.deepEqual(Object.keys(kl.metrics), ['actor/ppo_kl']);
  near(kl.metrics['actor/ppo_kl'], 0.5 / (3 + 1e-8), 'kl_cov ppo_kl = mm(|d|)');
});

test('verlPolicyLoss clip_cov: selectedTokens given, or the first candidates in row-major order', () => {
  // cov = (A - 0)(lp + 1.5) = 3 and 3: both candidates; clip_num = max(int(2e-4 * 2), 1) = 1.
  const base = { lossMode: 'clip_cov', oldLogProb: [[-0.5, -2.5]], logProb: [[-0.5, -2.5]], advantages: [[3, -3]], responseMask: [[1, 1]] };
  const first = core.verlPolicyLoss(base);
  assert.deepEqual(first.selectedTokens, [[0, 0]]);
  assert.equal(first.pgLoss, 1.5, 'token 0 zeroed: (0 + 3) / 2');
  assert.equal(core.verlPolicyLoss({ ...base, selectedTokens: [[0, 1]] }).pgLoss, -1.5);
  assert.throws(() => core.verlPolicyLoss({ ...base, selectedTokens: [[0, 0], [0, 1]] }), (e) => e.field === 'selectedTokens');
  assert.throws(() => core.verlPolicyLoss({ ...base, selectedTokens: [[1, 0]] }), (e) => e.field === 'selectedTokens[0]');
  assert.throws(() => core.verlPolicyLoss({ ...base, lossMode: 'vanilla', selectedTokens: [[0, 0]] }), (e) => e.field === 'selectedTokens');
});

const OLD = [[-1, -0.5, -2, -1.2], [-0.3, -1.1, -0.8, -2.2], [-1.5, -0.9, -0.4, -3]];
const LOGP = [[-0.9, -0.55, -1.7, -1.25], [-0.45, -1.02, -0.8001, -2], [-1.41, -1.3, -0.4, -2]];
const ADV = [[1.2, 1.2, 1.2, 1.2], [-0.7, -0.7, -0.7, -0.7], [0.4, -2, 0.9, 0]];
const PMASK = [[1, 1, 1, 1], [1, 1, 1, 0], [1, 1, 0, 0]];

test('verlPolicyLoss: every loss mode\'s gradient by central differences, every agg mode', () => {
  for (const lossMode of ['vanilla', 'sapo', 'gpg', 'clip_cov', 'kl_cov', 'geo_mean', 'reinforce', 'cispo', 'gspo']) {
    for (const lossAggMode of ['token-mean', 'seq-mean-token-sum', 'seq-mean-token-mean', 'seq-mean-token-sum-norm']) {
      const config = lossMode === 'clip_cov' ? { clipCovLb: -10, clipCovUb: 10, clipCovRatio: 0.3 } : {};
      const args = { lossMode, oldLogProb: OLD, logProb: LOGP, advantages: ADV, responseMask: PMASK, rolloutLogProb: OLD, lossAggMode, config };
      const r = core.verlPolicyLoss(args);
      const selectedTokens = r.selectedTokens;
      // verl's detached factors held at LOGP: CISPO's sg(clip(r)) by moving old with lp.
      const f = (lp) => {
        const oldLogProb = lossMode === 'cispo' ? OLD.map((row, i) => row.map((o, t) => o + lp[i][t] - LOGP[i][t])) : OLD;
        return core.verlPolicyLoss({ ...args, logProb: lp, oldLogProb, ...(selectedTokens ? { selectedTokens } : {}) }).pgLoss;
      };
      if (lossMode === 'gspo') {
        // GSPO's gradient is s_i * d(token loss)/d r: verl detaches s_i; at A = 1.2 (row 0) with
        // s_0 = e^(mean d) = e^0.075 inside the clip band: -A s_0 W per token, W = 1 / (4 + 1e-8) / 3 rows.
        const s0 = Math.exp((0.1 - 0.05 + 0.3 - 0.05) / 4);
        near(r.gradLogProb[0][0], -1.2 * s0 / (4 + 1e-8) / 3, 'gspo row 0', 1e-12);
        // Every cell by central differences of verl's token ratio exp(lp - sg(lp) + sg(log s_i)),
        // written out with s_i held at LOGP's: always seq-mean-token-mean over the valid rows.
        const gspo = (lp) => {
          let total = 0;
          LOGP.forEach((row, i) => {
            const n = PMASK[i].reduce((a, b) => a + b, 0);
            const meanD = row.reduce((a, v, t) => a + (v - OLD[i][t]) * PMASK[i][t], 0) / n;
            let sum = 0;
            row.forEach((v, t) => {
              const ratio = Math.exp(meanD + lp[i][t] - v);
              const a = ADV[i][t];
              sum += Math.max(-a * ratio, -a * Math.min(Math.max(ratio, 0.8), 1.2)) * PMASK[i][t];
            });
            total += sum / (n + 1e-8);
          });
          return total / LOGP.length;
        };
        near(r.pgLoss, gspo(LOGP), 'gspo loss as written out', 1e-13);
        checkGradient(gspo, LOGP, r.gradLogProb, `gspo ${lossAggMode}`);
        continue;
      }
      checkGradient(f, LOGP, r.gradLogProb, `${lossMode} ${lossAggMode}`);
    }
  }
});

test('verlPolicyLoss: an all-masked row changes nothing but geo_mean’s row count (its loss x 3/4)', () => {
  const four = { oldLogProb: [...OLD, [-0.1, -9, -2, -0.7]], logProb: [...LOGP, [-3, -0.2, -1, -0.1]], advantages: [...ADV, [5, -5, 5, -5]], responseMask: [...PMASK, [0, 0, 0, 0]] };
  for (const lossMode of ['vanilla', 'sapo', 'gpg', 'clip_cov', 'kl_cov', 'geo_mean', 'reinforce', 'cispo', 'gspo']) {
    for (const lossAggMode of ['token-mean', 'seq-mean-token-sum', 'seq-mean-token-mean', 'seq-mean-token-sum-norm']) {
      const config = lossMode === 'clip_cov' ? { clipCovLb: -10, clipCovUb: 10, clipCovRatio: 0.3 } : {};
      const base = { lossMode, lossAggMode, config };
      const r3 = core.verlPolicyLoss({ ...base, oldLogProb: OLD, logProb: LOGP, advantages: ADV, responseMask: PMASK, rolloutLogProb: OLD });
      const r4 = core.verlPolicyLoss({ ...base, ...four, rolloutLogProb: four.oldLogProb });
      const scale = lossMode === 'geo_mean' ? 3 / 4 : 1; // geo_mean: torch.mean over all B rows
      const what = `${lossMode} ${lossAggMode}`;
      near(r4.pgLoss, scale * r3.pgLoss, what, 1e-15);
      assert.ok(r4.gradLogProb[3].every((g) => g === 0), `${what}: the masked row's gradient`);
      r3.gradLogProb.forEach((row, i) => row.forEach((g, t) => near(r4.gradLogProb[i][t], scale * g, `${what} [${i}][${t}]`, 1e-15)));
      assert.deepEqual(r4.metrics, r3.metrics, what);
      assert.deepEqual(r4.selectedTokens, r3.selectedTokens, what);
    }
  }
});

test('verlPolicyLoss: unknown modes and options, missing inputs are Errors naming the field', () => {
  const args = { oldLogProb: OLD, logProb: LOGP, advantages: ADV, responseMask: PMASK };
  assert.throws(() => core.verlPolicyLoss({ ...args, lossMode: 'ppo' }), (e) => e instanceof RangeError && e.field === 'lossMode');
  assert.throws(() => core.verlPolicyLoss({ ...args, lossAggMode: 'seq-mean' }), (e) => e.field === 'lossAggMode');
  assert.throws(() => core.verlPolicyLoss({ ...args, lossMode: 'reinforce', oldLogProb: undefined }), (e) => e instanceof TypeError && e.field === 'rolloutLogProb');
  assert.throws(() => core.verlPolicyLoss({ ...args, config: { clipRatioLo: 0.1 } }), (e) => e instanceof TypeError && e.field === 'clipRatioLo');
  assert.throws(() => core.verlPolicyLoss({ ...args, responseMask: [[1, 2, 1, 1], ...PMASK.slice(1)] }), (e) => e.field === 'responseMask[0][1]');
  assert.throws(() => core.verlPolicyLoss({ ...args, advantages: ADV.slice(1) }), (e) => e.field === 'advantages');
  assert.throws(() => core.verlPolicyLoss({ ...args, lossMode: 'kl_cov', config: { klCovRatio: 5 } }), (e) => e.field === 'klCovRatio');
  assert.throws(() => core.verlPolicyLoss({ ...args, lossMode: 'clip_cov', config: { clipCovRatio: 0 } }), (e) => e.field === 'clipCovRatio');
});

test('verl inputs over the limit (docs/limits.md): B * T above 1 000 000 is a RangeError naming the argument', () => {
  const big = Array.from({ length: 1001 }, () => new Array(1000).fill(0));
  assert.throws(() => core.verlAggLoss({ lossMat: big, lossMask: big, lossAggMode: 'token-mean' }),
    (e) => e instanceof RangeError && e.field === 'lossMat' && e.code === 'too_many');
  assert.throws(() => core.verlKlPenalty({ logProb: [[-1, -2]], refLogProb: [[-1, -2, -3]] }), (e) => e.field === 'refLogProb[0]');
});
