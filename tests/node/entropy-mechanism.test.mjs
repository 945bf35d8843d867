// Why entropy falls in the GRU (config entropyMechanism, docs/entropy-mechanism.md "The GRU")
// through the real WASM module: the first-order prediction grad H . delta theta has the sign of
// the measured entropy change on the probe set on >= 80 % of a smoke run's updates; the option
// off leaves the run's bytes as they were (tests/node/pin.test.mjs), on it only adds columns;
// section 7's sentence is chosen from those numbers, in English and Russian.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { loadCore } from '../../web/core/index.js';
import { mechanismClaim, mechanismSentence } from '../../web/js/training/entropy-mechanism.js';
import { dictionaryText } from '../../web/js/i18n.js';
import enTraining from '../../web/js/i18n/en-training.js';
import ruTraining from '../../web/js/i18n/ru-training.js';
import enVerdicts from '../../web/js/i18n/en-verdicts.js';
import ruVerdicts from '../../web/js/i18n/ru-verdicts.js';
import { withoutLater } from './pin-fields.mjs';

const core = await loadCore();
const sha256 = (value) => createHash('sha256').update(JSON.stringify(value)).digest('hex');
const COLUMNS = ['probeEntropy', 'probeEntropyChange', 'probeEntropyPrediction', 'stepNorm', 'logpAdvantageCov'];
const without = (row) => Object.fromEntries(Object.entries(row).filter(([key]) => !COLUMNS.includes(key)));

const on = core.runToyGrpoExperiment({ profile: 'smoke', seed: 9, entropyMechanism: true });

test('the prediction has the sign of the measured change on >= 80 % of a smoke run’s updates', () => {
  const rows = on.history;
  assert.equal(rows.length, 60);
  for (const row of rows) for (const key of COLUMNS) assert.ok(Number.isFinite(row[key]), `update ${row.update}: ${key}`);
  const agree = rows.filter((row) => Math.sign(row.probeEntropyChange) === Math.sign(row.probeEntropyPrediction) && row.stepNorm > 0).length;
  const measured = rows.reduce((a, row) => a + row.probeEntropyChange, 0);
  const predicted = rows.reduce((a, row) => a + row.probeEntropyPrediction, 0);
  const positive = rows.filter((row) => row.logpAdvantageCov > 0).length;
  console.log(`# entropy mechanism: signs agree on ${agree} of ${rows.length} updates (${((100 * agree) / rows.length).toFixed(1)} %), summed change ${measured.toFixed(4)} vs predicted ${predicted.toFixed(4)}, Cov(log pi, A) > 0 on ${positive}`);
  assert.ok(agree >= 0.8 * rows.length, `${agree} of ${rows.length}`);
  // The probe's entropy is a level: after - change of one update is the level after the previous one.
  for (let u = 1; u < rows.length; u += 1) {
    const before = rows[u].probeEntropy - rows[u].probeEntropyChange;
    assert.ok(Math.abs(before - rows[u - 1].probeEntropy) < 1e-12, `update ${u + 1}: starts where ${u} ended`);
  }
});

test('entropyMechanism off leaves the run bytes as pinned; on adds only its columns', () => {
  const off = core.runToyGrpoExperiment({ profile: 'smoke', seed: 9, entropyMechanism: false });
  const plain = core.runToyGrpoExperiment({ profile: 'smoke', seed: 9 });
  assert.equal(off.config.entropyMechanism, false);
  assert.equal(plain.config.entropyMechanism, false);
  assert.equal(JSON.stringify(off.history), JSON.stringify(plain.history));
  for (const row of off.history) for (const key of COLUMNS) assert.ok(!(key in row), `update ${row.update} has no ${key}`);
  // tests/node/pin.test.mjs's historyAll (every column but the ones added after issue 13).
  assert.equal(sha256(off.history.map(withoutLater)), '6a46fa3e8def17056c022025cac110236b92f5f7c6f8835c743e97ca860b4c68');
  assert.equal(JSON.stringify(on.history.map(without)), JSON.stringify(plain.history), 'the other columns, bit for bit');
  for (const key of ['beforeTrain', 'afterTrain', 'afterHeldout']) assert.deepEqual(on[key], plain[key], key);
  assert.deepEqual(on.checkpoint.tensors, plain.checkpoint.tensors);
});

test('a run file with the columns imports as itself; section 9 lists the field as no GRPOConfig argument', () => {
  const imported = core.importRun(JSON.parse(JSON.stringify(on)));
  assert.deepEqual(imported.history.map((row) => COLUMNS.map((key) => row[key])), on.history.map((row) => COLUMNS.map((key) => row[key])));
  const spec = core.configSchema().fields.find((f) => f.name === 'entropyMechanism');
  assert.equal(spec.kind, 'bool');
  assert.equal(spec.trl, null);
  assert.throws(() => core.experimentConfig({ entropyMechanism: 1 }), TypeError);
});

test('the sentence says what the numbers say, in English and Russian', () => {
  const rows = on.history;
  const parts = mechanismClaim(rows);
  const agree = rows.filter((row) => Math.sign(row.probeEntropyChange) === Math.sign(row.probeEntropyPrediction)).length;
  const positive = rows.filter((row) => row.logpAdvantageCov > 0).length;
  const measured = rows.reduce((a, row) => a + row.probeEntropyChange, 0);
  assert.deepEqual(parts[0].params.k, agree);
  assert.deepEqual(parts[0].params.n, rows.length);
  assert.equal(parts[1].key, measured < 0 ? (2 * positive > rows.length ? 'train.mechanism.confident' : 'train.mechanism.fallOther') : 2 * positive > rows.length ? 'train.mechanism.riseCov' : 'train.mechanism.riseOther');
  const english = mechanismSentence(parts, dictionaryText({ ...enVerdicts, ...enTraining }, 'en'));
  const russian = mechanismSentence(parts, dictionaryText({ ...ruVerdicts, ...ruTraining }, 'ru'));
  console.log(`# ${english}\n# ${russian}`);
  assert.match(english, new RegExp(`^On ${agree} of ${rows.length} updates, `));
  assert.match(russian, new RegExp(`^На ${agree} из ${rows.length} обновлений `));
  if (parts[1].key === 'train.mechanism.confident') {
    assert.match(english, /confident tokens with a positive advantage drive it down\.$/);
    assert.match(russian, /энтропию снижают уверенные токены с положительным преимуществом\.$/);
  }
  for (const text of [english, russian]) assert.doesNotMatch(text, /[{}]|undefined|NaN/);
  // What was seen otherwise: a made-up history whose covariance is mostly negative.
  const flipped = rows.map((row) => ({ ...row, logpAdvantageCov: -Math.abs(row.logpAdvantageCov) }));
  assert.equal(mechanismClaim(flipped)[1].key, measured < 0 ? 'train.mechanism.fallOther' : 'train.mechanism.riseOther');
  assert.equal(mechanismClaim([])[0].key, 'train.mechanism.off');
  // No change on the probe (a learning rate of 0): neither 'fell' nor 'rose'.
  const still = rows.map((row) => ({ ...row, probeEntropyChange: 0 }));
  assert.equal(mechanismClaim(still)[1].key, 'train.mechanism.still');
});
