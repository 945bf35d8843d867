// Sections 6-9's page as training.test.mjs and training-timing.test.mjs drive it: one server and
// one Chromium per file (useTrainingPage), a fresh page at a config link, the run bar's phase and
// update count, a table's values, and screenshots of a finished run in both languages.
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { PHONE, SHOTS, gotoReady, openPage, useServerAndBrowser } from './helpers.mjs';

let lab = null;

/** The file's server and browser (helpers.mjs useServerAndBrowser), for the functions below. */
export function useTrainingPage() {
  lab = useServerAndBrowser();
  return lab;
}

export async function freshPage(path = 'index.html', hash = '', { viewport } = {}) {
  const opened = await openPage(lab.browser.context, lab.server.origin);
  if (viewport) await opened.page.setViewportSize(viewport);
  await gotoReady(opened.page, `${lab.server.origin}/${path}${hash}`);
  if ((await opened.page.locator('.run-bar button[data-action="run"]').count()) === 0 && path === 'index.html') {
    const text = await opened.page.locator('section#rl-loop').textContent();
    throw new Error(`section 6 has no Run button: ${text.slice(0, 400)} ${JSON.stringify(opened.problems)}`);
  }
  return opened;
}

export const bar = (page, id = 'rl-loop') => page.locator(`section#${id} .run-bar`);

/** Waits for the run's phase, then until sections 6-8 have drawn all of it (they draw in slices). */
export async function waitPhase(page, phase, id = 'rl-loop', timeout = 120000) {
  await page.waitForSelector(`section#${id} .run-bar[data-phase="${phase}"]`, { timeout, state: 'attached' });
  await page.waitForFunction(
    (sectionId) => {
      const bar = document.querySelector(`section#${sectionId} .run-bar`);
      const key = `${bar.dataset.runKey}:${bar.dataset.updatesDone}:${bar.dataset.phase}`;
      const bodies = document.querySelectorAll('section#rl-loop .section-widget, section#updates .section-widget, section#coverage .section-widget');
      return [...bodies].every((body) => body.dataset.drawn === key);
    },
    id,
    { timeout: 30000 },
  );
}

/** Waits until the live run has done `count` updates (the precomputed run on display before it counts 60). */
export async function waitUpdates(page, count, id = 'rl-loop') {
  await page.waitForFunction(
    ([sel, n]) => document.querySelector(sel)?.dataset.source === 'live' && Number(document.querySelector(sel).dataset.updatesDone ?? 0) >= n,
    [`section#${id} .run-bar`, count],
    { timeout: 60000, polling: 'raf' },
  );
}

/** data-value of every cell of a table's body: rows of strings. */
export function tableValues(page, selector) {
  return page.evaluate(
    (sel) => [...document.querySelectorAll(`${sel} tbody tr`)].map((tr) => [...tr.children].map((cell) => cell.dataset.value ?? cell.textContent.trim())),
    selector,
  );
}

/** Screenshots of sections 6-9 after a finished run, in English then Russian (the full run's also at phone width). */
export async function shootFinishedRun(page, profile) {
  await page.waitForSelector('section#coverage .inspect-table');
  await page.locator('section#coverage .response-button').first().click();
  for (const lang of ['en', 'ru']) {
    if (lang === 'ru') {
      await page.locator('.lang-switch button[data-lang="ru"]').click();
      await page.waitForSelector('html[lang="ru"][data-ready="true"]');
      await page.waitForSelector('section#coverage .inspect-table');
      await page.locator('section#coverage .response-button').first().click();
    }
    assert.equal(await bar(page).getAttribute('data-phase'), 'finished');
    for (const id of ['rl-loop', 'updates', 'coverage', 'real-model']) await shoot(page, id, `training-${profile}-${lang}-${id}`);
  }
  if (profile === 'full') {
    await page.setViewportSize(PHONE);
    await page.waitForTimeout(300);
    for (const id of ['rl-loop', 'updates']) await shoot(page, id, `training-full-ru-phone-${id}`);
  }
}

/**
 * Screenshot of one section in test-results/screenshots/ (not committed). Sections 6-9 skip
 * rendering while off screen (content-visibility), so scroll there and let two frames pass.
 */
async function shoot(page, id, name) {
  mkdirSync(SHOTS, { recursive: true });
  const target = page.locator(`section#${id}`);
  await target.scrollIntoViewIfNeeded();
  await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
  await target.screenshot({ path: join(SHOTS, `${name}.png`) });
}
