// Section 8's answer panel, DOM-free: one prompt's answer histograms before and after RL (the
// by-prompt rows' `answers`, written by the core: cpp/core/prompt_coverage.h answer_histogram)
// merged into one table, and the sentence that says which answer the policy settled on
// (docs/coverage.md, "Answer histograms"). The words come from `t` (the page's dictionaries).

/** A bin's identity across the two histograms: its kind and, for a number, the number. */
const binKey = (bin) => `${bin.kind}:${bin.answer ?? ''}`;

/** The prompt's histogram in a by-prompt list, or null when the run has none (saved before). */
export function answersOf(byPrompt, promptId) {
  const row = (byPrompt ?? []).find((r) => r.promptId === promptId);
  return Array.isArray(row?.answers) && row.answers.length ? row.answers : null;
}

/** Sum of a histogram's counts: the samples per prompt. */
export const samplesOf = (bins) => bins.reduce((sum, b) => sum + b.count, 0);

/**
 * One row per answer seen in either histogram: {kind, answer, before, after}, where a count is a
 * number, null when that histogram is missing, or 'other' when the answer is not among that
 * histogram's own kept bins but may sit in its "other" bin. Correct first, "other" last, the rest
 * by after count, then before count (descending).
 */
export function answerRows(before, after) {
  const rows = new Map();
  for (const [side, bins] of [['before', before], ['after', after]]) {
    for (const bin of bins ?? []) {
      const key = binKey(bin);
      if (!rows.has(key)) rows.set(key, { kind: bin.kind, answer: bin.answer ?? null, before: null, after: null });
      rows.get(key)[side] = bin.count;
    }
  }
  for (const [side, bins] of [['before', before], ['after', after]]) {
    if (!bins) continue;
    const hasOther = bins.some((b) => b.kind === 'other');
    for (const row of rows.values()) if (row[side] === null) row[side] = row.kind !== 'other' && hasOther ? 'other' : 0;
  }
  const rank = (row) => (row.kind === 'correct' ? 0 : row.kind === 'other' ? 2 : 1);
  const count = (v) => (typeof v === 'number' ? v : -1);
  return [...rows.values()].sort((a, b) => rank(a) - rank(b) || count(b.after) - count(a.after) || count(b.before) - count(a.before));
}

/** The largest bin that names one answer or one status (never "other"; ties: the first). */
export function topBin(bins) {
  let top = null;
  for (const bin of bins) if (bin.kind !== 'other' && (!top || bin.count > top.count)) top = bin;
  return top;
}

/** How a bin is named in a sentence or a row: the number, or the status in the page's words. */
export function binLabel(t, bin) {
  if (bin.kind === 'other') return t('train.answers.other');
  if (bin.kind === 'correct' || bin.kind === 'incorrect') return bin.answer;
  return t(`verifier.status.${bin.kind}`);
}

/**
 * The panel's sentences for one prompt: [{key, params}], rendered by `t`. `before`/`after`: the
 * histograms (after null while the run is going); `correct`: the reference answer.
 */
export function answerSentences(before, after, correct) {
  if (!before && !after) return [{ key: 'train.answers.notRecorded', params: {} }];
  const out = [];
  const lead = after ? topBin(after) : null;
  if (after) {
    const samples = samplesOf(after);
    const params = { n: lead.count, samples, answer: lead.answer ?? '', correct, status: lead.kind };
    if (lead.kind === 'correct') out.push({ key: 'train.answers.afterCorrect', params });
    else if (lead.kind === 'incorrect') out.push({ key: 'train.answers.afterWrong', params });
    else out.push({ key: 'train.answers.afterStatus', params });
  } else {
    out.push({ key: 'train.answers.afterPending', params: {} });
  }
  if (before) {
    const samples = samplesOf(before);
    const c = before.find((b) => b.kind === 'correct')?.count ?? 0;
    const params = { c, samples, correct };
    if (lead && lead.kind !== 'correct') {
      const same = before.find((b) => binKey(b) === binKey(lead));
      const hasOther = before.some((b) => b.kind === 'other');
      const label = { answer: lead.answer ?? '', status: lead.kind };
      if (same) out.push({ key: lead.kind === 'incorrect' ? 'train.answers.beforeWith' : 'train.answers.beforeWithStatus', params: { ...params, ...label, w: same.count } });
      else if (hasOther) out.push({ key: lead.kind === 'incorrect' ? 'train.answers.beforeRare' : 'train.answers.beforeRareStatus', params: { ...params, ...label } });
      else out.push({ key: lead.kind === 'incorrect' ? 'train.answers.beforeNever' : 'train.answers.beforeNeverStatus', params: { ...params, ...label } });
    } else {
      out.push({ key: 'train.answers.before', params });
    }
  } else {
    out.push({ key: 'train.answers.beforeMissing', params: {} });
  }
  return out;
}

/** The sentences as text: a status parameter is named in the page's words. */
export function answerText(t, sentences) {
  return sentences
    .map(({ key, params }) => t(key, params.status ? { ...params, status: t(`verifier.status.${params.status}`) } : params))
    .join(' ');
}
