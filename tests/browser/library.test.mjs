// The run library's ways out, in Chromium, with the issue-29 attacks: corrupt records written by a
// page of the same origin are set aside with a message naming them and one Clear removes them; a
// run that passes its check can be picked and drawn in sections 6-8 without an error (a curve of
// another shape is set aside); a run kept again (the precomputed run on load) keeps its place in
// the list; two 20 000-row imports keep the small precomputed run, and a
// record of `bytes: NaN` does not switch the byte cap off over four imports; a database at a
// version this page does not know, or with a store of another shape, gets "Reset the library",
// which works (EN and RU), and so does Clear.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { launchBrowser, openPage, screenshot, startServer } from './helpers.mjs';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runFileText, writeCorruptLibrary } from '../../tools/bench_hostile.mjs';
import { MAX_BYTES } from '../../web/js/training/run-library.js';
import ru from '../../web/js/i18n/ru.js';

/** Runs in the page: the library's records as [{key, source, bytes, savedAt}] (as stored), read by a cursor. */
function libraryRecords() {
  return new Promise((resolve, reject) => {
    const request = indexedDB.open('grpo-lab-runs');
    request.onerror = () => reject(request.error);
    request.onsuccess = () => {
      const db = request.result;
      const out = [];
      const cursor = db.transaction('runs', 'readonly').objectStore('runs').openCursor();
      cursor.onsuccess = () => {
        const at = cursor.result;
        if (!at) {
          db.close();
          resolve(out);
          return;
        }
        out.push({ key: String(at.value.key), source: at.value.source, bytes: at.value.bytes, savedAt: at.value.savedAt });
        at.continue();
      };
    };
  });
}

/**
 * Runs in the page: whether the library holds at least `precomputed` /
 * `imported` records, and none of the keys `gone` (an import is kept and the library's limits
 * applied: the put and the drops are two transactions).
 */
function libraryHolds({ precomputed = 0, imported = 0, gone = [] }) {
  return new Promise((resolve) => {
    const request = indexedDB.open('grpo-lab-runs');
    request.onerror = () => resolve(false);
    request.onsuccess = () => {
      const db = request.result;
      const counts = { precomputed: 0, imported: 0, gone: 0 };
      const cursor = db.transaction('runs', 'readonly').objectStore('runs').openCursor();
      cursor.onsuccess = () => {
        const at = cursor.result;
        if (!at) {
          db.close();
          resolve(counts.precomputed >= precomputed && counts.imported >= imported && counts.gone === 0);
          return;
        }
        if (gone.includes(String(at.value.key))) counts.gone += 1;
        else if (at.value.source in counts) counts[at.value.source] += 1;
        at.continue();
      };
    };
  });
}

/**
 * Runs in the page: records of the precomputed run's shape, as a page of the same origin could
 * write them, by name: 'whole' (the run, 200 updates) and 'bare' (three rows, a null loss, no
 * metrics) pass; 'curve' and 'curve-ks' carry a pass@k curve of another shape (a number; objects
 * where arrays belong), which the check before issue 29 let through; 'nan-bytes' is the run with
 * the issue's `bytes: NaN`; 'kept-precomputed' is the precomputed run itself as the page keeps it
 * (its library key), saved as an import at savedAt 1, and 'newer-live' another run saved after it.
 */
