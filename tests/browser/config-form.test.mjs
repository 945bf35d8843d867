// Section 6's form in real headless Chromium: the notebook's fields and Run on the first screen at
// 1280 x 900 (the heading at the top) in both languages, every other field folded in its table
// group under a summary counting its changes; presets, links and a refused field open the groups
// they touch. Screenshots of the first screen (1280 x 900 and 390 x 844, EN and RU) in
// test-results/page/.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT, launchBrowser, nodeCore, openPage, startServer } from './helpers.mjs';
import en from '../../web/js/i18n/en.js';
import ru from '../../web/js/i18n/ru.js';
import { CONFIG_PARAMS } from '../../web/js/training/run-config.js';

const SHOTS = join(ROOT, 'test-results', 'page');
const DICT = { en, ru };
const fill = (text, params) => text.replace(/\{(\w+)\}/g, (_, k) => String(params[k]));

let server;
let browser;
let schema;
before(async () => {
  let core;
  [server, browser, core] = await Promise.all([startServer(), launchBrowser({ viewport: { width: 1280, height: 900 } }), nodeCore()]);
  schema = core.configSchema();
  mkdirSync(SHOTS, { recursive: true });
});
after(async () => {
  await browser?.close();
  await server?.close();
});

/** Section 6 opened by its link, mounted, its heading at the top of the screen. */
async function openSection6(hash, viewport) {
  const opened = await openPage(browser.context, server.origin);
  await opened.page.setViewportSize(viewport);
  await opened.page.goto(`${server.origin}/index.html#${hash}`);
  await opened.page.waitForSelector('section#rl-loop[data-rendered="true"] .run-bar[data-phase="precomputed"]', { timeout: 60000 });
  await opened.page.evaluate(() => document.fonts.ready);
  await opened.page.evaluate(() => document.getElementById('rl-loop').scrollIntoView({ block: 'start', behavior: 'instant' }));
  return opened;
}

/** What the form shows, read in the page: boxes on screen, where each field is, each fold. */
function readForm(page) {
  return page.evaluate(() => {
    const section = document.getElementById('rl-loop');
    const box = (el) => el.getBoundingClientRect();
    const notebook = section.querySelector('.field-group-notebook');
    // A label's closing parenthesis on a line of its own ("(importanceSamplingLevel" / ")"):
    // the ")" and the letter before it on different lines.
    const charBox = (node, offset) => {
      const range = document.createRange();
      range.setStart(node, offset);
      range.setEnd(node, offset + 1);
      return range.getBoundingClientRect();
    };
    const orphans = [...notebook.querySelectorAll('label')].filter((label) => {
      const chars = [];
      const walker = document.createTreeWalker(label, NodeFilter.SHOW_TEXT);
      for (let node = walker.nextNode(); node; node = walker.nextNode()) for (let i = 0; i < node.length; i += 1) if (node.data[i].trim()) chars.push([node, i]);
      const at = chars.findLastIndex(([node, i]) => node.data[i] === ')');
      if (at < 1) return false;
      return Math.abs(charBox(...chars[at]).top - charBox(...chars[at - 1]).top) > 4;
    }).map((label) => label.textContent);
    return {
      orphans,
      sideways: document.documentElement.scrollWidth - window.innerWidth,
      headingTop: box(section.querySelector('h2')).top,
      notebookBottom: box(notebook).bottom,
      runBottom: box(section.querySelector('.run-bar button[data-action="run"]')).bottom,
      notebookKeys: [...notebook.querySelectorAll('[data-key]')].map((n) => n.dataset.key),
      folds: [...section.querySelectorAll('details.field-fold')].map((d) => ({
        group: d.dataset.group,
        open: d.open,
        changed: d.dataset.changed,
        summary: d.querySelector('summary').textContent.replace(/\s+/g, ' ').trim(),
        keys: [...d.querySelectorAll('[data-key]')].map((n) => n.dataset.key),
      })),
    };
  });
}

