// The embed page in real headless Chromium: every section renders alone; an LMS page on another
// origin receives both height formats (lti.frameResize, and H5P's resizer handshake) and sizes
// the iframe to the content, also when the content grows; the language and state follow the hash.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import {
  LAPTOP,
  chartState,
  cspViolations,
  launchBrowser,
  openPage,
  runAxe,
  screenshot,
  startServer,
} from './helpers.mjs';
import en from '../../web/js/i18n/en.js';
import ru from '../../web/js/i18n/ru.js';

const SECTIONS = ['setup', 'verifier', 'informative-groups', 'advantages', 'reductions', 'finite-policy', 'rl-loop', 'updates', 'coverage', 'real-model'];
const FIXTURES = fileURLToPath(new URL('./fixtures/', import.meta.url));

let site;
let lms;
let browser;

before(async () => {
  // The LMS page lives on another origin (another port) and sends no CSP of its own.
  [site, lms, browser] = await Promise.all([startServer(), startServer(FIXTURES, { headers: {} }), launchBrowser({ viewport: LAPTOP })]);
});

after(async () => {
  await browser?.close();
  await Promise.all([site?.close(), lms?.close()]);
});

async function embed(hash) {
  const opened = await openPage(browser.context, site.origin);
  await opened.page.goto(`${site.origin}/embed.html#${hash}`);
  await opened.page.waitForSelector('html[data-ready="true"]', { timeout: 15000 });
  return opened;
}

/** Opens the LMS page with the embed in an iframe; returns {page, frame, problems}. */
async function lmsPage(hash, mode) {
  const opened = await openPage(browser.context, lms.origin, { allowOrigins: [site.origin] });
  const src = `${site.origin}/embed.html#${hash}`;
  await opened.page.goto(`${lms.origin}/parent.html?mode=${mode}&src=${encodeURIComponent(src)}`);
  const handle = await opened.page.waitForSelector('iframe');
  const frame = await handle.contentFrame();
  await frame.waitForSelector('html[data-ready="true"]', { timeout: 15000 });
  return { ...opened, frame };
}

const contentHeight = (frame) => frame.evaluate(() => Math.ceil(document.getElementById('app').getBoundingClientRect().height));
const iframeHeight = (page) => page.evaluate(() => parseFloat(document.querySelector('iframe').style.height));
const messages = (page) => page.evaluate(() => window.__messages);

