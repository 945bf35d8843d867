// Section 8's length histogram (issue 23): how long the responses to the train prompts are before
// RL (the warm-up policy) and after, correct and incorrect apart, from the run's lengthHistogram
// (per length 0 .. maxNewTokens, counts of the evaluation's finalEvalSamples answers per prompt).
// DOM-free; sentences are {key, params} (verdicts.js verdictText). Used by section 8 and the tests.
import { fixed } from './verdicts.js';

/** The smallest length whose cumulative count reaches q of all (nearest rank), or null. */
export function lengthPercentile(counts, q) {
  const total = counts.reduce((a, b) => a + b, 0);
  if (!total) return null;
  const rank = Math.max(1, Math.ceil(q * total));
  let seen = 0;
  for (let length = 0; length < counts.length; length += 1) {
    seen += counts[length];
    if (seen >= rank) return length;
  }
  return counts.length - 1;
}

const meanLength = (counts) => {
  const n = counts.reduce((a, b) => a + b, 0);
  return n ? counts.reduce((sum, c, length) => sum + c * length, 0) / n : null;
};

/**
 * The numbers of one evaluation ({correct: [...], incorrect: [...]}): n, the 10th, 50th and 90th
 * percentile of all lengths, the spread p90 - p10, the mean length of correct and incorrect ones
 * (null when there are none) and the share correct.
 */
export function lengthSummary(part) {
  if (!part) return null;
  const all = part.correct.map((c, i) => c + part.incorrect[i]);
  const n = all.reduce((a, b) => a + b, 0);
  const [p10, p50, p90] = [0.1, 0.5, 0.9].map((q) => lengthPercentile(all, q));
  const correct = part.correct.reduce((a, b) => a + b, 0);
  return { n, p10, p50, p90, spread: p90 === null ? null : p90 - p10, meanCorrect: meanLength(part.correct), meanIncorrect: meanLength(part.incorrect), shareCorrect: n ? correct / n : null };
}

/** One sentence per evaluation the run has ("before", "after"): its spread and the two means. */
export function lengthSentences(histogram) {
  const out = [];
  for (const phase of ['before', 'after']) {
    const s = lengthSummary(histogram?.[phase]);
    if (!s || !s.n) continue;
    const means = s.meanCorrect === null ? 'noneCorrect' : s.meanIncorrect === null ? 'noneIncorrect' : 'both';
    out.push({
      key: `train.lengths.${phase}.${means}`,
      params: { n: s.n, p10: s.p10, p50: s.p50, p90: s.p90, spread: s.spread, correct: fixed(s.meanCorrect, 1), incorrect: fixed(s.meanIncorrect, 1), share: fixed(s.shareCorrect, 3) },
    });
  }
  return out;
}
