// A stale sampler (issue 23 item 2): samplerLag at 0 leaves today's run bytes; k > 0 reaches the
// sampler-to-learner ratios, the IS correction, the CLI and section 9's translation (which says,
// in EN and RU, that TRL has no such option).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadCore } from '../../web/core/index.js';
import { trlConfigPython } from '../../web/js/training/run-format.js';
import EN from '../../web/js/i18n/en-training.js';
import RU from '../../web/js/i18n/ru-training.js';

const core = await loadCore();
const BIN = new URL('../../bin/grpo-lab.mjs', import.meta.url).pathname;
// The run without its config echo (which lists every field, the new ones too).
const computed = ({ config, ...rest }) => rest;

test('samplerLag 0 and stepsPerGeneration 1 give the bytes of the run without the field (tests/node/pin.test.mjs pins it)', () => {
  const today = core.runToyGrpoExperiment({ profile: 'smoke', seed: 9 });
  const explicit = core.runToyGrpoExperiment({ profile: 'smoke', seed: 9, samplerLag: 0, stepsPerGeneration: 1 });
  assert.equal(JSON.stringify(computed(explicit)), JSON.stringify(computed(today)));
  assert.equal(today.config.samplerLag, 0);
  assert.ok(!('samplingRatioMin' in today.history[0]), 'no separate sampler, no sampling/*');
});

test('samplerLag: an integer in [0, 8], refused naming the field', () => {
  for (const bad of [-1, 9, 1.5]) {
    assert.throws(() => core.experimentConfig({ samplerLag: bad }), (e) => e.field === 'samplerLag' && /^samplerLag: must be an integer( in \[0, 8\])?, got /.test(e.message), `samplerLag ${bad}`);
  }
  const spec = core.configSchema().fields.find((f) => f.name === 'samplerLag');
  assert.deepEqual([spec.kind, spec.min, spec.max, spec.defaults.smoke, spec.defaults.full, spec.trl ?? null], ['int', 0, 8, 0, 0, null]);
});

test('a lagging sampler is a sampler: VESPO with the correction refuses a sequence mode, as with samplerMismatch', () => {
  const vespo = { lossType: 'vespo', vllmImportanceSamplingMode: 'sequence_mask' };
  assert.ok(core.experimentConfig(vespo), 'no sampler, no rule');
  assert.throws(() => core.experimentConfig({ ...vespo, samplerLag: 1 }), (e) => e.code === 'one_of_with' && e.field === 'vllmImportanceSamplingMode');
  assert.ok(core.experimentConfig({ ...vespo, samplerLag: 1, vllmImportanceSamplingMode: 'token_mask' }));
});

test('a lagging sampler: the learner-to-sampler log-prob gap grows with the lag, and the correction acts on it', () => {
  const gap = {};
  for (const lag of [1, 4]) {
    const { history } = core.runToyGrpoExperiment({ profile: 'smoke', seed: 9, updates: 12, samplerLag: lag });
    // Update 1 samples from the warm-up policy, which the learner still is: only float rounding
    // between sampling and teacher forcing separates them.
    assert.ok(history[0].samplingLogpDifferenceMax < 1e-5, `lag ${lag}: update 1 ${history[0].samplingLogpDifferenceMax}`);
    for (const row of history.slice(1)) assert.ok(row.samplingLogpDifferenceMean > 1e-3, `lag ${lag}, update ${row.update}`);
    gap[lag] = history.slice(4).reduce((s, r) => s + r.samplingLogpDifferenceMean, 0) / (history.length - 4);
  }
  assert.ok(gap[4] > 2 * gap[1], `mean |Δlogp| lag 1 ${gap[1]}, lag 4 ${gap[4]}`);
  const run = (correction) => core.runToyGrpoExperiment({ profile: 'smoke', seed: 9, updates: 3, samplerLag: 2, vllmImportanceSamplingCorrection: correction, vllmImportanceSamplingMode: 'token_truncate' }).history;
  const on = run(true), off = run(false);
  // Update 1: the sampler is the learner, every weight is 1 to float rounding.
  assert.ok(Math.abs(on[0].loss - off[0].loss) < 1e-5 * Math.abs(off[0].loss) + 1e-9, `${on[0].loss} vs ${off[0].loss}`);
  assert.notEqual(on[2].loss, off[2].loss, 'update 3 samples from the warm-up policy: the correction changes the loss');
});

