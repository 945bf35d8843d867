// Sections 6-9 in real headless Chromium: the precomputed smoke run shows at once; Run trains in
// the Web Worker and fills every chart and table with the numbers the JS API gives in Node for
// the same seed and config; a language switch keeps the run; the URL restores the config; a
// bad config is refused beside its field; divergence stops visibly; export then import
// round-trips; the embed page of section 7 works alone; screenshots in both languages. The
// timing claims (Pause, Stop, the main thread's tasks) run alone: training-timing.test.mjs.
import { before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { SHOTS, chartState, cspViolations, gotoReady, nodeCore, openPage, runAxe } from './helpers.mjs';
import { bar, freshPage, shootFinishedRun, tableValues, useTrainingPage, waitPhase, waitUpdates } from './training-page.mjs';
import en from '../../web/js/i18n/en.js';
import ru from '../../web/js/i18n/ru.js';
import {
  CONFIG_KEYS,
  CONFIG_PARAMS,
  HISTORY_COLUMNS,
  METRIC_COLUMNS,
  METRIC_ROWS,
  PRECOMPUTED,
  coverageByBefore,
  inspectionRequest,
} from '../../web/js/training/run-format.js';
import { coverageSummary, coverageVerdicts, passAtKVerdicts, rlLoopVerdicts, updatesSummary, updatesVerdicts, verdictText } from '../../web/js/training/verdicts.js';
import { loadLanguage, t } from '../../web/js/i18n.js';
import { clipFlatNotes } from '../../web/js/training/flat-notes.js';

const lab = useTrainingPage();
let core;
const nodeRuns = new Map();

before(async () => {
  core = await nodeCore();
});

/** The same run through the JS API in this Node process (cached per config). */
function nodeRun(options) {
  const key = JSON.stringify(options);
  if (!nodeRuns.has(key)) {
    const config = core.experimentConfig(options);
    const result = core.runToyGrpoExperiment(config);
    const request = inspectionRequest(result.config, 0);
    const inspection = core.collectRollouts(result.checkpoint, result.prompts, request.config, {
      seed: request.seed,
      generatorVersion: request.generatorVersion,
    });
    nodeRuns.set(key, { ...result, inspection });
  }
  return nodeRuns.get(key);
}

async function setField(page, key, value) {
  const input = page.locator(`section#rl-loop [data-key="${key}"]`);
  const tag = await input.evaluate((el) => `${el.tagName}:${el.type}`);
  if (tag.startsWith('SELECT')) await input.selectOption(String(value));
  else if (tag.endsWith('checkbox')) await input.setChecked(Boolean(value));
  else {
    await input.fill(String(value));
    await input.dispatchEvent('input');
  }
}

function tableText(page, selector) {
  return page.evaluate(
    (sel) => [...document.querySelectorAll(`${sel} tbody tr`)].map((tr) => [...tr.children].map((cell) => cell.textContent.trim())),
    selector,
  );
}

// A column the run does not have (sampling/* without a separate sampler) is an empty cell.
const same = (shown, expected) => (expected === undefined ? shown === '' : typeof expected === 'number' ? Number(shown) === expected || (Number.isNaN(expected) && shown === 'NaN') : shown === String(expected));

/** Every number of sections 6-8 equals the Node run's: tables, charts, coverage, inspection. */
async function assertMatchesNode(page, expected, lang = 'en') {
  const dict = lang === 'ru' ? ru : en;
  // Section 6: the before/after table.
  const metrics = await tableValues(page, 'section#rl-loop .metrics-table');
  assert.equal(metrics.length, 4);
  METRIC_ROWS.forEach((row, i) => {
    assert.equal(metrics[i][0], dict[row.label]);
    METRIC_COLUMNS.forEach((column, j) => {
      assert.ok(same(metrics[i][j + 1], expected[row.key][column.key]), `${row.key}.${column.key}: page ${metrics[i][j + 1]}, node ${expected[row.key][column.key]}`);
    });
  });
  const config = JSON.parse(await page.locator('section#rl-loop .config-json').textContent());
  assert.deepEqual(config, expected.config);

  // Sections 6-8's sentences on the run are verdicts.js's over the same run in Node, word for word.
  await loadLanguage(lang);
  const words = (lines) => lines.map((line) => verdictText((key, params) => t(key, params, lang), line)).join(' ');
  const context = { config: expected.config, info: expected, result: expected };
  const sentences = {
    'section#rl-loop .run-lesson': words(rlLoopVerdicts(expected)),
    'section#updates .updates-summary': words([updatesSummary(expected.history, context)]),
    'section#updates .run-lesson': words(updatesVerdicts(expected.history, context)),
    'section#coverage .coverage-summary': words(coverageSummary(expected)),
    'section#coverage .pass-at-k-summary': words(passAtKVerdicts(expected)),
    'section#coverage .run-lesson': words(coverageVerdicts(expected)),
  };
  for (const [selector, text] of Object.entries(sentences)) assert.equal(await page.locator(selector).textContent(), text, selector);

  // Section 7: the full history table and every chart point.
  const history = await tableValues(page, 'section#updates .history-table');
  assert.equal(history.length, expected.history.length, 'history rows');
  expected.history.forEach((row, i) => {
    HISTORY_COLUMNS.forEach((column, j) => {
      assert.ok(same(history[i][j], row[column.key]), `history[${i}].${column.key}: page ${history[i][j]}, node ${row[column.key]}`);
    });
  });
  const charts = {
    history: [['HIST_ACCURACY', 'evalAccuracy'], ['HIST_ENTROPY', 'evalEntropy'], ['HIST_INFO', 'informativeFraction'], ['trl.series.learnerEntropy', 'entropy']],
    ratio: [['RATIO_MIN', 'ratioMin'], ['RATIO_MEAN', 'ratioMean'], ['RATIO_MAX', 'ratioMax']],
  };
  for (const [id, series] of Object.entries(charts)) {
    const state = await chartState(page, `section#updates [data-chart="${id}"] canvas`);
    assert.equal(state.xTitle, dict.HIST_X);
    assert.equal(state.role, 'img');
    assert.ok(state.ariaLabel.length > 40);
    series.forEach(([label, key], i) => {
      assert.equal(state.datasets[i].label, dict[label]);
      assert.deepEqual(state.datasets[i].data, expected.history.map((row) => [row.update, row[key]]), `${id}: ${key}`);
    });
  }
  const clip = await chartState(page, 'section#updates [data-chart="clip"] canvas');
  assert.deepEqual(clip.datasets.map((d) => d.data.length), [expected.history.length, expected.history.length, expected.history.length, expected.history.length]);
  assert.deepEqual(clip.datasets[3].data, expected.history.map((row) => [row.update, row.kl]));
  // No separate sampler: no sampling/* columns, and the sampler chart says so.
  const noSampler = expected.history.every((row) => !('samplingRatioMean' in row));
  const note = await page.$eval('section#updates [data-chart="sampler"] .chart-empty', (p) => ({ hidden: p.hidden, text: p.textContent }));
  assert.equal(note.hidden, !noSampler, 'the sampler chart\'s note');
  assert.equal(note.text, dict['trl.sampler.none']);
  // The clip chart says why a line is flat (training/flat-notes.js): here beta is 0.
  const flat = await page.$eval('section#updates [data-chart="clip"] .chart-flat', (p) => ({ hidden: p.hidden, text: p.textContent }));
  const why = clipFlatNotes(expected.config, expected.history);
  assert.equal(flat.hidden, why.length === 0);
  assert.equal(flat.text, why.map(([key, params]) => t(key, params, lang)).join(' '));
  assert.ok(why.length > 0 && flat.text.length > 40, 'the default run (beta 0) says its KL line is unused');

  // Section 8: coverage bars, train and held-out (prompt texts on the axis, sorted by before-RL
  // accuracy, lost prompts marked ✗), their tables, and pass@k across k from the core's block.
  for (const [chartName, before, after] of [
    ['coverage', expected.beforeTrainByPrompt, expected.afterTrainByPrompt],
    ['coverage-heldout', expected.beforeHeldoutByPrompt, expected.afterHeldoutByPrompt],
  ]) {
    const rows = coverageByBefore(before, after);
    const coverage = await chartState(page, `section#coverage [data-chart="${chartName}"] canvas`);
    assert.deepEqual(coverage.labels, rows.map((r) => (r.lost ? `✗ ${r.prompt}` : r.prompt)));
    assert.equal(coverage.yTitle, dict.COVERAGE_Y);
    assert.deepEqual(coverage.datasets.map((d) => d.label), [dict.COVERAGE_BEFORE, dict.COVERAGE_AFTER]);
    assert.deepEqual(coverage.datasets[0].data, rows.map((r) => r.before));
    assert.deepEqual(coverage.datasets[1].data, rows.map((r) => r.after));
    const coverageTable = await tableValues(page, `section#coverage [data-chart="${chartName}"] .coverage-table`);
    assert.deepEqual(coverageTable.map((r) => [Number(r[0]), Number(r[2]), Number(r[3])]), rows.map((r) => [r.promptId, r.before, r.after]));
    // The ✗ in words on screen, with the count of lost prompts (none lost: no note).
    const lost = rows.filter((r) => r.lost).length;
    const lostNote = await page.$eval(`section#coverage [data-chart="${chartName}"] .coverage-lost-note`, (p) => ({ hidden: p.hidden, text: p.textContent }));
    assert.deepEqual(lostNote, lost ? { hidden: false, text: t('train.coverage.lostLegend', { lost }, lang) } : { hidden: true, text: '' }, chartName);
  }
  const passAtK = await chartState(page, 'section#coverage [data-chart="pass-at-k"] canvas');
  assert.deepEqual(passAtK.datasets.map((d) => d.label), [dict.BEFORE_TRAIN, dict.AFTER_TRAIN, dict.BEFORE_HELDOUT, dict.AFTER_HELDOUT]);
  assert.deepEqual(passAtK.datasets[1].data.map(([, y]) => y), expected.coverage.afterTrain.passAtK.values);

  // Section 8: the inspected group (seed + 777, "notebook-inspection").
  await page.waitForSelector('section#coverage .inspect-table', { timeout: 30000 });
  const group = expected.inspection.groups[0];
  const inspected = await tableValues(page, 'section#coverage .inspect-table');
  assert.equal(inspected.length, group.length);
  group.forEach((row, i) => {
    assert.equal(Number(inspected[i][0]), row.promptId);
    assert.equal(Number(inspected[i][2]), row.reward);
    assert.equal(Number(inspected[i][5]), row.accuracy);
    assert.equal(inspected[i][6], row.status);
    assert.equal(Number(inspected[i][7]), row.length);
    assert.equal(inspected[i][8], String(row.terminated));
    assert.equal(Number(inspected[i][9]), row.advantage);
  });
  const texts = await tableText(page, 'section#coverage .inspect-table');
  assert.deepEqual(texts.map((r) => r[1]), group.map((row) => row.responseTokens.join(' ')));
  const printed = await page.locator('section#coverage .inspect-printed').textContent();
  assert.equal(printed, `{'discarded_fraction': ${Number.isInteger(expected.inspection.discardedFraction) ? `${expected.inspection.discardedFraction}.0` : expected.inspection.discardedFraction}, 'generator_version': 'notebook-inspection'}`);
}

describe('sections 6-9: training in the page', () => {
  test('the precomputed smoke run shows at once, equal to the JS API in Node (profile smoke, seed 9, dapo)', async () => {
    const { page, problems } = await freshPage();
    assert.equal(await bar(page).getAttribute('data-phase'), 'precomputed');
    assert.equal(await bar(page).getAttribute('data-source'), 'precomputed');
    const source = await page.locator('section#rl-loop .run-source').textContent();
    assert.match(source, /seed 9/);
    assert.match(source, /smoke/);
    assert.match(source, /dapo/);
    await assertMatchesNode(page, nodeRun(PRECOMPUTED));
    const debug = await page.evaluate(async () => (await import('/js/training/controller.js')).debugInfo());
    assert.equal(debug.worker, false, 'no worker is started until the reader asks for one');
    assert.deepEqual([...problems.console, ...problems.page, ...problems.outside, ...(await cspViolations(page))], []);
    await page.close();
  });

  test('Run (smoke, seed 11) trains in the worker and fills sections 6-8 with the Node numbers', async () => {
    const { page, problems } = await freshPage();
    await setField(page, 'seed', 11);
    await page.locator('section#rl-loop button[data-action="run"]').click();
    await waitPhase(page, 'finished');
    assert.equal(await bar(page).getAttribute('data-source'), 'live');
    assert.equal(await bar(page).getAttribute('data-updates-done'), '60');
    assert.match(await page.evaluate(() => location.hash), /(^|[#&])seed=11(&|$)/);
    await assertMatchesNode(page, nodeRun({ profile: 'smoke', seed: 11 }));
    const status = await page.locator('section#rl-loop [data-testid="run-status"]').textContent();
    assert.match(status, /60/);
    assert.deepEqual([...problems.console, ...problems.page, ...problems.outside, ...(await cspViolations(page))], []);

    // Another fresh group, and the tokens of one response: p = exp(old log-prob), the advantage.
    const run = nodeRun({ profile: 'smoke', seed: 11 });
    await page.locator('section#coverage button[data-action="another-group"]').click();
    // The loading text names the seed too: wait for the drawn group.
    await page.waitForSelector('section#coverage .inspect-status[data-drawn-seed="789"]', { timeout: 30000 });
    const request = inspectionRequest(run.config, 1);
    const second = core.collectRollouts(run.checkpoint, run.prompts, request.config, { seed: request.seed, generatorVersion: request.generatorVersion });
    const texts = await tableText(page, 'section#coverage .inspect-table');
    assert.deepEqual(texts.map((r) => r[1]), second.groups[0].map((row) => row.responseTokens.join(' ')));
    await page.locator('section#coverage .response-button').nth(1).click();
    const tokens = await tableValues(page, 'section#coverage .tokens-table');
    const row = second.groups[0][1];
    assert.equal(tokens.length, row.responseTokens.length);
    tokens.forEach((cells, i) => {
      // Math.exp in the page's V8 and in Node's may differ in the last bit.
      assert.ok(Math.abs(Number(cells[2]) - Math.exp(row.oldLogProbs[i])) <= 1e-15, `p of token ${i}`);
      assert.equal(Number(cells[3]), row.oldLogProbs[i]);
      assert.equal(Number(cells[5]), row.advantage);
    });
    const violations = (await runAxe(page, 'section#coverage')).filter((v) => v.impact === 'serious' || v.impact === 'critical');
    assert.deepEqual(violations, []);
    await page.close();
  });

  test('switching language mid-run keeps the run', async () => {
    const { page } = await freshPage('index.html', '#profile=full&lang=en');
    await page.locator('section#rl-loop button[data-action="run"]').click();
    await waitUpdates(page, 10);
    const runKey = await bar(page).getAttribute('data-run-key');
    await page.locator('.lang-switch button[data-lang="ru"]').click();
    await page.waitForSelector('html[lang="ru"][data-ready="true"]');
    const phase = await bar(page).getAttribute('data-phase');
    assert.ok(['running', 'finished'].includes(phase), phase);
    assert.equal(await bar(page).getAttribute('data-run-key'), runKey, 'the same run, not a new one');
    assert.ok(Number(await bar(page).getAttribute('data-updates-done')) >= 10);
    await waitPhase(page, 'finished');
    assert.equal(await bar(page).getAttribute('data-updates-done'), '160');
    assert.equal(await page.locator('section#rl-loop button[data-action="run"]').textContent(), ru['train.run']);
    await assertMatchesNode(page, nodeRun({ profile: 'full', seed: 9 }), 'ru');
    await page.close();
  });

  test('a URL with a config restores the form and the run uses it; a bad value falls back with a note', async () => {
    const hash = '#profile=smoke&seed=5&rl.groupSize=4&rl.lr=0.003&rl.lossType=grpo&rl.dynamic=1&rl.updates=30';
    const { page } = await freshPage('index.html', hash);
    const value = (key) => page.locator(`section#rl-loop [data-key="${key}"]`).inputValue();
    assert.equal(await value('seed'), '5');
    assert.equal(await value('rl.groupSize'), '4');
    assert.equal(await value('rl.lr'), '0.003');
    assert.equal(await value('rl.lossType'), 'grpo');
    assert.equal(await page.locator('section#rl-loop [data-key="rl.dynamic"]').isChecked(), true);
    assert.equal(await value('rl.epsHigh'), '0.28', 'fields not in the link keep the profile default');
    await page.locator('section#rl-loop button[data-action="run"]').click();
    await waitPhase(page, 'finished');
    const expected = nodeRun({ profile: 'smoke', seed: 5, groupSize: 4, learningRate: 0.003, lossType: 'grpo', dynamicSampling: true, updates: 30 });
    await assertMatchesNode(page, expected);
    const url = await page.evaluate(() => location.hash);
    for (const part of ['rl.groupSize=4', 'rl.lr=0.003', 'rl.lossType=grpo', 'rl.dynamic=1', 'rl.updates=30']) assert.ok(url.includes(part), `${part} in ${url}`);
    assert.ok(!url.includes('rl.epsHigh'), 'defaults stay out of the link');
    await page.close();

    const bad = await freshPage('index.html', '#rl.groupSize=1&rl.lr=-1');
    const notes = await bad.page.locator('.url-notes').textContent();
    assert.match(notes, /groupSize: must be a whole number from 2 to 64, got 1/);
    assert.match(notes, /learningRate: must be in \(0, 1\], got -1/);
    assert.equal(await bad.page.locator('section#rl-loop [data-key="rl.groupSize"]').inputValue(), '8');
    await bad.page.close();
  });

  test('the form shows exactly the fields of the core’s config table, the notebook’s first, with its defaults', async () => {
    const { page } = await freshPage();
    const keys = await page.locator('section#rl-loop .controls-training [data-key]').evaluateAll((nodes) => nodes.map((n) => n.dataset.key));
    const schema = core.configSchema();
    // The notebook's fields in the table's order, then every other field by its group's first row.
    const groups = [...new Set(schema.fields.filter((f) => !f.notebook).map((f) => f.group))];
    const order = [...schema.fields.filter((f) => f.notebook), ...groups.flatMap((g) => schema.fields.filter((f) => !f.notebook && f.group === g))];
    assert.deepEqual(keys, order.map((f) => CONFIG_PARAMS[f.name]));
    assert.deepEqual([...keys].sort(), [...CONFIG_KEYS].sort());
    for (const f of schema.fields.filter((x) => x.name !== 'profile' && x.name !== 'seed')) {
      const input = page.locator(`section#rl-loop [data-key="${CONFIG_PARAMS[f.name]}"]`);
      const shown = f.kind === 'bool' ? await input.isChecked() : await input.inputValue();
      assert.equal(String(shown), f.defaults.smoke === null ? '' : String(f.defaults.smoke), f.name); // None: empty
    }
    await page.close();
  });

  test('None from a link and from the form: section 9 writes None (issue 26 item 2)', async () => {
    const { page } = await freshPage('index.html', '#rl.vllmImportanceSamplingClipMax=None');
    const clipMax = page.locator('section#rl-loop [data-key="rl.vllmImportanceSamplingClipMax"]');
    assert.equal(await clipMax.inputValue(), 'None');
    const python = () => page.locator('section#real-model .trl-config').textContent();
    assert.match(await python(), /vllm_importance_sampling_clip_max=None,/);
    // Emptied in the form: None again (its default is 3.0); typed back, a number.
    await setField(page, 'rl.vllmImportanceSamplingClipMax', 4);
    await page.waitForFunction(() => /vllm_importance_sampling_clip_max=4\.0,/.test(document.querySelector('section#real-model .trl-config').textContent));
    await setField(page, 'rl.vllmImportanceSamplingClipMax', '');
    await page.waitForFunction(() => /vllm_importance_sampling_clip_max=None,/.test(document.querySelector('section#real-model .trl-config').textContent));
    assert.match(await page.evaluate(() => location.hash), /rl\.vllmImportanceSamplingClipMax=None/);
    await page.close();
  });

  test('a setting that trains to no effect is warned of under the form, in the reader’s language (issue 26 item 6)', async () => {
    for (const lang of ['en', 'ru']) {
      const { page } = await freshPage('index.html', `#lang=${lang}&rl.maxNewTokens=1`);
      const box = page.locator('section#rl-loop .config-warnings');
      assert.equal(await box.isVisible(), true);
      const item = box.locator('li[data-warning="no_answer_fits"]');
      assert.equal(await item.getAttribute('data-field'), 'maxNewTokens');
      const text = await item.textContent();
      assert.match(text, lang === 'en' ? /^maxNewTokens: no answer fits in 1 token/ : /^maxNewTokens: в 1 токен не помещается ни один ответ/);
      await setField(page, 'rl.maxNewTokens', 4);
      await page.waitForFunction(() => document.querySelector('section#rl-loop .config-warnings').hidden);
      await page.close();
    }
  });

  test('a bad config shows the core’s message beside the field and does not start a run', async () => {
    const { page } = await freshPage();
    const cases = [
      ['rl.groupSize', '1', /groupSize: must be a whole number from 2 to 64, got 1/],
      ['rl.lr', '-0.001', /learningRate: must be in \(0, 1\], got -0\.001/],
      ['rl.epsLow', '1.5', /epsLow: must be in \[0, 1\), got 1\.5/],
      ['rl.epsHigh', 'abc', /epsHigh/],
    ];
    for (const [key, value, message] of cases) {
      await setField(page, key, value);
      await page.locator('section#rl-loop button[data-action="run"]').click();
      const input = page.locator(`section#rl-loop [data-key="${key}"]`);
      assert.equal(await input.getAttribute('aria-invalid'), 'true', key);
      const error = await input.locator('xpath=ancestor::div[contains(@class,"field")][1]').locator('.field-error').textContent();
      assert.match(error, message);
      assert.match(await page.locator('section#rl-loop .run-refused').textContent(), message);
      assert.equal(await bar(page).getAttribute('data-phase'), 'precomputed', `${key}: no run started`);
      const debug = await page.evaluate(async () => (await import('/js/training/controller.js')).debugInfo());
      assert.equal(debug.worker, false);
      await setField(page, key, key === 'rl.groupSize' ? '8' : key === 'rl.lr' ? '0.001' : key === 'rl.epsLow' ? '0.2' : '0.28');
    }
    await page.waitForTimeout(200);
    assert.equal(await page.locator('section#rl-loop [aria-invalid="true"]').count(), 0);
    await page.close();
  });

  test('divergence (NaN in the loss) stops the run and says so', async () => {
    const opened = await openPage(lab.browser.context, lab.server.origin);
    const { page } = opened;
    // The wrapper, as served to this page and its worker, returns NaN as the loss of update 3,
    // as a diverging run would; the real wrapper is served under ?real. Only stepwise
    // experiments (which only the training worker runs) are affected; the page's first core (the
    // reference build) is the real one.
    await page.route('**/core/index.js', (route) =>
      route.fulfill({
        contentType: 'text/javascript',
        body: `import { loadCore as real } from './index.js?real';
export { loadReferenceCore } from './index.js?real';
export async function loadCore(options) {
  const core = await real(options);
  if (!core.__poisoned) {
    const create = core.createExperiment;
    core.createExperiment = (config) => {
      const e = create(config);
      const step = e.step;
      // Only step changes: every other method (keepInspection, replay, ...) stays the real one.
      e.step = (n) => { const rows = step(n); for (const row of rows) if (row.update === 3) row.loss = NaN; return rows; };
      return e;
    };
    core.__poisoned = true;
  }
  return core;
}`,
      }),
    );
    await gotoReady(page, `${lab.server.origin}/index.html`);
    await page.locator('section#rl-loop button[data-action="run"]').click();
    await waitPhase(page, 'diverged', 'rl-loop', 30000);
    const alert = await page.locator('section#rl-loop .run-alert').textContent();
    assert.match(alert, /update 3/);
    assert.match(alert, /loss/);
    assert.match(alert, /NaN/);
    assert.equal(await bar(page).getAttribute('data-updates-done'), '3');
    assert.equal(await page.locator('section#rl-loop .run-alert').getAttribute('role'), 'alert');
    const history = await tableText(page, 'section#updates .history-table');
    assert.equal(history.length, 3);
    assert.equal(history[2][HISTORY_COLUMNS.findIndex((c) => c.key === 'loss')], 'NaN');
    assert.equal(await page.locator('section#rl-loop button[data-action="run"]').isDisabled(), false, 'a new run can start');
    await page.close();
  });

  test('export then import round-trips to identical tables; CSV files hold the tables', async () => {
    const { page } = await freshPage('index.html', '#seed=3&rl.updates=25');
    await page.locator('section#rl-loop button[data-action="run"]').click();
    await waitPhase(page, 'finished');
    await page.waitForSelector('section#coverage .inspect-table');
    const snapshot = async () => ({
      metrics: await tableValues(page, 'section#rl-loop .metrics-table'),
      history: await tableValues(page, 'section#updates .history-table'),
      coverage: await tableValues(page, 'section#coverage .coverage-table'),
      inspect: await tableValues(page, 'section#coverage .inspect-table'),
      config: await page.locator('section#rl-loop .config-json').textContent(),
      chart: (await chartState(page, 'section#updates [data-chart="history"] canvas')).datasets,
    });
    const before = await snapshot();
    const save = async (kind) => {
      const [download] = await Promise.all([page.waitForEvent('download'), page.locator(`section#rl-loop button[data-export="${kind}"]`).click()]);
      return { name: download.suggestedFilename(), text: readFileSync(await download.path(), 'utf8') };
    };
    const json = await save('json');
    assert.equal(json.name, 'grpo-lab-smoke-seed3-dapo.json');
    const file = JSON.parse(json.text);
    assert.equal(file.format, 'grpo-lab-run');
    assert.equal(file.version, 1);
    assert.equal(file.history.length, 25);
    assert.ok(file.checkpoint.tensors['gru.weight_hh_l0'], 'the checkpoint is in the file');
    const history = await save('history');
    const lines = history.text.trim().split('\n');
    assert.equal(lines[0], HISTORY_COLUMNS.map((c) => c.label).join(','));
    assert.equal(lines.length, 26);
    assert.equal(Number(lines[25].split(',')[HISTORY_COLUMNS.findIndex((c) => c.key === 'loss')]), file.history[24].loss);
    const metrics = await save('metrics');
    assert.equal(metrics.text.split('\n')[0], `row,${METRIC_COLUMNS.map((c) => c.label).join(',')}`);
    const coverage = await save('coverage');
    assert.equal(coverage.text.trim().split('\n').length, file.config.trainPrompts + 1);

    // Back to the precomputed run, then import the file: identical tables, no retraining.
    await page.locator('section#rl-loop button[data-action="reset"]').click();
    await waitPhase(page, 'precomputed');
    assert.notDeepEqual((await snapshot()).history, before.history);
    await page.locator('section#rl-loop input[type="file"]').setInputFiles({ name: json.name, mimeType: 'application/json', buffer: Buffer.from(json.text) });
    await waitPhase(page, 'imported');
    await page.waitForSelector('section#coverage .inspect-table');
    await page.waitForFunction(() => !/…/.test(document.querySelector('section#coverage .inspect-status')?.textContent ?? '…'));
    assert.deepEqual(await snapshot(), before);
    assert.match(await page.locator('section#rl-loop .run-source').textContent(), /grpo-lab-smoke-seed3-dapo\.json/);

    // A broken file is refused with a message; the imported run stays.
    await page.locator('section#rl-loop input[type="file"]').setInputFiles({ name: 'bad.json', mimeType: 'application/json', buffer: Buffer.from('{"format":"grpo-lab-run","version":1,"config":{"groupSize":1}}') });
    await page.waitForSelector('section#rl-loop .import-field .field-error:not([hidden])');
    assert.match(await page.locator('section#rl-loop .import-field .field-error').textContent(), /groupSize/);
    assert.equal(await bar(page).getAttribute('data-phase'), 'imported');
    await page.close();
  });

  test('section 9 shows the snapshot, the notebook cell, REAL_MODEL_SKIPPED in the reader’s language and the config as TRL arguments and as a verl launch', async () => {
    for (const lang of ['en', 'ru']) {
      const dict = lang === 'ru' ? ru : en;
      const { page } = await freshPage('index.html', `#lang=${lang}`);
      const s9 = page.locator('section#real-model');
      assert.equal((await s9.locator('[data-testid="real-model-skipped"]').textContent()).trim(), dict.REAL_MODEL_SKIPPED);
      const snapshot = await tableText(page, 'section#real-model .snapshot-table');
      assert.deepEqual(snapshot.map((r) => r.join('=')), ['trl=1.9.2', 'transformers=5.14.1', 'datasets=5.0.1', 'peft=0.20.0', 'accelerate=1.14.0', 'bitsandbytes=0.50.0', 'model=Qwen/Qwen3-0.6B']);
      assert.match(await s9.locator('.notebook-cell').textContent(), /epsilon_high=0\.28,/);
      assert.match(await s9.locator('.no-claim').textContent(), lang === 'en' ? /no claim about the real model’s runtime, memory use or quality/ : /ничего не утверждает/);
      let python = await s9.locator('.trl-config').textContent();
      for (const line of ['num_generations=8,', 'num_iterations=2,', 'loss_type="dapo",', 'scale_rewards="group",', 'epsilon=0.2,', 'epsilon_high=0.28,', 'beta=0.0,', 'temperature=1.0,', 'max_completion_length=4,', 'mask_truncated_completions=True,', 'importance_sampling_level="token",', 'learning_rate=0.002,']) {
        assert.ok(python.includes(line), `${line} in the TRL config`);
      }
      await setField(page, 'rl.groupSize', 16);
      await setField(page, 'rl.lr', 0.00005);
      await page.waitForFunction(() => /num_generations=16,[\s\S]*learning_rate=5e-05,/.test(document.querySelector('section#real-model .trl-config').textContent));
      python = await s9.locator('.trl-config').textContent();
      assert.ok(python.includes('learning_rate=5e-05,'), python);
      // The verl tab: the same config as a verl v0.7.0 launch, then the namesakes table.
      assert.equal(await s9.locator('#real-model-verl').isHidden(), true);
      await s9.locator('button[role="tab"][data-engine="verl"]').click();
      assert.equal(await s9.locator('#real-model-trl').isHidden(), true);
      assert.equal(await s9.locator('button[role="tab"][data-engine="verl"]').getAttribute('aria-selected'), 'true');
      const launch = await s9.locator('.verl-launch').textContent();
      for (const line of ['actor_rollout_ref.rollout.n=16 ', 'actor_rollout_ref.actor.optim.lr=5e-05 ', 'actor_rollout_ref.actor.policy_loss.loss_mode=vanilla ', 'actor_rollout_ref.actor.loss_agg_mode=token-mean ', 'actor_rollout_ref.actor.clip_ratio_high=0.28 ', 'python3 -m verl.trainer.main_ppo "${overrides[@]}" "$@"']) {
        assert.ok(launch.includes(line), `${line} in the verl launch`);
      }
      assert.match(launch, new RegExp(`^# maskTruncated=True: ${dict['verl.none']} — `, 'm'));
      const diff = await tableText(page, 'section#real-model .verl-differences');
      assert.deepEqual(diff.map((r) => r[0]), ['drGrpo', 'stdEps', 'cispoLow', 'dualClip', 'gspoAgg', 'tokenMean', 'k3', 'seed', 'truncated'].map((id) => dict[`verl.diff.${id}.name`]));
      assert.match(diff[1].join(' '), /1e-4[\s\S]*1e-6/);
      await setField(page, 'rl.lossType', 'dr_grpo');
      await page.waitForFunction(() => /loss_agg_mode=seq-mean-token-sum-norm /.test(document.querySelector('section#real-model .verl-launch').textContent));
      assert.match(await s9.locator('.verl-launch').textContent(), /actor_rollout_ref\.actor\.loss_scale_factor=4 /);
      mkdirSync(SHOTS, { recursive: true });
      await s9.locator('#real-model-verl').screenshot({ path: join(SHOTS, `verl-section9-${lang}.png`) });
      await page.close();
    }
  });

  test('the embed page of section 7 works alone: precomputed charts, then its own run', async () => {
    const { page, problems } = await freshPage('embed.html', '#section=updates&lang=ru&rl.updates=20&seed=4');
    assert.deepEqual(await page.$$eval('section.section', (nodes) => nodes.map((n) => n.id)), ['updates']);
    const state = await chartState(page, 'section#updates [data-chart="history"] canvas');
    assert.deepEqual(state.datasets.map((d) => d.label), [ru.HIST_ACCURACY, ru.HIST_ENTROPY, ru.HIST_INFO, ru['trl.series.learnerEntropy']]);
    assert.equal(state.datasets[0].data.length, nodeRun({ profile: 'smoke', seed: 9 }).history.length, 'the precomputed run');
    const ratio = await chartState(page, 'section#updates [data-chart="ratio"] canvas');
    assert.deepEqual(ratio.datasets.map((d) => d.label), [ru.RATIO_MIN, ru.RATIO_MEAN, ru.RATIO_MAX]);
    await page.locator('section#updates button[data-action="run"]').click();
    await waitPhase(page, 'finished', 'updates');
    const expected = nodeRun({ profile: 'smoke', seed: 4, updates: 20 });
    const live = await chartState(page, 'section#updates [data-chart="history"] canvas');
    assert.deepEqual(live.datasets[0].data, expected.history.map((row) => [row.update, row.evalAccuracy]));
    assert.match(await page.evaluate(() => location.hash), /rl\.updates=20/);
    assert.deepEqual([...problems.console, ...problems.page, ...problems.outside, ...(await cspViolations(page))], []);
    const violations = (await runAxe(page)).filter((v) => v.impact === 'serious' || v.impact === 'critical');
    assert.deepEqual(violations, []);
    await page.close();
  });

  test('screenshots after a smoke run, in both languages (the full run\'s: the long-task test above)', async () => {
    const { page } = await freshPage('index.html', '#profile=smoke&lang=en');
    await page.locator('section#rl-loop button[data-action="run"]').click();
    await waitPhase(page, 'finished');
    await shootFinishedRun(page, 'smoke');
    await page.close();
  });
});
