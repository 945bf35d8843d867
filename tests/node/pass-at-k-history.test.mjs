// Issue 23's history columns and section 8's blocks over them, through the real WASM API:
// pass@k during training (passAtKEvery: opt-in, its own random stream, the run's other bytes
// unchanged), the lengths of correct and incorrect completions per update, and the length
// histogram of the evaluations before and after RL; each sentence section 8 writes about them is
// checked against the numbers beside it, and a run file with them imports as itself.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadCore } from '../../web/core/index.js';
import { refusal } from './refusal.mjs';
import { LOGGED_PASS_AT_KS, passAtKColumn } from '../../web/js/training/run-format.js';
import { passAtKHistory, passAtKHistorySentences, kindWords } from '../../web/js/training/pass-at-k-history.js';
import { lengthPercentile, lengthSentences, lengthSummary } from '../../web/js/training/length-histogram.js';
import { verdictText } from '../../web/js/training/verdicts.js';
import { loadLanguage, t } from '../../web/js/i18n.js';

const core = await loadCore();
await loadLanguage('en');
await loadLanguage('ru');
const SMOKE = { profile: 'smoke', seed: 9 };
const plain = core.runToyGrpoExperiment(SMOKE);
const logged = core.runToyGrpoExperiment({ ...SMOKE, passAtKEvery: 10 });
const PASS_COLUMN = /^(train|heldout)PassAt\d+$/;
const withoutPass = (row) => Object.fromEntries(Object.entries(row).filter(([key]) => !PASS_COLUMN.test(key)));

test('passAtKEvery 0 (the default) logs nothing; 10 adds pass@k columns on updates 10, 20, ... and changes no other byte', () => {
  assert.equal(plain.config.passAtKEvery, 0);
  for (const row of plain.history) assert.deepEqual(Object.keys(row).filter((key) => PASS_COLUMN.test(key)), [], `update ${row.update}`);
  assert.equal(JSON.stringify(logged.history.map(withoutPass)), JSON.stringify(plain.history), 'every other column, bit for bit');
  for (const key of ['beforeTrain', 'beforeHeldout', 'afterTrain', 'afterHeldout', 'coverage', 'afterTrainByPrompt']) assert.deepEqual(logged[key], plain[key], key);
  assert.deepEqual(logged.checkpoint.tensors, plain.checkpoint.tensors);
  const ks = LOGGED_PASS_AT_KS.filter((k) => k <= logged.config.finalEvalSamples);
  assert.deepEqual(ks, [1, 2, 4, 8, 16, 32, 64]);
  for (const row of logged.history) {
    const has = row.update % 10 === 0;
    for (const split of ['train', 'heldout'])
      for (const k of ks) assert.equal(Number.isFinite(row[passAtKColumn(split, k)]), has, `update ${row.update} ${split} pass@${k}`);
    if (!has) continue;
    for (const split of ['train', 'heldout']) {
      const curve = ks.map((k) => row[passAtKColumn(split, k)]);
      curve.forEach((v, i) => assert.ok(v >= 0 && v <= 1 && (i === 0 || v >= curve[i - 1] - 1e-12), `${split} pass@k non-decreasing in k: ${curve}`));
    }
  }
});

test('passAtKEvery is refused when it would log more than 200 evaluations, naming the field in EN and RU', async () => {
  const { texts } = await refusal(() => core.experimentConfig({ ...SMOKE, updates: 1000, passAtKEvery: 4 }), 'too_frequent', 'passAtKEvery');
  assert.match(texts.en, /at most 200 evaluations in a run of 1000 updates, got one every 4/);
  assert.match(texts.ru, /не больше 200 оценок/);
  assert.equal(core.experimentConfig({ ...SMOKE, updates: 1000, passAtKEvery: 5 }).passAtKEvery, 5);
  assert.throws(() => core.experimentConfig({ passAtKEvery: -1 }), (e) => e.field === 'passAtKEvery');
});

