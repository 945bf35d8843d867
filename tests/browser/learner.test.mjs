// What a learner meets on the course page (issue 24), in real headless Chromium: from the page's
// first screen a smoke run starts with at most one scroll and one click, at 1280 x 900 and at
// 390 x 844, in English and Russian; a live run's controls stay on screen wherever the reader
// goes (started from section 0 or 6); the repository documents the text names are links that
// open; section 3 names the field the reader mistyped, not the core's argument; section 8's
// inspected group speaks the reader's language.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { openPage, useServerAndBrowser } from './helpers.mjs';
import en from '../../web/js/i18n/en.js';
import ru from '../../web/js/i18n/ru.js';

const DICT = { en, ru };
const env = useServerAndBrowser();

/** The run started from section 0 (its button's box, the dock's bar), read in the page. */
const readStart = (page) =>
  page.evaluate(() => {
    const button = document.querySelector('section#setup [data-action="run-setup"]');
    const box = button?.getBoundingClientRect();
    const dock = document.querySelector('.run-dock');
    return {
      button: box ? { top: box.top, bottom: box.bottom, x: box.left + box.width / 2, y: box.top + box.height / 2, text: button.textContent } : null,
      scrollY: window.scrollY,
      innerHeight: window.innerHeight,
      dockShown: Boolean(dock && !dock.hidden),
      phase: dock?.querySelector('.run-dock-bar')?.dataset.phase ?? null,
    };
  });

for (const lang of ['en', 'ru']) {
  for (const viewport of [{ width: 1280, height: 900 }, { width: 390, height: 844 }]) {
    test(`${lang}, ${viewport.width} x ${viewport.height}: from the first screen a smoke run starts with at most one scroll and one click`, async () => {
      const { page, problems } = await openPage(env.browser.context, env.server.origin);
      await page.setViewportSize(viewport);
      await page.goto(`${env.server.origin}/index.html${lang === 'en' ? '' : `#lang=${lang}`}`);
      await page.waitForSelector('section#setup[data-rendered="true"] [data-action="run-setup"]', { timeout: 60000 });
      let seen = await readStart(page);
      assert.equal(seen.scrollY, 0, 'the page opens at its top');
      assert.equal(seen.button.text, DICT[lang]['setup.run']);
      let scrolls = 0;
      if (seen.button.bottom > seen.innerHeight) {
        // One scroll, of at most one screen, as a reader's swipe or Page Down.
        const by = seen.button.bottom - seen.innerHeight + 16;
        assert.ok(by <= seen.innerHeight, `Run is ${seen.button.bottom} px down, more than one screen below the first (${seen.innerHeight} px)`);
        await page.mouse.wheel(0, by);
        await page.waitForFunction((y) => Math.abs(window.scrollY - y) < 2, by);
        scrolls += 1;
        seen = await readStart(page);
      }
      assert.ok(seen.button.top >= 0 && seen.button.bottom <= seen.innerHeight, `Run on screen after ${scrolls} scroll(s): ${JSON.stringify(seen.button)}`);
      assert.equal(seen.phase, null, 'nothing runs before the click');
      // One click where the button is (a mouse click: no scroll into view by the driver).
      await page.mouse.click(seen.button.x, seen.button.y);
      await page.waitForFunction(() => ['starting', 'running'].includes(document.querySelector('.run-dock .run-dock-bar')?.dataset.phase), null, { timeout: 60000 });
      const started = await readStart(page);
      assert.ok(started.dockShown, 'the run’s controls dock at the bottom of the screen');
      assert.equal(started.scrollY, seen.scrollY, 'the click moved nothing');
      assert.ok(scrolls <= 1);
      // While it trains, its controls stay on screen wherever the reader goes (here: section 2).
      await page.evaluate(() => document.getElementById('informative-groups').scrollIntoView({ block: 'start', behavior: 'instant' }));
      await page.waitForFunction(() => !document.querySelector('.run-dock').hidden && document.querySelector('.run-dock').getBoundingClientRect().bottom <= window.innerHeight + 1);
      // The smoke run of section 6's config, with the link's profile and seed, trains to its end.
      await page.waitForFunction(() => document.querySelector('.run-dock .run-dock-bar')?.dataset.phase === 'finished', null, { timeout: 180000 });
      const run = await page.evaluate(() => ({ ...document.querySelector('.run-dock .run-dock-bar').dataset }));
      assert.equal(run.source, 'live');
      assert.equal(run.updatesDone, '60', 'the smoke profile’s 60 updates');
      assert.deepEqual([...problems.console, ...problems.page], []);
      await page.close();
    });
  }
}

test('a run started in section 6 keeps its controls on screen in any section while it is live, and only then', async () => {
  const { page, problems } = await openPage(env.browser.context, env.server.origin);
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.goto(`${env.server.origin}/index.html#rl-loop`);
  await page.waitForSelector('section#rl-loop[data-rendered="true"] .run-bar[data-phase="precomputed"]', { timeout: 60000 });
  const dockIn = (id) =>
    page.evaluate(async (sectionId) => {
      document.getElementById(sectionId).scrollIntoView({ block: 'start', behavior: 'instant' });
      await new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)));
      return !document.querySelector('.run-dock')?.hidden;
    }, id);
  assert.equal(await dockIn('verifier'), false, 'no dock in section 1 before a run');
  await page.evaluate(() => document.getElementById('rl-loop').scrollIntoView({ block: 'start', behavior: 'instant' }));
  // Step: a run that makes one update and pauses, live until it is stopped (no race with its end).
  await page.click('section#rl-loop .run-bar button[data-action="step"]');
  await page.waitForSelector('section#rl-loop .run-bar[data-phase="paused"]', { state: 'attached', timeout: 60000 });
  assert.equal(await dockIn('verifier'), true, 'the dock in section 1 while the run is live (paused)');
  assert.equal(await dockIn('setup'), true, 'and in section 0');
  await page.click('.run-dock button[data-action="stop"]');
  await page.waitForFunction(() => !['paused', 'stopping'].includes(document.querySelector('.run-dock .run-dock-bar')?.dataset.phase), null, { timeout: 30000 });
  await page.waitForFunction(() => document.querySelector('.run-dock')?.hidden, null, { timeout: 10000 });
  assert.equal(await dockIn('informative-groups'), false, 'no dock in section 2 once the run has ended');
  assert.deepEqual([...problems.console, ...problems.page], []);
  await page.close();
});

