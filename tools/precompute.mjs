// Build step (tools/build.sh site): runs the notebook's smoke experiment (profile smoke, seed 9,
// lossType dapo) through the same JS API the page uses, plus the notebook's inspection group,
// and writes what the page shows before the reader trains their own run:
//   web/data/smoke-run.json         the run file without its checkpoint (small: loaded at once)
//   web/data/smoke-checkpoint.json  the trained policy (fetched only when needed: export, new group)
import { mkdirSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { loadCore } from '../web/core/index.js';
import { PRECOMPUTED, inspectionRequest, runFile } from '../web/js/training/run-format.js';

const root = fileURLToPath(new URL('..', import.meta.url));
const out = `${root}web/data`;

const core = await loadCore();
const config = core.experimentConfig(PRECOMPUTED);
const started = performance.now();
const result = core.runToyGrpoExperiment(config);
const runMs = performance.now() - started;

const request = inspectionRequest(result.config, 0);
const inspection = {
  ...request,
  result: core.collectRollouts(result.checkpoint, result.prompts, request.config, {
    seed: request.seed,
    generatorVersion: request.generatorVersion,
  }),
};

const { checkpoint, ...rest } = result;
const run = runFile(rest, { source: 'precomputed', status: 'finished', generatedBy: 'tools/precompute.mjs', inspection });
mkdirSync(out, { recursive: true });
writeFileSync(`${out}/smoke-run.json`, `${JSON.stringify(run)}\n`);
writeFileSync(`${out}/smoke-checkpoint.json`, `${JSON.stringify(checkpoint)}\n`);
console.log(
  `precompute: smoke run (seed ${config.seed}, ${config.lossType}, ${result.history.length} updates) in ${(runMs / 1000).toFixed(2)} s: ` +
    `train accuracy ${result.beforeTrain.accuracy.toFixed(3)} -> ${result.afterTrain.accuracy.toFixed(3)} -> web/data/`,
);
