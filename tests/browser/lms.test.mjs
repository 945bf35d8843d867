// The LMS delivery kit (tools/package.mjs, issue 6) in real headless Chromium:
// - the SCORM 1.2 zip: imsmanifest.xml is well-formed XML (the browser's own XML parser), lists
//   every file of the zip and nothing the zip lacks, one SCO for the module and one per section;
// - SCOs under a real SCORM 1.2 runtime (npm scorm-again as window.API, the SCO in an iframe of
//   the same origin, as an LMS serves a package): initialised, "incomplete" on open, "completed"
//   only after the widget ran (a control changed; for section 6 a finished training run), the
//   module SCO resuming from cmi.suspend_data and following the learner's LMS language, and
//   LMSFinish when the LMS takes the frame away;
// - the same SCO opened with no LMS runs normally, with no console error;
// - a single-file section from a plain static server that sends .wasm as
//   application/octet-stream works, requesting nothing but itself (section 6 trains in it);
// - the teacher page builds the link and the snippet; the embed honours its hide flags.
// The package is built once, into a temporary folder (node tools/package.mjs --out ...): the core
// with inlined WebAssembly is a CMake target of its own, linked on first use (about 30 s).
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { dirname, extname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { LAPTOP, ROOT, cspViolations, launchBrowser, mountAll, nodeCore, openPage, startServer } from './helpers.mjs';
import { readZip } from '../../tools/zip.mjs';

const FIXTURES = fileURLToPath(new URL('./fixtures/', import.meta.url));
const SECTIONS = ['setup', 'verifier', 'informative-groups', 'advantages', 'reductions', 'finite-policy', 'rl-loop', 'updates', 'coverage', 'real-model'];

let work;
let dist;
let lms;
let plain;
let site;
let browser;
let core;
const zips = {};

/** A plain static server: .wasm (and anything unknown) as application/octet-stream, no headers. */
function plainServer(root) {
  const TYPES = { '.html': 'text/html; charset=utf-8', '.js': 'text/javascript', '.css': 'text/css', '.json': 'application/json', '.svg': 'image/svg+xml', '.woff2': 'font/woff2' };
  const server = createServer((request, response) => {
    const path = decodeURIComponent(new URL(request.url, 'http://localhost').pathname);
    try {
      if (path.includes('..')) throw new Error('no');
      const data = readFileSync(join(root, path));
      response.writeHead(200, { 'Content-Type': TYPES[extname(path)] ?? 'application/octet-stream' });
      response.end(data);
    } catch {
      response.writeHead(404).end();
    }
  });
  return new Promise((resolve) => {
    server.listen(0, '127.0.0.1', () =>
      resolve({
        origin: `http://127.0.0.1:${server.address().port}`,
        close: () => new Promise((done) => (server.closeAllConnections?.(), server.close(() => done()))),
      }),
    );
  });
}

before(async () => {
  work = mkdtempSync(join(tmpdir(), 'grpo-lms-'));
  dist = join(work, 'dist');
  execFileSync('node', [join(ROOT, 'tools', 'package.mjs'), '--out', dist], { cwd: ROOT, stdio: ['ignore', 'inherit', 'inherit'], timeout: 600000 });
  for (const lang of ['en', 'ru']) zips[lang] = readZip(readFileSync(join(dist, 'scorm', `grpo-lab-scorm12-${lang}.zip`)));
  for (const id of SECTIONS) {
    for (const lang of ['en', 'ru']) zips[`${id}-${lang}`] = readZip(readFileSync(join(dist, 'scorm', 'sections', `grpo-lab-${id}-scorm12-${lang}.zip`)));
  }
  // The LMS: its player page and the extracted package on one origin, as LMSs serve packages.
  const lmsRoot = join(work, 'lms');
  for (const { name, data } of zips.en) {
    mkdirSync(dirname(join(lmsRoot, 'content', name)), { recursive: true });
    writeFileSync(join(lmsRoot, 'content', name), data);
  }
  for (const { name, data } of zips['informative-groups-en']) {
    mkdirSync(join(lmsRoot, 'one-section'), { recursive: true });
    writeFileSync(join(lmsRoot, 'one-section', name), data);
  }
  copyFileSync(join(FIXTURES, 'lms.html'), join(lmsRoot, 'lms.html'));
  copyFileSync(join(FIXTURES, 'lms.js'), join(lmsRoot, 'lms.js'));
  copyFileSync(join(ROOT, 'node_modules', 'scorm-again', 'dist', 'scorm12.min.js'), join(lmsRoot, 'scorm12.min.js'));
  [lms, plain, site, browser, core] = await Promise.all([
    startServer(lmsRoot, { headers: {} }),
    plainServer(join(dist, 'site')),
    startServer(),
    launchBrowser({ viewport: LAPTOP }),
    nodeCore(),
  ]);
});

after(async () => {
  await browser?.close();
  await Promise.all([lms?.close(), plain?.close(), site?.close()]);
  if (work) rmSync(work, { recursive: true, force: true });
});

async function until(fn, message, timeout = 15000) {
  const deadline = Date.now() + timeout;
  let last;
  while (Date.now() < deadline) {
    last = await fn();
    if (last) return last;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  assert.fail(typeof message === 'function' ? message(last) : message);
}

/** Opens the LMS player with a SCO; returns {page, frame, problems, runtime()}. */
async function launch(sco, extra = '') {
  const opened = await openPage(browser.context, lms.origin);
  await opened.page.goto(`${lms.origin}/lms.html?sco=${encodeURIComponent(`content/${sco}`)}${extra}`);
  const frame = await (await opened.page.waitForSelector('iframe')).contentFrame();
  await mountAll(frame);
  const runtime = () =>
    opened.page.evaluate(() => ({
      log: window.__lms.log,
      status: window.API.cmi.core.lesson_status,
      suspend: window.API.cmi.suspend_data,
      initialized: window.API.isInitialized(),
      terminated: window.API.isTerminated(),
    }));
  return { ...opened, frame, runtime };
}

const statuses = (log) => log.filter((e) => e.element === 'cmi.core.lesson_status').map((e) => e.value);

/** The LMS takes the SCO away (next SCO, or the learner leaves): the frame goes blank. */
async function leave(page) {
  await page.evaluate(() => {
    document.querySelector('iframe').src = 'about:blank';
  });
}

describe('SCORM 1.2 package', () => {
  test('imsmanifest.xml is well-formed, lists every file of the zip, and every file it lists is there', async () => {
    const page = await browser.context.newPage();
    for (const key of Object.keys(zips)) {
      const whole = key === 'en' || key === 'ru';
      const lang = key.slice(-2);
      const entries = zips[key];
      const names = entries.map((e) => e.name);
      assert.equal(names[0], 'imsmanifest.xml', 'the manifest is at the zip root');
      assert.equal(new Set(names).size, names.length, 'no duplicate entry');
      const xml = entries[0].data.toString('utf8');
      const parsed = await page.evaluate((text) => {
        const doc = new DOMParser().parseFromString(text, 'application/xml');
        const error = doc.getElementsByTagName('parsererror')[0];
        if (error) return { error: error.textContent };
        const CP = 'http://www.imsproject.org/xsd/imscp_rootv1p1p2';
        const ADL = 'http://www.adlnet.org/xsd/adlcp_rootv1p2';
        const all = (name) => [...doc.getElementsByTagNameNS(CP, name)];
        return {
          root: `${doc.documentElement.namespaceURI} ${doc.documentElement.localName}`,
          schema: all('schema')[0]?.textContent,
          version: all('schemaversion')[0]?.textContent,
          files: all('file').map((f) => f.getAttribute('href')),
          resources: all('resource').map((r) => ({
            id: r.getAttribute('identifier'),
            href: r.getAttribute('href'),
            type: r.getAttributeNS(ADL, 'scormtype'),
            files: [...r.getElementsByTagNameNS(CP, 'file')].map((f) => f.getAttribute('href')),
            dependencies: [...r.getElementsByTagNameNS(CP, 'dependency')].map((d) => d.getAttribute('identifierref')),
          })),
          items: all('item').map((i) => ({ ref: i.getAttribute('identifierref'), title: i.getElementsByTagNameNS(CP, 'title')[0]?.textContent })),
          defaultOrg: all('organizations')[0]?.getAttribute('default'),
          orgs: all('organization').map((o) => o.getAttribute('identifier')),
        };
      }, xml);
      assert.equal(parsed.error, undefined, `${lang}: ${parsed.error}`);
      assert.equal(parsed.root, 'http://www.imsproject.org/xsd/imscp_rootv1p1p2 manifest');
      assert.deepEqual([parsed.schema, parsed.version], ['ADL SCORM', '1.2']);
      assert.ok(parsed.orgs.includes(parsed.defaultOrg));

      const listed = new Set(parsed.files);
      const inZip = names.filter((n) => n !== 'imsmanifest.xml');
      assert.deepEqual(inZip.filter((n) => !listed.has(n)), [], `${lang}: files in the zip the manifest does not list`);
      assert.deepEqual([...listed].filter((n) => !names.includes(n)), [], `${lang}: files listed but not in the zip`);
      for (const resource of parsed.resources) {
        if (resource.href) assert.ok(names.includes(resource.href), `${resource.id}: launch page ${resource.href} missing`);
        for (const dep of resource.dependencies) assert.ok(parsed.resources.some((r) => r.id === dep), `${resource.id}: dependency ${dep}`);
      }
      // One SCO for the module and one per section, each reachable from the organization; a
      // one-section zip holds one SCO, its single file.
      const scos = parsed.resources.filter((r) => r.type === 'sco');
      const refs = parsed.items.map((i) => i.ref).filter(Boolean);
      assert.deepEqual(refs.sort(), scos.map((r) => r.id).sort());
      assert.ok(parsed.items.every((i) => i.title?.trim()), 'every item has a title');
      if (!whole) {
        assert.deepEqual(names, ['imsmanifest.xml', 'index.html'], key);
        assert.deepEqual(scos.map((r) => r.href), ['index.html']);
        continue;
      }
      assert.deepEqual(scos.map((r) => r.href).sort(), ['sco-course.html', ...SECTIONS.map((id) => `sco-${id}.html`)].sort());
      for (const file of ['core/grpo_core.wasm', 'core/grpo_core.js', 'core/grpo_core_reference.wasm', 'core/grpo_core_reference.js', 'js/scorm.js', 'vendor/chart.min.js', 'data/smoke-run.json']) {
        assert.ok(names.includes(file), `${file} in the package`);
      }
      assert.ok(!names.includes('teacher.html'), 'the instructor page stays out of the learner package');
    }
    const ruTitles = zips.ru[0].data.toString('utf8');
    assert.match(ruTitles, /Проверяем верификатор до обучения/);
    await page.close();
  });

  test('a section SCO under scorm-again: initialised, incomplete, completed once the widget ran, finished', async () => {
    const { page, frame, problems, runtime } = await launch('sco-informative-groups.html');
    let state = await runtime();
    assert.equal(state.initialized, true, 'LMSInitialize called');
    assert.equal(state.log[0].call, 'LMSInitialize');
    assert.equal(state.status, 'incomplete');
    assert.deepEqual(statuses(state.log), ['incomplete'], 'opening alone does not complete it');
    assert.ok(state.log.some((e) => e.call === 'LMSCommit'));

    await frame.locator('[data-key="ig.g"]').fill('6');
    state = await until(async () => {
      const s = await runtime();
      return s.status === 'completed' && s;
    }, 'lesson_status never became completed after the widget ran');
    assert.deepEqual(statuses(state.log), ['incomplete', 'completed']);
    assert.deepEqual(JSON.parse(state.suspend).used, ['informative-groups']);

    await leave(page);
    state = await until(async () => {
      const s = await runtime();
      return s.terminated && s;
    }, 'LMSFinish never called');
    const sessionTime = state.log.find((e) => e.element === 'cmi.core.session_time')?.value;
    assert.match(sessionTime, /^\d{2,4}:\d{2}:\d{2}(\.\d{1,2})?$/, 'session time reported in SCORM 1.2 form');
    assert.equal(state.status, 'completed');
    const calls = state.log.map((e) => e.call);
    assert.ok(calls.lastIndexOf('LMSSetValue') < calls.indexOf('LMSFinish'), 'everything was set before LMSFinish');
    assert.deepEqual([...problems.console, ...problems.page, ...problems.outside], []);
    await page.close();
  });

  test('section 6 SCO: completed only when a training run has finished', async () => {
    const { page, frame, problems, runtime } = await launch('sco-rl-loop.html');
    assert.equal((await runtime()).status, 'incomplete');
    // Changing the form is not "running" section 6.
    await frame.locator('[data-key="seed"]').fill('11');
    await frame.waitForFunction(() => /seed=11/.test(location.hash));
    assert.equal((await runtime()).status, 'incomplete');
    await frame.locator('.run-bar button[data-action="run"]').click();
    await frame.waitForSelector('.run-bar[data-phase="finished"]', { timeout: 180000 });
    await until(async () => (await runtime()).status === 'completed', 'not completed after the run finished');
    await leave(page);
    await until(async () => (await runtime()).terminated, 'LMSFinish never called');
    assert.deepEqual(statuses((await runtime()).log), ['incomplete', 'completed']);
    assert.deepEqual([...problems.console, ...problems.page, ...problems.outside], []);
    await page.close();
  });

  test('the module SCO resumes from suspend_data, speaks the LMS language, completes with the last section', async () => {
    const earlier = SECTIONS.filter((id) => id !== 'advantages');
    const extra = `&suspend=${encodeURIComponent(JSON.stringify({ v: 1, used: earlier }))}&language=ru-RU`;
    const { page, frame, problems, runtime } = await launch('sco-course.html', extra);
    assert.equal(await frame.locator('html').getAttribute('lang'), 'ru', 'cmi.student_preference.language picks the page language');
    assert.equal((await runtime()).status, 'incomplete');
    await frame.locator('section#advantages [data-key="adv.eh"]').fill('0.28');
    await until(async () => (await runtime()).status === 'completed', 'the last section did not complete the module');
    assert.deepEqual(JSON.parse((await runtime()).suspend).used.sort(), [...SECTIONS].sort());
    await leave(page);
    await until(async () => (await runtime()).terminated, 'LMSFinish never called');
    assert.deepEqual([...problems.console, ...problems.page, ...problems.outside], []);
    await page.close();
  });

  test('a one-section package (its single file as the SCO) reports to the runtime the same way', async () => {
    const { page, frame, problems, runtime } = await launch('../one-section/index.html');
    assert.equal((await runtime()).status, 'incomplete');
    await frame.locator('[data-key="ig.p"]').fill('0.3');
    await until(async () => (await runtime()).status === 'completed', 'not completed after the widget ran');
    await leave(page);
    await until(async () => (await runtime()).terminated, 'LMSFinish never called');
    assert.deepEqual(statuses((await runtime()).log), ['incomplete', 'completed']);
    assert.deepEqual([...problems.console, ...problems.page, ...problems.outside], []);
    await page.close();
  });

  test('the same SCOs with no LMS run normally, with no console error', async () => {
    for (const sco of ['sco-informative-groups.html', 'sco-course.html']) {
      const { page, problems } = await openPage(browser.context, lms.origin);
      await page.goto(`${lms.origin}/content/${sco}`);
      await mountAll(page);
      const cell = page.locator('section#informative-groups table.examples tbody tr').first().locator('td').first();
      const before = await cell.textContent();
      await page.locator('section#informative-groups [data-key="ig.tg"]').fill('4');
      await until(async () => (await cell.textContent()) !== before, 'the widget did not recompute');
      assert.equal(Number(await cell.getAttribute('data-value')), core.informativeGroupProbability(0.01, 4));
      assert.deepEqual([...problems.console, ...problems.page, ...problems.outside, ...(await cspViolations(page))], [], sco);
      await page.close();
    }
  });
});

describe('single-file sections', () => {
  test('from a plain server that sends .wasm as application/octet-stream, a single file still works', async () => {
    // The server really is wrong: the multi-file page's core has to fall back (and says so).
    const wasm = await fetch(`${plain.origin}/core/grpo_core.wasm`);
    assert.equal(wasm.headers.get('content-type'), 'application/octet-stream');
    await wasm.arrayBuffer();

    const { page, problems, requests } = await openPage(browser.context, plain.origin);
    const messages = [];
    page.on('console', (message) => messages.push(`${message.type()}: ${message.text()}`));
    const url = `${plain.origin}/downloads/single/informative-groups.html`;
    await page.goto(url);
    await page.waitForSelector('html[data-ready="true"]', { timeout: 30000 });
    await page.locator('[data-key="ig.tg"]').fill('16');
    const cell = page.locator('table.examples tbody tr').nth(2).locator('td').first();
    await until(async () => Number(await cell.getAttribute('data-value')) === core.informativeGroupProbability(0.5, 16), 'no recomputation');
    assert.equal(await page.locator('section#informative-groups canvas').count(), 1);
    assert.deepEqual(requests, [url], 'the page requests nothing but itself');
    assert.deepEqual([...problems.console, ...problems.page, ...problems.outside, ...(await cspViolations(page))], []);
    assert.deepEqual(messages.filter((m) => /wasm|MIME/i.test(m)), [], 'no WebAssembly fallback needed');
    await page.close();
  });

  test('section 6 as a single file trains in its Web Worker and shows the run', async () => {
    const { page, problems, requests } = await openPage(browser.context, plain.origin);
    const url = `${plain.origin}/downloads/single/rl-loop.html`;
    await page.goto(url);
    await page.waitForSelector('html[data-ready="true"]', { timeout: 30000 });
    await page.waitForSelector('.run-bar[data-phase="precomputed"]', { timeout: 15000 });
    await page.locator('.run-bar button[data-action="run"]').click();
    await page.waitForSelector('.run-bar[data-phase="finished"]', { timeout: 180000 });
    const after = await page.locator('.metrics-table tr.metrics-afterTrain td').first().getAttribute('data-value');
    assert.ok(Number.isFinite(Number(after)), 'after-RL accuracy shown');
    assert.deepEqual(requests.filter((r) => !r.startsWith('blob:')), [url]);
    assert.deepEqual([...problems.console, ...problems.page, ...problems.outside, ...(await cspViolations(page))], []);
    await page.close();
  });
});

describe('teacher links', () => {
  test('the teacher page builds the link and the iframe snippet; the embed hides what it says', async () => {
    const { page, problems } = await openPage(browser.context, site.origin);
    await page.goto(`${site.origin}/teacher.html#lang=en`);
    await page.waitForSelector('html[data-ready="true"]', { timeout: 30000 });
    await page.locator('#teacher-section').selectOption('informative-groups');
    await page.locator('#teacher-lang').selectOption('ru');
    const preview = await (await page.waitForSelector('iframe.teacher-preview')).contentFrame();
    await preview.waitForSelector('section#informative-groups[data-rendered="true"]');
    await preview.waitForFunction(() => document.documentElement.lang === 'ru');
    // A preset value, set in the live widget.
    await preview.locator('[data-key="ig.p"]').fill('0.3');
    await page.locator('input[data-hide="notice"]').check();
    await page.locator('input[data-hide="ig.g"]').check();
    const url = await until(async () => {
      const text = await page.locator('#teacher-url').inputValue();
      return /ig\.p=0\.3/.test(text) && /hide=/.test(text) && text;
    }, 'the link never showed the preset and the hide flags');
    const hash = new URLSearchParams(new URL(url).hash.slice(1));
    assert.equal(new URL(url).pathname, '/embed.html');
    assert.equal(hash.get('section'), 'informative-groups');
    assert.equal(hash.get('lang'), 'ru');
    assert.equal(hash.get('ig.p'), '0.3');
    assert.deepEqual(hash.get('hide').split(',').sort(), ['ig.g', 'notice']);
    const snippet = await page.locator('#teacher-snippet').inputValue();
    assert.ok(snippet.includes(`src="${url.replace(/&/g, '&amp;')}"`), snippet);
    assert.match(snippet, /^<iframe [^>]*title="[^"]+"[^>]*height="\d+"/);

    // The link as a learner opens it: the flagged parts are hidden, the rest works.
    const learner = await openPage(browser.context, site.origin);
    await learner.page.goto(url);
    await learner.page.waitForSelector('html[data-ready="true"]');
    assert.equal(await learner.page.locator('.callout-notice').isVisible(), false);
    assert.equal(await learner.page.locator('[data-key="ig.g"]').isVisible(), false);
    assert.equal(await learner.page.locator('[data-key="ig.tg"]').isVisible(), true);
    assert.equal(await learner.page.locator('[data-key="ig.p"]').inputValue(), '0.3');
    assert.deepEqual([...problems.console, ...problems.page, ...learner.problems.console, ...learner.problems.page], []);
    await learner.page.close();
    await page.close();
  });
});
