// The LMS kit's pure parts, without a browser: the ZIP writer (read back by our reader and by
// Info-ZIP's unzip where installed), the hide flags (no CSS can be injected), and the SCORM 1.2
// side of a SCO against a scripted API: discovery through parents and openers (windows of another
// origin skipped), review and browse modes, a completed SCO left completed, suspend_data resumed.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readZip, writeZip } from '../../tools/zip.mjs';
import { hideCss, parseHide } from '../../web/js/hide.js';
import { connectScorm, findApi, languageOf, timespan } from '../../web/js/scorm-api.js';

test('zip: what is written reads back byte for byte, and unzip agrees', () => {
  const big = Buffer.from('GRPO '.repeat(5000));
  const binary = Buffer.from(Array.from({ length: 3000 }, (_, i) => (i * 7919) % 256));
  const entries = [
    { name: 'imsmanifest.xml', data: '<?xml version="1.0"?><manifest/>' },
    { name: 'js/page.js', data: big },
    { name: 'vendor/katex/fonts/x.woff2', data: binary },
    { name: 'тексты/ru.txt', data: 'Привет' },
    { name: 'empty.txt', data: '' },
  ];
  const zip = writeZip(entries);
  assert.deepEqual(writeZip(entries), zip, 'the same files give the same bytes');
  const back = readZip(zip);
  assert.deepEqual(back.map((e) => e.name), entries.map((e) => e.name));
  entries.forEach((entry, i) => assert.deepEqual(back[i].data, Buffer.from(entry.data)));
  assert.ok(zip.length < big.length / 10 + binary.length + 1000, 'text is deflated, fonts stored');
  assert.throws(() => writeZip([entries[0], entries[0]]), /duplicate/);
  const corrupt = Buffer.from(zip);
  corrupt[50] ^= 0xff; // inside the first entry's data
  assert.throws(() => readZip(corrupt));

  let unzip = true;
  try {
    execFileSync('unzip', ['-v'], { stdio: 'ignore' });
  } catch {
    unzip = false;
  }
  if (!unzip) return;
  const dir = mkdtempSync(join(tmpdir(), 'grpo-zip-'));
  try {
    writeFileSync(join(dir, 'a.zip'), zip);
    const listing = execFileSync('unzip', ['-t', join(dir, 'a.zip')], { encoding: 'utf8' });
    assert.match(listing, /No errors detected/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('hide flags: parts and state keys; anything else is dropped, so no CSS can get in', () => {
  assert.deepEqual(parseHide('text,notice,ig.p,text'), ['text', 'notice', 'ig.p']);
  assert.deepEqual(parseHide('"],body{display:none},x'), ['x']);
  assert.deepEqual(parseHide('a b,c{d},e;f'), []);
  assert.deepEqual(parseHide(null), []);
  const css = hideCss(parseHide('controls,adv.eh'));
  assert.match(css, /\.controls:not\(\.controls-scrub\)/);
  assert.match(css, /\[data-key="adv\.eh"\]/);
  assert.equal(hideCss([]), '');
});

test('SCORM time span and LMS language', () => {
  assert.equal(timespan(0), '0000:00:00.00');
  assert.equal(timespan(3723450), '0001:02:03.45');
  assert.equal(timespan(-5), '0000:00:00.00');
  assert.equal(languageOf('ru-RU'), 'ru');
  assert.equal(languageOf('Russian'), 'ru');
  assert.equal(languageOf('en_GB'), 'en');
  assert.equal(languageOf(''), null);
  assert.equal(languageOf('de'), null);
});

/** A scripted SCORM 1.2 API: values in a map, every call logged. */
function fakeApi(initial = {}) {
  const values = { 'cmi.core.lesson_status': 'not attempted', 'cmi.core.lesson_mode': 'normal', 'cmi.suspend_data': '', ...initial };
  const log = [];
  return {
    values,
    log,
    LMSInitialize: () => (log.push(['init']), 'true'),
    LMSGetValue: (key) => values[key] ?? '',
    LMSSetValue: (key, value) => (log.push(['set', key, value]), (values[key] = value), 'true'),
    LMSCommit: () => (log.push(['commit']), 'true'),
    LMSFinish: () => (log.push(['finish']), 'true'),
    LMSGetLastError: () => '0',
  };
}

test('findApi: the window, its parents, then its opener; a window of another origin is skipped', () => {
  const api = fakeApi();
  const top = { API: api };
  top.parent = top;
  const foreign = { parent: top };
  Object.defineProperty(foreign, 'API', { get: () => { throw new Error('SecurityError'); } });
  const frame = { parent: foreign };
  assert.equal(findApi(frame), api);
  const lonely = {};
  lonely.parent = lonely;
  assert.equal(findApi(lonely), null);
  const popup = { opener: frame };
  popup.parent = popup;
  popup.top = popup;
  assert.equal(findApi(popup), api);
  const notApi = { API: { something: true } };
  notApi.parent = notApi;
  assert.equal(findApi(notApi), null, 'an API object needs LMSInitialize');
});

const windowWith = (api) => {
  const win = { API: api };
  win.parent = win;
  return win;
};

test('connectScorm: incomplete on open, completed when every section ran, suspend_data kept, finish once', () => {
  const api = fakeApi({ 'cmi.suspend_data': JSON.stringify({ v: 1, used: ['a', 'zzz'] }) });
  let now = 1000;
  const connection = connectScorm({ sections: ['a', 'b'], win: windowWith(api), now: () => now });
  assert.equal(api.values['cmi.core.lesson_status'], 'incomplete');
  assert.equal(api.values['cmi.core.exit'], 'suspend');
  assert.deepEqual([...connection.used], ['a'], 'resumed, unknown ids dropped');
  connection.markUsed('nope');
  connection.markUsed('b');
  assert.equal(api.values['cmi.core.lesson_status'], 'completed');
  assert.equal(api.values['cmi.core.exit'], '');
  assert.deepEqual(JSON.parse(api.values['cmi.suspend_data']).used, ['a', 'b']);
  now += 61000;
  connection.finish();
  connection.finish();
  assert.equal(api.values['cmi.core.session_time'], '0000:01:01.00');
  assert.equal(api.log.filter(([call]) => call === 'finish').length, 1);
  assert.equal(api.log.at(-1)[0], 'finish');
});

test('connectScorm: a completed SCO stays completed; review writes nothing; browse says browsed', () => {
  const done = fakeApi({ 'cmi.core.lesson_status': 'passed' });
  connectScorm({ sections: ['a'], win: windowWith(done) });
  assert.equal(done.values['cmi.core.lesson_status'], 'passed');

  const review = fakeApi({ 'cmi.core.lesson_mode': 'review' });
  const reviewing = connectScorm({ sections: ['a'], win: windowWith(review) });
  reviewing.markUsed('a');
  reviewing.finish();
  assert.deepEqual(review.log.map(([call]) => call), ['init', 'finish']);

  const browse = fakeApi({ 'cmi.core.lesson_mode': 'browse' });
  const browsing = connectScorm({ sections: ['a'], win: windowWith(browse) });
  browsing.markUsed('a');
  assert.equal(browse.values['cmi.core.lesson_status'], 'browsed');

  const refusing = fakeApi();
  refusing.LMSInitialize = () => 'false';
  assert.equal(connectScorm({ sections: ['a'], win: windowWith(refusing) }), null);
  const nothing = {};
  nothing.parent = nothing;
  assert.equal(connectScorm({ sections: ['a'], win: nothing }), null, 'no LMS: no connection, nothing thrown');
});
