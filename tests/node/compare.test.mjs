// The run-comparison math over real configs of the core: run names from the profile defaults,
// the config diff, the across-seed min-max band, the paired comparison and the CSV export.
import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { loadCore } from '../../web/core/index.js';
import { comparisonCsv, comparisonLink, configDiff, pairedComparison, parseComparisonLink, runName, seedBand } from '../../web/js/training/compare.js';
import { seedList, workerCount } from '../../web/js/training/seed-batch.js';

describe('compare runs', () => {
  let core;
  let defaults;
  before(async () => {
    core = await loadCore();
    defaults = core.experimentConfig({ profile: 'smoke' });
  });

  it('names a run by what differs from the profile defaults', () => {
    assert.equal(runName(core.experimentConfig({ profile: 'smoke', beta: 0.04, seed: 3 }), defaults), 'dapo, β = 0.04, seed 3');
    assert.equal(runName(defaults, defaults), `dapo, seed ${defaults.seed}`);
    const changed = core.experimentConfig({ profile: 'smoke', lossType: 'grpo', epsHigh: 0.2, groupSize: 4, seed: 1 });
    assert.equal(runName(changed, defaults), 'grpo, ε_high = 0.2, G = 4, seed 1');
  });

  it('a comparison link carries each run as what differs from its profile, and opens to the same configs', () => {
    const defaultsOf = (config) => core.experimentConfig({ profile: config.profile });
    const configs = [
      core.experimentConfig({ profile: 'smoke', seed: 9 }),
      core.experimentConfig({ profile: 'smoke', seed: 9, beta: 0.04, lossType: 'grpo', dynamicSampling: true, learningRate: 0.0015 }),
      core.experimentConfig({ profile: 'full', seed: 3, advantageEstimator: 'rloo' }),
    ];
    const items = [{ config: configs[0] }, { config: configs[1] }, { config: configs[2], n: 8 }];
    const link = comparisonLink(items, defaultsOf);
    assert.equal(link, 'seed:9;beta:0.04,dynamicSampling:true,learningRate:0.0015,lossType:grpo,seed:9;profile:full,advantageEstimator:rloo,seed:3,n:8');
    const parsed = parseComparisonLink(link);
    assert.deepEqual(parsed.map((p) => p.n), [1, 1, 8]);
    parsed.forEach((p, i) => assert.deepEqual(core.experimentConfig(p.options), configs[i], `run ${i + 1} opens to its config`));
    assert.throws(() => parseComparisonLink('seed:9;beta'), /cmp: run 2: "beta" is not field:value/);
    assert.throws(() => parseComparisonLink('seed:9,n:40'), /cmp: run 1: n must be an integer in \[1, 16\], got 40/);
    assert.throws(() => parseComparisonLink(Array(13).fill('seed:1').join(';')), /cmp: at most 12 runs, got 13/);
    assert.throws(() => core.experimentConfig(parseComparisonLink('seed:9,bta:0.1')[0].options), (error) => error.field === 'bta' && /unknown option/.test(error.message));
  });

  it('lists only the fields on which the runs disagree', () => {
    const a = core.experimentConfig({ profile: 'smoke', seed: 1 });
    const b = core.experimentConfig({ profile: 'smoke', seed: 1, beta: 0.04 });
    const c = core.experimentConfig({ profile: 'smoke', seed: 2, beta: 0.04 });
    assert.deepEqual(configDiff([a, b, c]), [
      { field: 'beta', label: 'β', values: [0, 0.04, 0.04] },
      { field: 'seed', label: 'seed', values: [1, 1, 2] },
    ]);
    assert.deepEqual(configDiff([a, a]), []);
  });

  it('gives the across-seed mean with its min-max band, update by update', () => {
    const h = (values) => values.map((v, i) => ({ update: i + 1, accuracy: v }));
    const band = seedBand([h([0.1, 0.5]), h([0.3, 0.7, 0.9]), h([0.2, 0.6])], 'accuracy');
    assert.equal(band.length, 2, 'up to the shortest history');
    assert.deepEqual(band.map((b) => [b.update, b.min, b.max, b.n]), [[1, 0.1, 0.3, 3], [2, 0.5, 0.7, 3]]);
    assert.ok(Math.abs(band[0].mean - 0.2) < 1e-12 && Math.abs(band[1].mean - 0.6) < 1e-12);
  });

  it('pairs two configs seed by seed and counts the seeds that favour each side', () => {
    const a = [{ seed: 1, value: 0.4 }, { seed: 2, value: 0.5 }, { seed: 3, value: 0.6 }, { seed: 9, value: 1 }];
    const b = [{ seed: 1, value: 0.5 }, { seed: 2, value: 0.5 }, { seed: 3, value: 0.4 }, { seed: 4, value: 0 }];
    const paired = pairedComparison(a, b);
    assert.deepEqual(paired.pairs.map((p) => p.seed), [1, 2, 3], 'only the seeds both ran');
    assert.deepEqual([paired.favourA, paired.favourB, paired.ties], [1, 1, 1]);
    const loss = pairedComparison(a, b, { lowerIsBetter: true });
    assert.deepEqual([loss.favourA, loss.favourB], [1, 1]);
    assert.ok(Math.abs(paired.meanDiff - (0.1 + 0 - 0.2) / 3) < 1e-12);
  });

  it('exports a comparison as CSV, one row per run and update', () => {
    const runs = [{ name: 'dapo, β = 0.04, seed 3', config: { seed: 3 }, history: [{ update: 1, loss: 0.5 }, { update: 2, loss: 0.25 }] }];
    assert.equal(comparisonCsv(runs), 'run,seed,update,loss\n"dapo, β = 0.04, seed 3",3,1,0.5\n"dapo, β = 0.04, seed 3",3,2,0.25\n');
  });

  it('sizes the worker pool and checks the seed count', () => {
    assert.equal(workerCount(8, 2), 1);
    assert.equal(workerCount(8, 4), 3);
    assert.equal(workerCount(2, 16), 2);
    assert.equal(workerCount(3, 1), 1);
    assert.deepEqual(seedList(5, 3), [5, 6, 7]);
    assert.throws(() => seedList(0, 0), { name: 'RangeError', message: 'seeds: must be an integer in [1, 16], got 0' });
    assert.throws(() => seedList(0, 2.5), /seeds: must be an integer in \[1, 16\], got 2.5/);
  });
});

