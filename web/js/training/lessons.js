// The sentences of sections 6-8 that depend on a run, as i18n keys with their parameters, built
// from the run's own numbers (the precomputed run, a live run, an imported run or any preset
// alike), so a learner never reads a claim the chart beside it contradicts. DOM-free: the page,
// the claims test and the bench read them here. Fixed texts stay only where they hold for every run.
import { concentration } from './run-format.js';

const num = (x, digits = 3) => (Number.isFinite(x) ? x.toFixed(digits) : '—');
const mean = (values) => values.reduce((a, b) => a + b, 0) / Math.max(1, values.length);

/** Section 6: before/after on train and held-out prompts. Null until the run has finished. */
export function rlLoopLesson(result) {
  const bt = result?.beforeTrain;
  const at = result?.afterTrain;
  if (!bt || !at) return null;
  const bh = result.beforeHeldout;
  const ah = result.afterHeldout;
  const lines = [
    {
      key: 'train.rl.lesson',
      params: { acc0: num(bt.accuracy), acc1: num(at.accuracy), h0: num(bt.entropy), h1: num(at.entropy), kl1: num(at.teacherForcedKl, 4) },
    },
  ];
  if (bh && ah && Number.isFinite(bh.accuracy)) {
    const trainGain = at.accuracy - bt.accuracy;
    const heldGain = ah.accuracy - bh.accuracy;
    const params = { acc0: num(bh.accuracy), acc1: num(ah.accuracy), p0: num(bh.passAt4), p1: num(ah.passAt4) };
    const key =
      heldGain < trainGain
        ? ah.passAt4 < bh.passAt4
          ? 'train.rl.lessonHeldPassFell'
          : 'train.rl.lessonHeldLess'
        : 'train.rl.lessonHeldMore';
    lines.push({ key, params });
  }
  return lines;
}

/** Section 7: what the history shows. Null without history. */
export function updatesLesson(history) {
  if (!history?.length) return null;
  const n = history.length;
  // One pass, no spread into Math.min/max: a history may hold 100 000 rows (docs/limits.md).
  let noSignal = 0;
  let infoMin = Infinity;
  let infoMax = -Infinity;
  let rmin = Infinity;
  let rmax = -Infinity;
  let clip = 0;
  for (const row of history) {
    const info = row.informativeFraction;
    if (info === 0) noSignal += 1;
    infoMin = Math.min(infoMin, info);
    infoMax = Math.max(infoMax, info);
    if (Number.isFinite(row.ratioMin)) rmin = Math.min(rmin, row.ratioMin);
    if (Number.isFinite(row.ratioMax)) rmax = Math.max(rmax, row.ratioMax);
    if (Number.isFinite(row.clipFractionRegion)) clip = Math.max(clip, row.clipFractionRegion);
  }
  const tail = Math.max(1, Math.round(n / 10));
  const infoOf = (rows) => mean(rows.map((r) => r.informativeFraction));
  const infoStart = infoOf(history.slice(0, tail));
  const infoEnd = infoOf(history.slice(-tail));
  const lines = [
    {
      key: noSignal ? 'train.updates.lessonSilent' : 'train.updates.lessonSignal',
      params: { n, silent: noSignal, min: num(infoMin, 3), max: num(infoMax, 3) },
    },
    {
      key: infoEnd < infoStart - 0.1 ? 'train.updates.lessonStarves' : 'train.updates.lessonKeepsSignal',
      params: { start: num(infoStart, 2), end: num(infoEnd, 2), tail, acc1: num(history[n - 1].evalAccuracy) },
    },
    {
      key: 'train.updates.lessonRatios',
      params: { rmin: num(rmin), rmax: num(rmax), clip: num(clip * 100, 1) },
    },
  ];
  return lines;
}

/** Section 8: the concentration claim, from the core's coverage block. Null until it exists. */
export function coverageLesson(result, lostCount) {
  const coverage = result?.coverage;
  const verdict = concentration(coverage);
  if (!verdict) return null;
  const params = { lost: lostCount, n: coverage.beforeTrain.prompts, solved1: coverage.afterTrain.solved, samples: coverage.samples };
  return [{ key: verdict.holds ? 'train.coverage.lessonHolds' : 'train.coverage.lessonFails', params }];
}
