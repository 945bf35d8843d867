// Writes the committed seed corpora of the fuzz targets (fuzz/corpus/<target>/) from the test
// cases: verifier cases from tests/cpp/test_verifier.cpp and the notebook, configs from the
// training tests, and a tiny real run (and its checkpoint) from the WASM core. Run after a WASM
// build: `node fuzz/make-seeds.mjs`. Seeds are small on purpose (libFuzzer mutates them).
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { loadCore } from '../web/core/index.js';

const root = new URL('../', import.meta.url);
const corpus = (target) => {
  const dir = new URL(`fuzz/corpus/${target}/`, root);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  let n = 0;
  return (name, content) => {
    n += 1;
    writeFileSync(new URL(`${String(n).padStart(3, '0')}-${name}`, dir), content);
  };
};

// --- verifier: "<reference>\0<text>" -------------------------------------------------------
{
  const add = corpus('fuzz_verifier');
  const source = readFileSync(new URL('tests/cpp/test_verifier.cpp', root), 'utf8');
  const literal = String.raw`"(?:[^"\\]|\\.)*"`;
  const line = new RegExp(String.raw`^\s*\{(${literal}),\s*(${literal}),`, 'gm');
  const seen = new Set();
  for (const match of source.matchAll(line)) {
    let text;
    let reference;
    try {
      [text, reference] = [JSON.parse(match[1]), JSON.parse(match[2])];
    } catch {
      continue;  // a C++ escape JSON does not share
    }
    const key = `${reference}\0${text}`;
    if (seen.has(key)) continue;
    seen.add(key);
    add('case', key);
  }
  const notebook = [
    ['Final: \\\\boxed{3/7}', '0.428571'],
    ['The reference number 42 is mentioned, but the answer is 41', '42'],
    ['First \\\\boxed{2}, then corrected: \\\\boxed{3}', '3'],
    ['No numerical answer', '5'],
    ['1/0', '0'],
  ];
  for (const [text, reference] of notebook) add('notebook', `${reference}\0${text}`);
  add('no-nul', 'x=\u22123, so \\boxed{\\dfrac{-6}{2}} or 50% of 8,000');
  add('utf8-quote', `1\0\\boxed{${'a'.repeat(59)}\u00e9\u00e9\u00e9\u00e9}`);
  // What real datasets write (docs/verifier.md section 6), including the non-ASCII shapes the
  // C++ rows spell with \x escapes (which JSON.parse skips above).
  const datasets = [
    ['\\frac{1}{2}', '\\boxed{0.5}'],
    ['\\\\dfrac{3}{4}', 'so 0.75'],
    ['3 / 7', '\\boxed{3 / 7}'],
    ['1,234', '\\boxed{1,234}'],
    ['5 cm', '\\boxed{5\\text{ cm}}'],
    ['30^\\circ', 'the angle is 30\u00b0'],
    ['$5', '\\boxed{\\$5}'],
    ['5\\%', '5\\%'],
    ['**73**', 'The answer is **73**.'],
    ['\\text{13}', '\\boxed{\\text{13}}'],
    ['5', 'It weighs 5kg, not 5cm2 or 5\u00b2'],
    ['0.5', '\\boxed{$\\frac12$}'],
    ['1', '1 / 0 then \\boxed{30^{\\circ}}'],
    ['5', 'costs \u20ac5'],
  ];
  for (const [reference, text] of datasets) add('dataset', `${reference}\0${text}`);
}

