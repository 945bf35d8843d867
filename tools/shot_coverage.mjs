// Screenshots of section 8's train coverage chart with a prompt's answer panel open (issue 24
// item 6), at 1280 and 390 px, in English and Russian, for the page's run or an imported run file:
// node tools/shot_coverage.mjs [--run file.json] [--out dir] [--tag name]. Prints, per shot, the
// bars' pitch in CSS px and whether the chart scrolls sideways in its figure.
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { startServer, launchBrowser, mountAll } from '../tests/browser/helpers.mjs';

const { values } = parseArgs({ options: { run: { type: 'string' }, out: { type: 'string', default: 'test-results/coverage' }, tag: { type: 'string', default: 'smoke' } } });
const server = await startServer();
const errors = [];
for (const width of [1280, 390]) {
  const browser = await launchBrowser({ viewport: { width, height: width > 800 ? 900 : 844 } });
  for (const lang of ['en', 'ru']) {
    const page = await browser.context.newPage();
    page.on('pageerror', (e) => errors.push(String(e)));
    page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
    await page.goto(`${server.origin}/index.html#lang=${lang}`);
    await mountAll(page);
    if (values.run) {
      await page.locator('section#rl-loop input[type="file"]').setInputFiles({ name: 'run.json', mimeType: 'application/json', buffer: readFileSync(values.run) });
      await page.waitForSelector('section#rl-loop .run-bar[data-phase="imported"]', { timeout: 120000, state: 'attached' });
    }
    const canvas = 'section#coverage figure[data-chart="coverage"] canvas';
    await page.waitForFunction((s) => window.Chart?.getChart(document.querySelector(s))?.data.datasets[1]?.data.some((v) => v !== null), canvas, { timeout: 120000 });
    // Another run's prompt count resizes the chart box: wait until the canvas has followed it.
    await page.waitForTimeout(1500);
    const info = await page.evaluate((s) => {
      const el = document.querySelector(s);
      const chart = window.Chart.getChart(el);
      const figure = el.closest('figure');
      el.scrollIntoView({ block: 'start', behavior: 'instant' });
      const rows = chart.data.labels.length;
      const lost = chart.data.labels.findIndex((l) => l.startsWith('✗'));
      const index = Math.max(0, lost);
      const x = chart.getDatasetMeta(0).data[index].x;
      figure.scrollLeft = Math.max(0, x - figure.clientWidth / 2);
      const rect = el.getBoundingClientRect();
      return { rows, pitch: chart.chartArea.width / rows, scrolls: figure.scrollWidth > figure.clientWidth + 1, x: rect.left + x, y: rect.top + chart.chartArea.bottom - 4, label: chart.data.labels[index] };
    }, canvas);
    await page.mouse.click(info.x, info.y);
    await page.waitForSelector('section#coverage figure[data-chart="coverage"] .answer-panel:not([hidden])');
    // The docked run bar would cover the figure's lower part in an element screenshot.
    await page.addStyleTag({ content: '.run-dock { display: none !important; }' });
    const name = `${values.out}/histo-${values.tag}-${lang}-${width}.png`;
    await page.locator('section#coverage figure[data-chart="coverage"]').screenshot({ path: name });
    console.log(name, `${info.rows} prompts, ${info.pitch.toFixed(1)} px a prompt, scrolls: ${info.scrolls}, clicked ${info.label}`);
    await page.close();
  }
  await browser.close();
}
console.log('errors:', JSON.stringify(errors));
await server.close();
