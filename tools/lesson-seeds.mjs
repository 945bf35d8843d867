// Runs a profile at seeds 0-9 through the public JS API and counts the seeds on which the
// notebook's lessons show (docs/coverage.md): success concentrating on fewer train prompts (by the
// page's verdict, beyond noise and chance), the held-out prompts narrowing, and the base policy's
// pass@k overtaking the RL policy's after RL led. Shared by `npm run bench` (rows
// lesson-coverage-seeds, lesson-passk-cross-seeds) and tests/node/verdicts-matrix.test.mjs (which
// reads the lessons off the notebook's runs it makes anyway: lessonOf, lessonCounts).
import { coverageVerdict, passAtKVerdict } from '../web/js/training/verdicts.js';

export const LESSON_SEEDS = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9];

/** Per seed: the run's measures and which lessons it shows. */
export function lessonRun(core, profile, seed) {
  return lessonOf(core.runToyGrpoExperiment({ profile, seed }));
}

/** Which lessons `run` (runToyGrpoExperiment's result for the notebook's config) shows. */
export function lessonOf(run) {
  const { coverage, history } = run;
  // The page's own verdicts (web/js/training/verdicts.js): beyond noise and chance, not any change.
  const crossing = (before, after) => {
    const v = passAtKVerdict(before, after, coverage.samples);
    return v.kind === 'crossed' ? v.k : null;
  };
  return {
    seed: run.config.seed,
    run,
    concentrates: coverageVerdict(run)?.kind === 'concentrated',
    heldoutNarrows: coverage.afterHeldout.solved < coverage.beforeHeldout.solved,
    crossTrain: crossing(coverage.beforeTrain, coverage.afterTrain),
    crossHeldout: crossing(coverage.beforeHeldout, coverage.afterHeldout),
    // Sections 6-7's lessons, which the task must keep (issue: the lessons, shown by the runs).
    baseAccuracyInBand: run.beforeTrain.accuracy >= 0.1 && run.beforeTrain.accuracy <= 0.6,
    accuracyUp: run.afterTrain.accuracy > run.beforeTrain.accuracy,
    entropyDown: run.afterTrain.entropy < run.beforeTrain.entropy,
    informativeEveryUpdate: history.every((row) => row.informativeFraction > 0),
    ratioMeanNearOne: history.every((row) => Math.abs(row.ratioMean - 1) < 0.05),
  };
}

/** Counts over seeds 0-9 for one profile. */
export function lessonSeeds(core, profile, seeds = LESSON_SEEDS) {
  return lessonCounts(profile, seeds.map((seed) => lessonRun(core, profile, seed)));
}

/** Counts over one profile's lessons (lessonRun or lessonOf, one per seed). */
export function lessonCounts(profile, runs) {
  const count = (field) => runs.filter((r) => r[field] === true).length;
  return {
    profile,
    seeds: runs.length,
    runs,
    concentrates: count('concentrates'),
    heldoutNarrows: count('heldoutNarrows'),
    crossTrain: runs.filter((r) => r.crossTrain !== null).length,
    crossHeldout: runs.filter((r) => r.crossHeldout !== null).length,
  };
}

/** Bench rows for both profiles. */
export async function benchLessons() {
  const { loadCore } = await import('../web/core/index.js');
  const core = await loadCore();
  const rows = [];
  for (const profile of ['smoke', 'full']) {
    const started = performance.now();
    const result = lessonSeeds(core, profile);
    const variant = `wasm-node-api-${profile}`;
    rows.push(
      { name: 'lesson-coverage-seeds', variant, reference: '>= 7 of 10', value: result.concentrates, unit: 'seeds' },
      { name: 'lesson-heldout-narrows-seeds', variant, value: result.heldoutNarrows, unit: 'seeds' },
      { name: 'lesson-passk-cross-heldout-seeds', variant, value: result.crossHeldout, unit: 'seeds' },
      { name: 'lesson-passk-cross-train-seeds', variant, value: result.crossTrain, unit: 'seeds' },
      { name: 'lesson-run-mean-s', variant, value: (performance.now() - started) / 1000 / result.seeds, unit: 's' },
    );
  }
  return rows;
}
