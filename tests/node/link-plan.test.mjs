// A comparison link's plan (web/js/training/link-plan.js, compare.js parseComparisonLink) before
// anything trains: the issue-29 links, each refused or priced by the core's own config reader and
// the work estimate; the shape check quotes attacker text cut and without bidi marks; the budget
// and the run cap are what docs/limits.md says.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { loadCore } from '../../web/core/index.js';
import { LinkError, parseComparisonLink } from '../../web/js/training/compare.js';
import { LINK_BUDGET_SECONDS, linkPlan, runSeconds, runWork } from '../../web/js/training/link-plan.js';

const core = await loadCore();
const nothingStored = () => false;
const plan = (text, stored = nothingStored) => linkPlan(core, parseComparisonLink(text), stored);
const limits = readFileSync(new URL('../../docs/limits.md', import.meta.url), 'utf8');

describe('comparison links', () => {
  it('refuses, before any run, what the trainer would refuse after one (the core reads every seed)', async () => {
    await assert.rejects(plan('seed:4294967295,n:16'), (e) => e.field === 'seed' && /4294967296/.test(e.message));
    await assert.rejects(plan('trainPrompts:150,heldoutPrompts:150'), (e) => e.code === 'total_too_large' && e.field === 'heldoutPrompts');
    await assert.rejects(plan('trainPrompts:200,heldoutPrompts:200'), (e) => e.code === 'integer_range' && e.field === 'trainPrompts');
    await assert.rejects(plan('seed:9;groupSize:99'), (e) => e.field === 'groupSize');
    await assert.rejects(plan('constructor:x'), (e) => e.field === 'constructor' && /unknown option/.test(e.message));
  });

  it('refuses a malformed item naming it, the text quoted cut and without bidi or control characters', () => {
    const refused = (text) => {
      try {
        parseComparisonLink(text);
      } catch (error) {
        assert.ok(error instanceof LinkError, String(error));
        return error;
      }
      assert.fail(`accepted ${text}`);
    };
    assert.equal(refused('__proto__:x').code, 'pair', '__proto__ is refused, not dropped');
    assert.equal(refused('seed:9,beta:0,beta:1').code, 'duplicate');
    const bidi = refused(`seed:9,lossType:\u202Egrpo\u2066${'x'.repeat(100)}\u0007`);
    assert.equal(bidi.params.text, `lossType:grpo${'x'.repeat(27)}…`);
    assert.doesNotMatch(bidi.message, /[\u202a-\u202e\u2066-\u2069\u0000-\u001f]/);
    assert.equal(refused(`${'a'.repeat(8000)}:1`).params.text.length, 41);
    assert.equal(refused('seed:9,n:17').code, 'seeds');
    assert.equal(refused(Array(13).fill('seed:1').join(';')).code, 'items');
  });

  it('prices a link by its runs not in the library, against the documented budget', async () => {
    const small = await plan('seed:9,n:8');
    assert.equal(small.toTrain, 8);
    assert.ok(small.seconds > 0 && small.seconds < LINK_BUDGET_SECONDS && !small.overBudget, `${small.seconds} s`);
    const some = await plan('seed:9,n:8', (config) => config.seed < 13);
    assert.deepEqual(some.todo.map((job) => job.seeds), [[13, 14, 15, 16]], 'stored runs are not trained again');
    // The embed link: 12 items x 16 seeds at every config maximum.
    const max = 'hidden:512,embed:256,warmupSteps:100000,updates:50000,groupSize:64,promptBatch:64,updateEpochs:16,maxNewTokens:16,finalEvalSamples:256,evalSamples:64,trainPrompts:120,heldoutPrompts:35,n:16';
    const huge = await plan(Array.from({ length: 12 }, (_, i) => `${max},seed:${i * 100}`).join(';'));
    assert.equal(huge.runs, 192);
    assert.equal(huge.toTrain, 192);
    assert.ok(huge.overBudget && huge.seconds > 1e6 * LINK_BUDGET_SECONDS, `${huge.seconds} s`);
    assert.ok(limits.includes(`${LINK_BUDGET_SECONDS} s`), 'docs/limits.md states the budget');
  });

  it('grows the work with every size a run has', () => {
    const base = core.experimentConfig({ profile: 'smoke' });
    for (const [field, value] of Object.entries({ hidden: 128, embed: 32, updates: 120, groupSize: 16, promptBatch: 16, updateEpochs: 4, maxNewTokens: 8, warmupSteps: 240, finalEvalSamples: 128, evalSamples: 8, trainPrompts: 100, beta: 0.04 })) {
      assert.ok(runWork({ ...base, [field]: value }) > runWork(base), field);
    }
    assert.ok(runSeconds(base) > 0.1 && runSeconds(base) < 10, `the smoke run: ${runSeconds(base)} s`);
  });
});
