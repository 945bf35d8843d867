// The lessons gallery's counts (web/js/training/lessons.js) through the public JS API: per lesson,
// arm A and arm B on seeds 0-9 and arm A on seeds 10-19 (the null control: A against A on other
// seeds), the seeds showing the effect, the null control's count and the wall time. Shared by
// `npm run bench` (rows lesson-gallery-*) and the CLI:
//   node tools/lesson-gallery.mjs [id ...] [--seeds N] [--from S]   (default: every lesson, seeds 0-9;
//                                    --from 20: the fresh seeds 20-29, null control on 30-39)
//   node tools/lesson-gallery.mjs [id ...] --chromium [--seeds N]   (seconds per lesson in the page)
import { loadavg } from 'node:os';
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

/**
 * Seconds per lesson in Chromium, as a reader runs it: section 7's "Run this lesson" at the page's
 * Seeds field (its default unless `seeds`), both arms in the page's workers (hardwareConcurrency
 * - 1: one on a 2-core machine), from the click to the panel's finished phase. Per lesson: {id,
 * seconds, n, count} (n, count: the seeds the page judged and those that showed it).
 */
export async function chromiumLessonSeconds(ids = LESSONS.map((l) => l.id), { seeds = null } = {}) {
  const { launchBrowser, openPage, startServer } = await import('../tests/browser/helpers.mjs');
  const server = await startServer();
  const browser = await launchBrowser();
  const out = [];
  try {
    const { page } = await openPage(browser.context, server.origin);
    await page.goto(`${server.origin}/index.html#updates`);
    await page.waitForSelector('section#updates[data-rendered="true"] .compare-panel[data-library-count] .lesson-gallery', { state: 'attached', timeout: 120000 });
    if (seeds) await page.fill('#compare-seeds', String(seeds));
    const pageSeeds = Number(await page.inputValue('#compare-seeds'));
    for (const id of ids) {
      await page.evaluate(() => delete document.querySelector('.compare-panel').dataset.phase);
      const started = Date.now();
      await page.click(`li.lesson[data-lesson="${id}"] button[data-action="run-lesson"]`);
      await page.waitForSelector('.compare-panel[data-phase="finished"]', { state: 'attached', timeout: 1800000 });
      const seconds = (Date.now() - started) / 1000;
      const judged = await page.evaluate((lesson) => ({ ...document.querySelector(`li.lesson[data-lesson="${lesson}"]`).dataset }), id);
      out.push({ id, seconds, seeds: pageSeeds, n: Number(judged.n), count: Number(judged.count) });
    }
  } finally {
    await browser.close();
    await server.close();
  }
  return out;
}

/** Bench rows: per lesson, effect and null counts over seeds 0-9 and fresh seeds 20-29 (each against the counts lessons.js records), seconds. */
export async function benchGallery() {
  const { loadCore } = await import('../web/core/index.js');
  const core = await loadCore();
  const seeds = (first) => Array.from({ length: 10 }, (_, i) => first + i);
  const rows = [];
  for (const lesson of LESSONS) {
    const m = measureLesson(core, lesson, seeds(0));
    const f = measureLesson(core, lesson, seeds(20));
    const variant = 'wasm-node-api';
    const r = lesson.measured;
    rows.push(
      { name: `lesson-gallery-${lesson.id}-effect-seeds`, variant, reference: `>= ${needed(10)} of 10 (recorded ${r.effect})`, value: m.effect.count, unit: 'seeds' },
      { name: `lesson-gallery-${lesson.id}-null-seeds`, variant, reference: `<= 2 of 10 (recorded ${r.null})`, value: m.control.count, unit: 'seeds' },
      { name: `lesson-gallery-${lesson.id}-fresh-effect-seeds`, variant, reference: `seeds 20-29 (recorded ${r.freshEffect})`, value: f.effect.count, unit: 'seeds' },
      { name: `lesson-gallery-${lesson.id}-fresh-null-seeds`, variant, reference: `A on 30-39 (recorded ${r.freshNull})`, value: f.control.count, unit: 'seeds' },
      { name: `lesson-gallery-${lesson.id}-s`, variant, value: m.seconds + f.seconds, unit: 's' },
    );
  }
  // The page's own time per lesson (its default seed count, its workers), with the load it met.
  for (const m of await chromiumLessonSeconds()) {
    rows.push({ name: `lesson-gallery-${m.id}-chromium-s`, variant: 'chromium', reference: '<= 120', value: m.seconds, unit: 's', note: `${m.seeds} seeds x 2 arms, load ${loadavg()[0].toFixed(1)}` });
  }
  return rows;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const args = process.argv.slice(2);
  const option = (name) => {
    const at = args.indexOf(name);
    return at >= 0 ? args.splice(at, 2)[1] : null;
  };
  const flag = (name) => (args.includes(name) ? (args.splice(args.indexOf(name), 1), true) : false);
  const n = Number(option('--seeds') ?? 10);
  const first = Number(option('--from') ?? 0);
  const chromium = flag('--chromium');
  const ids = args.length ? args : LESSONS.map((l) => l.id);
  if (chromium) {
    console.log(`lesson           seconds  (Chromium, the page's Seeds field: ${n === 10 ? 'its default' : n} seeds x 2 arms; load ${loadavg()[0].toFixed(1)})`);
    for (const m of await chromiumLessonSeconds(ids, { seeds: n === 10 ? null : n })) console.log(`${m.id.padEnd(16)} ${m.seconds.toFixed(1).padStart(7)}  (${m.seeds} seeds, shown on ${m.count} of ${m.n})`);
  } else {
    const { loadCore } = await import('../web/core/index.js');
    const core = await loadCore();
    const seeds = Array.from({ length: n }, (_, i) => first + i);
    const nulls = `${first + NULL_SEED_OFFSET}-${first + NULL_SEED_OFFSET + n - 1}`;
    // lessons.js records the counts of seeds 0-9 and 20-29 (the page states them): each beside its record.
    const recorded = (lesson) => (first === 0 ? [lesson.measured.effect, lesson.measured.null] : first === 20 ? [lesson.measured.freshEffect, lesson.measured.freshNull] : null);
    console.log(`lesson           effect  null   seconds  s/run  recorded  (seeds ${first}-${first + n - 1}; null: A on seeds ${nulls})`);
    for (const id of ids) {
      const lesson = lessonById(id);
      const m = measureLesson(core, lesson, seeds);
      const record = recorded(lesson);
      const same = !record || n !== 10 || (record[0] === m.effect.count && record[1] === m.control.count);
      console.log(`${id.padEnd(16)} ${`${m.effect.count}/${m.effect.n}`.padEnd(7)} ${`${m.control.count}/${m.control.n}`.padEnd(6)} ${m.seconds.toFixed(1).padStart(7)}  ${m.secondsPerRun.toFixed(1).padStart(5)}  ${record ? `${record[0]}/10 ${record[1]}/10` : '-'}${same ? '' : '  DIFFERS from lessons.js'}`);
    }
  }
}
