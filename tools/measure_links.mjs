// Measures where each section's link lands, in every engine of tests/browser/engines.mjs, at each
// width, on each page: the course page (index.html#<section>), the embed page
// (embed.html#section=<section>) and the teacher page's preview (teacher.html, the section picked
// in its list; measured inside the preview's iframe). Each link is opened as a fresh document; the
// section's heading is watched for 3.5 s while the widgets mount and fill in. Prints one Markdown
// table per engine and page: the heading's final top and, in brackets, its worst top after the
// first second (px from the top of the viewport; within 16 px is right), and exits 1 if any misses.
//   node tools/measure_links.mjs [--engines chromium,firefox,webkit] [--widths 390,768,1280]
//                                [--pages index,embed,teacher] [--ids setup,updates] [--json out.json]
// WebKit (MiniBrowser) needs a display: the adapter starts an Xvfb of its own when $DISPLAY is unset.
// The engines' windows are narrow desktop windows (no touch, no mobile viewport): Chromium's phone
// emulation (390 x 844, touch, 3x) is tests/browser/phone.test.mjs. MiniBrowser's window does not
// get narrower than its toolbar: WebKit's "390 px" is 447 px here (the table says so).
import { writeFileSync } from 'node:fs';
import { startServer } from '../tests/browser/helpers.mjs';
import { openEngine } from '../tests/browser/engines.mjs';
import { previewSection, watchHeading } from '../tests/browser/phone-measure.mjs';

const IDS = ['setup', 'verifier', 'informative-groups', 'advantages', 'reductions', 'finite-policy', 'rl-loop', 'updates', 'coverage', 'real-model'];
const PAGES = ['index', 'embed', 'teacher'];
const arg = (name, fallback) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1] : fallback;
};
const list = (name, fallback, allowed) => {
  const values = arg(name, fallback).split(',');
  const bad = values.filter((v) => allowed && !allowed.includes(v));
  if (bad.length) throw new Error(`--${name}: each one of ${allowed.join(', ')} (got ${bad.join(', ')})`);
  return values;
};
const engines = list('engines', 'chromium,firefox,webkit', ['chromium', 'firefox', 'webkit']);
const widths = list('widths', '390,768,1280').map(Number);
const pages = list('pages', PAGES.join(','), PAGES);
const ids = list('ids', IDS.join(','), IDS);
if (widths.some((w) => !Number.isInteger(w) || w < 320 || w > 1920)) throw new Error(`--widths: integers in [320, 1920] (got ${widths})`);
const HEIGHT = 844;
const WATCH_MS = 3500;
const SETTLE_MS = 1000;
const LANDING_PX = 16;

/** Opens section `id`'s link on `page` and watches its heading: {last, worst}. */
async function measure(engine, origin, page, id) {
  if (page === 'index') {
    await engine.goto(`${origin}/index.html#${id}`);
    return engine.evaluate(watchHeading, id, WATCH_MS, SETTLE_MS);
  }
  if (page === 'embed') {
    await engine.goto(`${origin}/embed.html#section=${id}&lang=en`);
    return engine.evaluate(watchHeading, id, WATCH_MS, SETTLE_MS);
  }
  await engine.goto(`${origin}/teacher.html`);
  // As an instructor picks: once the page and its first preview are up (data-ready).
  await engine.waitFor(() => document.documentElement.dataset.ready === 'true', { message: 'the teacher page ready' });
  await engine.waitFor(previewSection, { args: [id], message: `the teacher page's section list with ${id}` });
  return engine.evaluate(watchHeading, id, WATCH_MS, SETTLE_MS, 'iframe.teacher-preview');
}

const site = await startServer();
const rows = []; // {engine, page, width, id, last, worst}
try {
  for (const name of engines) {
    const started = Date.now();
    const engine = await openEngine(name, { viewport: { width: widths[0], height: HEIGHT } });
    try {
      for (const width of widths) {
        await engine.setViewport({ width, height: HEIGHT });
        // What the page gets: MiniBrowser's window is never narrower than its toolbar (447 px here).
        const actual = await engine.evaluate(() => window.innerWidth);
        if (actual !== width) console.error(`# ${name}: asked for ${width} px, the page is ${actual} px wide`);
        for (const page of pages) {
          for (const id of ids) {
            const { last, worst } = await measure(engine, site.origin, page, id);
            const row = { engine: name, page, width, actual, id, last, worst };
            rows.push(row);
            console.error(JSON.stringify(row));
          }
        }
      }
    } finally {
      await engine.close();
    }
    console.error(`# ${name}: ${Math.round((Date.now() - started) / 1000)} s`);
  }
} finally {
  await site.close();
}

const missed = rows.filter((r) => r.last === null || Math.abs(r.last) > LANDING_PX || Math.abs(r.worst) > LANDING_PX);
const cell = (r) => (r ? `${r.last} (${r.worst})${missed.includes(r) ? ' **miss**' : ''}` : '—');
for (const name of engines) {
  for (const page of pages) {
    const actual = (w) => rows.find((r) => r.engine === name && r.width === w)?.actual ?? w;
    console.log(`\n| ${page} link (${name}) | ${widths.map((w) => (actual(w) === w ? `${w} px` : `${w} px (is ${actual(w)})`)).join(' | ')} |`);
    console.log(`|---|${widths.map(() => '---').join('|')}|`);
    for (const id of ids) {
      const at = (w) => rows.find((r) => r.engine === name && r.page === page && r.width === w && r.id === id);
      console.log(`| #${id} | ${widths.map((w) => cell(at(w))).join(' | ')} |`);
    }
  }
}
console.log(`\n${rows.length} links, ${missed.length} missed by more than ${LANDING_PX} px`);
const out = arg('json', null);
if (out) writeFileSync(out, `${JSON.stringify(rows, null, 1)}\n`);
process.exitCode = missed.length ? 1 : 0;
