// Section 7's "why entropy falls" chart in real Chromium, in English and Russian: the form's
// entropyMechanism box (folded under Evaluation) turns it on, a short smoke run draws the
// measured change on the probe set, the first-order prediction and Cov(log pi, A) from the
// run's history, and the sentence under it says what those numbers say. Without the option the
// chart says how to turn it on. Saves test-results/page/section7-entropy-mechanism-{en,ru}.png.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT, openPage, useServerAndBrowser } from './helpers.mjs';
import { mechanismClaim, mechanismSentence } from '../../web/js/training/entropy-mechanism.js';
import { dictionaryText } from '../../web/js/i18n.js';
import en from '../../web/js/i18n/en.js';
import ru from '../../web/js/i18n/ru.js';
import enTraining from '../../web/js/i18n/en-training.js';
import ruTraining from '../../web/js/i18n/ru-training.js';
import enVerdicts from '../../web/js/i18n/en-verdicts.js';
import ruVerdicts from '../../web/js/i18n/ru-verdicts.js';

const SHOTS = join(ROOT, 'test-results', 'page');
const DICT = { en: { ...en, ...enVerdicts, ...enTraining }, ru: { ...ru, ...ruVerdicts, ...ruTraining } };
const UPDATES = 12;

const env = useServerAndBrowser({ viewport: { width: 1280, height: 900 } });
mkdirSync(SHOTS, { recursive: true });

/** Section 7's mechanism figure as drawn: its series, notes and the run's history. */
function readMechanism(page) {
  return page.evaluate(async () => {
    const training = await import('/js/training/controller.js');
    const figure = document.querySelector('section#updates figure.chart-mechanism');
    const chart = window.Chart.getChart(figure.querySelector('canvas'));
    const empty = figure.querySelector('.chart-empty');
    const sentence = figure.querySelector('.chart-sentence');
    return {
      history: training.getState().history,
      datasets: chart.data.datasets.map((d) => ({ label: d.label, axis: d.yAxisID, y: d.data.map((p) => p.y) })),
      axes: Object.fromEntries(Object.entries(chart.options.scales).map(([id, s]) => [id, s.title?.text ?? ''])),
      empty: empty.hidden ? null : empty.textContent,
      sentence: sentence.hidden ? null : sentence.textContent,
    };
  });
}

for (const lang of ['en', 'ru']) {
  test(`${lang}: entropyMechanism from the form draws why entropy falls, and the sentence says the numbers`, async () => {
    const dict = DICT[lang];
    const { page, problems } = await openPage(env.browser.context, env.server.origin);
    await page.goto(`${env.server.origin}/index.html#lang=${lang}&rl.updates=${UPDATES}&rl-loop`);
    await page.waitForSelector('section#rl-loop[data-rendered="true"] .run-bar[data-phase="precomputed"]', { timeout: 60000 });
    // The precomputed run has no mechanism columns: the chart says how to turn it on.
    await page.evaluate(() => document.getElementById('updates').scrollIntoView({ behavior: 'instant' }));
    await page.waitForSelector('section#updates[data-rendered="true"] figure.chart-mechanism', { timeout: 60000 });
    await page.waitForFunction(() => document.querySelector('section#updates [data-drawn]')?.dataset.drawn?.endsWith(':precomputed'), null, { timeout: 60000 });
    const precomputed = await readMechanism(page);
    assert.equal(precomputed.empty, dict['train.mechanism.off']);
    assert.equal(precomputed.sentence, null);

    // The field is in the folded Evaluation group; checking it puts it into the link.
    await page.evaluate(() => document.getElementById('rl-loop').scrollIntoView({ behavior: 'instant' }));
    const fold = page.locator('section#rl-loop details.field-fold[data-group="evaluation"]');
    assert.equal(await fold.evaluate((d) => d.open), false, 'folded');
    await fold.locator('summary').click();
    const box = page.locator('section#rl-loop [data-key="rl.entropyMechanism"]');
    assert.equal(await box.isChecked(), false);
    await box.check();
    await page.waitForFunction(() => location.hash.includes('rl.entropyMechanism=1'));
    await page.click('section#rl-loop .run-bar button[data-action="run"]');
    await page.evaluate(async () => {
      const training = await import('/js/training/controller.js');
      await new Promise((resolve) => {
        const poll = () => (training.getState().phase === 'finished' ? resolve() : setTimeout(poll, 20));
        poll();
      });
    });
    await page.evaluate(() => document.getElementById('updates').scrollIntoView({ behavior: 'instant' }));
    await page.waitForFunction((n) => document.querySelector('section#updates [data-drawn]')?.dataset.drawn?.endsWith(`:${n}:finished`), UPDATES, { timeout: 60000 });
    const shown = await readMechanism(page);

    const { history } = shown;
    assert.equal(history.length, UPDATES);
    assert.equal(shown.empty, null);
    assert.deepEqual(
      shown.datasets.map((d) => [d.label, d.axis]),
      [
        [dict['train.series.probeChange'], 'y'],
        [dict['train.series.probePrediction'], 'y'],
        [dict['train.series.logpAdvantageCov'], 'y1'],
      ],
    );
    assert.deepEqual(shown.axes.y, dict['train.axis.probeChange']);
    assert.deepEqual(shown.axes.y1, dict['train.axis.logpAdvantageCov']);
    ['probeEntropyChange', 'probeEntropyPrediction', 'logpAdvantageCov'].forEach((key, i) => assert.deepEqual(shown.datasets[i].y, history.map((row) => row[key]), key));

    // The sentence, re-derived from the page's own numbers.
    const agree = history.filter((row) => Math.sign(row.probeEntropyChange) === Math.sign(row.probeEntropyPrediction)).length;
    const positive = history.filter((row) => row.logpAdvantageCov > 0).length;
    const measured = history.reduce((a, row) => a + row.probeEntropyChange, 0);
    console.log(`# ${lang}: ${agree} of ${history.length} signs agree, Cov > 0 on ${positive}, summed change ${measured.toFixed(4)}: ${shown.sentence}`);
    assert.ok(agree >= 0.8 * history.length, `${agree} of ${history.length}`);
    assert.equal(shown.sentence, mechanismSentence(mechanismClaim(history), dictionaryText(dict, lang)));
    if (lang === 'en') assert.ok(shown.sentence.startsWith(`On ${agree} of ${UPDATES} updates, `), shown.sentence);
    else assert.ok(shown.sentence.startsWith(`На ${agree} из ${UPDATES} обновлений `), shown.sentence);
    const confident = measured < 0 && 2 * positive > history.length;
    const phrase = lang === 'en' ? 'confident tokens with a positive advantage drive it down.' : 'энтропию снижают уверенные токены с положительным преимуществом.';
    assert.equal(shown.sentence.endsWith(phrase), confident, shown.sentence);

    await page.locator('section#updates figure.chart-mechanism').screenshot({ path: join(SHOTS, `section7-entropy-mechanism-${lang}.png`) });
    assert.deepEqual([...problems.console, ...problems.page], []);
    await page.close();
  });
}
