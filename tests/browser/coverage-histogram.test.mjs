// Section 8's answer panel in real headless Chromium, in English and Russian: a click on a prompt's
// bars (and Enter on the focused chart after the arrow keys) opens the prompt's answers before and
// after RL; the panel's sentence and table are the run's own histograms (web/data/smoke-run.json,
// the run the page shows), and a run imported without histograms (saved before them) says they
// were not recorded.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { chromium } from 'playwright-core';
import { CHROMIUM_ARGS, gotoReady, openPage, screenshot, useServerAndBrowser } from './helpers.mjs';
import { coverageByBefore } from '../../web/js/training/run-format.js';
import { answersOf, answerRows, answerSentences, answerText, binLabel } from '../../web/js/training/answer-histogram.js';
import { t, loadLanguage, setLanguage } from '../../web/js/i18n.js';

const env = useServerAndBrowser();
const run = JSON.parse(readFileSync(new URL('../../web/data/smoke-run.json', import.meta.url), 'utf8'));
await loadLanguage('en');
await loadLanguage('ru');

const CANVAS = 'section#coverage figure[data-chart="coverage"] canvas';
const PANEL = 'section#coverage figure[data-chart="coverage"] .answer-panel';

/** Where bar `index`'s column is on screen, once the chart and its place on the page have held still for
 * three frames (a section above that mounts late, or a resize, moves it under a click computed too early). */
const barPoint = (page, selector, index) =>
  page.evaluate(
    async ({ selector, i }) => {
      const canvas = document.querySelector(selector);
      const chart = window.Chart.getChart(canvas);
      const figure = canvas.closest('figure');
      const frame = () => new Promise((resolve) => requestAnimationFrame(resolve));
      let point = null;
      let last = '';
      for (let still = 0, frames = 0; still < 3 && frames < 300; frames += 1) {
        canvas.scrollIntoView({ block: 'center', behavior: 'instant' });
        const x = (chart.getDatasetMeta(0).data[i].x + chart.getDatasetMeta(1).data[i].x) / 2;
        figure.scrollLeft = Math.max(0, x - figure.clientWidth / 2);
        await frame();
        const rect = canvas.getBoundingClientRect();
        point = { x: rect.left + x, y: rect.top + chart.chartArea.bottom - 4 };
        const now = JSON.stringify([point, chart.animating ?? false]);
        still = now === last ? still + 1 : 0;
        last = now;
      }
      return point;
    },
    { selector, i: index },
  );

/** Clicks (or taps) the middle of bar `index`'s column, near the axis (a lost prompt's after bar is 0 high),
 * again if no panel opened (the page moved between the measure and the click). */
async function clickBar(page, index, { tap = false, selector = CANVAS } = {}) {
  const panel = page.locator(selector).locator('xpath=ancestor::figure[1]').locator('.answer-panel');
  for (let attempt = 0; attempt < 3; attempt += 1) {
    const before = await panel.evaluate((el) => `${el.hidden}:${el.dataset.promptId ?? ''}`);
    const point = await barPoint(page, selector, index);
    if (tap) await page.touchscreen.tap(point.x, point.y);
    else await page.mouse.click(point.x, point.y);
    const opened = await page
      .waitForFunction(({ el, before }) => !el.hidden && `${el.hidden}:${el.dataset.promptId ?? ''}` !== before, { el: await panel.elementHandle(), before }, { timeout: 3000 })
      .then(() => true, () => false);
    if (opened) return;
  }
}

/** The open panel as text: its prompt id, its sentence and its table's rows of cells. */
const panelState = (page, panelSelector = PANEL) =>
  page.evaluate((selector) => {
    const panel = document.querySelector(selector);
    return {
      hidden: panel?.hidden ?? true,
      promptId: panel?.dataset.promptId ?? null,
      sentence: panel?.querySelector('.answer-sentence')?.textContent ?? '',
      rows: [...(panel?.querySelectorAll('.answer-table tbody tr') ?? [])].map((tr) => [...tr.children].map((cell) => cell.textContent.trim())),
    };
  }, panelSelector);

/** What the panel must show for a prompt of `result`, in the current language of `t`. */
function expected(result, promptId, split = 'Train') {
  const before = answersOf(result[`before${split}ByPrompt`], promptId);
  const after = answersOf(result[`after${split}ByPrompt`], promptId);
  const correct = before?.[0]?.answer ?? after?.[0]?.answer ?? '?';
  const text = (v) => (v === 'other' ? t('train.answers.inOther') : String(v));
  return {
    sentence: answerText(t, answerSentences(before, after, correct)),
    rows: before || after ? answerRows(before, after).map((r) => [`${binLabel(t, r)}${r.kind === 'correct' ? ` ${t('train.answers.correctMark')}` : ''}`, text(r.before), text(r.after)]) : [],
  };
}

const waitDrawn = (page) =>
  page.waitForFunction((selector) => window.Chart?.getChart(document.querySelector(selector))?.data.datasets[1]?.data.some((v) => v !== null), CANVAS, { timeout: 60000 });

const rows = coverageByBefore(run.beforeTrainByPrompt, run.afterTrainByPrompt);
// A prompt that lost all success, the panel's reason to exist (the default run has some).
const lostIndex = Math.max(0, rows.findIndex((r) => r.lost));

