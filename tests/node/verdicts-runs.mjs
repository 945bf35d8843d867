// A worker of tests/node/verdicts-matrix.test.mjs: runs each config it is sent, posts the run back
// and waits for the next (null: done).
import { parentPort } from 'node:worker_threads';
import { loadCore } from '../../web/core/index.js';

const core = await loadCore();
parentPort.on('message', (job) => {
  if (!job) {
    parentPort.close();
    return;
  }
  const { checkpoint, ...run } = core.runToyGrpoExperiment(job.options);
  parentPort.postMessage({ id: job.id, run });
});
parentPort.postMessage({ ready: true });
