// The scratch task (issue 23 item 1): a config field of the table (schema, labels in EN and RU,
// CLI), the default task's bytes unchanged, and a cheap run through the real WASM API that
// trains without NaN, is deterministic and whose completion lengths vary.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadCore } from '../../web/core/index.js';
import EN from '../../web/js/i18n/en-training.js';
import RU from '../../web/js/i18n/ru-training.js';

const core = await loadCore();
const BIN = new URL('../../bin/grpo-lab.mjs', import.meta.url).pathname;
const computed = ({ config, ...rest }) => rest;
// A cheap scratch run (~2 s in Node): the recommended maxNewTokens 32 and teacherAccuracy 0.6,
// fewer prompts, warm-up steps, updates and fresh samples than the smoke profile.
const SCRATCH_SMOKE = { profile: 'smoke', task: 'scratch', maxNewTokens: 32, teacherAccuracy: 0.6, trainPrompts: 32, heldoutPrompts: 16, warmupSteps: 60, updates: 8, finalEvalSamples: 8 };

const lengthsOf = (batch) => batch.groups.flat().map((row) => row.length);
const quantile = (sorted, q) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];

test('task arithmetic (the default) gives the bytes of the run without the field (tests/node/pin.test.mjs pins it)', () => {
  const today = core.runToyGrpoExperiment({ profile: 'smoke', seed: 9, updates: 6 });
  const explicit = core.runToyGrpoExperiment({ profile: 'smoke', seed: 9, updates: 6, task: 'arithmetic' });
  assert.equal(JSON.stringify(computed(explicit)), JSON.stringify(computed(today)));
  assert.equal(today.config.task, 'arithmetic');
  assert.equal(today.vocab.length, 16);
});

test('task: an enum of the table, in the task group, labelled in EN and RU, refused naming the field', () => {
  const spec = core.configSchema().fields.find((f) => f.name === 'task');
  assert.deepEqual([spec.kind, spec.options, spec.defaults.smoke, spec.defaults.full, spec.group, spec.trl ?? null], ['enum', ['arithmetic', 'scratch', 'rewrite'], 'arithmetic', 'arithmetic', 'task', null]);
  assert.ok(EN[spec.description] && RU[spec.description], spec.description);
  assert.throws(() => core.experimentConfig({ task: 'algebra' }), (e) => e.field === 'task' && /must be one of 'arithmetic', 'scratch', 'rewrite', got 'algebra'/.test(e.message));
  // The splits are checked against the task's problems: 12195 for scratch, 155 for arithmetic.
  assert.throws(() => core.experimentConfig({ trainPrompts: 155, heldoutPrompts: 10 }), (e) => e.field === 'heldoutPrompts');
  assert.ok(core.experimentConfig({ task: 'scratch', trainPrompts: 155, heldoutPrompts: 154 }));
  assert.equal(core.experimentConfig({ maxNewTokens: 64 }).maxNewTokens, 64);
});