for (const lang of ['en', 'ru']) {
  test(`${lang}: a click on a prompt's bars, or Enter on the chart, shows its answers before and after RL`, async () => {
    setLanguage(lang);
    const { page, problems } = await openPage(env.browser.context, env.server.origin);
    await gotoReady(page, `${env.server.origin}/index.html#lang=${lang}`);
    await waitDrawn(page);
    assert.equal((await panelState(page)).hidden, true, 'closed until a prompt is picked');

    await clickBar(page, lostIndex);
    await page.waitForSelector(`${PANEL}:not([hidden])`);
    let shown = await panelState(page);
    const prompt = rows[lostIndex];
    assert.equal(shown.promptId, String(prompt.promptId), `the clicked prompt ${prompt.prompt}`);
    const want = expected(run, prompt.promptId);
    assert.equal(shown.sentence, want.sentence);
    assert.deepEqual(shown.rows, want.rows);
    assert.ok(shown.rows.length >= 2, 'a histogram, not one row');
    // The sentence's numbers are the run's: the correct answer's count before RL is its successes.
    const successes = Math.round(run.beforeTrainByPrompt.find((r) => r.promptId === prompt.promptId).accuracy * run.config.finalEvalSamples);
    assert.equal(shown.rows[0][1], String(successes));
    await page.evaluate((selector) => document.querySelector(selector).scrollIntoView({ block: 'center', behavior: 'instant' }), PANEL);
    await screenshot(page, `coverage-histogram-${lang}`);

    // The keyboard: focus the chart, one arrow from the prompt shown to its neighbour, Enter.
    const next = lostIndex > 0 ? lostIndex - 1 : lostIndex + 1;
    await page.focus(CANVAS);
    await page.keyboard.press(next < lostIndex ? 'ArrowLeft' : 'ArrowRight');
    await page.keyboard.press('Enter');
    await page.waitForFunction(({ selector, id }) => document.querySelector(selector)?.dataset.promptId === id, { selector: PANEL, id: String(rows[next].promptId) }, { timeout: 10000 });
    shown = await panelState(page);
    assert.deepEqual({ sentence: shown.sentence, rows: shown.rows }, expected(run, rows[next].promptId));

    await page.click(`${PANEL} [data-action="close-answers"]`);
    assert.equal((await panelState(page)).hidden, true, 'Close hides it');

    // The held-out chart has its own panel.
    const held = coverageByBefore(run.beforeHeldoutByPrompt, run.afterHeldoutByPrompt);
    const heldPanel = 'section#coverage figure[data-chart="coverage-heldout"] .answer-panel';
    await clickBar(page, 0, { selector: 'section#coverage figure[data-chart="coverage-heldout"] canvas' });
    await page.waitForSelector(`${heldPanel}:not([hidden])`);
    shown = await panelState(page, heldPanel);
    assert.equal(shown.promptId, String(held[0].promptId));
    assert.deepEqual({ sentence: shown.sentence, rows: shown.rows }, expected(run, held[0].promptId, 'Heldout'));
    assert.deepEqual(problems, { console: [], page: [], csp: [], outside: [] });
    await page.close();
    setLanguage('en');
  });
}

test('a run saved before the histograms opens a panel that says they were not recorded', async () => {
  setLanguage('en');
  const older = structuredClone(run);
  for (const key of ['beforeTrainByPrompt', 'afterTrainByPrompt', 'beforeHeldoutByPrompt', 'afterHeldoutByPrompt']) for (const row of older[key]) delete row.answers;
  const { page, problems } = await openPage(env.browser.context, env.server.origin);
  await gotoReady(page, `${env.server.origin}/index.html#rl-loop`);
  await page.locator('section#rl-loop input[type="file"]').setInputFiles({ name: 'older.json', mimeType: 'application/json', buffer: Buffer.from(JSON.stringify(older)) });
  await page.waitForSelector('section#rl-loop .run-bar[data-phase="imported"]', { timeout: 60000, state: 'attached' });
  await waitDrawn(page);
  await clickBar(page, lostIndex);
  await page.waitForSelector(`${PANEL}:not([hidden])`);
  const shown = await panelState(page);
  assert.equal(shown.sentence, t('train.answers.notRecorded'));
  assert.deepEqual(shown.rows, []);
  assert.deepEqual(problems, { console: [], page: [], csp: [], outside: [] });
  await page.close();
});

test('ru, a phone (390 px, touch): a tap on a prompt\'s bars opens its answers', async () => {
  setLanguage('ru');
  const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', headless: true, args: CHROMIUM_ARGS });
  try {
    const context = await browser.newContext({ viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true, serviceWorkers: 'block' });
    const { page, problems } = await openPage(context, env.server.origin);
    await gotoReady(page, `${env.server.origin}/index.html#lang=ru`);
    await waitDrawn(page);
    await clickBar(page, lostIndex, { tap: true });
    await page.waitForSelector(`${PANEL}:not([hidden])`);
    const shown = await panelState(page);
    assert.equal(shown.promptId, String(rows[lostIndex].promptId));
    assert.deepEqual({ sentence: shown.sentence, rows: shown.rows }, expected(run, rows[lostIndex].promptId));
    assert.deepEqual(problems, { console: [], page: [], csp: [], outside: [] });
    await context.close();
  } finally {
    await browser.close();
    setLanguage('en');
  }
});
