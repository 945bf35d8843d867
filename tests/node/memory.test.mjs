// Memory stability over one long session (issue 7): 20 smoke experiments and 10 000 verifier
// calls in one process. Live experiment handles return to 0; after one run of each loss type
// (which size every workspace), neither malloc'd bytes nor the WASM heap grow by 1 MB or more.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadCore } from '../../web/core/index.js';

const core = await loadCore();
const MB = 1024 * 1024;
const LOSS_TYPES = ['dapo', 'grpo', 'dr_grpo', 'bnpo'];
// Short experiments: a leak is per experiment (its workspaces, its evaluation's 64 fresh samples
// per prompt), not per update, so 6 updates after 10 warm-up steps find what 60 after 120 would.
const SHORT = { profile: 'smoke', updates: 6, warmupSteps: 10 };

test('20 smoke experiments and 10 000 verifier calls: no handle left, no heap growth', () => {
  const snapshot = () => ({ inUse: core.call('memoryStats', {}).heapInUse, heap: core.heapBytes() });
  let first = null;
  for (let i = 0; i < 20; i += 1) {
    const result = core.runToyGrpoExperiment({ ...SHORT, seed: 100 + i, lossType: LOSS_TYPES[i % 4] });
    assert.equal(result.history.length, result.config.updates);
    assert.equal(core.liveHandles(), 0, `experiment ${i} left a handle`);
    // A stopped run (finish early, then dispose) and an abandoned error are part of a session too.
    if (i % 5 === 0) {
      const stopped = core.createExperiment({ ...SHORT, seed: i });
      stopped.step(3);
      stopped.finish();
      stopped.dispose();
      assert.throws(() => core.createExperiment({ profile: 'smoke', groupSize: 1 }), /groupSize/);
    }
    // After one run of each loss type (and a stopped run), every workspace has its size: the
    // allocator's high-water mark rises once in that warm-up (40 -> 48 MB with 64 fresh samples
    // per prompt, at the second run), with nothing in use afterwards.
    if (i === LOSS_TYPES.length - 1) first = snapshot();
  }
  const texts = ['\\boxed{3/7}', 'the answer is 41', '\\\\boxed{2}, then \\\\boxed{3}', 'No answer', '1/0',
    `x=\u22123`, '\\boxed{8,000}', '\\boxed{\\frac{1}{2}}', '50%', '\\boxed{'];
  for (let i = 0; i < 10000; i += 1) {
    const text = `${texts[i % texts.length]} ${i % 7 === 0 ? '{'.repeat(i % 100) : ''}`;
    const result = core.checkNumericAnswer(text, String(i % 10));
    assert.ok(['correct', 'incorrect', 'no_answer', 'invalid'].includes(result.status));
    if (i % 100 === 0) assert.throws(() => core.checkNumericAnswer('1', 'abc'), /reference/);
  }
  const last = snapshot();
  assert.equal(core.liveHandles(), 0);
  assert.equal(core.call('liveExperiments', {}), 0);
  const grew = { inUse: (last.inUse - first.inUse) / MB, heap: (last.heap - first.heap) / MB };
  console.log(`# after the first experiment: ${first.inUse} bytes malloc'd, heap ${first.heap} bytes; ` +
    `at the end: ${last.inUse} bytes malloc'd, heap ${last.heap} bytes`);
  assert.ok(grew.inUse < 1, `malloc'd bytes grew by ${grew.inUse.toFixed(3)} MB`);
  assert.ok(grew.heap < 1, `the WASM heap grew by ${grew.heap.toFixed(3)} MB`);
});
