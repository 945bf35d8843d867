// The Russian page in real Chromium: bad input typed into every text field of sections 1-6 gets
// its message beside the field, in Russian (rendered from the core's code and params), and no
// English sentence appears in those sections (text fields only: a select, checkbox or slider
// cannot hold a bad value; the verifier's boxes accept any text, the verifier rules on it). Also a screenshot of section 3 with a bad epsHigh.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { gotoReady, launchBrowser, openPage, screenshot, startServer } from './helpers.mjs';

const SECTIONS = ['verifier', 'informative-groups', 'advantages', 'reductions', 'finite-policy', 'rl-loop'];

// Bad input per kind of field: what a learner might type.
const BAD = { number: 'abc', list: '1, abc', text: '' };

// An English sentence: four or more Latin-letter words in a row (identifiers such as `epsHigh`,
// `dr_grpo` or `GRPO` are one word each, so a Russian sentence that names them passes). Formula
// and code snippets (KaTeX, <code>, <pre>) are English by nature and not looked at, nor is the
// verifier's reason text (the verifier's own codes cover it).
const ENGLISH_SENTENCE = /\b[A-Za-z]{2,}(?:[ ,;:'’-]+[A-Za-z]{2,}){3,}\b/;

/**
 * The visible text of a section, one entry per block (paragraph, cell, label, ...), without
 * formulas, code, option lists and text the page itself marks as English (lang="en": the
 * verifier's reason).
 */
function visibleText(id) {
  const section = document.querySelector(`main section.section[id="${id}"]`);
  const skip = '.katex, code, pre, script, style, select, [hidden], [lang="en"]';
  const block = 'p, li, td, th, h1, h2, h3, h4, label, legend, figcaption, button, summary, dt, dd, div';
  const texts = new Map();
  const walker = document.createTreeWalker(section, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const parent = node.parentElement;
    if (!parent || parent.closest(skip) || !parent.checkVisibility()) continue;
    const owner = parent.closest(block) ?? section;
    texts.set(owner, (texts.get(owner) ?? '') + node.textContent);
  }
  return [...texts.values()].map((text) => text.replace(/\s+/g, ' ').trim()).filter(Boolean);
}

describe('the Russian page says every error in Russian', () => {
  let server;
  let browser;
  before(async () => {
    server = await startServer();
    browser = await launchBrowser();
  });
  after(async () => {
    await browser?.close();
    await server?.close();
  });

  test('bad input in every text field of sections 1-6 gets a Russian message beside it', async () => {
    const { page, problems } = await openPage(browser.context, server.origin);
    await gotoReady(page, `${server.origin}/#lang=ru`);
    // Section 6 folds the groups beyond the notebook's knobs: a learner opens them, so do we.
    const unfold = (node) => {
      for (let d = node.closest('details'); d; d = d.parentElement?.closest('details')) d.open = true;
    };
    await page.$$eval('main section.section details', (nodes) => nodes.forEach((d) => (d.open = true)));
    const fields = await page.$$eval(
      SECTIONS.map((id) => `main section.section[id="${id}"] input[data-key][type="text"], main section.section[id="${id}"] textarea[data-key]`).join(', '),
      (nodes) =>
        // Visible fields only: section 3 hides the parameters of the losses not chosen.
        nodes.filter((node) => node.offsetParent !== null).map((node) => ({
          key: node.dataset.key,
          section: node.closest('section.section').id,
          kind: node.getAttribute('inputmode') === 'decimal' ? 'number' : node.tagName === 'TEXTAREA' ? 'text' : 'list',
        })),
    );
    assert.ok(fields.length >= 15, `found ${fields.length} fields`);
    const checked = [];
    for (const { key, section, kind } of fields) {
      if (section === 'verifier') continue; // any text is a valid answer: the verifier rules on it
      const input = page.locator(`section.section[id="${section}"] [data-key="${key}"]`);
      await input.evaluate(unfold);
      const before = await input.inputValue();
      const bad = kind === 'list' && !before.includes(',') && !/\s/.test(before) ? 'abc' : BAD[kind] ?? 'abc';
      await input.fill(bad);
      await input.dispatchEvent('input');
      const error = page.locator(`section.section[id="${section}"] .field-error:not([hidden])`).first();
      await error.waitFor({ timeout: 10000 });
      const message = await error.textContent();
      assert.match(message, /[А-Яа-яЁё]/, `${key}: the message is not Russian: ${message}`);
      assert.doesNotMatch(message, ENGLISH_SENTENCE, `${key}: English in the message: ${message}`);
      const english = (await page.evaluate(visibleText, section)).filter((line) => ENGLISH_SENTENCE.test(line));
      assert.deepEqual(english, [], `${key} = ${bad}: English sentences in section ${section}`);
      checked.push(`${key}: ${message}`);
      await input.fill(before);
      await input.dispatchEvent('input');
      await page.locator(`section.section[id="${section}"] .field-error:not([hidden])`).first().waitFor({ state: 'detached', timeout: 10000 }).catch(() => {});
    }
    assert.ok(checked.length >= 12, checked.join('\n'));
    console.log(`# ${checked.length} fields checked:\n# ${checked.join('\n# ')}`);
    assert.deepEqual(problems.page, []);
    await page.close();
  });

  test('screenshot: section 3 with a bad epsHigh on the Russian page', async () => {
    const { page } = await openPage(browser.context, server.origin);
    await gotoReady(page, `${server.origin}/#lang=ru`);
    const input = page.locator('[data-key="adv.eh"]');
    await input.fill('50');
    await input.dispatchEvent('input');
    const error = page.locator('section.section[id="advantages"] .field-error:not([hidden])').first();
    await error.waitFor({ timeout: 10000 });
    const message = await error.textContent();
    assert.equal(message, 'epsHigh: значение должно лежать в [0, 10], введено 50');
    await input.evaluate((node) => node.scrollIntoView({ block: 'center', behavior: 'instant' }));
    await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
    await input.evaluate((node) => node.scrollIntoView({ block: 'center', behavior: 'instant' }));
    assert.ok(await error.isVisible());
    await screenshot(page, 'errors-ru-section3-epsHigh');
    await page.close();
  });
});
