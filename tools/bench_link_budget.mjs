// The comparison link's work estimate (web/js/training/link-plan.js) against measured runs: each
// config below is trained in full through the JS API (WASM in Node, as the page's workers run it)
// and its measured seconds are printed beside runSeconds(config) and the ratio. SECONDS_PER_UNIT
// is read off these ratios; each row carries the machine's load. Run alone:
// `node tools/bench_link_budget.mjs`; `npm run bench` adds the rows `link-estimate-*`.
import { loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import { loadCore } from '../web/core/index.js';
import { runSeconds, runWork } from '../web/js/training/link-plan.js';

// From the default smoke run to the sizes a link can ask for: wider, longer answers, bigger
// groups, more epochs, a long warm-up, many final samples.
export const CASES = {
  smoke: {},
  'hidden-128': { hidden: 128, updates: 20 },
  'hidden-256': { hidden: 256, updates: 4, warmupSteps: 20 },
  'group-32x32': { groupSize: 32, promptBatch: 32, updates: 10 },
  'tokens-16-epochs-8': { maxNewTokens: 16, updateEpochs: 8, updates: 20 },
  'warmup-600': { warmupSteps: 600, updates: 1 },
  'final-256': { finalEvalSamples: 256, updates: 1 },
};

/** Trains each case once; returns [{name, measured, estimated, ratio, units, load}]. */
export async function measureEstimates(names = Object.keys(CASES)) {
  const core = await loadCore();
  const out = [];
  for (const name of names) {
    const config = core.experimentConfig({ profile: 'smoke', seed: 9, ...CASES[name] });
    const load = loadavg()[0];
    const t0 = performance.now();
    core.runToyGrpoExperiment(config);
    const measured = (performance.now() - t0) / 1000;
    const estimated = runSeconds(config);
    out.push({ name, measured, estimated, ratio: measured / estimated, units: runWork(config), load: Math.round(load * 100) / 100 });
  }
  return out;
}

/** Rows for tools/bench.mjs: measured / estimated per case (reference: the estimate errs high, ratio <= 1). */
export async function benchLinkBudget() {
  return (await measureEstimates()).flatMap((r) => [
    { name: `link-estimate-${r.name}`, variant: 'wasm-node', value: r.ratio, unit: 'measured/estimated', load: r.load, reference: '<= 1.05 idle (estimate not low)' },
    { name: `link-run-seconds-${r.name}`, variant: 'wasm-node', value: r.measured, unit: 's', load: r.load },
  ]);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  for (const r of await measureEstimates(process.argv.slice(2).length ? process.argv.slice(2) : undefined)) {
    console.log(`${r.name.padEnd(20)} measured ${r.measured.toFixed(2)} s  estimated ${r.estimated.toFixed(2)} s  ratio ${r.ratio.toFixed(2)}  (${(r.measured / r.units * 1e12).toFixed(1)} ps/unit, load ${r.load})`);
  }
}
