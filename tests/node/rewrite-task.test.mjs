// The rewrite task (issue 23, clip-higher): a config option of the table, the arithmetic task's
// prompts answered by any "c+d" or "c-d" of the same value, through the real WASM API, and
// section 9's note that TRL has no task (EN and RU).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadCore } from '../../web/core/index.js';
import EN from '../../web/js/i18n/en-training.js';
import RU from '../../web/js/i18n/ru-training.js';
import { inspectionRequest, trlConfigPython, trlNotes } from '../../web/js/training/run-format.js';

const core = await loadCore();
const SHORT = { profile: 'smoke', task: 'rewrite', seed: 3, trainPrompts: 16, heldoutPrompts: 8, warmupSteps: 60, updates: 4, finalEvalSamples: 8 };

test('a short rewrite run: the arithmetic prompts and vocabulary, deterministic, graded by value', () => {
  const run = core.runToyGrpoExperiment(SHORT);
  const arithmetic = core.runToyGrpoExperiment({ ...SHORT, task: 'arithmetic' });
  assert.equal(run.config.task, 'rewrite');
  assert.deepEqual(run.vocab, arithmetic.vocab);
  assert.deepEqual(run.prompts.map((p) => p.text), arithmetic.prompts.map((p) => p.text));
  assert.deepEqual(run, core.runToyGrpoExperiment(SHORT), 'same options, same run');
  for (const row of run.history) assert.ok(Number.isFinite(row.loss));
  // Sampled completions: an expression of the prompt's value is correct, any other text is not.
  const train = run.prompts.filter((p) => p.split === 'train');
  const rollouts = core.collectRollouts(run.checkpoint, train, { ...SHORT, groupSize: 16 }, { seed: 1 });
  let correct = 0;
  for (const [i, group] of rollouts.groups.entries()) {
    const prompt = rollouts.prompts[i];  // promptBatch prompts drawn from the list
    for (const row of group) {
      const m = /^(\d)([+-])(\d)$/.exec(row.responseText);
      const value = m && (m[2] === '+' ? Number(m[1]) + Number(m[3]) : Number(m[1]) - Number(m[3]));
      assert.equal(row.accuracy, m && String(value) === prompt.answer ? 1 : 0, `${prompt.text} ${row.responseText}`);
      correct += row.accuracy;
    }
  }
  assert.ok(correct > 0, 'the warm-up teaches some right rewrites');
});

// Section 8's fresh group (inspectionRequest) is drawn and graded under the run's own task: a
// rewrite run's right expressions are correct there, and a scratch run's group is drawn at all
// (without the task the request asked for the arithmetic vocabulary and was refused).
test('section 8 draws its fresh group under the run\'s task', () => {
  const run = core.runToyGrpoExperiment(SHORT);
  const request = inspectionRequest(run.config, 0);
  assert.equal(request.config.task, 'rewrite');
  const group = core.collectRollouts(run.checkpoint, run.prompts, request.config, { seed: request.seed }).groups.flat();
  const right = group.filter((row) => row.accuracy === 1);
  assert.ok(right.every((row) => /^\d[+-]\d$/.test(row.responseText)), 'only expressions are right');
  const scratch = core.runToyGrpoExperiment({ profile: 'smoke', task: 'scratch', maxNewTokens: 32, seed: 3, trainPrompts: 16, heldoutPrompts: 8, warmupSteps: 20, updates: 2, finalEvalSamples: 8 });
  const scratchRequest = inspectionRequest(scratch.config, 0);
  assert.equal(scratchRequest.config.task, 'scratch');
  assert.ok(core.collectRollouts(scratch.checkpoint, scratch.prompts, scratchRequest.config, { seed: scratchRequest.seed }).groups[0].length > 0);
});

test('section 9 says TRL has no rewrite task, in EN and RU', () => {
  const config = core.experimentConfig({ task: 'rewrite' });
  for (const dict of [EN, RU]) {
    const notes = trlNotes((key, params = {}) => dict[key].replaceAll('{task}', params.task));
    const python = trlConfigPython(config, notes);
    assert.ok(python.includes(`# ${dict['train.real.taskNoteRewrite'].replaceAll('{task}', 'rewrite')}`));
    assert.ok(!python.includes(dict['train.real.taskNote'].replaceAll('{task}', 'rewrite')), 'not the scratch task\'s note');
    assert.ok(dict['train.field.task'].includes('rewrite'));
  }
});
