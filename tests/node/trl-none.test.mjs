// Issue 26 item 2, "None is not a number": TRL's None of a `float | None` GRPOConfig field, set
// through every way in (grpoObjective, experimentConfig, the CLI, the URL, the form's reading) and
// written back by section 9. TRL's lines are of tag v1.9.0.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadCore } from '../../web/core/index.js';
import { cli } from './run-cli.mjs';
import { NONE, formatHash, parseHash } from '../../web/js/state.js';
import { CONFIG_FIELDS, CONFIG_SCHEMA, configOptions } from '../../web/js/training/run-config.js';
import { stateValue } from '../../web/js/training/config-form.js';
import { trlArgsToOptions, trlConfigPython } from '../../web/js/training/run-format.js';
import { comparisonLink, parseComparisonLink, runName } from '../../web/js/training/compare.js';

const core = await loadCore();
const dir = mkdtempSync(join(tmpdir(), 'grpo-lab-none-'));
test.after(() => rmSync(dir, { recursive: true, force: true }));

// TRL's advantages of rewards [1, 0]: (r - mean) / (std + 1e-4), std with n - 1 = sqrt(1/2).
const A = 0.5 / (Math.SQRT1_2 + 1e-4);
const batch = { rewards: [1, 0], groupSize: 2, logProbs: [[-1, -1, -1], [-1]], lossType: 'dapo' };
const sampled = { ...batch, samplingLogProbs: [[-2.5, -1, -1], [-0.2]], vllmImportanceSamplingMode: 'token_mask', vllmImportanceSamplingClipMin: 0.5 };

test('vllmImportanceSamplingClipMax null is no upper bound (TRL: clip_max None -> +inf, grpo_trainer.py 2607)', () => {
  // d = old - sampling = [1.5, 0, 0] and [-0.8]: weights e^1.5 = 4.48, 1, 1 and e^-0.8 = 0.449.
  // token_mask zeroes a weight outside [min, max]: 0.449 < 0.5 goes; e^1.5 stays under +inf.
  // dapo: -(A (e^1.5 + 1 + 1) + 0) / 4 tokens.
  const none = core.grpoObjective({ ...sampled, vllmImportanceSamplingClipMax: null });
  assert.ok(Math.abs(none.loss - -1.1456) < 1e-4, `loss ${none.loss}`);
  assert.ok(Math.abs(none.loss - (-A * (Math.exp(1.5) + 2)) / 4) < 1e-12);
  assert.equal(none.config.vllmImportanceSamplingClipMax, null);
  // Absent is TRL's default 3.0 (grpo_config.py 937): e^1.5 > 3 is masked too.
  const absent = core.grpoObjective(sampled);
  assert.ok(Math.abs(absent.loss - (-A * 2) / 4) < 1e-12, `loss ${absent.loss}`);
  assert.equal(absent.config.vllmImportanceSamplingClipMax, 3);
  // token_truncate with max None clamps from below only: [4.48, 1, 1] and [0.5].
  const truncated = core.grpoObjective({ ...sampled, vllmImportanceSamplingMode: 'token_truncate', vllmImportanceSamplingClipMax: null });
  assert.ok(Math.abs(truncated.loss - (-A * (Math.exp(1.5) + 2) + A * 0.5) / 4) < 1e-12, `loss ${truncated.loss}`);
});

test('experimentConfig: null is None for every None-able field; absent is the default; a run trains with it', () => {
  const nullable = core.configSchema().fields.filter((f) => f.nullable).map((f) => f.name);
  assert.deepEqual(nullable, ['epsHigh', 'delta', 'offPolicyMaskThreshold', 'vllmImportanceSamplingClipMin', 'vllmImportanceSamplingClipMax']);
  assert.equal(core.experimentConfig({}).vllmImportanceSamplingClipMax, 3);
  for (const name of nullable) assert.equal(core.experimentConfig({ [name]: null })[name], null, name);
  // The run's config keeps it (and so do its run file and section 9).
  const options = { profile: 'smoke', seed: 9, updates: 2, samplerMismatch: 0.5, vllmImportanceSamplingMode: 'token_mask' };
  const bounded = core.runToyGrpoExperiment(options);
  const unbounded = core.runToyGrpoExperiment({ ...options, vllmImportanceSamplingClipMax: null });
  assert.equal(unbounded.config.vllmImportanceSamplingClipMax, null);
  assert.equal(core.importRun(JSON.parse(JSON.stringify(unbounded))).config.vllmImportanceSamplingClipMax, null);
  // With s = 0.5 some ratios pass 3: masked (TRL logs the ratios after the mask) or kept.
  assert.ok(bounded.history[0].samplingRatioMax <= 3, `max ratio ${bounded.history[0].samplingRatioMax}`);
  assert.ok(unbounded.history[0].samplingRatioMax > 3, `max ratio ${unbounded.history[0].samplingRatioMax}`);
  assert.notEqual(unbounded.history[0].loss, bounded.history[0].loss);
});

