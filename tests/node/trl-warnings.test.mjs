// Issue 26 item 6: settings that silently train to no effect get a warning naming the setting, in
// the core (configWarnings), a run's result (and its file, recomputed on import), the CLI (stderr)
// and the page's words (EN and RU); TRL's own warnings of GRPOTrainer.__init__ (v1.9.0) too.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadCore } from '../../web/core/index.js';
import { loadLanguage, setLanguage } from '../../web/js/i18n.js';
import { warningText } from '../../web/js/core-errors.js';
import en from '../../web/js/i18n/en-trl.js';
import ru from '../../web/js/i18n/ru-trl.js';

const core = await loadCore();
const BIN = fileURLToPath(new URL('../../bin/grpo-lab.mjs', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'grpo-lab-warn-'));
test.after(() => rmSync(dir, { recursive: true, force: true }));
const small = { profile: 'smoke', seed: 9, updates: 2 };
const codes = (options) => core.configWarnings(options).map((w) => `${w.code}:${w.field}`);

test('the default configs warn of nothing', () => {
  for (const profile of ['smoke', 'full']) assert.deepEqual(core.configWarnings({ profile }), []);
  assert.deepEqual(core.runToyGrpoExperiment(small).warnings, []);
});

test('maxNewTokens too small for any answer to finish: warned, and indeed nothing trains', () => {
  assert.deepEqual(codes({ maxNewTokens: 1 }), ['no_answer_fits:maxNewTokens']);
  assert.deepEqual(codes({ maxNewTokens: 2 }), [], 'a one-digit answer and <eos> fit in 2');
  const run = core.runToyGrpoExperiment({ ...small, maxNewTokens: 1 });
  assert.equal(run.warnings[0].message, 'maxNewTokens: no answer fits in 1 token (the shortest, a digit and <eos>, needs 2): every completion is truncated, none is correct, nothing is learnt');
  for (const row of run.history) assert.equal(row.truncatedFraction, 1);
  assert.equal(run.afterTrain.accuracy, 0);
});

test('every reward weight 0: warned, and every advantage is 0 (the loss has no policy gradient)', () => {
  const zero = { correctnessWeight: 0, formatWeight: 0 };
  assert.deepEqual(codes(zero), ['all_weights_zero:correctnessWeight']);
  assert.deepEqual(codes({ ...zero, overlongWeight: 0.5 }), [], 'the overlong punishment still rewards');
  const run = core.runToyGrpoExperiment({ ...small, ...zero });
  for (const row of run.history) assert.equal(row.gradNorm, 0, `update ${row.update}`);
});

test('delta < 1 (clip family only): warned; on the first pass (r = 1) a positive advantage gets no gradient', () => {
  assert.deepEqual(codes({ delta: 0.9 }), ['delta_below_one:delta']);
  assert.deepEqual(codes({ delta: 1 }), []);
  assert.deepEqual(codes({ delta: 0.9, lossType: 'sapo' }), [], 'delta acts on the clip family only');
  // grpo_trainer.py 3080: coef_1 = clamp(coef_1, max=delta); -min(coef_1 A, coef_2 A) at r = 1 is -delta A, flat in r.
  const r = core.grpoObjective({ rewards: [1, 0], groupSize: 2, logProbs: [[-1], [-1]], delta: 0.9 });
  assert.equal(r.gradLogProbs[0][0], 0, 'A > 0: no gradient');
  assert.notEqual(r.gradLogProbs[1][0], 0, 'A < 0: the clipped branch still moves');
});

test("CISPO's cap at or below the ratios' range (epsHigh <= 1): warned; 5.0, ScaleRL's, is not", () => {
  assert.deepEqual(codes({ lossType: 'cispo' }), ['cispo_cap_low:epsHigh'], "the notebook's 0.28");
  assert.deepEqual(codes({ lossType: 'cispo', epsHigh: 5 }), []);
  assert.deepEqual(codes({ epsHigh: 0.28 }), [], 'dapo: epsHigh is a clip width');
});

test("TRL's warnings (grpo_trainer.py 894, 897, 904) are said too", () => {
  assert.deepEqual(codes({ lossType: 'luspo' }), ['trl_luspo_token:importanceSamplingLevel']);
  assert.deepEqual(codes({ lossType: 'luspo', importanceSamplingLevel: 'sequence' }), []);
  assert.deepEqual(codes({ lossType: 'vespo', importanceSamplingLevel: 'sequence' }), ['trl_vespo_sequence:importanceSamplingLevel']);
  for (const lossType of ['bnpo', 'dr_grpo', 'dapo']) assert.deepEqual(codes({ lossType, importanceSamplingLevel: 'sequence' }), ['trl_sequence_sums:importanceSamplingLevel'], lossType);
  assert.deepEqual(codes({ lossType: 'cispo', epsHigh: 5, importanceSamplingLevel: 'sequence' }), ['trl_sequence_sums:importanceSamplingLevel']);
  assert.deepEqual(codes({ lossType: 'grpo', importanceSamplingLevel: 'sequence' }), [], "GSPO's setup");
});