describe('run library', () => {
  it('keeps the newest runs within the run count and byte limits', async () => {
    const { overLimit, libraryEntry } = await import('../../web/js/training/run-library.js');
    const entries = Array.from({ length: 6 }, (_, i) => ({ key: `k${i}`, savedAt: i, bytes: 10 }));
    assert.deepEqual(overLimit(entries, { maxRuns: 4, maxBytes: 1000 }).sort(), ['k0', 'k1']);
    assert.deepEqual(overLimit(entries, { maxRuns: 50, maxBytes: 35 }).sort(), ['k0', 'k1', 'k2']);
    assert.deepEqual(overLimit(entries), []);
    const core = await loadCore();
    const defaults = core.experimentConfig({ profile: 'smoke' });
    const result = { config: core.experimentConfig({ profile: 'smoke', beta: 0.04, seed: 3 }), history: [{ update: 1, loss: 1 }], checkpoint: { big: true } };
    const entry = libraryEntry(result, { source: 'live', defaults, savedAt: 5 });
    assert.equal(entry.name, 'dapo, β = 0.04, seed 3');
    assert.equal(entry.run.checkpoint, undefined, 'no checkpoint in the library');
    assert.equal(entry.key, libraryEntry(result, { source: 'imported', defaults, savedAt: 9 }).key, 'the same run is one entry');
  });

  it('measures a run as libraryEntry does (the worker measures imports) and packs its history losslessly', async () => {
    const { libraryEntry, libraryMeasure, packHistory, unpackHistory } = await import('../../web/js/training/run-library.js');
    const core = await loadCore();
    const run = core.runToyGrpoExperiment({ profile: 'smoke', seed: 9 });
    const defaults = core.experimentConfig({ profile: 'smoke' });
    const entry = libraryEntry(run, { source: 'live', defaults });
    assert.deepEqual(libraryMeasure(run), { key: entry.key, bytes: entry.bytes });
    assert.equal(libraryEntry(run, { source: 'imported', defaults, measured: { key: 'k', bytes: 7 } }).bytes, 7);
    const history = [...run.history, { ...run.history[0], update: 101, ratioMin: NaN, kl: -Infinity, loss: -0 }];
    const packed = packHistory(history);
    assert.ok(packed.columns.every((column) => column instanceof Float64Array && column.length === history.length));
    const back = unpackHistory(packed);
    assert.equal(JSON.stringify(back), JSON.stringify(history), 'same keys, same order, same numbers');
    assert.ok(Object.is(back.at(-1).loss, -0) && Number.isNaN(back.at(-1).ratioMin) && back.at(-1).kl === -Infinity);
    assert.equal(packHistory([{ update: 1, note: 'x' }]), null, 'a row that is not all numbers stays a row');
    assert.equal(packHistory([{ update: 1, a: 1 }, { update: 2 }]), null, 'rows of another shape stay rows');
  });
});
