// Hostile inputs through the public JS API (limits in docs/limits.md): each gets an Error naming
// the field and the limit, within bounded time and memory, and the next valid call still works.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { loadCore } from '../../web/core/index.js';

const core = await loadCore();
const run = core.runToyGrpoExperiment({
  profile: 'smoke', seed: 5, trainPrompts: 2, heldoutPrompts: 1, embed: 3, hidden: 4, warmupSteps: 2,
  groupSize: 2, promptBatch: 1, updates: 2, updateEpochs: 1, evalSamples: 1, finalEvalSamples: 4,
});
const { checkpoint } = run;
const sequences = [[0, 10, 1]];
const MB = 1024 * 1024;

// Runs fn, which must throw; returns the error after checking the time it took and that the
// core still answers a valid call with the right value.
function refused(fn, pattern, { seconds = 2 } = {}) {
  const started = performance.now();
  let error;
  try {
    fn();
  } catch (caught) {
    error = caught;
  }
  const elapsed = (performance.now() - started) / 1000;
  assert.ok(error instanceof Error, `expected an Error, got ${error}`);
  assert.match(error.message, pattern);
  assert.ok(elapsed < seconds, `took ${elapsed.toFixed(2)} s (limit ${seconds} s): ${error.message}`);
  assert.equal(core.verifyNumericAnswer('\\boxed{7}', '7'), 1, 'the core keeps working');
  assert.deepEqual(core.teacherForcedLogProbs(checkpoint, sequences).logProbs[0].length, 2);
  return error;
}

const withCheckpoint = (edit) => {
  const copy = structuredClone(checkpoint);
  edit(copy);
  return () => core.teacherForcedLogProbs(copy, sequences);
};

test('checkpoints: wrong or enormous shapes', () => {
  refused(withCheckpoint((c) => { c.tensors['gru.weight_hh_l0'].shape = [3, 3]; }),
    /^checkpoint\.tensors\.gru\.weight_hh_l0\.shape: must be \[12, 4\], got \[3, 3\]$/);
  refused(withCheckpoint((c) => { c.tensors['head.weight'].shape = [1e12, 1e12]; }),
    /head\.weight\.shape: must be \[16, 4\], got \[1000000000000, 1000000000000\]/);
  refused(withCheckpoint((c) => { c.tensors['head.bias'].data.push(0); }),
    /head\.bias\.data: must be an array of 16 numbers \(product of shape \[16\]\), got 17/);
  refused(withCheckpoint((c) => { c.config.hidden = 1e6; }),
    /^checkpoint\.config\.hidden: must be an integer in \[1, 1024\], got 1000000$/);
  // Largest dims with tiny data: refused from the shapes, before any buffer is allocated.
  const heap = core.heapBytes();
  const error = refused(withCheckpoint((c) => {
    c.config.hidden = 1024;
    c.config.embed = 1024;
    c.vocab = Array.from({ length: 4096 }, (_, i) => `t${i}`);
  }), /checkpoint\.tensors\.embedding\.weight\.shape: must be \[4096, 1024\], got \[16, 3\]/);
  assert.ok(error instanceof RangeError);
  assert.ok(core.heapBytes() - heap < 16 * MB, `heap grew by ${(core.heapBytes() - heap) / MB} MB`);
});

