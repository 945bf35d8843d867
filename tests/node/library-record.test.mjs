// The run library's record check (web/js/training/library-record.js) against the records the
// issue-29 attack wrote into IndexedDB, and its byte cap (overLimit): each corrupt record is
// refused naming its field, a real run's record passes with its name rebuilt, the cap counts only
// what it keeps and treats a size that is not a number as too large.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { loadCore } from '../../web/core/index.js';
import { RECORD_LIMITS, checkRecord, recordLabel } from '../../web/js/training/library-record.js';
import { MAX_BYTES, libraryEntry, overLimit, packHistory } from '../../web/js/training/run-library.js';

const core = await loadCore();
const run = core.runToyGrpoExperiment({ profile: 'smoke', seed: 9, updates: 5 });
const defaults = core.experimentConfig({ profile: 'smoke' });
const entry = libraryEntry(run, { source: 'live', defaults, savedAt: 1 });
// The stored form, as run-library.js writes it: the history packed into Float64Arrays.
const { history: _history, ...rest } = entry.run;
const good = { ...entry, run: { ...rest, packedHistory: packHistory(run.history) } };
const check = (record) => checkRecord(record, { core, maxBytes: MAX_BYTES });
const refused = (change, field) => {
  const record = structuredClone(good);
  change(record);
  assert.throws(() => check(record), (error) => error.field === field, `refused at ${field}`);
};

describe('run library records', () => {
  it('a real run passes, its name rebuilt from the config (never the stored one)', () => {
    const back = check({ ...structuredClone(good), name: 'anything at all' });
    assert.equal(back.name, 'dapo, updates = 5, seed 9');
    assert.equal(check({ ...structuredClone(good), run: { ...structuredClone(good.run), packedHistory: undefined, history: run.history } }).run.history.length, 5);
  });

  it("refuses the attack's records by field, in time that does not grow with their claims", () => {
    const started = performance.now();
    refused((r) => (r.run.packedHistory.length = 3e7), 'run.packedHistory.length');
    refused((r) => (r.run.packedHistory.length = 1e9), 'run.packedHistory.length');
    refused((r) => (r.run.packedHistory.length = 4), 'run.packedHistory.columns[0]'); // columns of 5 numbers
    refused((r) => (r.name = 'x'.repeat(8 * 1024 * 1024)), 'name');
    refused((r) => (r.bytes = NaN), 'bytes');
    refused((r) => (r.bytes = MAX_BYTES + 1), 'bytes');
    refused((r) => (r.key = 7), 'key');
    refused((r) => (r.source = '<b>x</b>'), 'source');
    refused((r) => (r.savedAt = 'now'), 'savedAt');
    refused((r) => (r.run = 'a string'), 'run');
    refused((r) => (r.run.config = []), 'run.config');
    refused((r) => (r.run.config.groupSize = 10 ** 6), 'run.config.groupSize');
    refused((r) => (r.run.config.evil = 1), 'run.config.evil');
    refused((r) => delete r.run.config.beta, 'run.config');
    refused((r) => (r.run.packedHistory.keys[1] = '__proto__'), 'run.packedHistory.keys');
    refused((r) => (r.run.packedHistory.columns[0] = [1, 2, 3, 4, 5]), 'run.packedHistory.columns[0]');
    refused((r) => (r.run.packedHistory.columns[r.run.packedHistory.keys.indexOf('update')][2] = 9), 'run.packedHistory.update[2]');
    refused((r) => (r.run.beforeTrain = { accuracy: 'high' }), 'run.beforeTrain.accuracy');
    refused((r) => (r.run.afterTrainByPrompt = Array.from({ length: 1001 }, () => ({}))), 'run.afterTrainByPrompt');
    refused((r) => (r.run.afterTrainByPrompt[0].prompt = 'p'.repeat(RECORD_LIMITS.promptChars + 1)), 'run.afterTrainByPrompt[0].prompt');
    refused((r) => (r.run.coverage = { a: { b: { c: { d: { e: 1 } } } } }), 'run.coverage');
    // A picked run's pass@k curve is drawn (values.map, ks[i]): its shape is checked, not walked.
    refused((r) => (r.run.coverage.afterTrain.passAtK = 5), 'run.coverage.afterTrain.passAtK');
    refused((r) => (r.run.coverage.afterTrain.passAtK.ks = new Array(5000).fill(1)), 'run.coverage.afterTrain.passAtK.ks');
    refused((r) => (r.run.coverage.afterTrain.passAtK.ks[1] = 1e9), 'run.coverage.afterTrain.passAtK.ks[1]');
    refused((r) => (r.run.coverage.afterHeldout.passAtK.values = {}), 'run.coverage.afterHeldout.passAtK.values');
    refused((r) => (r.run.coverage.beforeTrain = 'x'), 'run.coverage.beforeTrain');
    refused((r) => (r.run.coverage.beforeTrain.solved = 'all'), 'run.coverage.beforeTrain.solved');
    refused((r) => (r.run.coverage.crossingTrain = -1), 'run.coverage.crossingTrain');
    refused((r) => (r.run.updatesDone = 6), 'run.updatesDone');
    refused((r) => (r.run.checkpoint = {}), 'run');
    assert.ok(performance.now() - started < 2000, 'the big claims cost no walk');
  });

  it('names a record for a message with its stored name or key, cut, bidi marks removed', () => {
    assert.equal(recordLabel({ name: 'a\u202Eevil\u2066' }), 'aevil');
    assert.equal(recordLabel({ name: 'x'.repeat(8 * 1024 * 1024) }), `${'x'.repeat(60)}…`);
    assert.equal(recordLabel({ key: 'k1' }), 'k1');
    assert.equal(recordLabel('junk'), '?');
  });

  it('the byte cap counts only what it keeps; NaN is too large, never "no limit"', () => {
    const MiB = 1024 * 1024;
    // The case: the precomputed run, then two imports of 13.93 MiB under a 20 MiB cap.
    const entries = [
      { key: 'precomputed', savedAt: 1, bytes: 0.05 * MiB },
      { key: 'import1', savedAt: 2, bytes: 13.93 * MiB },
      { key: 'import2', savedAt: 3, bytes: 13.93 * MiB },
    ];
    assert.deepEqual(overLimit(entries, { maxBytes: 20 * MiB }), ['import1'], 'the small older run stays');
    assert.deepEqual(overLimit([...entries, { key: 'nan', savedAt: 4, bytes: NaN }], { maxBytes: 20 * MiB }).sort(), ['import1', 'nan']);
    const many = Array.from({ length: 4 }, (_, i) => ({ key: `k${i}`, savedAt: i, bytes: 13.93 * MiB }));
    assert.deepEqual(overLimit(many).sort(), ['k0', 'k1', 'k2'], '55.8 MiB of imports: one kept');
  });
});
