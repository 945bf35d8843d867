// Saves every run that ends (finished, stopped) or takes the display (the precomputed run, an
// import) into the run library (run-library.js). The controller calls it at that moment, so a run
// is saved whichever sections are mounted and however soon the next run starts: section 7's panel
// only reads the library. Each run is saved once (its runKey), the saves one after another.
import * as library from './run-library.js';
import { CONFIG_TABLE } from './run-config.js';

const SOURCE_OF = { finished: 'live', stopped: 'live', precomputed: 'precomputed', imported: 'imported' };

/** The phases whose run is saved. */
export const SAVED_PHASES = new Set(Object.keys(SOURCE_OF));

/** A profile's full default config, {name: value}, from the core's table (what runName compares). */
export function profileDefaults(profile) {
  return Object.fromEntries(CONFIG_TABLE.fields.map((f) => [f.name, f.defaults[profile] ?? f.defaults.smoke]));
}

let savedKey = null;
let queue = Promise.resolve();

/**
 * Saves the run of controller state `s` if it has just ended or been shown; returns a promise
 * settled when every save asked so far is done (a failed save leaves the library as it was).
 */
export function saveRun(s) {
  if (!SAVED_PHASES.has(s.phase) || !s.result?.history || !(s.result.config ?? s.config) || savedKey === s.runKey) return queue;
  savedKey = s.runKey;
  const result = { ...s.result, config: s.result.config ?? s.config };
  const source = SOURCE_OF[s.phase];
  const measured = s.source === 'imported' ? s.libraryMeasure : null;
  // Measured and written after the controller's message handler returns, not inside it.
  queue = queue
    .then(() => library.add(library.libraryEntry(result, { source, defaults: profileDefaults(result.config.profile ?? 'smoke'), measured })))
    .catch(() => {});
  return queue;
}