test('the notebook’s fields and Run fill the first screen; every other group is folded, counted', async () => {
  const notebookKeys = schema.fields.filter((f) => f.notebook).map((f) => CONFIG_PARAMS[f.name]);
  assert.ok(notebookKeys.includes('rl.groupSize') && notebookKeys.includes('rl.lr') && notebookKeys.length >= 10, notebookKeys.join());
  const others = schema.fields.filter((f) => !f.notebook);
  const groups = [...new Set(others.map((f) => f.group))];
  for (const lang of ['en', 'ru']) {
    for (const viewport of [{ width: 1280, height: 900 }, { width: 390, height: 844 }]) {
      const { page, problems } = await openSection6(`lang=${lang}&rl-loop`, viewport);
      const form = await readForm(page);
      await page.screenshot({ path: join(SHOTS, `section6-first-screen-${viewport.width}x${viewport.height}-${lang}.png`) });
      assert.deepEqual(form.notebookKeys, notebookKeys, 'the notebook group holds the table’s notebook fields, in its order');
      assert.deepEqual(form.orphans, [], `${lang} ${viewport.width}: a label's ")" alone on its line`);
      assert.ok(form.sideways <= 0, `${lang} ${viewport.width}: the page scrolls sideways by ${form.sideways} px`);
      assert.deepEqual(form.folds.map((f) => f.group), groups, 'one fold per table group, in the table’s order');
      for (const fold of form.folds) {
        const fields = others.filter((f) => f.group === fold.group);
        assert.deepEqual(fold.keys, fields.map((f) => CONFIG_PARAMS[f.name]), fold.group);
        assert.equal(fold.open, false, `${fold.group} folded`);
        assert.equal(fold.changed, '0');
        assert.ok(fold.summary.includes(DICT[lang][`train.group.${fold.group}`]), fold.summary);
        assert.ok(fold.summary.includes(fill(DICT[lang]['train.groupCount.none'], { total: fields.length })), fold.summary);
      }
      if (viewport.width === 1280) {
        assert.ok(form.headingTop >= -1 && form.headingTop < 40, `heading at the top (${form.headingTop})`);
        assert.ok(form.notebookBottom <= viewport.height, `${lang}: the notebook's fields end at ${form.notebookBottom} px`);
        assert.ok(form.runBottom <= viewport.height, `${lang}: Run ends at ${form.runBottom} px of ${viewport.height}`);
      }
      assert.deepEqual([...problems.console, ...problems.page], []);
      await page.close();
    }
  }
});

test('presets and links open the groups they change; a refused field opens its group', async () => {
  const { page, problems } = await openSection6('rl-loop', { width: 1280, height: 900 });
  await page.click('section#rl-loop [data-preset="samplerMismatch"]');
  let form = await readForm(page);
  const sampler = form.folds.find((f) => f.group === 'sampler');
  assert.equal(sampler.open, true);
  assert.equal(sampler.changed, '2', 'samplerMismatch and the correction switched off');
  assert.ok(sampler.summary.includes(fill(en['train.groupCount.changed'], { changed: 2, total: sampler.keys.length })), sampler.summary);
  assert.deepEqual(form.folds.filter((f) => f.open).map((f) => f.group), ['sampler']);
  // A preset back to the notebook's defaults counts nothing changed.
  await page.click('section#rl-loop [data-preset="notebook"]');
  form = await readForm(page);
  assert.deepEqual(form.folds.filter((f) => f.changed !== '0'), []);
  await page.close();

  const linked = await openSection6('rl.formatWeight=0&rl.entropyCoef=0.01&rl-loop', { width: 1280, height: 900 });
  form = await readForm(linked.page);
  assert.deepEqual(form.folds.filter((f) => f.open).map((f) => f.group).sort(), ['entropy', 'rewards']);
  assert.equal(form.folds.find((f) => f.group === 'rewards').changed, '1');
  // A value the core refuses in a folded group: Run opens the group, focuses the field, starts nothing.
  await linked.page.evaluate(() => {
    const input = document.querySelector('section#rl-loop [data-key="rl.maxGradNorm"]');
    input.value = '-1';
    input.dispatchEvent(new Event('input', { bubbles: true }));
  });
  await linked.page.click('section#rl-loop .run-bar button[data-action="run"]');
  const refused = await linked.page.evaluate(() => {
    const input = document.querySelector('section#rl-loop [data-key="rl.maxGradNorm"]');
    return { open: input.closest('details').open, focused: document.activeElement === input, invalid: input.getAttribute('aria-invalid'), phase: document.querySelector('section#rl-loop .run-bar').dataset.phase };
  });
  assert.deepEqual(refused, { open: true, focused: true, invalid: 'true', phase: 'precomputed' });
  assert.deepEqual([...problems.console, ...problems.page, ...linked.problems.console, ...linked.problems.page], []);
  await linked.page.close();
});