test('epsHigh null is TRL\'s None: epsilon_high = epsilon (grpo_trainer.py: epsilon_high if not None else epsilon)', () => {
  // The notebook's default stays 0.28; None trains exactly as epsHigh = epsLow.
  assert.equal(core.experimentConfig({}).epsHigh, 0.28);
  const options = { profile: 'smoke', seed: 9, updates: 2, updateEpochs: 2, epsLow: 0.1 };
  const none = core.runToyGrpoExperiment({ ...options, epsHigh: null });
  const same = core.runToyGrpoExperiment({ ...options, epsHigh: 0.1 });
  const other = core.runToyGrpoExperiment(options);
  assert.equal(none.config.epsHigh, null);
  assert.equal(JSON.stringify(none.history), JSON.stringify(same.history));
  assert.notEqual(JSON.stringify(none.history), JSON.stringify(other.history));
  // The bare objective: null and absent are epsilon; its config reports the value used.
  const ratios = { ...batch, oldLogProbs: [[-1.5, -1, -1], [-1]] };
  const absent = core.grpoObjective({ ...ratios, epsLow: 0.1 });
  const nulled = core.grpoObjective({ ...ratios, epsLow: 0.1, epsHigh: null });
  assert.equal(nulled.loss, absent.loss);
  assert.equal(nulled.config.epsHigh, 0.1);
  assert.throws(() => core.experimentConfig({ epsHigh: 11 }), { name: 'RangeError', message: /^epsHigh: must be in \[0, 10\]/ });
});

test("section 9 writes None, and reads it back as None", () => {
  const config = core.experimentConfig({ vllmImportanceSamplingClipMax: null, delta: 2 });
  const python = trlConfigPython(config);
  assert.match(python, /^ {4}vllm_importance_sampling_clip_max=None, /m);
  assert.match(python, /^ {4}vllm_importance_sampling_clip_min=None, /m);
  assert.match(python, /^ {4}delta=2\.0, /m);
  const back = trlArgsToOptions(python).options;
  assert.equal(back.vllmImportanceSamplingClipMax, null);
  assert.equal(core.experimentConfig(back).vllmImportanceSamplingClipMax, null);
});

test('the URL: None is a value of a None-able field (#rl.X=None), refused for any other', () => {
  const { values, notes } = parseHash('#rl.vllmImportanceSamplingClipMax=None&rl.delta=none&rl.beta=None', CONFIG_SCHEMA);
  assert.equal(values['rl.vllmImportanceSamplingClipMax'], NONE);
  assert.equal(values['rl.delta'], NONE);
  assert.deepEqual(notes.map((n) => [n.key, n.error[0]]), [['rl.beta', 'url.notNumber']]);
  const options = configOptions(values);
  assert.equal(options.vllmImportanceSamplingClipMax, null);
  const config = core.experimentConfig(options);
  assert.equal(config.vllmImportanceSamplingClipMax, null);
  assert.equal(config.delta, null);
  // A link written from that state says None again.
  assert.match(formatHash({ 'rl.vllmImportanceSamplingClipMax': NONE }, CONFIG_SCHEMA), /rl\.vllmImportanceSamplingClipMax=None/);
});

test("the form's reading: empty or None in a None-able field is None; the default stays null", () => {
  const clipMax = CONFIG_FIELDS.find((f) => f.core === 'vllmImportanceSamplingClipMax');
  const delta = CONFIG_FIELDS.find((f) => f.core === 'delta');
  const beta = CONFIG_FIELDS.find((f) => f.core === 'beta');
  assert.equal(stateValue(clipMax, null, 3), NONE, 'an emptied ClipMax (default 3) is None');
  assert.equal(stateValue(clipMax, 'None', 3), NONE);
  assert.equal(stateValue(clipMax, 3, 3), null, 'the default');
  assert.equal(stateValue(clipMax, 4, 3), 4);
  assert.equal(stateValue(delta, null, null), null, "delta's default is None");
  assert.equal(stateValue(delta, 'none', null), null);
  assert.equal(stateValue(delta, 2, null), 2);
  assert.equal(stateValue(beta, null, 0), null, 'an emptied non-None-able field is its default');
  assert.equal(stateValue(beta, 'None', 0), 'None', 'left as text: the core names the field');
});

test("a run's name and a comparison link say None, and the link opens to None", () => {
  const config = core.experimentConfig({ seed: 3, vllmImportanceSamplingClipMax: null });
  const defaultsOf = (c) => core.experimentConfig({ profile: c.profile });
  assert.equal(runName(config, defaultsOf(config)), 'dapo, vllmImportanceSamplingClipMax = None, seed 3');
  const link = comparisonLink([{ config }], defaultsOf);
  assert.equal(link, 'vllmImportanceSamplingClipMax:None,seed:3');
  assert.deepEqual(core.experimentConfig(parseComparisonLink(link)[0].options), config);
  // None of a field that is not None-able stays text, and the core names the field.
  assert.throws(() => core.experimentConfig(parseComparisonLink('beta:None,seed:3')[0].options), { field: 'beta' });
});

test('the CLI: --set X=none is None for a None-able field, "must be a number" for any other', async () => {
  const out = join(dir, 'none.json');
  const ok = await cli(['train', '--set', 'updates=2', '--set', 'delta=2', '--set', 'delta=none', '--set', 'vllmImportanceSamplingClipMax=None', '--out', out]);
  assert.equal(ok.code, 0, ok.stderr);
  const { config } = JSON.parse(readFileSync(out, 'utf8'));
  assert.equal(config.delta, null);
  assert.equal(config.vllmImportanceSamplingClipMax, null);
  const bad = await cli(['train', '--set', 'beta=none', '--out', join(dir, 'bad.json')]);
  assert.equal(bad.code, 2);
  assert.match(bad.stderr, /--set beta=none: beta: must be a number, got "none"/);
});
