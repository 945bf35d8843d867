// Section 9's TRL translation writes exactly GRPOConfig's field names (the list in
// tests/fixtures/trl-grpo-config-fields.json, with the commit it came from), and the notebook's
// GRPOConfig call round-trips through the toy's config and back.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { loadCore } from '../../web/core/index.js';
import { CONFIG_TABLE } from '../../web/js/training/run-config.js';
import { NOTEBOOK_TRL_CELL, trlArgsToOptions, trlConfigPython } from '../../web/js/training/run-format.js';

const core = await loadCore();
const LIST = JSON.parse(readFileSync(new URL('../fixtures/trl-grpo-config-fields.json', import.meta.url), 'utf8'));
const KNOWN = new Set([...LIST.grpoConfigFields, ...LIST.trainingArgumentsFields.names]);

/** The argument names of the GRPOConfig(...) call in `python`. */
const argumentNames = (python) => [...python.matchAll(/^ {4}([a-z_][a-z0-9_]*)=/gm)].map((m) => m[1]);

/** A value of field f away from its default (and valid with the others below). */
function awayFromDefault(f) {
  const d = f.defaults.smoke;
  if (f.kind === 'bool') return !d;
  if (f.kind === 'enum') return f.options.find((o) => o !== d);
  if (d === null) return f.min > 0 || f.minOpen ? f.max / 2 : 0.5;
  return d === f.max ? f.min + (f.max - f.min) / 2 : Math.min(f.max, d + (f.kind === 'int' ? 1 : (f.max - d) / 4));
}

test('the fixture holds v1.9.0\'s 79 GRPOConfig fields', () => {
  assert.equal(LIST.source.tag, 'v1.9.0');
  assert.equal(LIST.grpoConfigFields.length, 79);
  assert.equal(new Set(LIST.grpoConfigFields).size, 79);
});

test('every name section 9 writes is a field of TRL 1.9\'s GRPOConfig or TrainingArguments', () => {
  const changed = Object.fromEntries(CONFIG_TABLE.fields.filter((f) => f.name !== 'profile' && f.trl).map((f) => [f.name, awayFromDefault(f)]));
  // What the rules between fields need (check_field_relations), and a sampler so use_vllm is written.
  Object.assign(changed, { beta: 0.1, entropyCoefMin: 0, vllmImportanceSamplingClipMin: 0.5, vllmImportanceSamplingClipMax: 3, samplerMismatch: 0.25, importanceSamplingLevel: 'token' });
  for (const config of [core.experimentConfig({}), core.experimentConfig(changed)]) {
    const names = argumentNames(trlConfigPython(config));
    assert.ok(names.length > 30, `${names.length} names`);
    for (const name of names) assert.ok(KNOWN.has(name), `${name} is not a GRPOConfig field (${LIST.source.tag}, ${LIST.source.commit.slice(0, 7)})`);
    // Every table field with a TRL name is written, once.
    for (const f of CONFIG_TABLE.fields) if (f.trl) assert.equal(names.filter((n) => n === f.trl.replace(/\[\d+\]$/, '')).length, 1, f.trl);
  }
  assert.ok(argumentNames(trlConfigPython(core.experimentConfig(changed))).includes('use_vllm'));
});

test('the notebook\'s GRPOConfig call round-trips through the toy\'s config', () => {
  const call = NOTEBOOK_TRL_CELL.slice(NOTEBOOK_TRL_CELL.indexOf('TRLGRPOConfig('), NOTEBOOK_TRL_CELL.indexOf('peft_config ='));
  const { options, other } = trlArgsToOptions(call);
  for (const name of Object.keys(other)) assert.ok(KNOWN.has(name), `${name} is a GRPOConfig/TrainingArguments field`);
  // The toy's completions are at most 16 tokens: the notebook's 192 is refused, naming the field.
  assert.throws(() => core.experimentConfig(options), { code: 'integer_range', field: 'maxNewTokens' });
  const { maxNewTokens, ...fits } = options;
  assert.equal(maxNewTokens, 192);
  const back = trlArgsToOptions(trlConfigPython(core.experimentConfig(fits))).options;
  for (const [name, value] of Object.entries(fits)) assert.deepEqual(back[name], value, name);
});
