// The course page in real headless Chromium: loads clean (no console error, no CSP violation,
// no request outside its origin), shows the notebook's numbers for sections 0-5 (read back from
// the DOM and compared with the same JS API called here in Node), reacts to its controls,
// switches language, restores state from the URL, reports bad entries, passes axe-core, and
// saves screenshots at laptop and phone widths in both languages.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import {
  LAPTOP,
  PHONE,
  SHOTS,
  WEB,
  chartState,
  cspViolations,
  gotoReady,
  launchBrowser,
  near,
  nodeCore,
  openPage,
  runAxe,
  screenshot,
  startServer,
  tableText,
} from './helpers.mjs';
import { onDemandModules } from './module-graph.mjs';
import en from '../../web/js/i18n/en.js';
import ru from '../../web/js/i18n/ru.js';
import { errorText } from '../../web/js/core-errors.js';
import { dictionaryText, loadLanguage } from '../../web/js/i18n.js';
import { entropyClaim, entropySentence } from '../../web/js/sections/finite-policy.js';

await loadLanguage('en'); // errorOf() renders a core error as the English page does

// The notebook's inputs, literally.
const CASES = [
  ['Final: \\\\boxed{3/7}', '0.428571', 1],
  ['The reference number 42 is mentioned, but the answer is 41', '42', 0],
  ['First \\\\boxed{2}, then corrected: \\\\boxed{3}', '3', 1],
  ['No numerical answer', '5', 0],
  ['1/0', '0', 0],
];
const EXAMPLE_P = [0.01, 0.1, 0.5, 0.9, 0.99];
const P_GRID = Array.from({ length: 400 }, (_, i) => 0.001 + ((0.999 - 0.001) * i) / 399);
const REWARDS = [1, 1, 0, 0];
const RATIOS = [1.35, 0.85, 1.1, 0.7];
const RED_REWARDS = [1, 0, 1];
const RED_LENGTHS = [2, 5, 8];
const FINITE_STEPS = [0, 9, 19, 39, 60];

let server;
let browser;
let core;

before(async () => {
  [server, browser, core] = await Promise.all([startServer(), launchBrowser({ viewport: LAPTOP }), nodeCore()]);
});

after(async () => {
  await browser?.close();
  await server?.close();
});

async function freshPage(hash = '', options = {}) {
  const opened = await openPage(browser.context, server.origin);
  if (options.viewport) await opened.page.setViewportSize(options.viewport);
  await gotoReady(opened.page, `${server.origin}/index.html${hash}`);
  return opened;
}

const section = (id) => `section#${id}`;

/** Waits past the next frame: layout a mount just moved is settled by the page's scroll anchoring. */
const nextFrame = (page) => page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0))));

async function fill(page, key, value) {
  const input = page.locator(`[data-key="${key}"]`);
  await input.fill(String(value));
  await input.dispatchEvent('input');
}

/** Waits until the text of `selector` satisfies `predicate`. */
async function waitText(page, selector, predicate, message) {
  const deadline = Date.now() + 10000;
  let last = null;
  while (Date.now() < deadline) {
    last = await page.locator(selector).first().textContent().catch(() => null);
    if (last !== null && predicate(last)) return last;
    await page.waitForTimeout(40);
  }
  assert.fail(`${message ?? selector}: last text ${JSON.stringify(last)}`);
}

/** Equal up to floating-point rounding (the same double computation, maybe another order). */
function close(a, b) {
  return Math.abs(a - b) <= 1e-12 * Math.max(1, Math.abs(b));
}

/** Waits until the URL hash holds key=value exactly. */
async function waitHash(page, key, value) {
  await page.waitForFunction(
    ([k, v]) => new URLSearchParams(location.hash.slice(1)).get(k) === v,
    [key, value],
    { timeout: 10000 },
  );
}

/** The text the English page shows for the error fn() throws (from its code and params). */
function errorOf(fn) {
  try {
    fn();
  } catch (error) {
    return errorText(error);
  }
  assert.fail('expected the core to throw');
}

function finiteRow(beta, lr, step) {
  const state = core.syntheticModeTraining({ betaEntropy: beta, learningRate: lr, steps: step });
  return {
    state,
    reward: state.expectedReward,
    entropy: core.categoricalEntropy(state.probabilities),
    pass: core.passAtKIndependent(state.successfulMass, 4),
  };
}

/** Section 5's "why entropy falls" sentence for these options, as the page must say it in `lang`. */
function entropyText(dict, lang, beta, lr, steps) {
  const mechanism = core.finiteEntropyMechanism({ betaEntropy: beta, learningRate: lr, steps });
  return entropySentence(entropyClaim(mechanism), dictionaryText(dict, lang));
}