test('section 9: a lagging sampler is vLLM\'s, and the lag has no GRPOConfig name (EN and RU)', () => {
  const config = core.experimentConfig({ samplerLag: 2 });
  for (const dict of [EN, RU]) {
    const python = trlConfigPython(config, { lag: ({ lag }) => dict['train.real.lagNote'].replaceAll('{lag}', lag), untranslated: () => dict['train.real.untranslated'] });
    assert.match(python, /^ {4}use_vllm=True, +# samplerLag = 2$/m);
    assert.match(python, /^# samplerLag=2: /m);
    assert.match(python, /samplerLag=2/);
    assert.ok(python.includes(dict['train.real.lagNote'].replaceAll('{lag}', 2)));
    assert.match(dict['train.field.samplerLag'], /samplerLag.*0.*8/);
  }
  const lagNote = ({ lag }) => EN['train.real.lagNote'].replaceAll('{lag}', lag);
  const both = trlConfigPython(core.experimentConfig({ samplerLag: 1, samplerMismatch: 0.1 }), { lag: lagNote });
  assert.match(both, /use_vllm=True, +# samplerMismatch = 0.1, samplerLag = 1$/m);
  const none = trlConfigPython(core.experimentConfig({}), { lag: lagNote });
  assert.ok(!none.includes('use_vllm') && !none.includes(EN['train.real.lagNote'].slice(0, 20)));
});

test('the CLI takes --set samplerLag and refuses 9 naming the range', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'lag-'));
  const cli = (args) => new Promise((resolve) => {
    const child = spawn(process.execPath, [BIN, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (d) => { stderr += d; });
    child.on('close', (code) => resolve({ code, stderr }));
  });
  try {
    const bad = await cli(['train', '--out', join(dir, 'x.json'), '--set', 'samplerLag=9']);
    assert.notEqual(bad.code, 0);
    assert.match(bad.stderr, /--set samplerLag=9: samplerLag: must be an integer in \[0, 8\], got 9/);
    const good = await cli(['train', '--out', join(dir, 'y.json'), '--set', 'updates=2', '--set', 'samplerLag=1']);
    assert.equal(good.code, 0, good.stderr);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('stepsPerGeneration: divides the generation, reaches TRL\'s steps_per_generation, and later steps see ratios != 1', () => {
  assert.throws(() => core.experimentConfig({ stepsPerGeneration: 3 }), (e) => e.code === 'must_divide' && e.field === 'stepsPerGeneration' && /promptBatch x groupSize \(64\), got 3/.test(e.message));
  assert.throws(() => core.experimentConfig({ stepsPerGeneration: 17 }), (e) => e.field === 'stepsPerGeneration');
  const python = trlConfigPython(core.experimentConfig({ stepsPerGeneration: 4 }));
  assert.match(python, /^ {4}steps_per_generation=4, +# stepsPerGeneration/m);
  // One epoch per update: with S = 1 every step is the generator's own (ratio exactly 1); with
  // S = 4 three steps of four follow a step on the same generation.
  const one = core.runToyGrpoExperiment({ profile: 'smoke', seed: 9, updates: 4, updateEpochs: 1 }).history;
  const four = core.runToyGrpoExperiment({ profile: 'smoke', seed: 9, updates: 4, updateEpochs: 1, stepsPerGeneration: 4 }).history;
  for (const row of one) assert.deepEqual([row.ratioMin, row.ratioMax], [1, 1]);
  for (const row of four) assert.ok(row.ratioMin < 1 && row.ratioMax > 1, `update ${row.update}: [${row.ratioMin}, ${row.ratioMax}]`);
});