test("the page's words: one EN and one RU text per code; EN is the core's sentence", async () => {
  const all = core.warningCodes().map((c) => c.code);
  assert.deepEqual(Object.keys(en).filter((k) => k.startsWith('warn.') && k !== 'warn.title').map((k) => k.slice(5)).sort(), [...all].sort());
  assert.deepEqual(Object.keys(ru).filter((k) => k.startsWith('warn.')).sort(), Object.keys(en).filter((k) => k.startsWith('warn.')).sort());
  const every = [{ maxNewTokens: 1, correctnessWeight: 0, formatWeight: 0, delta: 0.5 }, { task: 'scratch', maxNewTokens: 8 }, { lossType: 'cispo', importanceSamplingLevel: 'sequence' }, { lossType: 'luspo' }, { lossType: 'vespo', importanceSamplingLevel: 'sequence' }];
  const seen = new Set();
  for (const options of every) {
    for (const w of core.configWarnings(options)) {
      seen.add(w.code);
      for (const name of core.warningCodes().find((c) => c.code === w.code).params) assert.ok(name in w.params, `${w.code}: ${name}`);
      setLanguage(await loadLanguage('en'));
      assert.equal(warningText(w), w.message);
      setLanguage(await loadLanguage('ru'));
      const text = warningText(w);
      assert.ok(text.startsWith(`${w.field}: `) && text !== w.message && !/[{}]/.test(text.replace('<eos>', '')), text);
    }
  }
  setLanguage(await loadLanguage('en'));
  assert.deepEqual([...seen].sort(), [...all].sort(), 'every code was shown');
});

test("a run file's warnings are recomputed from its config on import, whatever the file says", () => {
  const run = JSON.parse(JSON.stringify(core.runToyGrpoExperiment({ ...small, maxNewTokens: 1 })));
  assert.deepEqual(core.importRun(run).warnings, run.warnings);
  assert.deepEqual(core.importRun({ ...run, warnings: [] }).warnings, run.warnings);
  const { warnings, ...older } = run; // a file written before issue 26
  assert.deepEqual(core.importRun(older).warnings, warnings);
});

test('the CLI says each warning on stderr and trains anyway (exit 0)', async () => {
  const out = join(dir, 'warned.json');
  const { code, stderr } = await new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, 'train', '--set', 'updates=1', '--set', 'maxNewTokens=1', '--set', 'delta=0.5', '--out', out], { stdio: ['ignore', 'pipe', 'pipe'], timeout: 120000 });
    let err = '';
    child.stderr.on('data', (chunk) => (err += chunk));
    child.on('error', reject);
    child.on('close', (exit) => resolve({ code: exit, stderr: err }));
  });
  assert.equal(code, 0, stderr);
  assert.match(stderr, /^warning: maxNewTokens: no answer fits in 1 token/m);
  assert.match(stderr, /^warning: delta: 0\.5 < 1 caps the ratio below 1/m);
  assert.deepEqual(JSON.parse(readFileSync(out, 'utf8')).warnings.map((w) => w.code), ['no_answer_fits', 'delta_below_one']);
});

test('the scratch task with too small a maxNewTokens: warned, and its long answers are indeed cut', () => {
  assert.deepEqual(codes({ task: 'scratch' }), ['scratch_cut:maxNewTokens'], 'the default 4 tokens');
  const [warning] = core.configWarnings({ task: 'scratch', maxNewTokens: 8 });
  const needed = warning.params.needed;
  assert.ok(needed > 8 && needed <= 64, `the teacher's longest demonstration, ${needed} tokens`);
  assert.deepEqual(codes({ task: 'scratch', maxNewTokens: needed - 1 }), ['scratch_cut:maxNewTokens']);
  assert.deepEqual(codes({ task: 'scratch', maxNewTokens: needed }), [], 'the longest demonstration fits');
  assert.deepEqual(codes({ maxNewTokens: 8 }), [], 'the arithmetic task is not warned');
  const cut = core.runToyGrpoExperiment({ task: 'scratch', profile: 'smoke', seed: 9, updates: 1, warmupSteps: 40, maxNewTokens: 8 });
  const room = core.runToyGrpoExperiment({ task: 'scratch', profile: 'smoke', seed: 9, updates: 1, warmupSteps: 40, maxNewTokens: needed });
  assert.ok(cut.history[0].truncatedFraction > room.history[0].truncatedFraction + 0.2, `truncated ${cut.history[0].truncatedFraction} at 8 tokens, ${room.history[0].truncatedFraction} at ${needed}`);
  for (const [lang, words] of [['en', en], ['ru', ru]]) assert.ok(words['warn.scratch_cut'].includes('{needed}'), lang);
});
