// A hostile link's settings cost the page little (web/js/state.js parseHash, web/js/url-notes.js):
// one note per key, at most 10 shown and "and N more", values cut to 80 characters, a hash body
// over 64 KB refused whole with one note, keys looked up as the schema's own. The page's own schema.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseHash, defaults, inputMaxLength, MAX_HASH_CHARS } from '../../web/js/state.js';
import { noteLines, noteText, cut, MAX_NOTES, VALUE_CHARS } from '../../web/js/url-notes.js';
import { loadLanguage, setLanguage } from '../../web/js/i18n.js';
import { fullSchema } from '../../web/js/page.js';

const SCHEMA = fullSchema();
const PASS = { passThrough: ['section', 'hide'] };
setLanguage(await loadLanguage('en'));

test('prototype keys are unknown settings, never the prototype', () => {
  const parsed = parseHash('#__proto__=1&constructor=2&toString=x&hasOwnProperty=1&ig.g=16', SCHEMA, PASS);
  assert.deepEqual(parsed.notes.map((n) => [n.key, Boolean(n.unknown)]),
    [['__proto__', true], ['constructor', true], ['toString', true], ['hasOwnProperty', true]]);
  assert.equal(parsed.values['ig.g'], 16);
  assert.equal(Object.getPrototypeOf(parsed.values), Object.prototype);
  assert.deepEqual(noteLines(parsed.notes)[0], '__proto__: unknown setting, ignored.');
  assert.ok(noteLines(parsed.notes).every((line) => !/\[object Object\]|one of \?/.test(line)));
});

test('one note per key: the last occurrence decides the value and the note', () => {
  const parsed = parseHash('#ig.g=abc&ig.g=x&ig.g=y&zzz=1&zzz=2', SCHEMA, PASS);
  assert.equal(parsed.notes.length, 2);
  assert.equal(parsed.notes[0].value, 'y');
  // A good value after bad ones: no note, the value used.
  const fixed = parseHash('#ig.g=abc&ig.g=16', SCHEMA, PASS);
  assert.deepEqual(fixed.notes, []);
  assert.equal(fixed.values['ig.g'], 16);
});

test('thousands of bad settings under 64 KB: 10 lines and "and N more"; long values cut', () => {
  const parts = Array.from({ length: 4000 }, (_, i) => `x${i}=${i}`);
  parts.push(`ig.g=${'9'.repeat(5000)}`, `v.ref=${'é'.repeat(300)}`);
  const hash = `#${parts.join('&')}`;
  assert.ok(hash.length < MAX_HASH_CHARS);
  // Under 200 ms of CPU (the process's own time, as below: beside the browsers on a machine whose
  // page faults are dear it took 238 ms of wall time, 2026-12-07), and the wall time within 1 s.
  const started = performance.now();
  const cpuStarted = process.cpuUsage();
  const parsed = parseHash(hash, SCHEMA, PASS);
  const lines = noteLines(parsed.notes);
  const cpu = process.cpuUsage(cpuStarted);
  const ms = performance.now() - started;
  const cpuMs = (cpu.user + cpu.system) / 1000;
  assert.equal(parsed.notes.length, 4002);
  assert.equal(lines.length, MAX_NOTES + 1);
  assert.equal(lines[MAX_NOTES], '… and 3992 more.');
  assert.ok(cpuMs < 200 && ms < 1000, `${cpuMs.toFixed(0)} ms of CPU, ${ms.toFixed(0)} ms`);
  const long = noteText(parsed.notes.find((n) => n.key === 'ig.g'));
  assert.ok(long.length < 400, long);
  assert.ok(long.includes(`${'9'.repeat(VALUE_CHARS)}…`));
  assert.ok(lines.every((line) => line.length < 600));
});

test('a hash body over 64 KB is refused whole with one note', () => {
  const hash = `#lang=ru&ig.g=16&${Array.from({ length: 20000 }, (_, i) => `x${i}=..`).join('&')}`;
  assert.ok(hash.length > MAX_HASH_CHARS);
  // Refused before it is parsed: under 50 ms of CPU (the process's own time, so a busy machine
  // that deschedules this test does not count; CI runs it beside the browsers).
  const started = process.cpuUsage();
  const parsed = parseHash(hash, SCHEMA, PASS);
  const cpu = process.cpuUsage(started);
  assert.ok((cpu.user + cpu.system) / 1000 < 50, `${(cpu.user + cpu.system) / 1000} ms of CPU`);
  assert.deepEqual(parsed.values, defaults(SCHEMA));
  assert.equal(parsed.notes.length, 1);
  assert.deepEqual(noteLines(parsed.notes), [
    `The link carries ${hash.length - 1} characters of settings, more than the 65536 a link of this page may hold: none of them was used.`,
  ]);
  assert.equal(parsed.present.size, 0);
});

test('in Russian too', async () => {
  setLanguage(await loadLanguage('ru'));
  const parsed = parseHash(`#${Array.from({ length: 12 }, (_, i) => `x${i}=1`).join('&')}`, SCHEMA, PASS);
  const lines = noteLines(parsed.notes);
  assert.equal(lines.at(-1), '… и ещё 2.');
  setLanguage(await loadLanguage('en'));
});

test('cut() never splits a surrogate pair', () => {
  assert.equal(cut('ab😀cd', 3), 'ab…');
  assert.equal(cut('abc', 3), 'abc');
});

test('every text and list field takes at most what its URL key keeps', () => {
  for (const [key, spec] of Object.entries(SCHEMA)) {
    const limit = inputMaxLength(spec);
    if (spec.kind === 'text') assert.equal(limit, spec.maxLength ?? 2000, key);
    if (spec.kind === 'list') {
      assert.ok(limit >= (spec.maxItems ?? 64) * 24, key);
      // The longest list the key keeps fits the field, shown with ", " between the numbers.
      const longest = Array.from({ length: spec.maxItems ?? 64 }, () => String(-1.2345678901234567e-300)).join(', ');
      assert.ok(longest.length <= limit, `${key}: ${longest.length} > ${limit}`);
    }
  }
  assert.equal(inputMaxLength(SCHEMA['v.text']), 2000);
  assert.equal(inputMaxLength(SCHEMA['adv.r']), 64 * 26);
});
