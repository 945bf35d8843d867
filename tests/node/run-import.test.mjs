// importRun: a saved run (runToyGrpoExperiment's result, format "grpo-lab-run" version 1) read
// back through the public JS API, normalized, and every bad field named.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadCore } from '../../web/core/index.js';

const core = await loadCore();
const tiny = {
  profile: 'smoke', seed: 3, trainPrompts: 4, heldoutPrompts: 2, embed: 4, hidden: 8, warmupSteps: 5,
  groupSize: 2, promptBatch: 2, updates: 6, updateEpochs: 1, evalSamples: 1, finalEvalSamples: 4,
};
const run = core.runToyGrpoExperiment(tiny);

// What a page's "save run" does: JSON text (NaN/Infinity become null there), then JSON.parse.
const throughFile = (value) => JSON.parse(JSON.stringify(value));
const edited = (edit) => {
  const copy = structuredClone(run);
  edit(copy);
  return copy;
};

test('a run carries its format and version, and imports back to exactly itself', () => {
  assert.equal(run.format, 'grpo-lab-run');
  assert.equal(run.version, 1);
  assert.deepEqual(core.importRun(run), run);
  assert.deepEqual(core.importRun(throughFile(run)), run);
  const full = core.runToyGrpoExperiment({ profile: 'smoke', seed: 9, updates: 3 });
  assert.deepEqual(core.importRun(throughFile(full)), full);
});

test('unknown top-level fields are dropped, not passed on', () => {
  const imported = core.importRun({ ...run, note: '<img src=x onerror=alert(1)>', exportedAt: 1 });
  assert.equal('note' in imported, false);
  assert.deepEqual(imported, run);
});

test('the checkpoint is optional; source and status labels are kept when plain', () => {
  const { checkpoint, ...charts } = run;
  assert.ok(checkpoint);
  assert.deepEqual(core.importRun(charts), charts);
  assert.deepEqual(core.importRun({ ...run, checkpoint: null }), charts);
  const labelled = { ...run, source: 'live', status: 'stopped' };
  assert.deepEqual(core.importRun(labelled), labelled);
  assert.throws(() => core.importRun({ ...run, source: '<b>x</b>' }),
    /^RangeError: run\.source: must be a short label of a-z, 0-9, '-', '_', got '<b>x<\/b>'$/);
  assert.throws(() => core.importRun({ ...run, status: 's'.repeat(33) }),
    /run\.status: must be a string of at most 32 bytes, got 33/);
});

