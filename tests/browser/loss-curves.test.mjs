// Sections 3 and 4 with TRL 1.9's loss types, in real Chromium: switching section 3's loss
// redraws the chart from the core (the curves change, the table's rows land on the new curves,
// CISPO's note explains its cap), section 4's length slider changes the normaliser table; saves
// test-results/trl13/section3-cispo.png and section3-sapo.png.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT, chartState, gotoReady, nodeCore, openPage, tableText, useServerAndBrowser } from './helpers.mjs';

const env = useServerAndBrowser();
const core = await nodeCore();
const SHOTS = join(ROOT, 'test-results', 'trl13');
const SEC3 = 'section.section[id="advantages"]';
const SEC4 = 'section.section[id="reductions"]';
const RATIOS = [1.35, 0.85, 1.1, 0.7];
const close = (a, b) => Math.abs(a - b) <= 1e-9 * Math.max(1, Math.abs(b));

/** Polls the section 3 chart until `predicate(state)` holds; returns the state. */
async function chartUntil(page, predicate, message) {
  const deadline = Date.now() + 10000;
  let state = null;
  while (Date.now() < deadline) {
    state = await chartState(page, `${SEC3} canvas`);
    if (state && predicate(state)) return state;
    await page.waitForTimeout(50);
  }
  assert.fail(`${message}: last ${JSON.stringify(state?.datasets?.map((d) => d.label))}`);
}

/** The rows' points and the curves of a chart state. */
const split = (state) => ({
  rows: state.datasets.filter((d) => d.label.startsWith('rows')).flatMap((d) => d.data),
  curves: state.datasets.filter((d) => d.label.startsWith('A = ')),
});

