// A worker of tests/node/verdicts-matrix.test.mjs: runs the configs it is given, posts the runs.
import { parentPort, workerData } from 'node:worker_threads';
import { loadCore } from '../../web/core/index.js';

const core = await loadCore();
for (const { id, options } of workerData.jobs) {
  const { checkpoint, ...run } = core.runToyGrpoExperiment(options);
  parentPort.postMessage({ id, run });
}
