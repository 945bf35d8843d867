// The core's reference build (loadReferenceCore, the page's first load): it answers sections 1-5's
// methods and experimentConfig with the full core's results and errors, has no trainer, and its
// API object is the one index.d.ts declares (ReferenceCoreFunction).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { promisify } from 'node:util';
import { gzipSync } from 'node:zlib';
import { loadCore, loadReferenceCore } from '../../web/core/index.js';

const run = promisify(execFile);
const reference = await loadReferenceCore(); // first: afterwards it would be the full core
const full = await loadCore();
const DTS = readFileSync(new URL('../../web/core/index.d.ts', import.meta.url), 'utf8');
const wasmGzip = (name) => gzipSync(readFileSync(new URL(`../../web/core/${name}`, import.meta.url)), { level: 9 }).length;

// One call or more per method of the reference build: [method, args], valid and refused ones.
const CALLS = [
  ['verifyNumericAnswer', { text: 'Final: \\boxed{3/7}', reference: '0.428571' }],
  ['checkNumericAnswer', { text: 'v1.5 of H2O gives 7', reference: '7' }],
  ['informativeGroupProbability', { p: 0.5, groupSize: 8 }],
  ['informativeGroupProbability', { p: 2, groupSize: 8 }],
  ['informativeGroupCurve', { ps: [0.01, 0.5, 0.99], groupSize: 4 }],
  ['expectedDrawsForInformativeGroups', { n: 100, p: 0, groupSize: 8 }],
  ['groupRelativeAdvantages', { rewards: [1, 1, 0, 0], scale: true }],
  ['groupRelativeAdvantages', { rewards: [1, 'abc'] }],
  ['estimateAdvantages', { rewards: [1, 0, 1, 1], groupSize: 2, advantageEstimator: 'rloo' }],
  ['clippedSurrogateTerms', { ratios: [1.35, 0.85], advantages: [0.87, -0.87], epsLow: 0.2, epsHigh: 0.28 }],
  ['clipActivity', { ratios: [1.35, 0.85], advantages: [0.87, -0.87], epsLow: 0.2, epsHigh: 50 }],
  ['originalGrpoTokenWeights', { rewards: [1, 0, 1], lengths: [2, 5, 8] }],
  ['drGrpoTokenWeights', { rewards: [1, 0, 1], lengths: [2, 5, 8], fixedLength: 8 }],
  ['dapoTokenWeights', { rewards: [1, 0, 1], lengths: [2, 5, 8] }],
  ['responseContributions', { tokenWeights: [[0.5, 0.5], [1]] }],
  ['flattenTokenWeights', { tokenWeights: [[0.5, 0.5], [1]] }],
  ['tokenTermCurve', { lossType: 'dapo', ratios: [0.5, 1, 1.5], advantages: [1, 1, 1] }],
  ['lossNormalizer', { lossType: 'dr_grpo', completions: 4, length: 3, totalTokens: 12, maxCompletionLength: 8 }],
  ['softOverlongPunishment', { lengths: [1, 6, 8], maxCompletionLen: 8, softPunishCache: 4 }],
  ['syntheticModeTraining', { betaEntropy: 0.01, learningRate: 0.5, steps: 20 }],
  ['finiteEntropyMechanism', { betaEntropy: 0, learningRate: 0.5, steps: 5 }],
  ['categoricalEntropy', { probabilities: [0.25, 0.75] }],
  ['passAtKIndependent', { p: 0.3, k: 4 }],
  ['passAtKUnbiased', { n: 8, c: 2, k: 4 }],
  ['experimentConfig', { profile: 'full', seed: 3, groupSize: 6 }],
  ['experimentConfig', { seed: -5 }],
  ['experimentConfig', { epsilonHigh: 0.3 }],
  ['messageCodes', {}],
  ['version', {}],
];

/** What a call gives: its result, or its error's kind, code, field, params and message. */
function outcome(core, method, args) {
  try {
    return { ok: core.call(method, args) };
  } catch (error) {
    return { error: [error.name, error.code, error.field, error.params, error.message] };
  }
}

test('the reference build answers sections 1-5, experimentConfig and the error tables, and nothing of the trainer', () => {
  const methods = reference.methods();
  for (const [method] of CALLS) assert.ok(methods.includes(method), `the reference build answers ${method}`);
  assert.deepEqual(methods.filter((m) => !full.methods().includes(m)), [], 'every reference method is a full-core method');
  for (const absent of ['experimentCreate', 'collectRollouts', 'grpoObjective', 'importRun', 'configSchema', 'verlPolicyLoss']) {
    assert.ok(!methods.includes(absent), `no ${absent}`);
  }
  assert.deepEqual(outcome(reference, 'experimentCreate', {}).error.slice(0, 2), ['TypeError', 'unknown_method']);
});

test('each of its methods gives the full core\'s result, or the same error', () => {
  for (const [method, args] of CALLS) {
    assert.deepEqual(outcome(reference, method, args), outcome(full, method, args), `${method}(${JSON.stringify(args)})`);
  }
  const rejected = CALLS.filter(([method, args]) => outcome(reference, method, args).error);
  assert.equal(rejected.length, 5, 'the five refused calls above are refused');
});

test('its API object has the functions index.d.ts declares for it (ReferenceCoreFunction); the full one has every function of GrpoCore', () => {
  const union = DTS.match(/export type ReferenceCoreFunction =([^;]+);/);
  assert.ok(union, 'index.d.ts declares ReferenceCoreFunction');
  const declared = [...union[1].matchAll(/'(\w+)'/g)].map((m) => m[1]).sort();
  assert.deepEqual(Object.keys(reference).sort(), declared);
  for (const name of declared) assert.equal(typeof full[name], 'function', `the full core has ${name} too`);
  // The full build keeps every function GrpoCore declares (a subset build's pruning never reaches it).
  const head = DTS.indexOf('export interface GrpoCore {');
  const body = DTS.slice(head, DTS.indexOf('\n}\n', head));
  const all = [...body.matchAll(/^ {2}(\w+)[?]?[(<:]/gm)].map((m) => m[1]);
  assert.ok(all.length > declared.length + 10, `GrpoCore declares ${all.length} functions`);
  assert.deepEqual(all.filter((name) => typeof full[name] !== 'function'), [], 'declared functions the full core lacks');
});

test('loaded once: later calls give the same object; after loadCore() a first call gives the full core', async () => {
  assert.equal(await loadReferenceCore(), reference);
  assert.notEqual(reference, full);
  assert.equal(await loadCore(), full);
  const index = new URL('../../web/core/index.js', import.meta.url).href;
  const script = `const m = await import(${JSON.stringify(index)}); const f = await m.loadCore(); process.stdout.write(String((await m.loadReferenceCore()) === f));`;
  const { stdout } = await run(process.execPath, ['--input-type=module', '-e', script]);
  assert.equal(stdout, 'true');
});

test('the reference build is well under half the full build on the wire (gzip)', () => {
  const [small, big] = [wasmGzip('grpo_core_reference.wasm'), wasmGzip('grpo_core.wasm')];
  console.log(`# wasm gzip: reference ${small} B, full ${big} B`);
  assert.ok(small < 0.5 * big, `${small} B against ${big} B`);
});