async function until(fn, message) {
  const deadline = Date.now() + 10000;
  let last;
  while (Date.now() < deadline) {
    last = await fn();
    if (last) return last;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  assert.fail(message);
}

describe('embed page', () => {
  test('every section renders alone, with no page chrome and no console error', async () => {
    // One load, then each section through the hash (as a reader following links would).
    const { page, problems } = await embed('section=setup&lang=en');
    for (const id of SECTIONS) {
      if (id !== 'setup') {
        await page.evaluate((next) => {
          location.hash = `section=${next}&lang=en`;
        }, id);
        await page.waitForSelector(`section#${id}[data-rendered="true"]`);
        await page.waitForSelector('html[data-ready="true"]');
      }
      const ids = await page.$$eval('section.section', (nodes) => nodes.map((n) => n.id));
      assert.deepEqual(ids, [id]);
      assert.equal(await page.locator('nav.toc, header.page-header').count(), 0, `${id}: no header or contents`);
      assert.match(await page.title(), / · GRPO Lab$/);
      // A hidden figure (the compare panel's, until runs are picked) draws no empty chart.
      const charts = await page.evaluate(() => {
        const shown = [...document.querySelectorAll('canvas')].filter((c) => !c.closest('[hidden]'));
        return { shown: shown.length, drawn: shown.filter((c) => window.Chart?.getChart(c)).length };
      });
      assert.equal(charts.drawn, charts.shown, `${id}: every canvas shown holds a chart`);
    }
    assert.deepEqual([...problems.console, ...problems.page, ...problems.outside, ...(await cspViolations(page))], []);
    await page.close();
    // A fresh load of a section with charts (Chart.js is loaded only when needed).
    const fresh = await embed('section=reductions&lang=ru');
    assert.equal(await fresh.page.locator('section#reductions canvas').count(), 1);
    assert.deepEqual([...fresh.problems.console, ...fresh.problems.page], []);
    await fresh.page.close();
  });

  test('an unknown section lists the sections that can be embedded', async () => {
    const { page, problems } = await embed('section=nope&lang=en');
    assert.match(await page.locator('main').textContent(), /Unknown section “nope”/);
    const links = await page.$$eval('.embed-list a', (as) => as.map((a) => a.getAttribute('href')));
    assert.deepEqual(links, SECTIONS.map((id) => `embed.html#section=${id}&lang=en`));
    assert.deepEqual([...problems.console, ...problems.page], []);
    await page.close();
  });

  test('the language and the section state follow the hash, and controls write it back', async () => {
    const { page } = await embed('section=informative-groups&lang=ru&ig.tg=4');
    assert.equal(await page.locator('html').getAttribute('lang'), 'ru');
    const chart = await chartState(page, 'section canvas');
    assert.equal(chart.xTitle, ru.INFO_X);
    assert.equal(chart.yTitle, ru.INFO_Y);
    assert.equal(await page.locator('[data-key="ig.tg"]').inputValue(), '4');
    await page.locator('[data-key="ig.g"]').fill('6');
    await page.waitForFunction(() => new URLSearchParams(location.hash.slice(1)).get('ig.g') === '6');
    const hash = new URLSearchParams((await page.evaluate(() => location.hash)).slice(1));
    assert.equal(hash.get('section'), 'informative-groups');
    assert.equal(hash.get('lang'), 'ru');
    assert.equal(hash.get('ig.tg'), '4');
    assert.equal(hash.get('adv.r'), null, 'an embed keeps only its own section in the hash');
    const full = await page.locator('.embed-footer a').getAttribute('href');
    assert.match(full, /index\.html#lang=ru&.*ig\.tg=4/);
    await page.close();
  });

  test('an LMS on another origin gets lti.frameResize and sizes the iframe to the content', async () => {
    const { page, frame, problems } = await lmsPage('section=informative-groups&lang=en', 'lti');
    const first = await until(async () => (await messages(page)).find((m) => m?.subject === 'lti.frameResize'), 'no lti.frameResize');
    assert.equal(typeof first.height, 'number');
    const height = await contentHeight(frame);
    await until(async () => Math.abs((await iframeHeight(page)) - height) <= 2, `iframe height ${await iframeHeight(page)} vs content ${height}`);
    assert.equal(await frame.evaluate(() => document.documentElement.scrollHeight <= window.innerHeight + 1), true, 'no inner scroll bar');
    // The content grows (the chart's numbers opened): a new, larger height is posted.
    await frame.locator('details.chart-data summary').first().click();
    const grown = await contentHeight(frame);
    assert.ok(grown > height + 50);
    await until(async () => Math.abs((await iframeHeight(page)) - grown) <= 2, 'iframe did not grow with its content');
    const heights = (await messages(page)).filter((m) => m?.subject === 'lti.frameResize').map((m) => m.height);
    assert.ok(heights.includes(grown) || heights.some((h) => Math.abs(h - grown) <= 1), `heights posted: ${heights}`);
    await screenshot(page, 'embed-lti-informative-groups-en', { fullPage: true });
    assert.deepEqual([...problems.console, ...problems.page, ...problems.outside], []);
    await page.close();
  });

  test('an LMS running the H5P resizer completes the handshake and sizes the iframe', async () => {
    const { page, frame, problems } = await lmsPage('section=finite-policy&lang=ru', 'h5p');
    const h5p = async () => (await messages(page)).filter((m) => m?.context === 'h5p').map((m) => m.action);
    await until(async () => (await h5p()).includes('resize'), 'no H5P resize message');
    const actions = await h5p();
    assert.equal(actions[0], 'hello', 'the embed opens the handshake');
    assert.ok(actions.indexOf('prepareResize') < actions.lastIndexOf('resize'));
    const resize = (await messages(page)).filter((m) => m?.context === 'h5p' && m.action === 'resize').pop();
    assert.equal(typeof resize.scrollHeight, 'number');
    const height = await contentHeight(frame);
    await until(async () => Math.abs((await iframeHeight(page)) - height) <= 2, `iframe height ${await iframeHeight(page)} vs content ${height}`);
    assert.equal((await chartState(frame, 'section figure.chart:not(.chart-short) canvas')).xTitle, ru.FINITE_X);
    await screenshot(page, 'embed-h5p-finite-policy-ru', { fullPage: true });
    assert.deepEqual([...problems.console, ...problems.page, ...problems.outside], []);
    await page.close();
  });

  test('axe-core finds no serious or critical violation in an embedded section', async () => {
    for (const [id, lang] of [['advantages', 'en'], ['verifier', 'ru']]) {
      const { page } = await embed(`section=${id}&lang=${lang}`);
      const serious = (await runAxe(page)).filter((v) => v.impact === 'serious' || v.impact === 'critical');
      assert.deepEqual(serious, [], `${id}: ${JSON.stringify(serious, null, 2)}`);
      await page.close();
    }
    assert.ok(en['embed.openFull']);
  });
});
