// The lessons gallery's counts (web/js/training/lessons.js) through the public JS API: per lesson,
// arm A and arm B on seeds 0-9 and arm A on seeds 10-19 (the null control: A against A on other
// seeds), the seeds showing the effect, the null control's count and the wall time. Shared by
// `npm run bench` (rows lesson-gallery-*) and the CLI:
//   node tools/lesson-gallery.mjs [id ...] [--seeds N]   (default: every lesson, 10 seeds)
import { fileURLToPath } from 'node:url';
import { LESSONS, NULL_SEED_OFFSET, armOptions, lessonById, lessonCount, needed } from '../web/js/training/lessons.js';

/** Runs one lesson over `seeds` (both arms) and its null control; counts, per-seed rows, seconds. */
export function measureLesson(core, lesson, seeds) {
  const started = performance.now();
  const run = (arm, seed) => core.runToyGrpoExperiment(armOptions(lesson, arm, seed));
  const pairs = [];
  const nulls = [];
  for (const seed of seeds) {
    const a = run('a', seed);
    pairs.push({ seed, a, b: run('b', seed) });
    nulls.push({ seed, a, b: run('a', seed + NULL_SEED_OFFSET) });
  }
  const seconds = (performance.now() - started) / 1000;
  const effect = lessonCount(lesson, pairs);
  const control = lessonCount(lesson, nulls);
  // The page runs 2 arms x N seeds in hardwareConcurrency - 1 workers: one on a 2-core machine.
  return { id: lesson.id, seeds: seeds.length, effect, control, seconds, secondsPerRun: seconds / (3 * seeds.length) };
}

/** Bench rows: per lesson, effect and null counts over seeds 0-9 and seconds. */
export async function benchGallery() {
  const { loadCore } = await import('../web/core/index.js');
  const core = await loadCore();
  const seeds = Array.from({ length: 10 }, (_, i) => i);
  const rows = [];
  for (const lesson of LESSONS) {
    const m = measureLesson(core, lesson, seeds);
    const variant = 'wasm-node-api';
    rows.push(
      { name: `lesson-gallery-${lesson.id}-effect-seeds`, variant, reference: `>= ${needed(10)} of 10`, value: m.effect.count, unit: 'seeds' },
      { name: `lesson-gallery-${lesson.id}-null-seeds`, variant, reference: '<= 2 of 10', value: m.control.count, unit: 'seeds' },
      { name: `lesson-gallery-${lesson.id}-s`, variant, value: m.seconds, unit: 's' },
      // The page's default: 4 seeds x 2 arms in one worker (2 cores), at Node's speed per run.
      { name: `lesson-gallery-${lesson.id}-page4-estimate-s`, variant, reference: '<= 120', value: m.secondsPerRun * 8, unit: 's' },
    );
  }
  return rows;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const args = process.argv.slice(2);
  const at = args.indexOf('--seeds');
  const n = at >= 0 ? Number(args.splice(at, 2)[1]) : 10;
  const ids = args.length ? args : LESSONS.map((l) => l.id);
  const { loadCore } = await import('../web/core/index.js');
  const core = await loadCore();
  const seeds = Array.from({ length: n }, (_, i) => i);
  console.log(`lesson           effect  null   seconds  s/run  (seeds 0-${n - 1}; null: A on seeds ${NULL_SEED_OFFSET}-${NULL_SEED_OFFSET + n - 1})`);
  for (const id of ids) {
    const m = measureLesson(core, lessonById(id), seeds);
    console.log(`${id.padEnd(16)} ${`${m.effect.count}/${m.effect.n}`.padEnd(7)} ${`${m.control.count}/${m.control.n}`.padEnd(6)} ${m.seconds.toFixed(1).padStart(7)}  ${m.secondsPerRun.toFixed(1).padStart(5)}`);
  }
}