describe('course page, English, laptop width', () => {
  let page;
  let problems;
  let requests;

  before(async () => {
    ({ page, problems, requests } = await freshPage('#lang=en'));
  });
  after(() => page?.close());

  test('loads with no console error, CSP violation or request outside its origin', async () => {
    assert.deepEqual(problems.console, [], 'console errors');
    assert.deepEqual(problems.page, [], 'uncaught errors');
    assert.deepEqual(problems.outside, [], 'requests outside the origin');
    assert.deepEqual(await cspViolations(page), [], 'CSP violations');
    const inline = await page.evaluate(() => ({
      scripts: document.querySelectorAll('script:not([src])').length,
      handlers: [...document.querySelectorAll('*')].filter((el) => [...el.attributes].some((a) => /^on/i.test(a.name))).length,
    }));
    assert.deepEqual(inline, { scripts: 0, handlers: 0 }, 'no inline script or inline event handler');
  });

  test('every startup module is preloaded from the HTML (one round trip, no waterfall); the training widgets load on demand', async () => {
    const preloaded = await page.$$eval('link[rel="modulepreload"]', (links) => links.map((l) => new URL(l.href).pathname));
    const modules = [...new Set(requests.map((url) => new URL(url).pathname))].filter(
      (path) => path.endsWith('.js') && !path.startsWith('/vendor/katex/') && !path.startsWith('/js/i18n/') && path !== '/vendor/chart.min.js' && !['/js/app.js', '/js/boot-guard.js', '/sw.js'].includes(path),
    );
    // Not modules: the entry, the classic boot guard (both named by the HTML itself) and sw.js
    // (offline.js asks whether the host still serves it). Loaded when the reader reaches sections
    // 6-9 or presses section 0's Run, never at startup: every module reached only through the
    // `load` imports of sections/training-sections.js and the Run imports of sections/setup.js
    // (read from the sources), and the core's full build (the page starts on the reference build:
    // web/core/index.js picks the build at run time).
    const onDemand = onDemandModules(WEB, {
      entries: ['/js/app.js', '/js/embed.js'],
      lazyModules: ['/js/sections/training-sections.js', '/js/sections/setup.js'],
    });
    assert.ok(onDemand.includes('/js/sections/rl-loop.js') && onDemand.includes('/js/training/controller.js'), `on demand: ${onDemand.join(', ')}`);
    onDemand.push('/core/grpo_core.js');
    assert.ok(preloaded.includes('/core/grpo_core_reference.js'), 'the reference build is preloaded');
    assert.deepEqual(
      modules.filter((m) => !preloaded.includes(m) && !onDemand.includes(m)),
      [],
      'modules loaded without a <link rel="modulepreload"> in web/index.html and web/embed.html (add them there)',
    );
    assert.deepEqual(preloaded.filter((m) => onDemand.includes(m)), [], 'on-demand modules must not be preloaded');
    assert.deepEqual(preloaded.filter((m) => !modules.includes(m)), [], 'modulepreload links nothing loads');
    assert.ok(requests.some((url) => url.endsWith('/js/i18n/en.js')));
    assert.ok(!requests.some((url) => url.endsWith('/js/i18n/ru.js')), 'only the language in use is downloaded');
  });

  test('shows sections 0-9 in notebook order, every one live', async () => {
    const ids = await page.$$eval('main section.section', (nodes) => nodes.map((n) => n.id));
    assert.deepEqual(ids, ['setup', 'verifier', 'informative-groups', 'advantages', 'reductions', 'finite-policy', 'rl-loop', 'updates', 'coverage', 'real-model']);
    const headings = await page.$$eval('main section.section h2', (nodes) => nodes.map((n) => n.textContent));
    assert.deepEqual(headings.map((h) => h.split('.')[0]), ['0', '1', '2', '3', '4', '5', '6', '7', '8', '9']);
    for (const id of ids) {
      assert.equal(await page.locator(`${section(id)}[data-rendered="true"]`).count(), 1, `${id} rendered`);
    }
    const toc = await page.$$eval('nav.toc a', (links) => links.map((a) => a.getAttribute('href')));
    assert.deepEqual(toc, ids.map((id) => `#${id}`));
    assert.equal(await page.locator('html').getAttribute('lang'), 'en');
  });

  test('formulas are rendered by KaTeX', async () => {
    const math = await page.evaluate(() => ({
      katex: document.querySelectorAll('.katex').length,
      pending: document.querySelectorAll('.math-pending, .math-failed').length,
      mathml: document.querySelectorAll('.katex-mathml math').length,
    }));
    assert.ok(math.katex >= 20, `KaTeX nodes: ${math.katex}`);
    assert.equal(math.pending, 0);
    assert.equal(math.mathml, math.katex, 'every formula carries MathML for screen readers');
  });

  test('section 0 shows the profile, the seed and that the real-model branch is off', async () => {
    assert.equal(await page.locator(`${section('setup')} [data-key="profile"]`).inputValue(), 'smoke');
    assert.equal(await page.locator(`${section('setup')} [data-key="seed"]`).inputValue(), '9');
    const printed = await page.locator(`${section('setup')} pre.printed code`).textContent();
    assert.equal(printed, "{'profile': 'smoke', 'seed': 9, 'real_model': False}");
    assert.match(await page.locator(section('setup')).textContent(), /RUN_REAL_MODEL=True only in a prepared GPU environment/);
  });

  test('section 1: the five notebook cases hold, computed live, and match the JS API', async () => {
    const rows = await tableText(page.locator(`${section('verifier')} table.verifier-cases`));
    assert.equal(rows.length, 5);
    CASES.forEach(([text, reference, expected], i) => {
      const [n, shownText, shownRef, observed, shownExpected, status, check] = rows[i];
      assert.equal(n, String(i + 1));
      assert.equal(shownText, text);
      assert.equal(shownRef, reference);
      assert.equal(observed, String(core.verifyNumericAnswer(text, reference)));
      assert.equal(shownExpected, String(expected));
      assert.equal(status, en[`verifier.status.${core.checkNumericAnswer(text, reference).status}`]);
      assert.match(check, /^✓/);
    });
    assert.match(await page.locator('[data-testid="verifier-summary"]').textContent(), /^✓ All 5 cases hold/);
  });

  test('section 1: the presets and the free box show the core verdict, status, candidate and rule', async () => {
    const presets = await page.$$eval(`${section('verifier')} [data-preset]`, (nodes) => nodes.map((n) => n.dataset.preset));
    assert.ok(presets.length >= 4);
    for (const preset of presets) {
      await page.click(`${section('verifier')} [data-preset="${preset}"]`);
      const text = await page.locator('[data-key="v.text"]').inputValue();
      const reference = await page.locator('[data-key="v.ref"]').inputValue();
      const check = core.checkNumericAnswer(text, reference);
      const dd = (id) => page.locator(`${section('verifier')} [data-testid="${id}"]`).textContent();
      assert.equal(await dd('verdict'), check.accuracy ? '✓ 1' : '✗ 0', preset);
      assert.equal(await dd('status'), en[`verifier.status.${check.status}`], preset);
      assert.equal(await dd('candidate'), check.candidate || en['verifier.none'], preset);
      assert.match(await dd('rule'), new RegExp(`${check.rule}$`), preset);
      assert.equal(await dd('reason'), check.reason, preset);
    }
    // Typing: a number inside a word is no number; a later plain number is.
    await fill(page, 'v.text', 'v1.5 of H2O gives 7');
    await fill(page, 'v.ref', '7');
    const typed = core.checkNumericAnswer('v1.5 of H2O gives 7', '7');
    // The candidate can match while the reference box's edit is still pending, so wait for the verdict too.
    await waitText(page, '[data-testid="candidate"]', (s) => s === typed.candidate);
    await waitText(page, '[data-testid="verdict"]', (s) => s === (typed.accuracy ? '✓ 1' : '✗ 0'));
    assert.match(await page.evaluate(() => location.hash), /v\.text=v1\.5%20of%20H2O%20gives%207/);
  });

  test('section 2: the examples table and the P_info chart match the JS API', async () => {
    const sec = section('informative-groups');
    const header = await page.$$eval(`${sec} table.examples thead th`, (ths) => ths.map((th) => th.textContent));
    assert.deepEqual(header, ['p', 'P_info, G=8', 'draws for 100 informative prompts']);
    const rows = await tableText(page.locator(`${sec} table.examples`));
    assert.equal(rows.length, 5);
    EXAMPLE_P.forEach((p, i) => {
      assert.ok(near(rows[i][0], p, 2), `p ${rows[i][0]}`);
      assert.ok(near(rows[i][1], core.informativeGroupProbability(p, 8)), `P_info at ${p}: ${rows[i][1]}`);
      assert.ok(near(rows[i][2], core.expectedDrawsForInformativeGroups(100, p, 8)), `draws at ${p}: ${rows[i][2]}`);
    });
    const chart = await chartState(page, `${sec} canvas`);
    assert.equal(chart.xTitle, en.INFO_X);
    assert.equal(chart.yTitle, en.INFO_Y);
    assert.deepEqual(chart.datasets.slice(0, 5).map((d) => d.label), ['G=2', 'G=4', 'G=8', 'G=16', 'G=32']);
    for (const [k, g] of [2, 4, 8, 16, 32].entries()) {
      const data = chart.datasets[k].data;
      assert.equal(data.length, 400);
      for (const j of [0, 57, 199, 399]) {
        assert.ok(Math.abs(data[j][0] - P_GRID[j]) < 1e-12);
        assert.ok(close(data[j][1], core.informativeGroupProbability(P_GRID[j], g)), `G=${g} point ${j}`);
      }
    }
    const dashes = chart.datasets.slice(0, 5).map((d) => JSON.stringify(d.borderDash));
    assert.equal(new Set(dashes).size, 5, 'every curve has its own dash pattern');
    assert.equal(chart.role, 'img');
    assert.match(chart.ariaLabel, /G = |2, 4, 8, 16, 32/);
    assert.ok((await tableText(page.locator(`${sec} .chart-data table`))).length >= 10, 'chart numbers as a table');
  });

  test('section 3: the advantages table, the sum-to-zero check and the clip chart match the JS API', async () => {
    const sec = section('advantages');
    const standardized = core.groupRelativeAdvantages(REWARDS, true);
    const centered = core.groupRelativeAdvantages(REWARDS, false);
    const terms = core.clippedSurrogateTerms(RATIOS, standardized, 0.2, 0.2);
    const active = core.clipActivity(RATIOS, standardized, 0.2, 0.2);
    const rows = await tableText(page.locator(`${sec} table.advantages`));
    assert.equal(rows.length, 4);
    rows.forEach((row, i) => {
      assert.ok(near(row[1], REWARDS[i]));
      assert.ok(near(row[2], centered[i]), `centered ${i}`);
      assert.ok(near(row[3], standardized[i]), `standardized ${i}`);
      assert.ok(near(row[4], RATIOS[i]));
      assert.ok(near(row[5], terms[i]), `surrogate ${i}: ${row[5]} vs ${terms[i]}`);
      assert.equal(row[6].endsWith(active[i] ? 'yes' : 'no'), true, `clip_active ${i}`);
    });
    assert.deepEqual(active, [true, false, false, true], 'the notebook rows 1 and 4 are clipped');
    const sum = await page.locator('[data-testid="sum-check"]');
    assert.match(await sum.textContent(), /^✓/);
    assert.ok(Math.abs(Number(await sum.getAttribute('data-value'))) < 1e-10);
    const chart = await chartState(page, `${sec} canvas`);
    const points = chart.datasets.filter((d) => d.label.startsWith('rows')).flatMap((d) => d.data);
    assert.equal(points.length, 4, 'every row is marked on the chart');
    for (let i = 0; i < 4; i += 1) {
      assert.ok(points.some(([x, y]) => x === RATIOS[i] && close(y, terms[i])), `row ${i + 1} marked`);
    }
    const curve = chart.datasets[0];
    assert.ok(curve.label.startsWith('A = '));
    const [x, y] = curve.data[100];
    const a = standardized[0] > 0 ? standardized[0] : standardized[2];
    assert.ok(close(y, core.clippedSurrogateTerms([x], [a], 0.2, 0.2)[0]));
  });

  test('section 4: the reductions table and the per-token chart match the JS API', async () => {
    const sec = section('reductions');
    const weights = {
      original_grpo: core.originalGrpoTokenWeights(RED_REWARDS, RED_LENGTHS),
      dr_grpo: core.drGrpoTokenWeights(RED_REWARDS, RED_LENGTHS, 8),
      dapo: core.dapoTokenWeights(RED_REWARDS, RED_LENGTHS),
    };
    const header = await page.$$eval(`${sec} table.reductions thead th`, (ths) => ths.map((th) => th.textContent));
    assert.deepEqual(header, ['reduction', 'response_1', 'response_2', 'response_3', 'absolute_token_weight_sum']);
    const rows = await tableText(page.locator(`${sec} table.reductions`));
    assert.deepEqual(rows.map((r) => r[0]), ['original_grpo', 'dr_grpo', 'dapo']);
    const chart = await chartState(page, `${sec} canvas`);
    rows.forEach((row) => {
      const contributions = core.responseContributions(weights[row[0]]);
      const flat = core.flattenTokenWeights(weights[row[0]]);
      contributions.forEach((c, i) => assert.ok(near(row[i + 1], c), `${row[0]} response ${i + 1}: ${row[i + 1]} vs ${c}`));
      assert.ok(near(row[4], flat.reduce((s, w) => s + Math.abs(w), 0)), `${row[0]} abs sum`);
      const dataset = chart.datasets.find((d) => d.label === row[0]);
      assert.equal(dataset.data.length, flat.length);
      dataset.data.forEach((w, j) => assert.ok(close(w, flat[j]), `${row[0]} token ${j} on the chart`));
    });
    assert.equal(chart.labels.length, 15);
  });

  test('section 5: the finite-policy table, chart and modes match the JS API', async () => {
    const sec = section('finite-policy');
    const rows = await tableText(page.locator(`${sec} table.finite-table`));
    assert.deepEqual(rows.map((r) => r[0]), FINITE_STEPS.map(String));
    rows.forEach((row, i) => {
      const expected = finiteRow(0, 0.18, FINITE_STEPS[i]);
      assert.ok(near(row[1], expected.reward), `reward at ${row[0]}`);
      assert.ok(near(row[2], expected.entropy), `entropy at ${row[0]}`);
      assert.ok(near(row[3], expected.pass), `pass@4 at ${row[0]}`);
    });
    const chart = await chartState(page, `${sec} figure.chart:not(.chart-short) canvas`);
    assert.equal(chart.xTitle, en.FINITE_X);
    assert.deepEqual(chart.datasets.map((d) => d.label), [en.FINITE_REWARD, en.FINITE_ENTROPY, 'pass@4']);
    assert.equal(chart.datasets[0].data.length, 61);
    const first = finiteRow(0, 0.18, 0);
    const last = finiteRow(0, 0.18, 60);
    assert.ok(last.reward > first.reward && last.entropy < first.entropy, 'the lesson: reward rises, entropy falls');
    assert.ok(close(chart.datasets[0].data[60][1], last.reward));
    assert.ok(close(chart.datasets[1].data[60][1], last.entropy));
    const modes = await tableText(page.locator(`${sec} table.modes-table`));
    assert.equal(modes.length, last.state.probabilities.length);
    modes.forEach((row, i) => {
      assert.ok(near(row[2], first.state.probabilities[i]));
      assert.ok(near(row[3], last.state.probabilities[i]));
    });
    // Why entropy falls: the exact change of each step beside -eta Cov(log p, p A), and the sentence.
    const entropy = await chartState(page, `${sec} figure.chart-entropy canvas`);
    const mechanism = core.finiteEntropyMechanism({ betaEntropy: 0, learningRate: 0.18, steps: 60 });
    assert.equal(entropy.xTitle, en.FINITE_X);
    assert.equal(entropy.yTitle, en['finite.entropy.y']);
    assert.deepEqual(entropy.datasets.map((d) => d.label), [en['finite.entropy.exact'], en['finite.entropy.predicted']]);
    assert.equal(entropy.datasets[0].data.length, 60);
    for (const t of [0, 30, 59]) {
      assert.ok(close(entropy.datasets[0].data[t][1], mechanism.exactChange[t]), `exact change at ${t}`);
      assert.ok(close(entropy.datasets[1].data[t][1], mechanism.predictedChange[t]), `prediction at ${t}`);
    }
    const sentence = await page.locator(`${sec} [data-testid="entropy-claim"]`).textContent();
    assert.equal(sentence, entropyText(en, 'en', 0, 0.18, 60));
    assert.match(sentence, /^Over 60 steps, .* every time .*; mode A, confident .* with a positive advantage, drives it down most/);
  });

  test('controls update their tables, charts and the URL', async () => {
    // Section 2: table G and free G.
    await fill(page, 'ig.tg', '4');
    await waitText(page, `${section('informative-groups')} table.examples thead th:nth-child(2)`, (s) => s === 'P_info, G=4');
    const rows = await tableText(page.locator(`${section('informative-groups')} table.examples`));
    EXAMPLE_P.forEach((p, i) => {
      assert.ok(near(rows[i][1], core.informativeGroupProbability(p, 4)));
      assert.ok(near(rows[i][2], core.expectedDrawsForInformativeGroups(100, p, 4)));
    });
    await fill(page, 'ig.g', '3');
    await waitHash(page, 'ig.g', '3');
    const chart = await chartState(page, `${section('informative-groups')} canvas`);
    assert.equal(chart.datasets[4].label, 'G=3');
    assert.ok(close(chart.datasets[4].data[123][1], core.informativeGroupProbability(P_GRID[123], 3)));
    assert.match(await page.evaluate(() => location.hash), /ig\.tg=4/);

    // Section 3: a wider eps_high releases row 1 from the clip.
    await fill(page, 'adv.eh', '0.5');
    await waitText(page, `${section('advantages')} table.advantages tbody tr:first-child td:last-child`, (s) => s.endsWith('no'));
    const standardized = core.groupRelativeAdvantages(REWARDS, true);
    const terms = core.clippedSurrogateTerms(RATIOS, standardized, 0.2, 0.5);
    const advRows = await tableText(page.locator(`${section('advantages')} table.advantages`));
    advRows.forEach((row, i) => assert.ok(near(row[5], terms[i])));
    // Scale off: the surrogate uses the centered advantages.
    await page.locator('[data-key="adv.scale"]').uncheck();
    await waitText(page, `${section('advantages')} p.muted`, (s) => s.includes('centered'));
    const centeredTerms = core.clippedSurrogateTerms(RATIOS, core.groupRelativeAdvantages(REWARDS, false), 0.2, 0.5);
    (await tableText(page.locator(`${section('advantages')} table.advantages`))).forEach((row, i) => assert.ok(near(row[5], centeredTerms[i])));
    assert.match(await page.evaluate(() => location.hash), /adv\.scale=0/);

    // Section 4: equal lengths.
    await fill(page, 'red.len', '4, 4, 4');
    await waitHash(page, 'red.len', '4,4,4');
    const red = await tableText(page.locator(`${section('reductions')} table.reductions`));
    const contributions = core.responseContributions(core.dapoTokenWeights(RED_REWARDS, [4, 4, 4]));
    contributions.forEach((c, i) => assert.ok(near(red[2][i + 1], c)));

    // Section 5: an entropy bonus, then the scrubbed step (keyboard on the slider).
    await fill(page, 'fp.beta', '0.5');
    await waitHash(page, 'fp.beta', '0.5');
    const fin = await tableText(page.locator(`${section('finite-policy')} table.finite-table`));
    fin.forEach((row) => assert.ok(near(row[1], finiteRow(0.5, 0.18, Number(row[0])).reward)));
    await page.locator('[data-key="fp.at"]').focus();
    await page.keyboard.press('Home');
    await waitText(page, `${section('finite-policy')} h3`, (s) => s.endsWith(' 0'));
    for (let i = 0; i < 10; i += 1) await page.keyboard.press('ArrowRight');
    await waitText(page, `${section('finite-policy')} h3`, (s) => s.endsWith(' 10'));
    const modes = await tableText(page.locator(`${section('finite-policy')} table.modes-table`));
    const at10 = finiteRow(0.5, 0.18, 10).state.probabilities;
    modes.forEach((row, i) => assert.ok(near(row[3], at10[i])));
    assert.match(await page.evaluate(() => location.hash), /fp\.at=10/);
  });

  test('sections 0 and 6 share the profile and the seed through the state store, both ways', async () => {
    const setupField = (key) => page.locator(`${section('setup')} [data-key="${key}"]`);
    const loopField = (key) => page.locator(`${section('rl-loop')} [data-key="${key}"]`);
    await setupField('seed').fill('12');
    await setupField('seed').dispatchEvent('input');
    await waitHash(page, 'seed', '12');
    await page.waitForFunction(() => document.querySelector('section#rl-loop [data-key="seed"]')?.value === '12');
    await setupField('profile').selectOption('full');
    await page.waitForFunction(() => document.querySelector('section#rl-loop [data-key="profile"]')?.value === 'full');
    await waitHash(page, 'profile', 'full');
    // Back the other way: section 6 changes them, section 0 shows them.
    await loopField('seed').fill('9');
    await loopField('seed').dispatchEvent('input');
    await loopField('profile').selectOption('smoke');
    await page.waitForFunction(
      () => document.querySelector('section#setup [data-key="seed"]')?.value === '9' && document.querySelector('section#setup [data-key="profile"]')?.value === 'smoke',
    );
    await waitHash(page, 'seed', '9');
    assert.match(await page.locator(`${section('setup')} pre.printed code`).textContent(), /'profile': 'smoke', 'seed': 9/);
  });

  test('invalid entries show the core message beside the control; the rest keeps working', async () => {
    const errorFor = (key) => page.locator(`[data-key="${key}"]`).locator('xpath=ancestor::div[contains(@class,"field")][1]').locator('.field-error');

    await fill(page, 'ig.p', '2');
    const pMessage = errorOf(() => core.informativeGroupProbability(2, 2));
    await waitText(page, `${section('informative-groups')} .field-error:not([hidden])`, (s) => s === pMessage);
    assert.equal(await errorFor('ig.p').textContent(), pMessage);
    assert.equal(await page.locator('[data-key="ig.p"]').getAttribute('aria-invalid'), 'true');

    await fill(page, 'ig.g', 'abc');
    const gMessage = errorOf(() => core.informativeGroupProbability(P_GRID[0], 'abc'));
    await waitText(page, `${section('informative-groups')} .field-error:not([hidden])`, (s) => s === gMessage);
    assert.equal(await errorFor('ig.g').textContent(), gMessage);

    // A ratio count that does not match the rewards is the reader's ratios field, named as such.
    await fill(page, 'adv.ratio', '1.35, 0.85');
    const ratioMessage = en['core.same_length'].replace('{field}', 'ratios').replace('{other}', 'rewards').replace('{expected}', REWARDS.length).replace('{got}', 2);
    await waitText(page, `${section('advantages')} .field-error:not([hidden])`, (s) => s === ratioMessage);
    assert.equal(await errorFor('adv.ratio').textContent(), ratioMessage);

    await fill(page, 'fp.lr', '-1');
    const lrMessage = errorOf(() => core.syntheticModeTraining({ betaEntropy: 0.5, learningRate: -1, steps: 0 }));
    await waitText(page, `${section('finite-policy')} .field-error:not([hidden])`, (s) => s === lrMessage);

    // The URL keeps the last valid state; other widgets keep working.
    const hash = await page.evaluate(() => location.hash);
    assert.match(hash, /ig\.p=0\.1/);
    assert.match(hash, /fp\.lr=0\.18/);
    await fill(page, 'red.fixed', '10');
    await waitHash(page, 'red.fixed', '10');
    const red = await tableText(page.locator(`${section('reductions')} table.reductions`));
    const dr = core.responseContributions(core.drGrpoTokenWeights(RED_REWARDS, [4, 4, 4], 10));
    dr.forEach((c, i) => assert.ok(near(red[1][i + 1], c)));

    // Fixing both entries of the form clears the messages and commits.
    await fill(page, 'ig.p', '0.3');
    await page.waitForTimeout(200);
    assert.match(await page.evaluate(() => location.hash), /ig\.p=0\.1/, 'nothing commits while G is still invalid');
    await fill(page, 'ig.g', '3');
    await waitHash(page, 'ig.p', '0.3');
    assert.equal(await errorFor('ig.p').isHidden(), true);
    assert.equal(await errorFor('ig.g').isHidden(), true);
    assert.equal(await page.locator(`${section('informative-groups')} .stale-note`).isHidden(), true);
    assert.deepEqual(problems.page, []);
  });

  test('axe-core finds no serious or critical violation', async () => {
    const violations = await runAxe(page);
    const serious = violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
    assert.deepEqual(serious, [], JSON.stringify(serious, null, 2));
  });
});

