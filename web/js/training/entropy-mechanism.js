// Section 7's "why entropy falls" sentence, from a run's entropyMechanism columns (DOM-free:
// the page, tests/node/entropy-mechanism.test.mjs and the browser test read it alike).

/** Two significant digits (the changes per update are ~1e-3 to 1e-5). */
const sig = (value) => (value === 0 ? '0' : String(Number(value.toPrecision(2))));

/**
 * The sentence under the entropy-mechanism chart, as dictionary keys and parameters, from the
 * history's columns: on how many updates the first-order prediction has the measured change's
 * sign, the summed change and prediction, and what Cov(log π, A) says. "Confident tokens with a
 * positive advantage drive it down" only when the entropy fell and the covariance is positive on
 * most updates (Cov > 0: the likelier sampled tokens had the higher advantages); otherwise what
 * was seen. DOM-free. Rows without the columns are left out.
 *   returns [{key, params}], the parts of one sentence.
 */
export function mechanismClaim(history) {
  const rows = history.filter((row) => typeof row.probeEntropyChange === 'number');
  const n = rows.length;
  if (n === 0) return [{ key: 'train.mechanism.off', params: {} }];
  const k = rows.filter((row) => Math.sign(row.probeEntropyChange) === Math.sign(row.probeEntropyPrediction)).length;
  const sum = (key) => rows.reduce((total, row) => total + row[key], 0);
  const measured = sum('probeEntropyChange');
  const predicted = sum('probeEntropyPrediction');
  const c = rows.filter((row) => row.logpAdvantageCov > 0).length;
  const parts = [{ key: 'train.mechanism.signs', params: { n, k, measured: sig(measured), predicted: sig(predicted) } }];
  const most = 2 * c > n;
  // A run that did not move the probe's entropy (a learning rate of 0) neither fell nor rose.
  if (measured === 0) return [...parts, { key: 'train.mechanism.still', params: { n, c } }];
  const key = measured < 0 ? (most ? 'train.mechanism.confident' : 'train.mechanism.fallOther') : most ? 'train.mechanism.riseCov' : 'train.mechanism.riseOther';
  parts.push({ key, params: { n, c } });
  return parts;
}

/** The sentence of mechanismClaim's parts in the language of `text` (t, or dictionaryText's). */
export function mechanismSentence(parts, text) {
  return parts.map(({ key, params }) => text(key, params)).join('');
}