test('checkpoints: NaN or infinite weights, missing or extra tensors', () => {
  refused(withCheckpoint((c) => { c.tensors['head.bias'].data[3] = NaN; }),
    /^checkpoint\.tensors\.head\.bias\.data\[3\]: must be a finite number in float range, got NaN$/);
  refused(withCheckpoint((c) => { c.tensors['gru.bias_ih_l0'].data[0] = -Infinity; }),
    /gru\.bias_ih_l0\.data\[0\]: must be a finite number in float range, got -Infinity/);
  refused(withCheckpoint((c) => { c.tensors['embedding.weight'].data[5] = 1e39; }),
    /embedding\.weight\.data\[5\]: must be a finite number in float range, got 1e\+39/);
  refused(withCheckpoint((c) => { c.tensors['head.bias'].data[0] = '0'; }),
    /head\.bias\.data\[0\]: must be a finite number in float range, got "0"/);
  refused(withCheckpoint((c) => { delete c.tensors['gru.bias_hh_l0']; }),
    /^checkpoint\.tensors\.gru\.bias_hh_l0: is required \(a tensor of shape \[12\]\)$/);
  refused(withCheckpoint((c) => { c.tensors['gru.weight_ih_l1'] = { shape: [1], data: [0] }; }),
    /^checkpoint\.tensors\.gru\.weight_ih_l1: unknown tensor \(expected exactly embedding\.weight, /);
  refused(withCheckpoint((c) => { c.tensors = []; }), /checkpoint\.tensors: must be an object, got an array/);
  refused(() => core.teacherForcedLogProbs(null, sequences), /^checkpoint: is required$/);
});

test('deep nesting: refused before parsing, in JS or in the core', () => {
  // 100 000 nested arrays: JSON.stringify itself runs out of stack in the wrapper.
  let deep = 0;
  for (let i = 0; i < 100000; i += 1) deep = [deep];
  refused(withCheckpoint((c) => { c.config.note = deep; }),
    /teacherForcedLogProbs: arguments cannot be serialised \(Maximum call stack size exceeded\)/);
  // 1000 levels serialise fine; the core's linear pre-scan refuses them before its parser runs.
  let nested = 0;
  for (let i = 0; i < 1000; i += 1) nested = [nested];
  const error = refused(withCheckpoint((c) => { c.config.note = nested; }),
    /^arguments: must nest arrays and objects at most 64 levels deep, got deeper at byte \d+$/);
  assert.ok(error instanceof RangeError);
  refused(() => core.checkNumericAnswer(nested, '1'), /64 levels deep/);
  // Inside the limit, the checkpoint's own bound on its free config object applies.
  let twenty = 0;
  for (let i = 0; i < 20; i += 1) twenty = [twenty];
  refused(withCheckpoint((c) => { c.config.note = twenty; }),
    /^checkpoint\.config: must nest at most 8 levels deep$/);
});

test('a 50 MB string: named with its limit wherever it goes', () => {
  const big = 'x'.repeat(50 * MB);
  refused(withCheckpoint((c) => { c.vocab[0] = big; }),
    /^checkpoint\.vocab\[0\]: must be a string of at most 256 bytes, got 52428800$/, { seconds: 20 });
  refused(withCheckpoint((c) => { c.config.note = big; }),
    /^checkpoint\.config: strings must be at most 256 bytes, got one of 52428800$/, { seconds: 20 });
  refused(() => core.checkNumericAnswer(big, '1'),
    /^text: must be a string of at most 33554432 bytes, got 52428800$/, { seconds: 20 });
  refused(() => core.collectRollouts(checkpoint, run.prompts, {}, { generatorVersion: big }),
    /^generatorVersion: must be a string of at most 256 bytes, got 52428800$/, { seconds: 20 });
  refused(() => core.importRun({ ...run, format: big }),
    /^run\.format: must be 'grpo-lab-run' .*\(52428800 bytes\)'$/, { seconds: 20 });
  // Over the 64 MiB argument limit: refused in JS before the text is copied into WASM memory.
  const heap = core.heapBytes();
  refused(() => core.checkNumericAnswer('y'.repeat(70 * MB), '1'),
    /^arguments: must be at most 67108864 bytes of JSON \(64 MiB\), got at least 73400\d\d\d$/, { seconds: 20 });
  assert.equal(core.heapBytes(), heap, 'nothing was copied into the WASM heap');
});

test('megabytes of verifier text still get a verdict (the spec), quickly', () => {
  const started = performance.now();
  assert.equal(core.checkNumericAnswer('{'.repeat(4 * MB), '1').status, 'no_answer');
  assert.equal(core.checkNumericAnswer('\\boxed{'.repeat(MB / 2), '1').rule, 'unclosed_box');
  assert.equal(core.checkNumericAnswer('9'.repeat(4 * MB), '1').rule, 'non_finite');
  assert.ok(performance.now() - started < 5000);
});

test('a run JSON from another version', () => {
  refused(() => core.importRun({ ...run, version: 2 }),
    /^run\.version: this GRPO Lab reads run format version 1, got 2 \(open the file with the GRPO Lab that exported it, or run the experiment again\)$/);
  refused(() => core.importRun({ ...run, version: 0.5 }), /run\.version: .* got 0\.5/);
});

test('configs with extreme values', () => {
  const cases = [
    [{ groupSize: 1e6 }, /^groupSize: must be an integer in \[2, 64\], got 1000000$/],
    [{ updates: 1e9 }, /^updates: must be an integer in \[1, 50000\], got 1000000000$/],
    [{ updates: 1e300 }, /^updates: must be an integer, got 1e\+300$/],
    [{ maxNewTokens: 0 }, /^maxNewTokens: must be an integer in \[1, 64\], got 0$/],
    [{ hidden: 1e6 }, /^hidden: must be an integer in \[1, 512\], got 1000000$/],
    [{ embed: -1 }, /^embed: must be an integer in \[1, 256\], got -1$/],
    [{ warmupSteps: 1e7 }, /^warmupSteps: must be an integer in \[0, 100000\], got 10000000$/],
    [{ learningRate: NaN }, /^learningRate: must be in \(0, 1\], got NaN$/],
    [{ temperature: Infinity }, /^temperature: must be in \[0\.05, 10\], got Infinity$/],
    [{ seed: -1 }, /^seed: must be an integer in \[0, 4294967295\], got -1$/],
    [{ seed: 2 ** 60 }, /^seed: must be an integer, got 1\.15292150460684\d*e\+18$/],
    [{ promptBatch: 64, trainPrompts: 8 }, /^promptBatch: must be at most trainPrompts \(8\), got 64$/],
    [{ profile: 'x'.repeat(1000) }, /^profile: must be a string of at most 256 bytes, got 1000$/],
    [{ ['k'.repeat(100000)]: 1 }, /^k{40}\.\.\. \(100000 bytes\): unknown option/],
  ];
  for (const [overrides, pattern] of cases) {
    refused(() => core.experimentConfig({ profile: 'smoke', ...overrides }), pattern);
    refused(() => core.createExperiment({ profile: 'smoke', ...overrides }), pattern);
  }
  assert.equal(core.liveHandles(), 0);
});

test('sequences for teacherForcedLogProbs are bounded by the checkpoint size', () => {
  // vocab 16, hidden 4: 32 * 16 + 40 * 4 + 64 = 736 bytes per token, 364 722 tokens in 256 MiB.
  const many = Array.from({ length: 100000 }, () => [0, 1, 2, 3]);
  refused(() => core.teacherForcedLogProbs(checkpoint, many),
    /^sequences: must hold at most 364722 tokens in all for a checkpoint with vocab 16 and hidden 4 \(256 MiB of work memory\), got 400000$/);
  refused(() => core.teacherForcedLogProbs(checkpoint, [[0, 99]]),
    /^sequences\[0\]: token ids must be in \[0, 15\], got 99$/);
  refused(() => core.collectRollouts(checkpoint, Array(1001).fill(run.prompts[0])),
    /^prompts: must hold at most 1000 prompts, got 1001$/);
});

test('experiment handles: beyond the live limit, or beyond int', () => {
  const tiny = { profile: 'smoke', trainPrompts: 1, heldoutPrompts: 0, embed: 1, hidden: 1, warmupSteps: 0,
    groupSize: 2, promptBatch: 1, updates: 1, evalSamples: 1, finalEvalSamples: 4 };
  const live = Array.from({ length: 8 }, () => core.createExperiment(tiny));
  refused(() => core.createExperiment(tiny), /^experiments: at most 8 may be live at once; dispose\(\) finished ones$/);
  for (const experiment of live) experiment.dispose();
  assert.equal(core.liveHandles(), 0);
  assert.equal(core.call('liveExperiments', {}), 0);
  assert.deepEqual(core.call('experimentDispose', { handle: 2 ** 32 + 1 }), { disposed: false });
  refused(() => core.call('experimentStep', { handle: 2 ** 32 + 1 }),
    /^handle: must be an integer in \[1, 2147483647\], got 4294967297$/);
  refused(() => core.call('\ud800', {}), /^unknown method: ./u);
});

test('liveHandles() counts what the core holds, however the experiment was made', async () => {
  const tiny = { profile: 'smoke', trainPrompts: 1, heldoutPrompts: 0, embed: 1, hidden: 1, warmupSteps: 0,
    groupSize: 2, promptBatch: 1, updates: 1, evalSamples: 1, finalEvalSamples: 4 };
  assert.equal(core.liveHandles(), 0);
  // Straight through core.call: no JS counter sees it, the core does.
  const { handle } = core.call('experimentCreate', tiny);
  assert.equal(core.liveHandles(), 1);
  const wrapped = core.createExperiment(tiny);
  assert.equal(core.liveHandles(), 2);
  core.call('experimentDispose', { handle });
  assert.equal(core.liveHandles(), 1);
  wrapped.dispose();
  wrapped.dispose(); // twice is fine
  assert.equal(core.liveHandles(), 0);

  // Experiments dropped without dispose(): the garbage collector frees their slots.
  setFlagsFromString('--expose-gc');
  const gc = runInNewContext('gc');
  (() => {
    for (let i = 0; i < 8; i += 1) core.createExperiment(tiny);
  })();
  assert.equal(core.liveHandles(), 8);
  for (let round = 0; round < 20 && core.liveHandles() > 0; round += 1) {
    gc();
    await new Promise((resolve) => setTimeout(resolve, 10)); // finalizers run in a later task
  }
  assert.equal(core.liveHandles(), 0, 'dropped experiments are freed');
  const again = Array.from({ length: 8 }, () => core.createExperiment(tiny));
  assert.equal(core.liveHandles(), 8, 'all 8 slots are free again');
  for (const experiment of again) experiment.dispose();
  assert.equal(core.liveHandles(), 0);
});

test('a lone surrogate is refused by the argument that holds it; call() needs its arguments', () => {
  const error = refused(() => core.verifyNumericAnswer('5 \ud800', '5'),
    /^text: must be a well-formed string, got a lone surrogate U\+D800 at character 2$/);
  assert.ok(error instanceof TypeError);
  refused(() => core.checkNumericAnswer('7', 'x\udc00'), /^reference: must be a well-formed string, got a lone surrogate U\+DC00 at character 1$/);
  refused(() => core.teacherForcedLogProbs({ ...checkpoint, vocab: ['a', '\ud83dz'] }, sequences),
    /^checkpoint\.vocab\[1\]: must be a well-formed string, got a lone surrogate U\+D83D at character 0$/);
  refused(() => core.arithmeticPrompts({ split: 'tr\ud800ain' }), /^split: must be a well-formed string/);
  // A surrogate pair (an emoji) is a well-formed string: it reaches the core, which answers.
  assert.equal(core.checkNumericAnswer('\ud83d\ude00 \\boxed{3}', '3').accuracy, 1);
  refused(() => core.call('version'), /^version: arguments must be an object of named arguments, e\.g\. call\('version', \{\}\), got undefined$/);
  refused(() => core.call('checkNumericAnswer', null), /^checkNumericAnswer: arguments must be an object .* got null$/);
  refused(() => core.call('checkNumericAnswer', ['7', '7']), /got an array$/);
});