describe('course page, Russian and URL state', () => {
  test('switching to Russian relabels everything, charts use the Russian seed strings', async () => {
    const { page, problems } = await freshPage('#lang=en');
    await page.click('.lang-switch [data-lang="ru"]');
    await page.waitForSelector('html[lang="ru"][data-ready="true"]');
    assert.match(await page.evaluate(() => location.hash), /lang=ru/);
    assert.equal(await page.locator('h1').textContent(), ru['page.title']);
    const groups = await chartState(page, `${section('informative-groups')} canvas`);
    assert.equal(groups.xTitle, ru.INFO_X);
    assert.equal(groups.yTitle, ru.INFO_Y);
    const finite = await chartState(page, `${section('finite-policy')} figure.chart:not(.chart-short) canvas`);
    assert.equal(finite.xTitle, ru.FINITE_X);
    assert.deepEqual(finite.datasets.map((d) => d.label), [ru.FINITE_REWARD, ru.FINITE_ENTROPY, 'pass@4']);
    const entropy = await chartState(page, `${section('finite-policy')} figure.chart-entropy canvas`);
    assert.equal(entropy.yTitle, ru['finite.entropy.y']);
    assert.deepEqual(entropy.datasets.map((d) => d.label), [ru['finite.entropy.exact'], ru['finite.entropy.predicted']]);
    const sentence = await page.locator(`${section('finite-policy')} [data-testid="entropy-claim"]`).textContent();
    assert.equal(sentence, entropyText(ru, 'ru', 0, 0.18, 60));
    assert.match(sentence, /^За 60 шагов .*; сильнее всего её снижает мода A, уверенная/);
    const header = await page.$$eval(`${section('informative-groups')} table.examples thead th`, (ths) => ths.map((th) => th.textContent));
    assert.deepEqual(header, ['p', 'P_info, G=8', ru['groups.col.draws']]);
    assert.equal(await page.locator(`${section('verifier')} table.verifier-cases tbody tr:nth-child(4) td:nth-child(6)`).textContent(), ru['verifier.status.no_answer']);
    assert.match(await page.locator(section('setup')).textContent(), new RegExp(ru.REAL_MODEL_SKIPPED.slice(0, 30)));
    // Russian text writes numbers with a decimal point (docs/DEVELOPING.md): no digit,digit outside code.
    const numbers = await page.evaluate(() => {
      const app = document.querySelector('#app').cloneNode(true);
      for (const node of app.querySelectorAll('code, pre, .katex, input, textarea')) node.remove();
      return { commas: app.textContent.match(/\d+,\d+/g) ?? [], points: (app.textContent.match(/\d\.\d/g) ?? []).length };
    });
    assert.deepEqual(numbers.commas, []);
    assert.ok(numbers.points > 20, `${numbers.points} decimal points in the Russian page's text`);
    // Focus stays on the switch, and switching back works.
    assert.equal(await page.evaluate(() => document.activeElement?.dataset.lang), 'ru');
    await page.click('.lang-switch [data-lang="en"]');
    await page.waitForSelector('html[lang="en"][data-ready="true"]');
    assert.equal((await chartState(page, `${section('informative-groups')} canvas`)).xTitle, en.INFO_X);
    assert.deepEqual([...problems.console, ...problems.page], []);
    await page.close();
  });

  test('a URL with state restores every control and its numbers', async () => {
    const text = 'First \\boxed{2}, then corrected: \\boxed{3}';
    const hash =
      `#lang=ru&profile=full&seed=123&v.text=${encodeURIComponent(text)}&v.ref=3&ig.g=5&ig.tg=16&ig.p=0.25` +
      '&adv.r=1,0,0,0&adv.ratio=0.7,1.3,1,1.1&adv.el=0.1&adv.eh=0.28&adv.scale=0&red.r=0,1&red.len=3,9&red.fixed=12' +
      '&fp.beta=0.05&fp.lr=0.3&fp.steps=30&fp.at=10';
    const { page, problems } = await freshPage(hash);
    const value = (key) => page.locator(`section.section:not(#rl-loop) [data-key="${key}"]`).first().inputValue();
    assert.equal(await page.locator('html').getAttribute('lang'), 'ru');
    assert.equal(await value('profile'), 'full');
    assert.equal(await value('seed'), '123');
    assert.equal(await value('v.text'), text);
    assert.equal(await value('ig.tg'), '16');
    assert.equal(await value('adv.ratio'), '0.7, 1.3, 1, 1.1');
    assert.equal(await page.locator('[data-key="adv.scale"]').isChecked(), false);
    assert.equal(await value('fp.at'), '10');
    assert.equal(await page.locator('[data-testid="verdict"]').textContent(), '✓ 1');

    const examples = await tableText(page.locator(`${section('informative-groups')} table.examples`));
    EXAMPLE_P.forEach((p, i) => assert.ok(near(examples[i][1], core.informativeGroupProbability(p, 16))));
    const groups = await chartState(page, `${section('informative-groups')} canvas`);
    assert.equal(groups.datasets[4].label, 'G=5');

    const centered = core.groupRelativeAdvantages([1, 0, 0, 0], false);
    const terms = core.clippedSurrogateTerms([0.7, 1.3, 1, 1.1], centered, 0.1, 0.28);
    (await tableText(page.locator(`${section('advantages')} table.advantages`))).forEach((row, i) => assert.ok(near(row[5], terms[i])));

    const dr = core.responseContributions(core.drGrpoTokenWeights([0, 1], [3, 9], 12));
    const red = await tableText(page.locator(`${section('reductions')} table.reductions`));
    dr.forEach((c, i) => assert.ok(near(red[1][i + 1], c)));

    const fin = await tableText(page.locator(`${section('finite-policy')} table.finite-table`));
    assert.deepEqual(fin.map((r) => r[0]), ['0', '9', '19', '30']);
    fin.forEach((row) => assert.ok(near(row[2], finiteRow(0.05, 0.3, Number(row[0])).entropy)));
    const modes = await tableText(page.locator(`${section('finite-policy')} table.modes-table`));
    const at10 = finiteRow(0.05, 0.3, 10).state.probabilities;
    modes.forEach((row, i) => assert.ok(near(row[3], at10[i])));

    assert.equal(await page.locator('.url-notes').count(), 0);
    assert.deepEqual([...problems.console, ...problems.page], []);
    await page.close();
  });

  test('bad values in the URL fall back to defaults with a visible note', async () => {
    const { page, problems } = await freshPage('#lang=en&ig.g=abc&ig.p=2&fp.lr=-1&adv.r=1,x&red.fixed=3&zzz=1');
    const notes = page.locator('.url-notes');
    await notes.waitFor();
    const items = await notes.locator('li').allTextContents();
    for (const key of ['ig.g', 'ig.p', 'fp.lr', 'adv.r', 'red.fixed', 'zzz']) {
      assert.ok(items.some((item) => item.startsWith(key)), `note for ${key}: ${items.join(' | ')}`);
    }
    // red.fixed=3 is a valid integer that the core rejects (shorter than the longest response):
    // the note carries the core's own message.
    const fixedMessage = errorOf(() => core.drGrpoTokenWeights(RED_REWARDS, RED_LENGTHS, 3));
    assert.ok(items.some((item) => item.includes(fixedMessage)), `core message in the note: ${fixedMessage}`);
    const value = (key) => page.locator(`[data-key="${key}"]`).inputValue();
    assert.equal(await value('ig.g'), '32');
    assert.equal(await value('ig.p'), '0.1');
    assert.equal(await value('fp.lr'), '0.18');
    assert.equal(await value('adv.r'), '1, 1, 0, 0');
    assert.equal(await value('red.fixed'), '8');
    const hash = await page.evaluate(() => location.hash);
    assert.match(hash, /ig\.g=32/);
    assert.doesNotMatch(hash, /zzz/);
    assert.equal(await page.locator('main section.section[data-rendered="true"]').count(), 10);
    assert.deepEqual([...problems.console, ...problems.page], []);
    await page.close();
  });

  test('keyboard: skip link first, visible focus, language switch by key', async () => {
    const { page } = await freshPage('#lang=en');
    await page.keyboard.press('Tab');
    assert.equal(await page.evaluate(() => document.activeElement.className), 'skip-link');
    await page.keyboard.press('Tab');
    const focused = await page.evaluate(() => {
      const el = document.activeElement;
      const style = getComputedStyle(el);
      return { lang: el.dataset.lang, outline: style.outlineStyle, width: parseFloat(style.outlineWidth) };
    });
    assert.equal(focused.lang, 'en');
    assert.notEqual(focused.outline, 'none');
    assert.ok(focused.width >= 2, 'focus ring at least 2px');
    await page.keyboard.press('Tab');
    await page.keyboard.press('Enter');
    await page.waitForSelector('html[lang="ru"][data-ready="true"]');
    // A number field: arrow keys step it, like a spin button.
    await page.locator('[data-key="ig.tg"]').focus();
    await page.keyboard.press('ArrowUp');
    await waitHash(page, 'ig.tg', '9');
    const ring = await page.evaluate(() => getComputedStyle(document.activeElement).outlineStyle);
    assert.notEqual(ring, 'none');
    await page.close();
  });

  test('a link to a section (#advantages) scrolls there and keeps the state in the hash', async () => {
    // Opened as a reader opens it (no scrolling through first): the page itself goes there.
    const { page } = await openPage(browser.context, server.origin);
    await page.goto(`${server.origin}/index.html#advantages`);
    for (const id of ['informative-groups', 'advantages', 'reductions']) await page.waitForSelector(`${section(id)}[data-rendered="true"]`);
    await page.waitForFunction(() => window.scrollY > 1000);
    await nextFrame(page);
    const top = await page.evaluate(() => document.getElementById('advantages').getBoundingClientRect().top);
    assert.ok(Math.abs(top) < 40, `section at the top of the viewport (${top})`);
    assert.match(await page.evaluate(() => location.hash), /^#lang=en&.*adv\.r=1,1,0,0/);
    // A contents link does the same without losing the state.
    await fill(page, 'adv.el', '0.1');
    await waitHash(page, 'adv.el', '0.1');
    await page.click('nav.toc a[href="#reductions"]');
    await page.waitForFunction(() => Math.abs(document.getElementById('reductions').getBoundingClientRect().top) < 40);
    assert.equal(new URLSearchParams((await page.evaluate(() => location.hash)).slice(1)).get('adv.el'), '0.1');
    assert.equal(await page.evaluate(() => document.activeElement.id), 'reductions-title');
    await page.close();
  });

  test('text first: every section reads before the core arrives; widgets mount as the reader comes near', async () => {
    const opened = await openPage(browser.context, server.origin);
    const { page, requests, problems } = opened;
    let release;
    const held = new Promise((resolve) => (release = resolve));
    await page.route('**/core/grpo_core_reference.wasm', async (route) => {
      await held;
      await route.fallback();
    });
    await page.goto(`${server.origin}/index.html#lang=en`);
    await page.waitForSelector('html[data-shell="true"]');
    const texts = await page.$$eval('main section.section', (nodes) => nodes.map((n) => [n.id, n.textContent.length, n.dataset.rendered ?? '']));
    assert.equal(texts.length, 10);
    for (const [id, length, rendered] of texts) {
      assert.ok(length > 200, `${id} shows its explanation before the core (${length} characters)`);
      assert.equal(rendered, '', `${id} has no widget yet`);
    }
    assert.match(await page.locator(section('informative-groups')).textContent(), /centered group signal/);
    release();
    await page.waitForSelector(`${section('verifier')}[data-rendered="true"]`);
    const loaded = () => requests.map((url) => new URL(url).pathname);
    assert.equal(await page.locator(`${section('rl-loop')}[data-rendered="true"]`).count(), 0, 'section 6 waits for the reader');
    const training = (path) => /^\/js\/training\/(controller|run-bar|run-format)\.js$|^\/js\/sections\/rl-loop\.js$|^\/data\//.test(path);
    assert.deepEqual(loaded().filter(training), [], 'no training widget module or run data at the top of the page');
    assert.ok(loaded().includes('/core/grpo_core_reference.wasm') && !loaded().includes('/core/grpo_core.wasm'), 'the page starts on the reference build');
    await page.locator(section('rl-loop')).scrollIntoViewIfNeeded();
    await page.waitForSelector(`${section('rl-loop')}[data-rendered="true"]`);
    assert.ok(loaded().includes('/js/training/controller.js') && loaded().includes('/js/sections/rl-loop.js'));
    assert.ok(loaded().includes('/core/grpo_core.wasm'), 'section 6 brings the full core');
    assert.ok((await page.locator(`${section('rl-loop')} .run-bar button[data-action="run"]`).count()) > 0, 'the Run button is there');
    assert.deepEqual([...problems.console, ...problems.page], [], 'no console error');
    await page.close();
  });

  // Opened at a section, the page stays on it while the widgets around it mount (above it too)
  // and fill in: section 2 (the widget of 1 above grows; section 0 is more than a screen above,
  // so it mounts only when the reader scrolls up) and section 7 (6 above, the run arrives).
  for (const [id, neighbours, drawn] of [
    ['informative-groups', ['verifier', 'informative-groups', 'advantages'], null],
    ['updates', ['rl-loop', 'updates', 'coverage'], ':precomputed'],
  ]) {
    test(`a link into the page (#${id}) stays on its section while the widgets around it mount and fill in`, async () => {
      const { page, problems } = await openPage(browser.context, server.origin);
      await page.goto(`${server.origin}/index.html#${id}`);
      for (const near of neighbours) await page.waitForSelector(`${section(near)}[data-rendered="true"]`);
      if (drawn) {
        await page.waitForFunction(
          ([target, suffix]) => document.querySelector(`section#${target} .section-widget`)?.dataset.drawn?.endsWith(suffix),
          [id, drawn],
        );
      }
      await page.waitForTimeout(300);
      await nextFrame(page);
      const top = await page.evaluate((target) => document.getElementById(target).getBoundingClientRect().top, id);
      assert.ok(Math.abs(top) < 40, `${id} at the top of the viewport (${top})`);
      assert.deepEqual([...problems.console, ...problems.page], []);
      await page.close();
    });
  }

  test('without the WebAssembly core the page still explains every section and says why', async () => {
    const opened = await openPage(browser.context, server.origin);
    await opened.page.route('**/core/grpo_core*.wasm', (route) => route.fulfill({ status: 404, body: 'not found' }));
    await gotoReady(opened.page, `${server.origin}/index.html#lang=en`);
    assert.equal(await opened.page.locator('main section.section').count(), 10);
    assert.ok((await opened.page.locator('.callout-error').count()) >= 5);
    assert.match(await opened.page.locator(section('informative-groups')).textContent(), /centered group signal/);
    assert.deepEqual(opened.problems.page, [], 'no uncaught error');
    await opened.page.close();
  });

  test('prefers-reduced-motion turns chart animation off', async () => {
    const page = await browser.context.newPage();
    await page.emulateMedia({ reducedMotion: 'reduce' });
    await gotoReady(page, `${server.origin}/index.html#lang=en`);
    const chart = await chartState(page, `${section('informative-groups')} canvas`);
    assert.equal(chart.animation, false);
    assert.equal(await page.evaluate(() => getComputedStyle(document.documentElement).scrollBehavior), 'auto');
    await page.close();
    // Otherwise a chart is built still (charts.js makeChart: no creation animation) and animates later updates.
    const moving = await browser.context.newPage();
    await gotoReady(moving, `${server.origin}/index.html#lang=en`);
    assert.deepEqual((await chartState(moving, `${section('informative-groups')} canvas`)).animation, { duration: 250 });
    await moving.close();
  });
});

describe('screenshots and accessibility at laptop and phone widths, both languages', () => {
  for (const [name, viewport] of [
    ['laptop', LAPTOP],
    ['phone', PHONE],
  ]) {
    for (const lang of ['en', 'ru']) {
      test(`${name} ${lang}`, async () => {
        const { page, problems } = await freshPage(`#lang=${lang}`, { viewport });
        await page.waitForTimeout(150); // let Chart.js settle its responsive size
        const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
        assert.ok(overflow <= 0, `no horizontal page scroll (overflow ${overflow}px)`);
        mkdirSync(SHOTS, { recursive: true });
        await screenshot(page, `page-${name}-${lang}-top`);
        await screenshot(page, `page-${name}-${lang}-full`, { fullPage: true });
        // Section close-ups, to look at (the full page is long).
        const ids = name === 'laptop' ? ['verifier', 'informative-groups', 'advantages', 'reductions', 'finite-policy'] : ['informative-groups', 'advantages'];
        for (const id of ids) {
          await page.locator(section(id)).screenshot({ path: join(SHOTS, `page-${name}-${lang}-${id}.png`) });
        }
        if (name === 'phone' && lang === 'ru') {
          const violations = await runAxe(page);
          const serious = violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
          assert.deepEqual(serious, [], JSON.stringify(serious, null, 2));
        }
        assert.deepEqual([...problems.console, ...problems.page, ...problems.outside], []);
        await page.close();
      });
    }
  }
});