async function writeRecords(names) {
  const run = await (await fetch('data/smoke-run.json')).json();
  const { libraryEntry } = await import('/js/training/run-library.js');
  const keys = Object.keys(run.history[0]);
  const packedHistory = { keys, columns: keys.map((k) => Float64Array.from(run.history, (row) => row[k])), length: run.history.length };
  const { config, coverage } = run;
  const whole = Object.fromEntries(['beforeTrain', 'afterTrain', 'beforeHeldout', 'afterHeldout', 'beforeTrainByPrompt', 'afterTrainByPrompt', 'beforeHeldoutByPrompt', 'afterHeldoutByPrompt'].map((k) => [k, run[k]]));
  const record = (key, updates, source, fields, bytes = 1000) => ({ key, name: key, source, savedAt: Date.now(), bytes, run: { config: { ...config, updates }, ...fields } });
  const records = {
    whole: () => record('whole', 200, 'imported', { ...whole, coverage, packedHistory }),
    bare: () => record('bare', 300, 'live', { history: run.history.slice(0, 3).map((row) => ({ ...row, loss: null })) }),
    curve: () => record('curve', 400, 'imported', { ...whole, packedHistory, coverage: { ...coverage, afterTrain: { ...coverage.afterTrain, passAtK: 5 } } }),
    'curve-ks': () => record('curve-ks', 500, 'seeds', { ...whole, packedHistory, coverage: { ...coverage, afterHeldout: { ...coverage.afterHeldout, passAtK: { ks: {}, values: {} } } } }),
    'nan-bytes': () => record('nan-bytes', 60, 'precomputed', { ...whole, coverage, packedHistory }, NaN),
    'kept-precomputed': () => libraryEntry(run, { source: 'imported', defaults: config, savedAt: 1 }),
    'newer-live': () => libraryEntry({ ...run, config: { ...config, updates: 300 } }, { source: 'live', defaults: config, savedAt: 2 }),
  };
  const db = await new Promise((resolve, reject) => {
    const request = indexedDB.open('grpo-lab-runs', 1); // as the page creates it
    request.onupgradeneeded = () => request.result.createObjectStore('runs', { keyPath: 'key' });
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error);
  });
  await new Promise((resolve, reject) => {
    const tx = db.transaction('runs', 'readwrite');
    for (const name of names) tx.objectStore('runs').put(records[name]());
    tx.oncomplete = resolve;
    tx.onerror = () => reject(tx.error);
  });
  db.close();
}