test('a run from another format or version gets one clear sentence', () => {
  assert.throws(() => core.importRun({ ...run, version: 2 }),
    { name: 'RangeError', message: /^run\.version: this GRPO Lab reads run format version 1, got 2 \(/ });
  assert.throws(() => core.importRun({ ...run, version: '1' }), /run\.version: .*got "1"/);
  assert.throws(() => core.importRun({ ...run, format: 'wandb-run' }),
    /^RangeError: run\.format: must be 'grpo-lab-run' \(a run exported by GRPO Lab\), got 'wandb-run'/);
  const { format, ...noFormat } = run;
  assert.ok(format);
  assert.throws(() => core.importRun(noFormat), /run\.format: .*got nothing/);
  assert.throws(() => core.importRun([run]), { name: 'TypeError', message: 'run: must be an object, got an array' });
  assert.throws(() => core.importRun(), { name: 'TypeError', message: 'run: is required' });
});

test('every field is checked and named', () => {
  const cases = [
    [(r) => { r.history[3].ratioMean = 'x'; }, /^TypeError: run\.history\[3\]\.ratioMean: must be a number, got "x"$/],
    [(r) => { delete r.history[2].loss; }, /run\.history\[2\]\.loss: is required/],
    [(r) => { r.history[1].clipFractionLow = 1.5; }, /run\.history\[1\]\.clipFractionLow: must be a number in \[0, 1\], got 1\.5/],
    [(r) => { r.history[1].evalAccuracy = NaN; }, /run\.history\[1\]\.evalAccuracy: must be a number in \[0, 1\], got NaN/],
    [(r) => { r.history[0].update = 2; }, /run\.history\[0\]\.update: must be 1/],
    [(r) => { r.history.push(structuredClone(r.history[0])); }, /run\.history: must hold at most updates = 6 rows/],
    [(r) => { r.updatesDone = 5; }, /run\.updatesDone: must equal the number of history rows \(6\), got 5/],
    [(r) => { r.afterTrain.accuracy = -0.1; }, /run\.afterTrain\.accuracy: must be a number in \[0, 1\], got -0\.1/],
    [(r) => { r.beforeTrain.entropy = Infinity; }, /run\.beforeTrain\.entropy: must be a finite number >= 0, got Infinity/],
    [(r) => { r.config.groupSize = 1e6; }, /^RangeError: run\.config\.groupSize: must be an integer in \[2, 64\], got 1000000$/],
    [(r) => { r.config.updates = 1e9; }, /run\.config\.updates: must be an integer in \[1, 50000\]/],
    [(r) => { r.config.maxNewTokens = 0; }, /run\.config\.maxNewTokens: must be an integer in \[1, 64\], got 0/],
    [(r) => { r.config.hidden = 1e6; }, /run\.config\.hidden: must be an integer in \[1, 512\], got 1000000/],
    [(r) => { r.config.bogus = 1; }, /run\.config\.bogus: unknown option/],
    [(r) => { r.vocab[0] = 'zero'; }, /run\.vocab: must be the arithmetic task's 16 tokens/],
    [(r) => { r.prompts[0].text = '<img src=x onerror=alert(1)>'; }, /run\.prompts\[0\]\.text: must be a problem 'a\+b=' or 'a-b='/],
    [(r) => { r.prompts[0].answer = '99'; }, /run\.prompts\[0\]\.answer: must be '/],
    [(r) => { r.prompts[1].id = 0; }, /run\.prompts\[1\]\.id: must be 1/],
    [(r) => { r.prompts[0].split = 'test'; }, /run\.prompts\[0\]\.split: must be one of 'train', 'heldout', got 'test'/],
    [(r) => { r.prompts.pop(); }, /run\.prompts: must hold trainPrompts \+ heldoutPrompts = 6 prompts/],
    [(r) => { r.afterTrainByPrompt[0].prompt = 'x'; }, /run\.afterTrainByPrompt\[0\]\.prompt: must be '/],
    [(r) => { r.beforeHeldoutByPrompt = []; }, /run\.beforeHeldoutByPrompt: must hold one row per heldout prompt \(2\), got 0/],
    [(r) => { r.checkpoint.tensors['head.bias'].data[0] = NaN; }, /^RangeError: run\.checkpoint\.tensors\.head\.bias\.data\[0\]: must be a finite number in float range, got NaN$/],
    [(r) => { r.checkpoint.tensors['gru.weight_hh_l0'].shape = [3, 3]; }, /run\.checkpoint\.tensors\.gru\.weight_hh_l0\.shape: must be \[24, 8\], got \[3, 3\]/],
    [(r) => { r.checkpoint.config.hidden = 16; }, /run\.checkpoint\.tensors\.gru\.weight_ih_l0\.shape: must be \[48, 4\]/],
    [(r) => { r.checkpoint.config.temperature = 2; }, /run\.checkpoint\.config\.temperature: must be the run's temperature 1, got 2/],
  ];
  for (const [edit, pattern] of cases) {
    assert.throws(() => core.importRun(edited(edit)), pattern, String(edit));
  }
  assert.deepEqual(core.importRun(run), run, 'the next valid call still works');
});

test('sizes are bounded: history, prompts, strings', () => {
  const rows = edited((r) => { r.history = new Array(100001).fill({}); });
  assert.throws(() => core.importRun(rows), /^RangeError: run\.history: must hold at most 100000 entries, got 100001$/);
  const prompts = edited((r) => { r.prompts = new Array(1001).fill({}); });
  assert.throws(() => core.importRun(prompts), /run\.prompts: must hold at most 1000 entries, got 1001/);
  const text = edited((r) => { r.prompts[0].text = 'x'.repeat(10000); });
  assert.throws(() => core.importRun(text), /run\.prompts\[0\]\.text: must be a string of at most 256 bytes, got 10000/);
  const format = edited((r) => { r.format = 'f'.repeat(5e6); });
  const message = (() => { try { core.importRun(format); } catch (error) { return error.message; } })();
  assert.match(message, /^run\.format: must be 'grpo-lab-run' .*\(5000000 bytes\)'$/);
  assert.ok(message.length < 200);
  assert.deepEqual(core.importRun(run), run);
});

test('a saved run drives the checkpoint methods like a fresh one', () => {
  const imported = core.importRun(throughFile(run));
  const sequences = [[0, 3, 12, 5]];
  assert.deepEqual(core.teacherForcedLogProbs(imported.checkpoint, sequences),
    core.teacherForcedLogProbs(run.checkpoint, sequences));
});

test('import errors carry a code, the field path and params (the page renders them)', () => {
  const caught = (value) => {
    try {
      core.importRun(value);
    } catch (error) {
      return error;
    }
    return assert.fail('no error');
  };
  const version = caught({ ...run, version: 2 });
  assert.equal(version.code, 'run_version');
  assert.equal(version.field, 'run.version');
  assert.deepEqual(version.params, { expected: 1, got: '2' });
  const kind = caught(edited((r) => { r.history[3].ratioMean = 'x'; }));
  assert.equal(kind.code, 'not_a_number');
  assert.equal(kind.field, 'run.history[3].ratioMean');
  assert.deepEqual(kind.params, { got: 'x' });
  const range = caught(edited((r) => { r.history[1].clipFractionLow = 1.5; }));
  assert.equal(range.code, 'range');
  assert.equal(range.field, 'run.history[1].clipFractionLow');
  const config = caught(edited((r) => { r.config.bogus = 1; }));
  assert.equal(config.field, 'run.config.bogus');
  const split = caught(edited((r) => { r.prompts[0].split = 'test'; }));
  assert.equal(split.code, 'one_of');
  assert.equal(split.params.nearest, 'train');
  assert.equal(caught({ ...run, extra: 1, format: 'x' }).code, 'run_format');
});
