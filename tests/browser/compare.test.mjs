// Section 7's "Compare runs" panel in Chromium: finished runs go into the run library and survive
// a reload; an 8-seed batch draws its mean and min-max band and a per-seed before/after table;
// four picked runs get a config-diff table; two configs on the same seeds get a paired
// comparison; Clear empties the library; "GRPO and its ancestors" runs each advantage estimator on
// the same seeds; a link trains what the library lacks after the reader's click. Screenshots of the overlay, the band and the ancestors.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { gotoReady, launchBrowser, openPage, screenshot, startServer } from './helpers.mjs';

describe('compare runs (section 7)', () => {
  let server;
  let browser;
  let page;
  let problems;
  const URL_OF = () => `${server.origin}/embed.html#section=updates&profile=smoke&seed=9`;
  const open = async () => {
    await page.goto(URL_OF());
    await page.waitForSelector('html[data-ready="true"]', { state: 'attached', timeout: 60000 });
    await page.waitForSelector('.compare-panel[data-library-count]', { state: 'attached', timeout: 30000 });
  };
  const count = () => page.evaluate(() => Number(document.querySelector('.compare-panel').dataset.libraryCount));
  const batch = async (n, hash) => {
    if (hash) {
      await page.evaluate((h) => (location.hash = h), hash);
      await page.waitForTimeout(300);
    }
    await page.fill('#compare-seeds', String(n));
    await page.evaluate(() => delete document.querySelector('.compare-panel').dataset.phase);
    await page.click('button[data-action="run-seeds"]');
    await page.waitForSelector('.compare-panel[data-phase="finished"]', { state: 'attached', timeout: 300000 });
    await page.waitForFunction(() => !document.querySelector('button[data-action="run-seeds"]').disabled);
  };
  // A screenshot from the top of `from` to the bottom of `to` (the chart and its table).
  const shoot = async (name, from, to) => {
    await page.locator(from).scrollIntoViewIfNeeded();
    const a = await page.locator(from).boundingBox();
    const b = await page.locator(to).boundingBox();
    const top = Math.min(a.y, b.y);
    await screenshot(page, name, { fullPage: true, clip: { x: 0, y: top + (await page.evaluate(() => scrollY)), width: 1280, height: Math.max(a.y + a.height, b.y + b.height) - top + 8 } });
  };
  before(async () => {
    server = await startServer();
    browser = await launchBrowser();
    ({ page, problems } = await openPage(browser.context, server.origin));
    await open();
  });
  after(async () => {
    await browser?.close();
    await server?.close();
  });

  it('keeps the precomputed run in the library, named by its config', async () => {
    await page.waitForFunction(() => Number(document.querySelector('.compare-panel').dataset.libraryCount) >= 1, null, { timeout: 30000 });
    const names = await page.$$eval('.compare-panel ul.library li label', (labels) => labels.map((label) => label.textContent.trim()));
    assert.deepEqual(names, ['dapo, seed 9 (precomputed)']);
    // Beside its name, the run opens in section 7's step inspector (docs/inspector.md).
    assert.equal(await page.locator('.compare-panel ul.library li button[data-action="inspect-run"]').count(), 1);
  });

  it('runs 8 seeds in parallel workers: a mean with a min-max band and a per-seed table', async () => {
    await batch(8);
    const out = await page.evaluate(() => {
      const chart = window.Chart.getChart(document.querySelector('figure.compare-figure canvas'));
      return {
        labels: chart.data.datasets.map((d) => d.label),
        points: chart.data.datasets.map((d) => d.data.length),
        rows: [...document.querySelectorAll('.seed-before-after tbody th')].map((th) => th.textContent),
      };
    });
    assert.deepEqual(out.rows, ['9', '10', '11', '12', '13', '14', '15', '16']);
    assert.equal(out.labels.length, 3, 'band max, band min, mean');
    assert.match(out.labels[2], /mean of 8 seeds: dapo, seed 9-16/);
    assert.deepEqual(out.points, [60, 60, 60]);
    assert.equal(await count(), 8, 'eight seeds; seed 9 is the precomputed run itself (same config and history: one entry)');
    await shoot('compare-8-seeds-band', 'figure.compare-figure', '.seed-before-after');
  });

  it('a paired comparison when another config runs on the same seeds', async () => {
    await batch(8, '#section=updates&profile=smoke&seed=9&rl.beta=0.04');
    const summary = await page.textContent('.paired-summary');
    assert.match(summary, /^Paired over 8 seeds, A = dapo, seed …, B = dapo, β = 0.04, seed …: B is ahead on \d+ seeds?, A on \d+, tied on \d+;/);
    const [, favourB, favourA, ties] = summary.match(/B is ahead on (\d+) seeds?, A on (\d+), tied on (\d+);/).map(Number);
    assert.equal(favourB + favourA + ties, 8, 'every seed counted once');
    const rows = await page.$$eval('.paired-table tbody tr', (trs) => trs.length);
    assert.equal(rows, 8);
  });

  it('survives a reload; four picked runs overlay with a config-diff table; Clear empties it', async () => {
    await page.goto('about:blank');
    await open();
    assert.equal(await count(), 16);
    const boxes = page.locator('.compare-panel ul.library input[type="checkbox"]');
    for (const i of [0, 1, 8, 9]) await boxes.nth(i).check();
    assert.equal(await boxes.nth(2).isDisabled(), true, 'a fifth run cannot be picked');
    const diff = await page.$$eval('.config-diff-table tbody th', (ths) => ths.map((th) => th.textContent));
    assert.ok(diff.includes('β') && diff.includes('seed'), `diff rows: ${diff}`);
    const lines = await page.evaluate(() => window.Chart.getChart(document.querySelector('figure.compare-figure canvas')).data.datasets.length);
    assert.equal(lines, 4);
    await shoot('compare-four-runs-overlay', 'figure.compare-figure', '.config-diff-table');
    await page.click('button[data-action="clear-library"]');
    await page.waitForFunction(() => document.querySelector('.compare-panel').dataset.libraryCount === '0');
    assert.deepEqual(problems.page, []);
    assert.deepEqual(problems.console, []);
  });

  it('GRPO and its ancestors: each advantage estimator across the same seeds, overlaid, each paired with GRPO', async () => {
    await page.fill('#compare-seeds', '2');
    await page.evaluate(() => delete document.querySelector('.compare-panel').dataset.phase);
    await page.click('button[data-action="run-ancestors"]');
    await page.waitForSelector('.compare-panel[data-phase="finished"]', { state: 'attached', timeout: 300000 });
    const out = await page.evaluate(() => {
      const chart = window.Chart.getChart(document.querySelector('figure.compare-figure canvas'));
      return {
        means: chart.data.datasets.filter((d) => /^mean of/.test(d.label)).map((d) => d.label),
        count: chart.data.datasets.length,
        columns: [...document.querySelectorAll('.seed-estimators thead th')].map((th) => th.textContent),
        rows: [...document.querySelectorAll('.seed-estimators tbody tr')].map((tr) => [...tr.children].map((td) => td.textContent)),
        paired: [...document.querySelectorAll('.paired-estimators li')].map((li) => li.textContent),
      };
    });
    const estimators = ['grpo', 'dr_grpo', 'rloo', 'reinforce_baseline', 'reinforce'];
    assert.equal(out.count, 3 * estimators.length, 'a band (max, min) and a mean per estimator');
    assert.equal(out.means.length, estimators.length);
    assert.match(out.means[0], /^mean of 2 seeds: dapo, seed 9-10 \(shaded: seed min-max\)$/, 'grpo is the notebook default: nothing differs');
    for (const name of estimators.slice(1)) assert.ok(out.means.some((label) => label.includes(`advantageEstimator = ${name}`) || label.includes(name)), `${name} in ${out.means}`);
    assert.deepEqual(out.columns, ['Seed', 'held-out, before', ...estimators]);
    assert.deepEqual(out.rows.map((r) => r[0]), ['9', '10']);
    for (const row of out.rows) for (const cell of row.slice(1)) assert.ok(Number.isFinite(Number(cell)), `accuracy ${cell}`);
    assert.equal(out.paired.length, estimators.length - 1);
    out.paired.forEach((text, i) => assert.match(text, new RegExp(`^Paired over 2 seeds, A = grpo, B = ${estimators[i + 1]}: B is ahead on \\d+ seeds?, A on \\d+`)));
    assert.equal(await count(), 2 * estimators.length, 'every run of the comparison is in the library');
    await shoot('compare-ancestors', 'figure.compare-figure', '.paired-estimators');
    assert.deepEqual(problems.page, []);
    assert.deepEqual(problems.console, []);
  });

  it('picked runs overlay every chart of sections 7 and 8 and the before/after table of section 6', async () => {
    // The course page (sections 6-8 together) on the precomputed run (seed 9, grpo estimator);
    // the library holds the ancestors runs of seeds 9 and 10 from the test before.
    await gotoReady(page, `${server.origin}/index.html#profile=smoke&seed=9`);
    await page.waitForSelector('.compare-panel[data-library-count="10"]', { state: 'attached', timeout: 30000 });
    const pick = (name) => page.locator('.compare-panel ul.library li', { hasText: name }).locator('input[type="checkbox"]').check();
    await pick('advantageEstimator = rloo, seed 9 ');
    await pick('advantageEstimator = reinforce, seed 10 ');
    await page.waitForFunction(() => document.querySelectorAll('section#rl-loop .metrics-table tr.metrics-overlay').length > 0);
    const rloo = 'dapo, advantageEstimator = rloo, seed 9';
    const reinforce = 'dapo, advantageEstimator = reinforce, seed 10';
    // Section 7 redraws its charts in slices (a task each) and section 8 after it: wait until every
    // chart has drawn both picks (a first read once found the entropy chart with one).
    await page.waitForFunction((names) => {
      const labels = (canvas) => window.Chart.getChart(canvas)?.data.datasets.map((d) => d.label) ?? [];
      const charts = [...document.querySelectorAll('section#updates figure.chart canvas, section#coverage figure.chart-pass-at-k canvas')];
      return charts.length > 1 && charts.every((canvas) => names.every((name) => labels(canvas).some((label) => label.startsWith(`${name}: `))));
    }, [rloo, reinforce], { timeout: 30000 });
    const out = await page.evaluate(() => {
      const chartOf = (selector) => window.Chart.getChart(document.querySelector(`${selector} canvas`));
      const updates = [...document.querySelectorAll('section#updates figure.chart canvas')].map((canvas) => window.Chart.getChart(canvas).data.datasets.map((d) => d.label));
      return {
        updates,
        trainBars: chartOf('section#coverage figure.chart-coverage:not(.chart-coverage-heldout)').data.datasets.map((d) => d.label),
        passAtK: chartOf('section#coverage figure.chart-pass-at-k').data.datasets.map((d) => d.label),
        note: document.querySelector('section#coverage .coverage-overlay-note').textContent,
        overlayRows: [...document.querySelectorAll('section#rl-loop .metrics-table tr.metrics-overlay th')].map((th) => th.textContent),
      };
    });
    for (const labels of out.updates) {
      const own = labels.filter((l) => !l.includes(': '));
      assert.equal(labels.length, 3 * own.length, `each series again for each pick: ${labels}`);
      for (const name of [rloo, reinforce]) assert.equal(labels.filter((l) => l.startsWith(`${name}: `)).length, own.length);
    }
    assert.deepEqual(out.trainBars.slice(2), [`${rloo}: after RL`], 'per-prompt bars only for the pick on the same prompts (seed 9)');
    assert.equal(out.passAtK.length, 4 + 2 * 2, 'the four curves, then after-RL train and held-out per pick');
    assert.match(out.note, new RegExp(`other prompts: another seed or task\\): ${reinforce}\\.$`));
    // rloo at seed 9 shares the warm-up (its BEFORE rows equal this run's): AFTER rows only.
    assert.deepEqual(out.overlayRows.sort(), [`${rloo}: after RL, train`, `${rloo}: after RL, held-out`, `${reinforce}: before RL, train`, `${reinforce}: after RL, train`, `${reinforce}: before RL, held-out`, `${reinforce}: after RL, held-out`].sort(), 'the picks\' rows (in the library\'s order on the page)');
    await page.locator('section#updates').scrollIntoViewIfNeeded();
    await shoot('compare-overlay-section7', 'section#updates figure.chart >> nth=0', 'section#updates figure.chart >> nth=1');
    await page.locator('section#coverage figure.chart-pass-at-k').scrollIntoViewIfNeeded();
    await shoot('compare-overlay-section8', 'section#coverage .coverage-pair', 'section#coverage figure.chart-pass-at-k');
    assert.deepEqual(problems.page, []);
    assert.deepEqual(problems.console, []);
  });

  it('the link reproduces the comparison: runs not in the library are trained on open, batches too', async () => {
    const link = page.url();
    const cmp = decodeURIComponent(new URL(link).hash.match(/[#&]cmp=([^&]*)/)?.[1] ?? '');
    assert.deepEqual(cmp.split(';').sort(), ['advantageEstimator:reinforce,seed:10', 'advantageEstimator:rloo,seed:9']);
    const picked = () => page.$$eval('.compare-panel ul.library input:checked', (boxes) => boxes.map((box) => box.closest('li').textContent.trim()).sort());
    const before = await picked();
    const chartBefore = await page.evaluate(() => window.Chart.getChart(document.querySelector('section#updates figure.chart canvas')).data.datasets.map((d) => [d.label, d.data.map((p) => p.y)]).sort());
    // An empty library: both runs are trained again when the link opens, to the same numbers.
    await page.click('button[data-action="clear-library"]');
    await page.waitForFunction(() => document.querySelector('.compare-panel').dataset.libraryCount === '0', null, { timeout: 30000 });
    await page.goto('about:blank');
    await gotoReady(page, link);
    // Nothing trains before the reader's click (link-plan.js; the rest in compare-link.test.mjs).
    await page.waitForSelector('.compare-panel[data-phase="asking"] .link-confirm[data-to-train="2"]', { state: 'attached', timeout: 60000 });
    await page.click('button[data-action="train-link"]');
    await page.waitForSelector('.compare-panel[data-phase="finished"]', { state: 'attached', timeout: 300000 });
    assert.match(await page.textContent('.seeds-status'), /^The comparison of the link: 2 runs or batches \(2 runs trained now, the rest from the library\)\.$/);
    assert.deepEqual(await picked(), before);
    await page.waitForFunction((n) => window.Chart.getChart(document.querySelector('section#updates figure.chart canvas'))?.data.datasets.length === n, chartBefore.length, { timeout: 30000 });
    const chartAfter = await page.evaluate(() => window.Chart.getChart(document.querySelector('section#updates figure.chart canvas')).data.datasets.map((d) => [d.label, d.data.map((p) => p.y)]).sort());
    assert.deepEqual(chartAfter, chartBefore, 'the same runs, bit for bit');
    // A batch in the link: seeds 9-10 of the notebook config (9 is the precomputed run: in the library).
    await page.goto('about:blank');
    await page.goto(`${server.origin}/embed.html#section=updates&profile=smoke&seed=9&cmp=${encodeURIComponent('seed:9,n:2')}`);
    await page.click('.compare-panel[data-phase="asking"] button[data-action="train-link"]', { timeout: 60000 });
    await page.waitForSelector('.compare-panel[data-phase="finished"]', { state: 'attached', timeout: 300000 });
    assert.match(await page.textContent('.seeds-status'), /\(1 run trained now, the rest from the library\)/);
    const rows = await page.$$eval('.seed-before-after tbody th', (ths) => ths.map((th) => th.textContent));
    assert.deepEqual(rows, ['9', '10']);
    // A bad link says why, in the panel, and leaves the page working.
    await page.goto('about:blank');
    await page.goto(`${server.origin}/embed.html#section=updates&cmp=${encodeURIComponent('seed:9,groupSize:99')}`);
    await page.waitForFunction(() => /cannot be opened: groupSize/.test(document.querySelector('.seeds-status')?.textContent ?? ''), null, { timeout: 60000 });
    assert.deepEqual(problems.page, []);
    assert.deepEqual(problems.console, []);
  });
});
