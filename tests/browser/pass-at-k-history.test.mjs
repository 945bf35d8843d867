// Section 8's issue-23 blocks in Chromium: a run with passAtKEvery 10 trained in the page's worker
// shows pass@k during training (a row per logged update: pass@1 and pass@n, base -> now, and the
// crossing) and the response lengths before and after RL; every cell and sentence equals what
// training/pass-at-k-history.js and length-histogram.js give for the same run in Node, in English
// and after a switch to Russian. The precomputed run (passAtKEvery 0) says how to turn it on.
// Screenshots: pass-at-k-history-{en,ru}, lengths-{en,ru}.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { SHOTS, gotoReady, nodeCore, openPage, useServerAndBrowser } from './helpers.mjs';
import { passAtKHistory, passAtKHistorySentences, kindWords } from '../../web/js/training/pass-at-k-history.js';
import { lengthSentences } from '../../web/js/training/length-histogram.js';
import { verdictText } from '../../web/js/training/verdicts.js';
import { loadLanguage, t } from '../../web/js/i18n.js';

const CONFIG = { profile: 'smoke', seed: 9, passAtKEvery: 10 };

const env = useServerAndBrowser();
await loadLanguage('en');
await loadLanguage('ru');

/** test-results/screenshots/NAME.png of one element: on screen at the top, the docked run bar hidden, two frames drawn. */
async function shoot(page, selector, name) {
  mkdirSync(SHOTS, { recursive: true });
  await page.evaluate((sel) => {
    document.querySelector('.run-dock')?.style.setProperty('visibility', 'hidden');
    document.querySelector(sel).scrollIntoView({ block: 'start', behavior: 'instant' });
  }, selector);
  await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
  await page.locator(selector).screenshot({ path: join(SHOTS, `${name}.png`) });
}

const read = (page) =>
  page.evaluate(() => {
    const block = document.querySelector('section#coverage [data-testid="pass-at-k-history"]');
    return {
      logged: block.dataset.logged,
      rows: [...block.querySelectorAll('tbody tr')].map((tr) => [...tr.children].map((cell) => cell.textContent.trim())),
      summary: block.querySelector('.pass-at-k-history-summary').textContent,
      lengths: document.querySelector('section#coverage .lengths-summary').textContent,
    };
  });

test('pass@k during training and the response lengths in section 8 say what Node computes for the run, EN and RU', async () => {
  const { page, problems } = await openPage(env.browser.context, env.server.origin);
  await gotoReady(page, `${env.server.origin}/index.html#coverage`);
  await page.waitForSelector('section#coverage [data-testid="pass-at-k-history"][data-logged="0"]', { state: 'attached', timeout: 60000 });
  assert.equal((await read(page)).summary, t('train.passAtKHistory.off', {}, 'en'), 'the precomputed run logged none');

  await gotoReady(page, `${env.server.origin}/index.html#rl.passAtKEvery=${CONFIG.passAtKEvery}&rl-loop`);
  await page.locator('section#rl-loop button[data-action="run"]').click();
  await page.waitForSelector('section#rl-loop .run-bar[data-phase="finished"]', { timeout: 300000, state: 'attached' });
  await page.waitForSelector('section#coverage [data-testid="pass-at-k-history"]:not([data-logged="0"])', { state: 'attached', timeout: 60000 });

  const core = await nodeCore();
  const run = core.runToyGrpoExperiment(CONFIG);
  const rows = passAtKHistory(run);
  for (const lang of ['en', 'ru']) {
    if (lang === 'ru') {
      await page.locator('.lang-switch button[data-lang="ru"]').click();
      await page.waitForSelector('html[lang="ru"] section#coverage [data-testid="pass-at-k-history"]:not([data-logged="0"])', { state: 'attached', timeout: 60000 });
    }
    const tr = (key, params) => t(key, params, lang);
    const shown = await read(page);
    assert.equal(Number(shown.logged), rows.length);
    assert.deepEqual(
      shown.rows.map((cells) => [cells[0], cells[3], cells[6]]),
      rows.map((r) => [String(r.update), verdictText(tr, kindWords(r.train.verdict)), verdictText(tr, kindWords(r.heldout.verdict))]),
      `${lang}: the crossing per logged update`,
    );
    // pass@1, base -> now, as the table writes it (3 digits).
    assert.deepEqual(shown.rows.map((cells) => cells[1]), rows.map((r) => `${r.train.base[0].toFixed(3)} → ${r.train.values[0].toFixed(3)}`));
    assert.equal(shown.summary, passAtKHistorySentences(rows).map((s) => verdictText(tr, s)).join(' '));
    assert.equal(shown.lengths, lengthSentences(run.lengthHistogram).map((s) => verdictText(tr, s)).join(' '));
    await shoot(page, 'section#coverage [data-testid="pass-at-k-history"]', `pass-at-k-history-${lang}`);
    await shoot(page, 'section#coverage figure[data-chart="lengths"]', `lengths-${lang}`);
  }
  assert.deepEqual([...problems.console, ...problems.page], []);
  await page.close();
});