describe('the run library survives its own records', () => {
  let server;
  let browser;
  const panel = '.compare-panel';
  const deleteLibrary = (page) =>
    page.evaluate(() => new Promise((resolve) => {
      const request = indexedDB.deleteDatabase('grpo-lab-runs');
      request.onsuccess = request.onerror = request.onblocked = resolve;
    }));
  /** A fresh page (`at`: embed.html or index.html) at section 7, whose library was set up by `prepare` (run in the page) first. */
  async function open(prepare, arg, lang = 'en', at = '/embed.html') {
    const { page, problems } = await openPage(browser.context, server.origin);
    await page.goto(`${server.origin}/favicon.svg`); // the origin, with no page script running
    await deleteLibrary(page);
    if (prepare) await page.evaluate(prepare, arg);
    await page.goto(`${server.origin}${at}#section=updates&lang=${lang}`);
    await page.waitForSelector('html[data-shell="true"]', { timeout: 60000 });
    await page.locator('section#updates').scrollIntoViewIfNeeded(); // index.html mounts it when near
    await page.waitForSelector(`${panel}[data-library-count]`, { state: 'attached', timeout: 60000 });
    return { page, problems };
  }
  const count = (page) => page.evaluate((s) => document.querySelector(s).dataset.libraryCount, panel);
  // Polls page function `fn(arg)` until it is true (waitForFunction takes a returned promise for a truthy value).
  const until = async (page, fn, arg) => {
    for (const end = Date.now() + 300000; !(await page.evaluate(fn, arg)); await page.waitForTimeout(250)) {
      assert.ok(Date.now() < end, `the library did not reach ${JSON.stringify(arg).slice(0, 200)}`);
    }
  };

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

  it('a run that passes its check can be picked and drawn in sections 6-8; a curve of another shape is set aside', async () => {
    // Records of the precomputed run's shape, written as a page of the same origin could: two
    // that pass (the whole run; three bare rows with a null), two whose pass@k curve section 8
    // would draw (values.map, ks[i]) but is a number or objects (each threw a TypeError when picked).
    const { page, problems } = await open(writeRecords, ['whole', 'bare', 'curve', 'curve-ks'], 'en', '/index.html');
    await page.waitForSelector(`${panel} .library-notes[data-quarantined="2"]`, { state: 'attached', timeout: 60000 });
    await page.waitForFunction((s) => document.querySelector(s).dataset.libraryCount === '3', panel);
    const notes = await page.locator(`${panel} .library-quarantined`).textContent();
    assert.match(notes, /«curve»: run\.coverage\.afterTrain\.passAtK: must be an object, got a number/);
    assert.match(notes, /«curve-ks»: run\.coverage\.afterHeldout\.passAtK\.ks: must be an array/);
    // The reader picks every listed run but the one on display, then reads sections 6, 7 and 8.
    const names = await page.$$eval(`${panel} ul.library li label`, (labels) => labels.map((l) => l.textContent.trim()));
    assert.deepEqual(names.slice(1).sort(), ['dapo, updates = 200, seed 9 (imported)', 'dapo, updates = 300, seed 9 (live)']);
    for (const box of await page.locator(`${panel} ul.library li:not(:first-child) input[type="checkbox"]`).all()) await box.check();
    for (const id of ['rl-loop', 'updates', 'coverage']) {
      await page.locator(`section#${id}`).scrollIntoViewIfNeeded();
      await page.waitForSelector(`section#${id}[data-rendered="true"]`, { state: 'attached', timeout: 60000 });
    }
    const drawn = () => page.evaluate(() => ({
      metrics: [...document.querySelectorAll('section#rl-loop .metrics-overlay th')].map((th) => th.textContent),
      passAtK: window.Chart.getChart(document.querySelector('section#coverage [data-chart="pass-at-k"] canvas'))?.data.datasets.map((d) => d.label) ?? [],
      ratio: window.Chart.getChart(document.querySelector('section#updates [data-chart="ratio"] canvas'))?.data.datasets.map((d) => d.label) ?? [],
    }));
    await page.waitForFunction(() => (window.Chart.getChart(document.querySelector('section#coverage [data-chart="pass-at-k"] canvas'))?.data.datasets ?? []).some((d) => /updates = 200/.test(d.label)), null, { timeout: 30000 });
    const charts = await drawn();
    assert.ok(charts.ratio.some((label) => label.startsWith('dapo, updates = 300, seed 9:')), `section 7 draws the bare run: ${charts.ratio}`);
    assert.ok(charts.passAtK.some((label) => label.startsWith('dapo, updates = 200, seed 9:')), `section 8 draws the whole run's curves: ${charts.passAtK}`);
    assert.ok(charts.metrics.some((label) => label.startsWith('dapo, updates = 200, seed 9: after RL')), `section 6 lists the whole run's metrics: ${charts.metrics}`);
    assert.deepEqual([...problems.page, ...problems.console], []);
    await page.close();
  });

  it('a run kept again keeps its place: the precomputed run saved on load does not reorder the list under the reader', async () => {
    // The precomputed run, already kept (as an import, savedAt 1), and a newer run (savedAt 2):
    // the page keeps the precomputed run again as it shows it, and the list must not jump.
    const { page, problems } = await open(writeRecords, ['kept-precomputed', 'newer-live']);
    // The page keeps the precomputed run when it shows it: the record's source says when.
    await until(page, libraryHolds, { precomputed: 1 });
    const records = await page.evaluate(libraryRecords);
    assert.equal(records.find((r) => r.source === 'precomputed')?.savedAt, 1, `the precomputed run kept its first savedAt: ${JSON.stringify(records.map(({ source, savedAt }) => ({ source, savedAt })))}`);
    await page.waitForFunction((s) => [...document.querySelectorAll(`${s} ul.library li label`)].some((l) => l.textContent.includes('(precomputed)')), panel);
    const names = await page.$$eval(`${panel} ul.library li label`, (labels) => labels.map((l) => l.textContent.trim()));
    assert.deepEqual(names, ['dapo, updates = 300, seed 9 (live)', 'dapo, seed 9 (precomputed)'], 'newest first, as kept the first time');
    assert.deepEqual([...problems.page, ...problems.console], []);
    await page.close();
  });

  it('two 20 000-row imports keep the precomputed run; a record of bytes NaN and two more imports stay within the byte cap', { timeout: 20 * 60 * 1000 }, async () => {
    const files = mkdtempSync(join(tmpdir(), 'grpo-library-test-'));
    try {
      const { page, problems } = await open(null, null, 'en', '/index.html');
      await page.locator('section#rl-loop').scrollIntoViewIfNeeded();
      await page.waitForSelector('section#rl-loop .run-bar[data-phase="precomputed"]', { state: 'attached', timeout: 120000 });
      await until(page, libraryHolds, { precomputed: 1 });
      /** Imports a 20 000-row file (its rows shifted by `shift`); resolves with the library's records once it is kept and the limits applied. */
      const importRows = async (shift) => {
        const path = join(files, `run-${shift}.json`);
        writeFileSync(path, runFileText(20000, { shift }));
        const before = await page.evaluate(libraryRecords);
        await page.locator('section#rl-loop input[type="file"]').setInputFiles(path);
        await page.waitForSelector('section#rl-loop .run-bar[data-phase="imported"][data-updates-done="20000"]', { state: 'attached', timeout: 300000 });
        // Kept, and the earlier import dropped (two do not fit in 20 MiB together).
        await until(page, libraryHolds, { imported: 1, gone: before.filter((r) => r.source === 'imported').map((r) => r.key) });
        return page.evaluate(libraryRecords);
      };
      // The issue's case: 0.05 MiB precomputed, then two imports of 13-14 MiB under a 20 MiB cap.
      await importRows(0);
      const two = await importRows(1);
      const mib = (bytes) => Math.round((bytes / 2 ** 20) * 100) / 100;
      assert.deepEqual(two.map((r) => r.source).sort(), ['imported', 'precomputed'], `kept: ${JSON.stringify(two.map((r) => [r.source, mib(r.bytes)]))}`);
      const size = two.find((r) => r.source === 'imported').bytes;
      assert.ok(size > MAX_BYTES / 2, `two 20 000-row runs (${mib(size)} MiB each) do not fit in 20 MiB together`);
      // A page of the same origin writes a record whose size is NaN; then two more imports.
      await page.evaluate(writeRecords, ['nan-bytes']);
      await importRows(2);
      const four = await importRows(3);
      const kept = four.filter((r) => r.key !== 'nan-bytes');
      const bytes = kept.reduce((sum, r) => sum + r.bytes, 0);
      assert.ok(bytes <= MAX_BYTES, `the records kept hold ${mib(bytes)} MiB, at most 20`);
      assert.deepEqual(kept.map((r) => r.source).sort(), ['imported', 'precomputed']);
      // Section 7 lists the two and names the record set aside.
      await page.locator('section#updates').scrollIntoViewIfNeeded();
      await page.waitForSelector(`${panel} .library-notes[data-quarantined="1"]`, { state: 'attached', timeout: 60000 });
      assert.match(await page.locator(`${panel} .library-quarantined`).textContent(), /«nan-bytes»: bytes: must be an integer in \[1, 20971520\] .*, got NaN/);
      assert.equal(await count(page), '2');
      assert.deepEqual([...problems.page, ...problems.console], []);
      await page.close();
    } finally {
      rmSync(files, { recursive: true, force: true });
    }
  });

  const version2 = () => new Promise((resolve) => {
    const request = indexedDB.open('grpo-lab-runs', 2);
    request.onupgradeneeded = () => request.result.createObjectStore('runs', { keyPath: 'id' });
    request.onsuccess = () => resolve(request.result.close());
  });
  for (const [what, prepare, code] of [
    ['a database of another version (2)', version2, 'version'],
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

  it('a database of another version (2): Clear the library resets it too, and the library works again', async () => {
    const { page, problems } = await open(version2);
    await page.locator(`${panel} .library-failed`).waitFor({ timeout: 30000 });
    await page.click('button[data-action="clear-library"]');
    await page.waitForFunction((s) => document.querySelector(s).dataset.libraryCount === '0' && !document.querySelector(`${s} .library-failed`), panel, { timeout: 30000 });
    const shape = await page.evaluate(() => new Promise((resolve) => {
      const request = indexedDB.open('grpo-lab-runs');
      request.onsuccess = () => {
        const db = request.result;
        resolve({ version: db.version, keyPath: db.transaction('runs', 'readonly').objectStore('runs').keyPath });
        db.close();
      };
    }));
    assert.deepEqual(shape, { version: 1, keyPath: 'key' }, "the database is the page's own again");
    assert.deepEqual([...problems.page, ...problems.console], []);
    await page.close();
  });
});
