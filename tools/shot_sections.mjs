// Screenshots of every section of the course page after a run trained in the page, in English and
// Russian (issue 24: "every section after a hot-learning-rate run and after a default run"):
// node tools/shot_sections.mjs [--preset hotLr] [--hash profile=full] [--width 1280] [--out dir]
// [--sections 6,7,8] [--langs en,ru] [--chunk 900]. The preset is one of section 6's
// (web/js/training/presets.js), clicked in the page before Run; --hash adds link keys first.
// Prints each file and any page error; exits 1 on a page error.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { ROOT, startServer, launchBrowser, openPage, mountAll } from '../tests/browser/helpers.mjs';

const { values } = parseArgs({
  options: {
    preset: { type: 'string', default: 'notebook' },
    hash: { type: 'string', default: '' },
    width: { type: 'string', default: '1280' },
    out: { type: 'string', default: join(ROOT, 'test-results', 'sections') },
    sections: { type: 'string', default: '' },
    langs: { type: 'string', default: 'en,ru' },
    // Taller sections are saved in parts of this many CSS px (0: one image per section).
    chunk: { type: 'string', default: '0' },
  },
});
const width = Number(values.width);
const viewport = { width, height: width > 800 ? 900 : 844 };
mkdirSync(values.out, { recursive: true });
const server = await startServer();
const browser = await launchBrowser({ viewport });
const { page, problems } = await openPage(browser.context, server.origin);
await page.goto(`${server.origin}/index.html#lang=en${values.hash ? `&${values.hash}` : ''}&rl-loop`);
await page.waitForSelector('section#rl-loop[data-rendered="true"] .run-bar[data-phase="precomputed"]', { timeout: 120000 });
await page.click(`section#rl-loop [data-preset="${values.preset}"]`);
await page.click('section#rl-loop .run-bar button[data-action="run"]');
await page.waitForSelector('section#rl-loop .run-bar[data-phase="finished"]', { timeout: 600000, state: 'attached' });
await mountAll(page);
// The dock would cover a section's lower part in an element screenshot.
await page.addStyleTag({ content: '.run-dock { display: none !important; }' });
const ids = await page.$$eval('main section.section', (nodes) => nodes.map((n) => n.id));
const wanted = values.sections ? values.sections.split(',').map(Number) : ids.map((_, i) => i);
for (const lang of values.langs.split(',')) {
  if (lang !== 'en') {
    await page.click(`.lang-switch button[data-lang="${lang}"]`);
    await page.waitForSelector(`html[lang="${lang}"][data-ready="true"]`, { timeout: 60000 });
    await mountAll(page);
  }
  for (const number of wanted) {
    const id = ids[number];
    const target = page.locator(`section#${id}`);
    await target.scrollIntoViewIfNeeded();
    // Sections 6-9 skip rendering while off screen: let the charts draw.
    await page.waitForTimeout(number >= 6 ? 1500 : 300);
    const tag = values.hash ? `${values.preset}-${values.hash.replace(/[^\w.]+/g, '_')}` : values.preset;
    const name = `${tag}-${lang}-${width}-s${number}-${id}`;
    const chunk = Number(values.chunk);
    if (!chunk) {
      await target.screenshot({ path: join(values.out, `${name}.png`) });
      console.log(join(values.out, `${name}.png`));
      continue;
    }
    const box = await target.evaluate((el) => {
      const r = el.getBoundingClientRect();
      return { x: r.left + scrollX, y: r.top + scrollY, width: r.width, height: r.height };
    });
    // Each part scrolled to the top of the screen first: a chart draws when it comes into view.
    const step = Math.min(chunk, viewport.height);
    for (let part = 0; part * step < box.height; part += 1) {
      const file = join(values.out, `${name}-${String(part + 1).padStart(2, '0')}.png`);
      const y = box.y + part * step;
      await page.evaluate((top) => window.scrollTo({ top, behavior: 'instant' }), y);
      await page.waitForTimeout(number >= 3 ? 900 : 200);
      const top = await page.evaluate((want) => want - window.scrollY, y);
      await page.screenshot({ path: file, clip: { x: box.x, y: top, width: box.width, height: Math.min(step, box.y + box.height - y, viewport.height - top) } });
      console.log(file);
    }
  }
}
const errors = [...problems.console, ...problems.page];
console.log('page errors:', JSON.stringify(errors));
await browser.close();
await server.close();
process.exit(errors.length ? 1 : 0);