// --- config: experimentConfig arguments ----------------------------------------------------
const core = await loadCore();
{
  const add = corpus('fuzz_config');
  const configs = [
    {},
    { profile: 'full' },
    core.experimentConfig({ profile: 'smoke', seed: 9 }),
    { profile: 'smoke', lossType: 'dr_grpo', scaleRewards: 'none', importanceSamplingLevel: 'sequence' },
    { groupSize: 1 },
    { groupSize: 1e6 },
    { updates: 1e9 },
    { maxNewTokens: 0 },
    { hidden: 1e6 },
    { learningRate: -0.001 },
    { epsLow: { $number: 'NaN' } },
    { beta: { $number: 'Infinity' } },
    { groupsize: 4 },
    { seed: 9007199254740993 },
    { promptBatch: 64, trainPrompts: 8 },
    // engine verl (issue 27): its own fields, accepted and refused (docs/verl.md "The trainer with
    // engine verl"): every enum, the relations check_verl_relations refuses, out-of-range values.
    core.experimentConfig({ profile: 'smoke', engine: 'verl', verlAdvEstimator: 'reinforce_plus_plus', beta: 0.001, klLossType: 'k3' }),
    { engine: 'verl', verlLossMode: 'clip_cov', clipCovRatio: 0.02, clipCovLb: 0, clipCovUb: 5 },
    { engine: 'verl', verlLossMode: 'kl_cov', klCovRatio: 0.02, ppoKlCoef: 1, verlAdvEstimator: 'remax' },
    { engine: 'verl', verlLossMode: 'geo_mean', verlLossAggMode: 'seq-mean-token-sum-norm', verlAdvEstimator: 'grpo_passk', clipRatioC: 10, epsHigh: 0.28 },
    { engine: 'verl', verlLossMode: 'sapo', verlLossAggMode: 'seq-mean-token-sum', verlAdvEstimator: 'opo', scaleRewards: 'none' },
    { engine: 'verl', importanceSamplingLevel: 'sequence' },
    { engine: 'verl', scaleRewards: 'batch', samplerMismatch: 0.5 },
    { engine: 'verl', clipCovLb: 6 },
    { clipRatioC: 1 },
    { klLossType: 'k3+' },
    { engine: 'gpu', verlLossMode: 'ppo' },
  ];
  for (const config of configs) add('config.json', JSON.stringify(config));
  add('not-json', '{"profile": "smoke",');
  add('nested', `{"seed": ${'['.repeat(70)}${']'.repeat(70)}}`);
}

// --- a tiny real run and its checkpoint ------------------------------------------------------
const tiny = {
  profile: 'smoke', seed: 1, trainPrompts: 2, heldoutPrompts: 1, embed: 2, hidden: 2,
  warmupSteps: 1, groupSize: 2, promptBatch: 1, updates: 3, updateEpochs: 1, evalSamples: 1,
  finalEvalSamples: 4,
};
const run = core.runToyGrpoExperiment(tiny);
const json = (value) => JSON.stringify(value, (_k, v) =>
  (typeof v === 'number' && !Number.isFinite(v) ? { $number: String(v) } : v));

{
  const add = corpus('fuzz_checkpoint');
  const { checkpoint } = run;
  add('ok.json', json({ checkpoint, sequences: [[0, 10, 1], [5, 12, 3, 15]], gradients: true }));
  add('bare.json', json(checkpoint));
  const broken = (edit) => {
    const c = structuredClone(checkpoint);
    edit(c);
    return json({ checkpoint: c, sequences: [[0, 1]] });
  };
  add('shape.json', broken((c) => { c.tensors['gru.weight_hh_l0'].shape = [3, 3]; }));
  add('missing.json', broken((c) => { delete c.tensors['head.bias']; }));
  add('extra.json', broken((c) => { c.tensors['head.extra'] = { shape: [1], data: [0] }; }));
  add('nan.json', broken((c) => { c.tensors['head.bias'].data[0] = { $number: 'NaN' }; }));
  add('huge.json', broken((c) => { c.tensors['head.bias'].data[1] = 1e39; }));
  add('dims.json', broken((c) => { c.config.hidden = 1024; c.config.embed = 1024; }));
  add('vocab.json', broken((c) => { c.vocab = ['a', 'b']; }));
}

