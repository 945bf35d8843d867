// Section 1 on the Russian page in real Chromium: every verifier preset shows the core's reason
// and rule rendered from reasonCode + reasonParams with the RU dictionary, and no English
// sentence is left in the section (the reader's own text and LaTeX, shown as code, excepted).
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { gotoReady, launchBrowser, nodeCore, openPage, screenshot, startServer } from './helpers.mjs';
import { PRESETS } from '../../web/js/sections/verifier.js';
import ru from '../../web/js/i18n/ru.js';

let server;
let browser;
let core;

before(async () => {
  [server, browser, core] = await Promise.all([startServer(), launchBrowser(), nodeCore()]);
});

after(async () => {
  await browser?.close();
  await server?.close();
});

const SECTION = 'section#verifier';

/** Three or more Latin words in a row, outside code, formulas and form fields: an English sentence. */
function englishRuns(page) {
  return page.evaluate((selector) => {
    const root = document.querySelector(selector);
    const skip = (node) => node.parentElement?.closest('code, pre, .katex, textarea, input, script, style');
    const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
    const runs = [];
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      if (skip(node)) continue;
      for (const match of node.textContent.matchAll(/[A-Za-z]{2,}(?:[\s,;:'’()-]+[A-Za-z]{2,}){2,}/g)) runs.push(match[0]);
    }
    return runs;
  }, SECTION);
}

/** The reason as the page must show it: the RU template with the params filled in (text only). */
const ruReason = (check) => ru[`verifier.reason.${check.reasonCode}`].replace(/\{(\w+)\}/g, (whole, name) => check.reasonParams[name] ?? whole);

test('every verifier preset on the Russian page: the reason and rule in Russian, no English sentence', async () => {
  const { page, problems } = await openPage(browser.context, server.origin);
  await gotoReady(page, `${server.origin}/index.html#lang=ru`);
  assert.equal(await page.locator('html').getAttribute('lang'), 'ru');
  const dd = (id) => page.locator(`${SECTION} [data-testid="${id}"]`).textContent();
  assert.deepEqual(await englishRuns(page), [], 'the default state');
  for (const [name, [text, reference]] of Object.entries(PRESETS)) {
    await page.click(`${SECTION} [data-preset="${name}"]`);
    const check = core.checkNumericAnswer(text, reference);
    const expected = ruReason(check);
    await page.waitForFunction(
      ([selector, want]) => document.querySelector(selector)?.textContent === want,
      [`${SECTION} [data-testid="reason"]`, expected],
      { timeout: 10000 },
    );
    assert.equal(await dd('reason'), expected, name);
    assert.notEqual(await dd('reason'), check.reason, `${name}: not the English sentence`);
    assert.ok((await dd('rule')).startsWith(ru[`verifier.ruleName.${check.rule}`]), name);
    assert.equal(await dd('status'), ru[`verifier.status.${check.status}`], name);
    assert.equal(await page.locator(`${SECTION} [data-testid="reason"] [lang="en"]`).count(), 0, name);
    assert.deepEqual(await englishRuns(page), [], `preset ${name}`);
    if (name === 'unclosed') {
      await page.locator(`${SECTION} .verdict-box`).scrollIntoViewIfNeeded();
      await screenshot(page, 'verifier-ru-unclosed-box');
    }
  }
  assert.deepEqual([...problems.console, ...problems.page], []);
  await page.close();
});

test('the English-sentence detector finds the English reason on the English page (it can fail)', async () => {
  const { page } = await openPage(browser.context, server.origin);
  await gotoReady(page, `${server.origin}/index.html#lang=en`);
  await page.click(`${SECTION} [data-preset="unclosed"]`);
  const check = core.checkNumericAnswer(...PRESETS.unclosed);
  await page.waitForFunction(
    ([selector, want]) => document.querySelector(selector)?.textContent === want,
    [`${SECTION} [data-testid="reason"]`, check.reason],
    { timeout: 10000 },
  );
  const runs = await englishRuns(page);
  assert.ok(runs.some((run) => check.reason.includes(run)), runs.join(' | '));
  await page.close();
});