test('every repository document the text names is a link that opens (docs/NAME.md)', async () => {
  const { page, problems } = await openPage(env.browser.context, env.server.origin);
  await page.goto(`${env.server.origin}/index.html#rl-loop`);
  await page.waitForSelector('section#rl-loop[data-rendered="true"]', { timeout: 60000 });
  const links = await page.$$eval('section#rl-loop a[href^="data/docs/"]', (nodes) => nodes.map((a) => ({ href: a.href, text: a.textContent, target: a.target })));
  assert.deepEqual(links.map((l) => l.text).sort(), ['docs/checkpoint.md', 'docs/training-page.md']);
  for (const link of links) {
    assert.equal(link.target, '_blank');
    const response = await page.request.get(link.href);
    assert.equal(response.status(), 200, link.href);
    assert.match(await response.text(), new RegExp(`<pre>#`), `${link.href} holds the document`);
  }
  assert.deepEqual([...problems.console, ...problems.page], []);
  await page.close();
});

test('section 3: a ratio count that does not match the rewards is named in the ratios field, in the reader’s language', async () => {
  for (const lang of ['en', 'ru']) {
    const { page } = await openPage(env.browser.context, env.server.origin);
    await page.goto(`${env.server.origin}/index.html#lang=${lang}&advantages`);
    await page.waitForSelector('section#advantages[data-rendered="true"]', { timeout: 60000 });
    const ratios = page.locator('section#advantages [data-key="adv.ratio"]');
    await ratios.fill('1.2, 0.9');
    await ratios.dispatchEvent('input');
    const error = await page.waitForFunction(() => {
      const field = document.querySelector('section#advantages [data-key="adv.ratio"]').closest('.field');
      const text = field.querySelector('.field-error:not([hidden])')?.textContent;
      return text ? { text, others: [...document.querySelectorAll('section#advantages .field-error:not([hidden])')].length } : null;
    });
    const { text, others } = await error.jsonValue();
    assert.equal(others, 1, 'one field in error');
    assert.ok(text.startsWith('ratios: ') && text.includes('rewards (4)') && !text.includes('advantages'), text);
    if (lang === 'ru') assert.match(text, /значений должно быть/);
    await page.close();
  }
});

test('section 8’s inspected group says its statuses and booleans in the reader’s language (section 1’s words)', async () => {
  for (const lang of ['en', 'ru']) {
    const { page, problems } = await openPage(env.browser.context, env.server.origin);
    await page.goto(`${env.server.origin}/index.html#lang=${lang}&coverage`);
    await page.waitForSelector('section#coverage .inspect-table tbody tr', { timeout: 60000 });
    const rows = await page.$$eval('section#coverage .inspect-table tbody tr', (trs) => trs.map((tr) => [...tr.children].map((td) => ({ text: td.textContent.trim(), value: td.dataset.value }))));
    const header = await page.$$eval('section#coverage .inspect-table thead th', (ths) => ths.map((th) => th.textContent.trim()));
    const [status, terminated] = ['status', 'terminated'].map((name) => header.indexOf(name));
    assert.ok(rows.length > 0 && status > 0 && terminated > 0, header.join());
    for (const row of rows) {
      assert.equal(row[status].text, DICT[lang][`verifier.status.${row[status].value}`], `${lang}: status ${row[status].value}`);
      assert.equal(row[terminated].text, DICT[lang][row[terminated].value === 'true' ? 'train.inspect.true' : 'train.inspect.false']);
    }
    if (lang === 'ru') assert.ok(rows.every((row) => !/^(?:True|False|correct|incorrect|truncated|invalid|no_answer)$/.test(row[status].text + row[terminated].text)), 'no English status or boolean');
    assert.deepEqual([...problems.console, ...problems.page], []);
    await page.close();
  }
});
