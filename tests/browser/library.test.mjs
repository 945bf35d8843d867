// The run library's ways out, in Chromium on section 7's embed: corrupt records written by a page
// of the same origin are set aside with a message naming them and one Clear removes them; a
// database at a version this page does not know, or with a store of another shape, gets "Reset
// the library", which works (EN and RU); a kept run survives it all.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { launchBrowser, openPage, screenshot, startServer } from './helpers.mjs';
import { writeCorruptLibrary } from '../../tools/bench_hostile.mjs';
import ru from '../../web/js/i18n/ru.js';

describe('the run library survives its own records', () => {
  let server;
  let browser;
  const panel = '.compare-panel';
  const deleteLibrary = (page) =>
    page.evaluate(() => new Promise((resolve) => {
      const request = indexedDB.deleteDatabase('grpo-lab-runs');
      request.onsuccess = request.onerror = request.onblocked = resolve;
    }));
  /** A fresh page at section 7's embed whose library was set up by `prepare` (run in the page) first. */
  async function open(prepare, arg, lang = 'en') {
    const { page, problems } = await openPage(browser.context, server.origin);
    await page.goto(`${server.origin}/favicon.svg`); // the origin, with no page script running
    await deleteLibrary(page);
    if (prepare) await page.evaluate(prepare, arg);
    await page.goto(`${server.origin}/embed.html#section=updates&lang=${lang}`);
    await page.waitForSelector(`${panel}[data-library-count]`, { state: 'attached', timeout: 60000 });
    return { page, problems };
  }
  const count = (page) => page.evaluate((s) => document.querySelector(s).dataset.libraryCount, panel);

  before(async () => {
    [server, browser] = await Promise.all([startServer(), launchBrowser()]);
  });
  after(async () => {
    await browser?.close();
    await server?.close();
  });

  it('corrupt records are set aside, named, and one Clear removes them', async () => {
    const { page, problems } = await open(writeCorruptLibrary, 5);
    await page.waitForSelector(`${panel} .library-notes[data-quarantined="5"]`, { state: 'attached', timeout: 30000 });
    await page.waitForFunction((s) => document.querySelector(s).dataset.libraryCount === '1', panel);
    const notes = await page.locator(`${panel} .library-quarantined`).textContent();
    assert.match(notes, /set aside, not listed and not used: 5 .*«corrupt 0»: run\.packedHistory\.length: .* got 30000000; .*And 2 more\./);
    assert.equal(await page.locator(`${panel} .library-quarantined`).getAttribute('role'), 'alert');
    await page.locator(`${panel} .library-notes`).scrollIntoViewIfNeeded();
    await screenshot(page.locator(`${panel} .library-notes`), 'library-quarantined');
    await page.click('button[data-action="clear-library"]');
    await page.waitForSelector(`${panel} .library-notes[data-quarantined="0"]`, { state: 'attached' });
    assert.equal(await count(page), '0');
    const left = await page.evaluate(() => new Promise((resolve) => {
      const request = indexedDB.open('grpo-lab-runs');
      request.onsuccess = () => {
        const tx = request.result.transaction('runs', 'readonly');
        const all = tx.objectStore('runs').count();
        all.onsuccess = () => resolve(all.result);
      };
    }));
    assert.equal(left, 0, 'the database holds no record');
    assert.deepEqual([...problems.page, ...problems.console], []);
    await page.close();
  });

  for (const [what, prepare, code] of [
    ['a database of another version (2)', () => new Promise((resolve) => {
      const request = indexedDB.open('grpo-lab-runs', 2);
      request.onupgradeneeded = () => request.result.createObjectStore('runs', { keyPath: 'id' });
      request.onsuccess = () => resolve(request.result.close());
    }), 'version'],
    ['a store of another shape', () => new Promise((resolve) => {
      const request = indexedDB.open('grpo-lab-runs', 1);
      request.onupgradeneeded = () => request.result.createObjectStore('runs', { autoIncrement: true });
      request.onsuccess = () => resolve(request.result.close());
    }), 'schema'],
  ]) {
    it(`${what}: the panel says so, and "Reset the library" makes it work (RU)`, async () => {
      const { page, problems } = await open(prepare, null, 'ru');
      const failed = page.locator(`${panel} .library-failed`);
      await failed.waitFor({ timeout: 30000 });
      assert.equal((await failed.textContent()).trim(), `${ru[`library.failed.${code}`]} ${ru['library.reset']}`);
      const reset = failed.locator('button[data-action="reset-library"]');
      assert.equal(await reset.textContent(), ru['library.reset']);
      if (code === 'version') await screenshot(page.locator(`${panel} .library-notes`), 'library-reset-ru');
      await reset.click();
      // Read again: empty and usable, the precomputed run kept once more.
      await page.waitForFunction((s) => document.querySelector(s).dataset.libraryCount === '1', panel, { timeout: 30000 });
      assert.equal(await page.locator(`${panel} .library-failed`).count(), 0);
      assert.deepEqual([...problems.page, ...problems.console], []);
      await page.close();
    });
  }
});
