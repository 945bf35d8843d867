// Bench rows measured through the public JS API in Node (the same WASM the page runs):
// whole smoke and full profiles, and verifier calls per second through the wrapper.
import { loadCore } from '../web/core/index.js';

export async function benchApi() {
  const core = await loadCore();
  const rows = [];
  for (const profile of ['smoke', 'full']) {
    const start = performance.now();
    core.runToyGrpoExperiment({ profile, seed: 9, lossType: 'dapo' });
    rows.push({ name: `profile_${profile}_s`, variant: 'wasm-node-api', value: (performance.now() - start) / 1000, unit: 's' });
  }
  const calls = 20000;
  const start = performance.now();
  for (let i = 0; i < calls; i += 1) core.verifyNumericAnswer(`The answer is \\boxed{${i % 97}}`, String(i % 89));
  rows.push({ name: 'verifier_api_calls_per_s', variant: 'wasm-node-api', value: calls / ((performance.now() - start) / 1000), unit: 'calls/s' });
  return rows;
}
