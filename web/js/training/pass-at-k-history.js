// pass@k during training (issue 23 item 3): the history's trainPassAt{k} / heldoutPassAt{k}
// columns, logged every passAtKEvery updates, each judged against the base policy's pass@k
// before RL by section 8's own verdict (verdicts.js passAtKVerdict, its noise floors): where the
// base overtakes the RL policy, update by update. DOM-free; sentences are {key, params}
// (verdicts.js verdictText). Used by section 8 and tests/node/pass-at-k-history.test.mjs.
import { passAtKVerdict } from './verdicts.js';
import { LOGGED_PASS_AT_KS, PASS_AT_K_SPLITS, passAtKColumn } from './run-format.js';

const BEFORE = { train: 'beforeTrain', heldout: 'beforeHeldout' };

/**
 * The logged updates of a finished run: [{update, train, heldout}], each split {ks, base, values,
 * verdict} (base: the policy before RL at the same ks; verdict: passAtKVerdict's {kind, k}), or
 * null for a split the run has no prompts of. [] when the run logged none (passAtKEvery 0).
 */
export function passAtKHistory(result) {
  const coverage = result?.coverage;
  const rows = [];
  for (const row of result?.history ?? []) {
    if (!PASS_AT_K_SPLITS.some((split) => Number.isFinite(row[passAtKColumn(split, 1)]))) continue;
    const out = { update: row.update };
    for (const split of PASS_AT_K_SPLITS) {
      const before = coverage?.[BEFORE[split]];
      const ks = LOGGED_PASS_AT_KS.filter((k) => Number.isFinite(row[passAtKColumn(split, k)]));
      const at = ks.map((k) => before?.passAtK?.ks.indexOf(k) ?? -1);
      if (!ks.length || at.some((i) => i < 0)) {
        out[split] = null;
        continue;
      }
      const base = at.map((i) => before.passAtK.values[i]);
      const values = ks.map((k) => row[passAtKColumn(split, k)]);
      const verdict = passAtKVerdict({ prompts: before.prompts, passAtK: { ks, values: base } }, { prompts: before.prompts, passAtK: { ks, values } }, coverage.samples);
      out[split] = { ks, base, values, verdict };
    }
    rows.push(out);
  }
  return rows;
}

/**
 * One sentence per split on how the crossing moved: first crossed at update u0 (k0), and where it
 * stands at the last logged update (crossed at k1, or its kind); or never crossed in n logs.
 */
export function passAtKHistorySentences(rows) {
  const out = [];
  for (const split of PASS_AT_K_SPLITS) {
    const logged = rows.filter((r) => r[split]);
    if (!logged.length) continue;
    const params = { split: { key: `train.passAtKHistory.split.${split}` }, n: logged.length };
    const first = logged.find((r) => r[split].verdict.kind === 'crossed');
    const last = logged[logged.length - 1];
    if (!first) {
      out.push({ key: 'train.passAtKHistory.never', params: { ...params, u1: last.update, kind: kindWords(last[split].verdict) } });
      continue;
    }
    const end = last[split].verdict;
    Object.assign(params, { u0: first.update, k0: first[split].verdict.k, u1: last.update });
    if (end.kind !== 'crossed') out.push({ key: 'train.passAtKHistory.crossedThen', params: { ...params, kind: kindWords(end) } });
    else if (last === first) out.push({ key: 'train.passAtKHistory.crossedLast', params });
    else {
      const k1 = end.k;
      const move = k1 < params.k0 ? 'smaller' : k1 > params.k0 ? 'larger' : 'same';
      out.push({ key: `train.passAtKHistory.moved.${move}`, params: { ...params, k1 } });
    }
  }
  return out;
}

/**
 * A verdict's kind in words for a table cell or a sentence: "crossed at k = 8", "base ahead at
 * every k" (baseAll: beyond noise at every k), "base ahead at k = 4, 8" (baseAhead: RL ahead at
 * no k, level at the others), ...
 */
export function kindWords(verdict) {
  if (!verdict) return { key: 'train.passAtKHistory.kind.none' };
  const ks = verdict.ks ? verdict.ks.filter((_, i) => verdict.signs[i] < 0).join(', ') : '';
  return { key: `train.passAtKHistory.kind.${verdict.kind}`, params: { k: verdict.k, ks } };
}