{
  const add = corpus('fuzz_run_import');
  add('ok.json', json({ run }));
  add('v2.json', json({ run: { ...run, version: 2 } }));
  add('format.json', json({ run: { ...run, format: 'other' } }));
  const bad = structuredClone(run);
  bad.history[1].ratioMean = 'x';
  add('history.json', json({ run: bad }));
  add('empty.json', '{"run": {}}');
  const { checkpoint: _checkpoint, ...charts } = run;
  add('charts-only.json', json({ run: { ...charts, source: 'live', status: 'stopped' } }));
  // Section 8's answer histograms: counts that no longer sum to the samples per prompt.
  const answers = structuredClone(run);
  answers.afterTrainByPrompt[0].answers[0].count += 1;
  add('answers.json', json({ run: answers }));
}
// --- every stateless method: one byte (the method's index, as fuzz_api.cpp picks it) + JSON ---
{
  const add = corpus('fuzz_api');
  const methods = core.methods().filter((m) => !m.startsWith('experiment') || m === 'experimentConfig');
  const rewards = [1, 0, 1];
  const lengths = [2, 5, 8];
  const tokenWeights = [[0.1, 0.2], [0.3]];
  const examples = {
    arithmeticPrompts: { seed: 3, trainSize: 4, heldoutSize: 2, operations: '+-' },
    categoricalEntropy: { probabilities: [0.5, 0.25, 0.25] },
    checkNumericAnswer: { text: '\\boxed{\\frac{3}{7}}', reference: '0.428571' },
    clipActivity: { ratios: [1.35, 0.85], advantages: [1, -1], epsLow: 0.2, epsHigh: 0.28 },
    clippedSurrogateTerms: { ratios: [1.35, 0.85], advantages: [1, -1], epsLow: 0.2, epsHigh: 0.28 },
    collectRollouts: { checkpoint: run.checkpoint, prompts: run.prompts, config: { groupSize: 2, promptBatch: 1 }, seed: 1, generatorVersion: 'v1' },
    dapoTokenWeights: { rewards, lengths },
    drGrpoTokenWeights: { rewards, lengths, fixedLength: 8 },
    expectedDrawsForInformativeGroups: { n: 10, p: 0.5, groupSize: 4 },
    experimentConfig: { profile: 'full', lossType: 'grpo' },
    finiteEntropyMechanism: { betaEntropy: 0.3, learningRate: 0.18, steps: 20 },
    flattenTokenWeights: { tokenWeights },
    groupRelativeAdvantages: { rewards: [1, 1, 0, 0], scale: true },
    grpoObjective: { rewards: [1, 0, 1, 0], groupSize: 4, logProbs: [[-1, -2], [-0.5], [-1.5, -0.2, -0.3], [-2]],
      oldLogProbs: [[-1.1, -2], [-0.4], [-1.5, -0.3, -0.3], [-2.2]], lossType: 'dapo', beta: 0.1,
      refLogProbs: [[-1, -2], [-0.5], [-1.5, -0.2, -0.3], [-2]], truncated: [false, true, false, false] },
    importRun: { run },
    // The step inspector's (docs/inspector.md): a batch under another loss; records by id (none live).
    grpoCounterfactual: { batch: { rewards: [1, 0], groupSize: 2, logProbs: [[-1, -2], [-0.5]], oldLogProbs: [[-1.1, -2], [-0.4]] }, change: { lossType: 'cispo', delta: null } },
    inspectionDispose: { record: 1 },
    inspectionStats: { record: 1 },
    inspectionView: { record: 1, update: 1, klCovRatio: 0.02 },
    liveInspections: {},
    informativeGroupProbability: { p: 0.5, groupSize: 8 },
    informativeGroupCurve: { groupSize: 8, ps: [0, 0.1, 0.5, 0.9, 1] },
    liveExperiments: {},
    memoryStats: {},
    originalGrpoTokenWeights: { rewards, lengths },
    passAtKIndependent: { p: 0.3, k: 4 },
    passAtKUnbiased: { n: 16, c: 3, k: 4 },
    responseContributions: { tokenWeights },
    syntheticModeTraining: { betaEntropy: 0, learningRate: 0.18, steps: 61 },
    teacherForcedLogProbs: { checkpoint: run.checkpoint, sequences: [[0, 3, 12, 5]], gradients: true },
    verifyNumericAnswer: { text: 'x = \u2212 3', reference: '-3' },
    verlAdvantages: { estimator: 'grpo', tokenLevelRewards: [[0, 1], [0, 0], [1, 0]], responseMask: [[1, 1], [1, 0], [1, 1]], index: ['a', 'a', 7] },
    verlAggLoss: { lossMat: [[1, 2], [3, 4]], lossMask: [[1, 0], [1, 1]], lossAggMode: 'seq-mean-token-sum-norm', lossScaleFactor: 4 },
    verlKlPenalty: { logProb: [[-1, -2]], refLogProb: [[-1.5, -30]], klPenalty: 'low_var_kl' },
    verlPolicyLoss: { lossMode: 'clip_cov', oldLogProb: [[-0.5, -2.5]], logProb: [[-0.5, -2.5]], advantages: [[3, -3]], responseMask: [[1, 1]], selectedTokens: [[0, 1]], config: { clipRatioC: 3 } },
    version: {},
  };
  methods.forEach((method, index) => {
    if (!(method in examples)) {
      console.warn(`make-seeds: no example arguments for ${method}`);
      return;
    }
    add(`${method}.bin`, Buffer.concat([Buffer.from([index]), Buffer.from(json(examples[method]))]));
  });
}
console.log('seeds written to fuzz/corpus/');
