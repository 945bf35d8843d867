// Section 7's compare panel as a learner meets it, in real Chromium: with nothing picked it says
// what to do (no empty chart); with three picks every chart colours a line by its run and dashes
// it by its metric, its legend one entry per run (and one per metric), not one per line; the
// panel's buttons are the page's buttons. Screenshots EN/RU of the panel and section 7's first
// chart with 3 picks in test-results/page/.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT, launchBrowser, openPage, startServer } from './helpers.mjs';
import en from '../../web/js/i18n/en.js';
import ru from '../../web/js/i18n/ru.js';

const SHOTS = join(ROOT, 'test-results', 'page');
const DICT = { en, ru };

let server;
let browser;
before(async () => {
  [server, browser] = await Promise.all([startServer(), launchBrowser({ viewport: { width: 1280, height: 900 } })]);
  mkdirSync(SHOTS, { recursive: true });
});
after(async () => {
  await browser?.close();
  await server?.close();
});

/** Items grouped by key(item), in first-seen order (Node 20 has no Map.groupBy). */
function groupBy(items, key) {
  const groups = new Map();
  for (const item of items) groups.set(key(item), [...(groups.get(key(item)) ?? []), item]);
  return groups;
}

/** The panel and section 7's charts as drawn: legends, line colours and dashes per dataset. */
function readCharts(page) {
  return page.evaluate(() => {
    const panel = document.querySelector('section#updates .compare-panel');
    const chartOf = (canvas) => window.Chart.getChart(canvas);
    const legendOf = (chart) => chart.options.plugins.legend.labels.generateLabels(chart).map((item) => ({ text: item.text, color: item.strokeStyle, dash: item.lineDash ?? [] }));
    const lines = (chart) => chart.data.datasets.map((d) => ({ label: d.label, run: d.run, style: d.style, color: d.borderColor, dash: d.borderDash ?? [] }));
    const history = chartOf(document.querySelector('section#updates figure.chart-history canvas'));
    const compare = chartOf(panel.querySelector('figure.compare-figure canvas'));
    return {
      empty: panel.querySelector('.compare-empty').hidden ? null : panel.querySelector('.compare-empty').textContent,
      figureHidden: panel.querySelector('figure.compare-figure').hidden,
      compare: compare ? { legend: legendOf(compare), lines: lines(compare) } : null,
      history: { legend: legendOf(history), lines: lines(history) },
      buttons: [...panel.querySelectorAll('button')].map((b) => ({ action: b.dataset.action, classes: [...b.classList], minHeight: getComputedStyle(b).minHeight, radius: getComputedStyle(b).borderRadius })),
      runBarButton: (() => {
        const b = document.querySelector('section#rl-loop .run-bar button[data-action="step"]');
        return { minHeight: getComputedStyle(b).minHeight, radius: getComputedStyle(b).borderRadius };
      })(),
    };
  });
}