test('section 8 judges each logged update by its own numbers, and its sentence says what the table says', () => {
  const rows = passAtKHistory(logged);
  assert.deepEqual(rows.map((r) => r.update), [10, 20, 30, 40, 50, 60]);
  const before = { train: logged.coverage.beforeTrain, heldout: logged.coverage.beforeHeldout };
  for (const r of rows)
    for (const split of ['train', 'heldout']) {
      const cell = r[split];
      // The base column is the run's own before-RL curve at the same k; the policy's is the row's.
      cell.ks.forEach((k, i) => {
        assert.equal(cell.base[i], before[split].passAtK.values[before[split].passAtK.ks.indexOf(k)]);
        assert.equal(cell.values[i], logged.history[r.update - 1][passAtKColumn(split, k)]);
      });
      // A crossing at k: there the base is above the policy; at some smaller k the policy is above.
      const { kind, k } = cell.verdict;
      if (kind === 'crossed') {
        const at = cell.ks.indexOf(k);
        assert.ok(cell.base[at] > cell.values[at], `update ${r.update} ${split}: base above at k = ${k}`);
        assert.ok(cell.ks.slice(0, at).some((_, i) => cell.values[i] > cell.base[i]), `update ${r.update} ${split}: RL above before k = ${k}`);
      }
      if (kind === 'rlAhead') assert.ok(cell.values.some((v, i) => v > cell.base[i]) && cell.values.every((v, i) => v >= cell.base[i] - 0.05));
      if (kind === 'baseAhead') assert.ok(cell.base.some((v, i) => v > cell.values[i]));
    }
  // The sentence names the first crossing and the last logged update's state, from the rows.
  const sentences = passAtKHistorySentences(rows);
  assert.equal(sentences.length, 2);
  for (const [i, split] of ['train', 'heldout'].entries()) {
    const s = sentences[i];
    const first = rows.find((r) => r[split].verdict.kind === 'crossed');
    const last = rows.at(-1)[split].verdict;
    if (!first) assert.equal(s.key, 'train.passAtKHistory.never');
    else {
      assert.equal(s.params.u0, first.update);
      assert.equal(s.params.k0, first[split].verdict.k);
      if (last.kind === 'crossed' && rows.at(-1) !== first) assert.equal(s.params.k1, last.k);
      assert.match(s.key, last.kind === 'crossed' ? /moved|crossedLast/ : /crossedThen/);
    }
    for (const lang of ['en', 'ru']) assert.doesNotMatch(verdictText((k, p) => t(k, p, lang), s), /\{|undefined|NaN/);
    console.log(`# pass@k during training, ${split}: ${rows.map((r) => `${r.update}: ${verdictText((k, p) => t(k, p, 'en'), kindWords(r[split].verdict))}`).join('; ')}`);
    console.log(`#   ${verdictText((k, p) => t(k, p, 'en'), s)}`);
  }
});

test('a run file with the pass@k columns and the length histogram imports as itself; a value out of range is refused', () => {
  const file = JSON.parse(JSON.stringify(logged));
  const imported = core.importRun(file);
  assert.deepEqual(imported.history, logged.history);
  assert.deepEqual(imported.lengthHistogram, logged.lengthHistogram);
  const bad = JSON.parse(JSON.stringify(logged));
  bad.history[9].trainPassAt4 = 1.5;
  assert.throws(() => core.importRun(bad), (e) => e.field === 'run.history[9].trainPassAt4');
  const shifted = JSON.parse(JSON.stringify(logged));
  shifted.lengthHistogram.before.correct[2] += 1;
  assert.throws(() => core.importRun(shifted), (e) => e.field.startsWith('run.lengthHistogram.before'));
  const old = JSON.parse(JSON.stringify(plain));
  delete old.lengthHistogram;
  assert.equal(core.importRun(old).lengthHistogram, undefined, 'a run saved before the histogram has none');
});

test('the lengths of correct and incorrect completions add up to the mean length, update by update', () => {
  let both = 0;
  for (const row of plain.history) {
    const { accuracy, meanLength, meanLengthCorrect: c, meanLengthIncorrect: i } = row;
    assert.equal(Number.isFinite(c), accuracy > 0, `update ${row.update}: correct present iff some are correct`);
    assert.equal(Number.isFinite(i), accuracy < 1, `update ${row.update}: incorrect present iff some are not`);
    if (Number.isFinite(c) && Number.isFinite(i)) {
      assert.ok(Math.abs(accuracy * c + (1 - accuracy) * i - meanLength) < 1e-9, `update ${row.update}`);
      both += 1;
    }
  }
  assert.ok(both > 0);
});

test('the length histogram: its counts are the evaluation’s (n, correct, mean length), and its sentence its percentiles', () => {
  const rows = (plain.config.trainPrompts * plain.config.finalEvalSamples);
  for (const [phase, metrics] of [['before', plain.beforeTrain], ['after', plain.afterTrain]]) {
    const part = plain.lengthHistogram[phase];
    assert.equal(part.correct.length, plain.config.maxNewTokens + 1);
    const all = part.correct.map((c, i) => c + part.incorrect[i]);
    assert.equal(all.reduce((a, b) => a + b, 0), rows);
    assert.equal(part.correct.reduce((a, b) => a + b, 0), Math.round(metrics.accuracy * rows));
    const mean = all.reduce((sum, c, length) => sum + c * length, 0) / rows;
    assert.ok(Math.abs(mean - metrics.meanLength) < 1e-12, `${phase}: ${mean} vs ${metrics.meanLength}`);
  }
  // Nearest-rank percentiles on a hand-made histogram: lengths 2 (x1), 5 (x8), 9 (x1).
  const counts = [0, 0, 1, 0, 0, 8, 0, 0, 0, 1];
  assert.deepEqual([0.1, 0.5, 0.9, 1].map((q) => lengthPercentile(counts, q)), [2, 5, 5, 9]);
  assert.equal(lengthPercentile([0, 0], 0.5), null);
  const summary = lengthSummary({ correct: [0, 0, 1, 0, 0, 2, 0, 0, 0, 0], incorrect: [0, 0, 0, 0, 0, 6, 0, 0, 0, 1] });
  assert.deepEqual([summary.n, summary.p10, summary.p90, summary.spread, summary.meanCorrect, summary.meanIncorrect], [10, 2, 5, 3, 4, 39 / 7]);
  const [first] = lengthSentences(plain.lengthHistogram);
  const s = lengthSummary(plain.lengthHistogram.before);
  assert.equal(first.key, 'train.lengths.before.both');
  assert.deepEqual([first.params.p10, first.params.p90, first.params.spread, first.params.n], [s.p10, s.p90, s.p90 - s.p10, rows]);
});

test('the scratch task: warm-up responses spread over at least 8 tokens between the 10th and 90th percentile', () => {
  // The gallery's scratch setting (section 6's preset with fewer prompts, updates and samples).
  const run = core.runToyGrpoExperiment({ profile: 'smoke', seed: 9, task: 'scratch', maxNewTokens: 32, teacherAccuracy: 0.6, warmupSteps: 300, trainPrompts: 32, heldoutPrompts: 16, updates: 1, finalEvalSamples: 16 });
  const s = lengthSummary(run.lengthHistogram.before);
  console.log(`# scratch warm-up lengths: n ${s.n}, p10 ${s.p10}, median ${s.p50}, p90 ${s.p90}, spread ${s.spread}; correct ${s.meanCorrect.toFixed(2)}, incorrect ${s.meanIncorrect.toFixed(2)} tokens`);
  assert.ok(s.spread >= 8, `spread ${s.spread}`);
  const [sentence] = lengthSentences(run.lengthHistogram);
  assert.match(verdictText((k, p) => t(k, p, 'en'), sentence), new RegExp(`from ${s.p10} to ${s.p90} tokens .*a spread of ${s.spread}`));
});