test('a scratch smoke run trains without NaN, is deterministic, and its completion lengths vary', () => {
  const started = performance.now();
  const run = core.runToyGrpoExperiment({ ...SCRATCH_SMOKE, seed: 9 });
  const seconds = (performance.now() - started) / 1000;
  const again = core.runToyGrpoExperiment({ ...SCRATCH_SMOKE, seed: 9 });
  assert.equal(JSON.stringify(again), JSON.stringify(run), 'same seed, same bytes');
  assert.notEqual(JSON.stringify(core.runToyGrpoExperiment({ ...SCRATCH_SMOKE, seed: 10 }).history), JSON.stringify(run.history));
  assert.equal(run.vocab.length, 18);
  assert.deepEqual(run.vocab.slice(16), [';', '>']);
  for (const row of run.history) {
    for (const [key, value] of Object.entries(row)) if (typeof value === 'number') assert.ok(Number.isFinite(value), `update ${row.update} ${key} ${value}`);
    assert.ok(row.maxLength - row.minLength >= 8, `update ${row.update}: lengths [${row.minLength}, ${row.maxLength}]`);
  }
  for (const key of ['beforeTrain', 'afterTrain']) assert.ok(Number.isFinite(run[key].accuracy) && run[key].meanLength > 2, key);
  // Completion lengths at the start (a run of one update at a negligible learning rate: the
  // warm-up policy) and at the end, sampled with collectRollouts on the same prompts.
  const start = core.runToyGrpoExperiment({ ...SCRATCH_SMOKE, seed: 9, updates: 1, learningRate: 1e-12 });
  const sample = (checkpoint) => lengthsOf(core.collectRollouts(checkpoint, run.prompts, { ...SCRATCH_SMOKE, promptBatch: 32 }, { seed: 1 })).sort((a, b) => a - b);
  for (const [name, lengths] of [['start', sample(start.checkpoint)], ['end', sample(run.checkpoint)]]) {
    const [p10, p50, p90] = [0.1, 0.5, 0.9].map((q) => quantile(lengths, q));
    const mean = lengths.reduce((a, b) => a + b, 0) / lengths.length;
    console.log(`scratch lengths ${name}: n ${lengths.length} min ${lengths[0]} p10 ${p10} p50 ${p50} p90 ${p90} max ${lengths.at(-1)} mean ${mean.toFixed(2)}`);
    if (name === 'start') assert.ok(p90 - p10 >= 8, `warm-up spread p10 ${p10} p90 ${p90}`);
  }
  console.log(`scratch smoke run: ${seconds.toFixed(2)} s, accuracy ${run.beforeTrain.accuracy.toFixed(3)} -> ${run.afterTrain.accuracy.toFixed(3)}, mean length ${run.beforeTrain.meanLength.toFixed(2)} -> ${run.afterTrain.meanLength.toFixed(2)}`);
  // A scratch run file reads back (its vocabulary, prompts and checkpoint are the task's).
  const imported = core.importRun(JSON.parse(JSON.stringify(run)));
  assert.equal(imported.config.task, 'scratch');
  assert.deepEqual(imported.vocab, run.vocab);
});

test('the CLI takes --set task=scratch and refuses an unknown task naming the options', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'scratch-'));
  const cli = (args) => new Promise((resolve) => {
    const child = spawn(process.execPath, [BIN, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (d) => { stderr += d; });
    child.on('close', (code) => resolve({ code, stderr }));
  });
  try {
    const bad = await cli(['train', '--out', join(dir, 'x.json'), '--set', 'task=algebra']);
    assert.notEqual(bad.code, 0);
    assert.match(bad.stderr, /--set task=algebra: task: must be one of 'arithmetic', 'scratch', 'rewrite'/);
    const out = join(dir, 'y.json');
    const good = await cli(['train', '--out', out, '--set', 'task=scratch', '--set', 'maxNewTokens=32', '--set', 'updates=2', '--set', 'warmupSteps=10', '--set', 'finalEvalSamples=4', '--set', 'trainPrompts=16', '--set', 'heldoutPrompts=8']);
    assert.equal(good.code, 0, good.stderr);
    const written = JSON.parse(readFileSync(out, 'utf8'));
    assert.equal((written.config ?? written.runs?.[0]?.config).task, 'scratch');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('the scratch preset fits the teacher\'s longest answer, and section 9 says TRL has no task (EN and RU)', async () => {
  const { PRESETS } = await import('../../web/js/training/presets.js');
  const { configOptions } = await import('../../web/js/training/run-config.js');
  const { trlConfigPython } = await import('../../web/js/training/run-format.js');
  const preset = PRESETS.find((p) => p.id === 'scratch');
  const options = configOptions({ profile: 'smoke', ...preset.patch });
  assert.equal(options.task, 'scratch');
  assert.deepEqual(core.configWarnings(options), [], 'no scratch_cut: maxNewTokens fits the longest demonstration');
  for (const dict of [EN, RU]) {
    assert.ok(dict['train.preset.scratch'] && dict['train.presetNote.scratch'].includes('maxNewTokens 32'));
    const taskNote = ({ task }) => dict['train.real.taskNote'].replaceAll('{task}', task);
    const python = trlConfigPython(core.experimentConfig(options), { task: taskNote });
    assert.ok(python.includes(`# ${dict['train.real.taskNote'].replaceAll('{task}', 'scratch')}`));
    assert.ok(!trlConfigPython(core.experimentConfig({}), { task: taskNote }).includes('task=arithmetic:'), 'no note for the default task');
  }
});
