// Comparison links (`#cmp=`) on embed.html, in Chromium: a link needing more runs than the library
// keeps says so, trains once and shows every seed (batches named by their β); values the trainer
// refuses (a seed past 2^32 - 1, 200 + 200 prompts) are refused before any run; refused link text
// is quoted as text, cut, without bidi marks (EN, RU). Stop within 1 s: compare-link.test.mjs.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { panel, statusText, useCompareLinkPage } from './compare-link-page.mjs';
import en from '../../web/js/i18n/en.js';

describe('comparison links: the library and refusals', () => {
  const { embed, counted } = useCompareLinkPage();

  it('more runs than the library keeps (4 x 16): it says so, trains once, shows every seed, names the batches by β', async () => {
    const { page, problems } = await counted();
    // Small runs (1 update, no warm-up), the four batches different in β only.
    const small = 'updates:1,warmupSteps:0,finalEvalSamples:4,evalSamples:1,seed:1,n:16';
    const link = [0, 0.01, 0.02, 0.03].map((beta) => `beta:${beta},${small}`).join(';');
    await page.goto(embed(link));
    await page.locator(`${panel} .link-confirm[data-over-cap="true"][data-over-budget="false"][data-to-train="64"]`).waitFor({ timeout: 60000 });
    await page.click('button[data-action="train-link"]');
    await page.waitForSelector(`${panel}[data-phase="finished"]`, { state: 'attached', timeout: 600000 });
    const table = await page.$$eval(`${panel} .seed-estimators`, ([t]) => ({
      caption: t.querySelector('caption').textContent,
      columns: [...t.querySelectorAll('thead th')].map((th) => th.textContent),
      cells: [...t.querySelectorAll('tbody td')].map((td) => td.textContent),
    }));
    assert.deepEqual(table.columns.slice(2), ['β = 0', 'β = 0.01', 'β = 0.02', 'β = 0.03'], 'columns named by what differs');
    assert.match(table.caption, /one column per batch \(16 seeds; the batches differ in β\)/);
    assert.equal(table.cells.length, 16 * 5);
    assert.deepEqual(table.cells.filter((cell) => !/^\d/.test(cell)), [], 'no empty cell: every seed trained is shown');
    const legend = await page.evaluate(() => window.Chart.getChart(document.querySelector('.compare-panel canvas')).data.datasets.map((d) => d.label).filter((l) => /β/.test(l)));
    assert.ok(legend.some((label) => label.includes('(β = 0.03)')), `chart: ${legend}`);
    assert.match(await page.locator(`${panel} .paired-estimators li`).first().textContent(), /β = 0\b.*β = 0\.01/);
    // Opened again: the library kept 50, the rest would train again, and the question says so.
    await page.goto('about:blank');
    await page.goto(embed(link));
    const again = page.locator(`${panel} .link-confirm[data-over-cap="true"]`);
    await again.waitFor({ timeout: 60000 });
    const toTrain = Number(await again.getAttribute('data-to-train'));
    assert.ok(toTrain >= 14 && toTrain <= 15, `runs to train again: ${toTrain}`);
    await page.click('button[data-action="decline-link"]');
    await page.waitForSelector(`${panel}[data-phase="declined"]`, { state: 'attached' });
    assert.equal(await statusText(page), en['compare.link.declined']);
    assert.match(page.url(), /cmp=/, 'the declined link stays in the address');
    assert.deepEqual(problems.page, []);
    await page.close();
  });

  it('refuses before any run what the trainer would refuse; quotes link text cut, with no bidi marks (EN, RU)', async () => {
    const { page, problems, live } = await counted();
    const refusal = async (cmp, extra = '') => {
      await page.goto('about:blank');
      await page.goto(embed(cmp, extra));
      await page.waitForSelector(`${panel}[data-phase="refused"]`, { state: 'attached', timeout: 60000 });
      return statusText(page);
    };
    const idle = live.size;
    assert.match(await refusal('seed:4294967295,n:16'), /cannot be opened: seed: .*4294967295.*4294967296/);
    assert.match(await refusal('trainPrompts:150,heldoutPrompts:150'), /cannot be opened: heldoutPrompts: at most 155 in total, got 300/);
    assert.match(await refusal('trainPrompts:200,heldoutPrompts:200'), /cannot be opened: trainPrompts: .*200/);
    assert.match(await refusal('__proto__:x'), /cannot be opened: run 1: «__proto__:x» is not field:value/);
    // Markup in the link is quoted as text, cut: the status holds no element.
    const markup = await refusal('seed:9;<img src=x onerror=alert(1)>:1');
    assert.ok(markup.includes('run 2: «<img src=x onerror=alert(1)>:1» is not field:value'), markup);
    assert.equal(await page.locator(`${panel} .seeds-status *`).count(), 0);
    const bidi = await refusal(`seed:9,lossType:\u202Egrpo\u2066${'x'.repeat(200)}`);
    assert.doesNotMatch(bidi, /[\u202a-\u202e\u2066-\u2069]/);
    assert.ok(bidi.includes(`«lossType:grpo${'x'.repeat(27)}…»`), bidi);
    assert.match(await refusal('seed:9,seed:3', '&lang=ru'), /^Сравнение из ссылки открыть нельзя: запуск 1: поле seed задано дважды/);
    assert.equal(live.size, idle, 'no seed worker started');
    assert.match(page.url(), /cmp=/, 'the refused link stays in the address');
    assert.deepEqual(problems.page, []);
    await page.close();
  });
});