test('empty state, then three picks coloured by run and styled by metric, one legend entry per run', async () => {
  const { page, problems } = await openPage(browser.context, server.origin);
  await page.goto(`${server.origin}/index.html#updates`);
  await page.waitForSelector('section#updates[data-rendered="true"] .compare-panel[data-library-count]', { timeout: 60000 });
  // Three short runs, saved as they end (run-saver.js).
  await page.evaluate(async () => {
    const training = await import('/js/training/controller.js');
    const { loadCore } = await import('/core/index.js');
    const core = await loadCore();
    for (const [seed, beta] of [[31, 0], [32, 0.04], [33, 0]]) {
      training.start(core.experimentConfig({ profile: 'smoke', seed, beta, updates: 12 }));
      await new Promise((resolve) => {
        const poll = () => (training.getState().phase === 'finished' ? resolve() : setTimeout(poll, 20));
        poll();
      });
    }
    training.reset(); // the precomputed run on display again
  });
  await page.waitForFunction(() => Number(document.querySelector('.compare-panel').dataset.libraryCount) >= 4, null, { timeout: 30000 });

  let out = await readCharts(page);
  assert.equal(out.empty, en['compare.empty.pick'], 'nothing picked: the panel says what to do');
  assert.equal(out.figureHidden, true, 'and draws no empty chart');
  assert.equal(out.compare, null);
  // The panel's buttons are the page's (run bar's and quiet ones), same height and corners.
  for (const b of out.buttons) {
    assert.ok(b.classes.includes('button-run') || b.classes.includes('button-quiet'), `${b.action}: ${b.classes}`);
    assert.deepEqual({ minHeight: b.minHeight, radius: b.radius }, out.runBarButton, b.action);
  }

  const names = await page.$$eval('section#updates .compare-panel ul.library li', (items) => items.map((li) => li.textContent));
  for (const seed of [31, 32, 33]) {
    const li = page.locator('section#updates .compare-panel ul.library li', { hasText: `seed ${seed} ` });
    assert.equal(await li.count(), 1, `seed ${seed} in ${names.join(' | ')}`);
    await li.locator('input[type="checkbox"]').check();
  }
  // Section 7's history chart draws every series of its CHARTS entry for each of the 4 runs.
  const metrics = await page.evaluate(async () => (await import('/js/sections/updates.js')).CHARTS.find((c) => c.id === 'history').series.map((s) => s.label));
  const dict = (lang) => (key) => DICT[lang][key];
  await page.waitForFunction((n) => window.Chart.getChart(document.querySelector('section#updates figure.chart-history canvas'))?.data.datasets.length === n, 4 * metrics.length);
  out = await readCharts(page);
  assert.equal(out.empty, null);
  // The panel's chart: one line and one legend entry per pick, each its own colour.
  assert.equal(out.compare.lines.length, 3);
  assert.equal(new Set(out.compare.lines.map((l) => l.color)).size, 3);
  assert.equal(out.compare.legend.length, 3);
  // Section 7's history chart: 4 runs x M metrics lines; a run's lines share one colour, a
  // metric's lines share one dash; the legend has 4 runs + M metrics entries, not 4 x M.
  const { lines, legend } = out.history;
  assert.equal(lines.length, 4 * metrics.length);
  const byRun = groupBy(lines, (l) => l.run);
  assert.equal(byRun.size, 4);
  for (const [run, group] of byRun) assert.equal(new Set(group.map((l) => l.color)).size, 1, `${run}: one colour`);
  assert.equal(new Set([...byRun.values()].map((g) => g[0].color)).size, 4, 'four runs, four colours');
  const byMetric = groupBy(lines, (l) => l.style);
  assert.equal(byMetric.size, metrics.length);
  for (const [metric, group] of byMetric) assert.equal(new Set(group.map((l) => JSON.stringify(l.dash))).size, 1, `${metric}: one dash`);
  assert.equal(new Set([...byMetric.values()].map((g) => JSON.stringify(g[0].dash))).size, metrics.length, 'a dash per metric');
  assert.equal(legend.length, 4 + metrics.length);
  assert.deepEqual(legend.slice(0, 4).map((item) => item.color), [...byRun.values()].map((g) => g[0].color), 'the run entries in their colours');
  assert.ok(legend[0].text.startsWith(en['compare.legend.onDisplay'].split('{')[0]), legend[0].text);
  assert.deepEqual(legend.slice(4).map((item) => item.text), metrics.map(dict('en')));

  for (const lang of ['en', 'ru']) {
    if (lang === 'ru') {
      await page.locator('.lang-switch button[data-lang="ru"]').click();
      await page.waitForSelector('html[lang="ru"] section#updates[data-rendered="true"] .compare-panel[data-library-count]', { timeout: 30000 });
      await page.waitForFunction((n) => window.Chart.getChart(document.querySelector('section#updates figure.chart-history canvas'))?.data.datasets.length === n, 4 * metrics.length, { timeout: 30000 });
      const ruOut = await readCharts(page);
      assert.equal(ruOut.history.legend.length, 4 + metrics.length);
      assert.deepEqual(ruOut.history.legend.slice(4).map((item) => item.text), metrics.map(dict('ru')));
      assert.ok(ruOut.history.legend[0].text.startsWith(DICT.ru['compare.legend.onDisplay'].split('{')[0]), ruOut.history.legend[0].text);
    }
    // The docked run bar (fixed at the bottom) is left out of these pictures of the panel.
    await page.evaluate(() => document.querySelector('.run-dock')?.style.setProperty('visibility', 'hidden'));
    for (const [selector, name] of [['section#updates .compare-panel', 'compare-panel-3-picks'], ['section#updates figure.chart-history', 'section7-history-3-picks']]) {
      await page.evaluate((sel) => document.querySelector(sel).scrollIntoView({ block: 'start', behavior: 'instant' }), selector);
      await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
      await page.locator(selector).screenshot({ path: join(SHOTS, `${name}-${lang}.png`) });
    }
    await page.evaluate(() => document.querySelector('.run-dock')?.style.removeProperty('visibility'));
  }
  assert.deepEqual([...problems.console, ...problems.page], []);
  await page.close();
});
