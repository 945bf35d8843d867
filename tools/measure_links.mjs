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
// get narrower than its toolbar (447 px here): narrower widths are an iframe of that size, marked
// "(iframe)" in the table.
import { writeFileSync } from 'node:fs';
import { startServer } from '../tests/browser/helpers.mjs';
import { openEngine } from '../tests/browser/engines.mjs';
import { narrowFrame, previewSection, watchHeading } from '../tests/browser/phone-measure.mjs';

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

/**
 * Opens section `id`'s link on `page` and watches its heading: {last, worst}. narrow: the width to
 * get from an iframe of that size, when the engine's window cannot be that narrow (else null).
 */
async function measure(engine, origin, page, id, narrow) {
  const url = { index: `${origin}/index.html#${id}`, embed: `${origin}/embed.html#section=${id}&lang=en`, teacher: `${origin}/teacher.html` }[page];
  let frame = null;
  if (narrow) {
    // Any same-origin document will do as the frame's host: a stylesheet shown as text.
    await engine.goto(`${origin}/css/main.css`);
    frame = await engine.evaluate(narrowFrame, url, narrow, HEIGHT);
  } else await engine.goto(url);
  if (page !== 'teacher') return engine.evaluate(watchHeading, id, WATCH_MS, SETTLE_MS, frame);
  // As an instructor picks: once the page and its first preview are up.
  await engine.waitFor(previewSection, { args: [id, frame], message: `the teacher page ready, with ${id} in its list` });
  return engine.evaluate(watchHeading, id, WATCH_MS, SETTLE_MS, [...(frame ? [frame] : []), 'iframe.teacher-preview']);
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
        // MiniBrowser's window is never narrower than its toolbar (447 px here): below that, the
        // page is measured in an iframe of the width asked for (`framed` in the rows).
        const window = await engine.evaluate(() => window.innerWidth);
        const narrow = window > width ? width : null;
        if (narrow) console.error(`# ${name}: the window is ${window} px wide at least; ${width} px is an iframe`);
        for (const page of pages) {
          for (const id of ids) {
            const { last, worst } = await measure(engine, site.origin, page, id, narrow);
            const row = { engine: name, page, width, framed: Boolean(narrow), id, last, worst };
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
    const framed = (w) => rows.some((r) => r.engine === name && r.width === w && r.framed);
    console.log(`\n| ${page} link (${name}) | ${widths.map((w) => `${w} px${framed(w) ? ' (iframe)' : ''}`).join(' | ')} |`);
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
