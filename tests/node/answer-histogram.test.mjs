// Section 8's answer histograms: every by-prompt row of a run carries its answers' bins, whose
// counts sum to the samples per prompt and whose correct bin is the row's successes; the import
// keeps them (and refuses bad ones naming the field), an older run without them still imports,
// the run library's check does the same, and the panel's sentences (web/js/training/
// answer-histogram.js) say what the bins hold, in English and Russian.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { loadCore } from '../../web/core/index.js';
import { t, loadLanguage, setLanguage } from '../../web/js/i18n.js';
import { answerRows, answerSentences, answerText, topBin } from '../../web/js/training/answer-histogram.js';
import { checkRecord } from '../../web/js/training/library-record.js';
import { MAX_BYTES, libraryEntry } from '../../web/js/training/run-library.js';

await loadLanguage('en');
await loadLanguage('ru');
const core = await loadCore();
const run = core.runToyGrpoExperiment({ profile: 'smoke', seed: 9, updates: 3 });
const samples = run.config.finalEvalSamples;
const KEYS = ['beforeTrainByPrompt', 'afterTrainByPrompt', 'beforeHeldoutByPrompt', 'afterHeldoutByPrompt'];
const answerOf = new Map(run.prompts.map((p) => [p.id, p.answer]));

describe('answer histograms in a run', () => {
  it('sum to the samples per prompt; the correct bin is the successes and names the answer', () => {
    let rows = 0;
    for (const key of KEYS) {
      for (const row of run[key]) {
        const bins = row.answers;
        assert.ok(Array.isArray(bins) && bins.length >= 1 && bins.length <= 6, `${key} ${row.prompt}`);
        assert.equal(bins.reduce((sum, b) => sum + b.count, 0), samples, `${key} ${row.prompt}: sum`);
        assert.equal(bins[0].kind, 'correct');
        assert.equal(bins[0].answer, answerOf.get(row.promptId));
        assert.equal(bins[0].count, Math.round(row.accuracy * samples), `${key} ${row.prompt}: successes`);
        assert.equal(bins.filter((b) => b.kind === 'correct').length, 1);
        for (const b of bins.slice(1)) assert.ok(b.kind !== 'incorrect' || (typeof b.answer === 'string' && b.answer !== answerOf.get(row.promptId)));
        rows += 1;
      }
    }
    assert.ok(rows > 100);
  });

  it('survive the import, and a run saved without them still imports', () => {
    const back = core.importRun(run);
    for (const key of KEYS) assert.deepEqual(back[key], run[key]);
    const older = structuredClone(run);
    for (const key of KEYS) for (const row of older[key]) delete row.answers;
    const imported = core.importRun(older);
    assert.equal(imported.afterTrainByPrompt[0].answers, undefined);
    assert.deepEqual(imported.coverage, back.coverage);
  });

  it('a bad histogram is refused naming its field', () => {
    const refused = (change, field) => {
      const bad = structuredClone(run);
      change(bad.afterTrainByPrompt[0].answers);
      assert.throws(() => core.importRun(bad), (error) => error.field === field, field);
    };
    const at = 'run.afterTrainByPrompt[0].answers';
    refused((bins) => (bins[0].count += 1), `${at}[0].count`);
    refused((bins) => ([bins[0], bins[1]] = [bins[1], bins[0]]), `${at}[0].kind`);
    refused((bins) => bins.push({ kind: 'lucky', count: 0 }), `${at}[${run.afterTrainByPrompt[0].answers.length}].kind`);
    refused((bins) => bins.push({ kind: 'other', count: 1 }), at);
    refused((bins) => (bins[0].answer = '999'), `${at}[0].answer`);
  });

  it('the run library keeps them and checks them', () => {
    const entry = libraryEntry(run, { source: 'live', defaults: core.experimentConfig({ profile: 'smoke' }), savedAt: 1 });
    const check = (record) => checkRecord(record, { core, maxBytes: MAX_BYTES });
    assert.deepEqual(check(structuredClone(entry)).run.afterTrainByPrompt, run.afterTrainByPrompt);
    const bad = structuredClone(entry);
    bad.run.afterTrainByPrompt[1].answers[0].count = samples + 1;
    assert.throws(() => check(bad), (error) => error.field === 'run.afterTrainByPrompt[1].answers[0].count');
    const long = structuredClone(entry);
    long.run.afterTrainByPrompt[1].answers = Array.from({ length: 17 }, () => ({ kind: 'other', count: 0 }));
    assert.throws(() => check(long), (error) => error.field === 'run.afterTrainByPrompt[1].answers');
  });
});

describe("the panel's sentences", () => {
  const before = [{ kind: 'correct', answer: '13', count: 9 }, { kind: 'incorrect', answer: '12', count: 20 }, { kind: 'no_answer', count: 30 }, { kind: 'other', count: 5 }];
  const after = [{ kind: 'correct', answer: '13', count: 0 }, { kind: 'incorrect', answer: '12', count: 58 }, { kind: 'incorrect', answer: '11', count: 6 }];
  it('name the answer the policy settled on, with the counts before, in both languages', () => {
    assert.deepEqual(topBin(after), after[1]);
    const said = answerSentences(before, after, '13');
    assert.equal(answerText(t, said), 'After RL 58 of 64 answers were 12 (wrong; the correct answer is 13). Before RL, 9 of 64 were 13 and 20 were 12.');
    setLanguage('ru');
    try {
      assert.equal(answerText(t, said), 'После RL 58 из 64 ответов — 12 (неверно; верный ответ — 13). До RL верный ответ 13 — в 9 из 64, ответ 12 — в 20.');
      assert.equal(answerText(t, answerSentences(null, null, '13')).startsWith('Для этого запуска ответы не записаны'), true);
    } finally {
      setLanguage('en');
    }
    assert.equal(answerText(t, answerSentences(after, before, '13')), 'After RL the most common outcome was “no answer”: 30 of 64 answers (the correct answer is 13). Before RL, 0 of 64 were 13 and none was “no answer”.');
    assert.equal(answerText(t, answerSentences([{ kind: 'correct', answer: '7', count: 1 }, { kind: 'incorrect', answer: '6', count: 63 }], [{ kind: 'correct', answer: '7', count: 64 }], '7')), 'After RL 64 of 64 answers were 7, the correct answer. Before RL, 1 of 64 was 7.');
  });
  it("merge both histograms into rows: correct first, 'other' last, missing answers in 'other' or 0", () => {
    const rows = answerRows(before, after);
    assert.deepEqual(rows.map((r) => [r.kind, r.answer, r.before, r.after]), [
      ['correct', '13', 9, 0],
      ['incorrect', '12', 20, 58],
      ['incorrect', '11', 'other', 6],
      ['no_answer', null, 30, 0],
      ['other', null, 5, 0],
    ]);
  });
});