describe('sections 3 and 4: every TRL 1.9 loss', () => {
  test('switching the loss redraws section 3 from the core; the rows land on the chosen loss\'s curve', async () => {
    const { page, problems } = await openPage(env.browser.context, env.server.origin);
    await gotoReady(page, `${env.server.origin}/#advantages`);
    const advantages = core.groupRelativeAdvantages([1, 1, 0, 0], true);
    const clip = split(await chartUntil(page, (s) => s.datasets.length > 0, 'the clip chart'));
    const checks = [
      { loss: 'cispo', options: { lossType: 'cispo', epsHigh: 0.2 } },
      { loss: 'sapo', options: { lossType: 'sapo' } },
      { loss: 'vespo', options: { lossType: 'vespo' } },
      { loss: 'delta', options: { lossType: 'grpo', epsLow: 0.2, epsHigh: 0.2, delta: 1.5 } },
    ];
    let previous = clip;
    for (const { loss, options } of checks) {
      await page.locator(`${SEC3} [data-key="adv.loss"]`).selectOption(loss);
      const expected = core.tokenTermCurve({ ...options, ratios: RATIOS, advantages });
      const state = split(await chartUntil(page, (s) => split(s).rows.some(([x, y]) => x === RATIOS[0] && close(y, expected[0])), `${loss}: row 1 on its curve`));
      // Every row at its (ratio, J) of the chosen loss, and each curve is the core's J of that loss.
      for (let i = 0; i < 4; i += 1) assert.ok(state.rows.some(([x, y]) => x === RATIOS[i] && close(y, expected[i])), `${loss}: row ${i + 1}`);
      for (const curve of state.curves) {
        const a = Number(curve.label.slice(4));
        const [x, y] = curve.data[120];
        const [want] = core.tokenTermCurve({ ...options, ratios: [x], advantages: [advantages.find((v) => Math.abs(v - a) < 1e-3)] });
        assert.ok(close(y, want), `${loss}: ${curve.label} at ρ=${x}: ${y} vs ${want}`);
      }
      assert.notDeepEqual(state.curves.map((c) => c.data), previous.curves.map((c) => c.data), `${loss}: the curves changed`);
      const table = await tableText(page.locator(`${SEC3} table.advantages`));
      table.forEach((row, i) => assert.ok(Math.abs(Number(row[5]) - expected[i]) < 1e-4, `${loss}: table row ${i + 1} shows ${row[5]}`));
      previous = state;
    }
    // CISPO's note names the trap; the gradient-weight view draws w = min(ρ, ε_high) A.
    await page.locator(`${SEC3} [data-key="adv.loss"]`).selectOption('cispo');
    assert.match(await page.locator(`${SEC3} [data-testid="loss-note"]`).textContent(), /epsilon_high.*absolute cap.*0\.28.*5\.0/s);
    await page.locator(`${SEC3} [data-key="adv.view"]`).selectOption('weight');
    const weights = core.tokenTermCurve({ lossType: 'cispo', epsHigh: 0.2, ratios: RATIOS, advantages, view: 'weight' });
    const state = await chartUntil(page, (s) => split(s).rows.some(([x, y]) => x === RATIOS[0] && close(y, weights[0])), 'cispo weight view');
    assert.match(state.yTitle, /gradient weight/);
    assert.ok(close(weights[0], 0.2 * advantages[0]), 'the cap is epsilon_high itself');
    assert.match(page.url(), /adv\.loss=cispo/);
    assert.match(page.url(), /adv\.view=weight/);
    // Only the chosen loss's parameters are shown.
    const shown = async (key) => page.locator(`${SEC3} [data-key="${key}"]`).isVisible();
    assert.deepEqual(await Promise.all(['adv.eh', 'adv.el', 'adv.delta', 'adv.stp', 'adv.kp'].map(shown)), [true, false, false, false, false]);
    assert.deepEqual([...problems.console, ...problems.page], []);
    await page.close();
  });

  test('screenshots: section 3 with the CISPO and with the SAPO curves', async () => {
    mkdirSync(SHOTS, { recursive: true });
    const { page } = await openPage(env.browser.context, env.server.origin);
    for (const [loss, extra] of [['cispo', '&adv.eh=0.28&adv.ratio=1.35,0.85,3.2,0.7'], ['sapo', '']]) {
      await gotoReady(page, `${env.server.origin}/#adv.loss=${loss}${extra}`);
      await chartUntil(page, (s) => s.datasets.length > 0, loss);
      const section = page.locator(SEC3);
      await section.locator('canvas').scrollIntoViewIfNeeded();
      await page.waitForTimeout(400);
      await section.screenshot({ path: join(SHOTS, `section3-${loss}.png`) });
    }
    await page.close();
  });

  test('section 4: every loss type\'s normaliser, and the length slider changes the table', async () => {
    const { page, problems } = await openPage(env.browser.context, env.server.origin);
    await gotoReady(page, `${env.server.origin}/#reductions`);
    const table = () => tableText(page.locator(`${SEC4} table.normalizers`));
    const expected = (length) =>
      ['grpo', 'bnpo', 'dr_grpo', 'dapo', 'cispo', 'sapo', 'luspo', 'vespo'].map((lossType) =>
        core.lossNormalizer({ lossType, completions: 3, length, totalTokens: length + 5 + 8, maxCompletionLength: 8 }),
      );
    const before = await table();
    assert.deepEqual(before.map((row) => row[0]), ['grpo', 'bnpo', 'dr_grpo', 'dapo', 'cispo', 'sapo', 'luspo', 'vespo']);
    before.forEach((row, i) => assert.ok(Math.abs(Number(row[2]) - expected(2)[i]) < 1e-4, `${row[0]} D at L=2`));
    const slider = page.locator(`${SEC4} [data-key="red.L"]`);
    await slider.fill('7');
    await slider.dispatchEvent('input');
    const deadline = Date.now() + 10000;
    let after = before;
    while (Date.now() < deadline && after[0][2] === before[0][2]) {
      await page.waitForTimeout(50);
      after = await table();
    }
    after.forEach((row, i) => {
      assert.ok(Math.abs(Number(row[2]) - expected(7)[i]) < 1e-4, `${row[0]} D at L=7: ${row[2]}`);
      assert.ok(Math.abs(Number(row[4]) - 7 / expected(7)[i]) < 1e-4, `${row[0]} completion weight at L=7`);
    });
    // grpo keeps a completion's total weight at 1/N whatever its length; dr_grpo's grows with L.
    assert.equal(after[0][4], before[0][4]);
    assert.notEqual(after[2][4], before[2][4]);
    assert.match(page.url(), /red\.L=7/);
    assert.deepEqual([...problems.console, ...problems.page], []);
    await page.close();
  });
});
