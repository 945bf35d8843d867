// Long chart series are thinned for drawing (web/js/charts.js thinSeries): at most 5 points per
// pixel column (first, lowest, highest, last, one gap), every spike and every gap kept, short
// series untouched, in linear time. DOM-free, so tested here.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { THINNED_SEGMENT, thinBuckets, thinSeries } from '../../web/js/charts.js';

const x = (row) => row.update;
const y = (row) => row.v;
const rows = (n, value) => Array.from({ length: n }, (_, i) => ({ update: i + 1, v: value(i) }));

test('a short series comes back whole, non-finite values as NaN gaps', () => {
  const short = rows(300, (i) => (i === 7 ? NaN : i === 8 ? Infinity : i % 5));
  const out = thinSeries(short, x, y, 700);
  assert.equal(out.length, 300);
  assert.deepEqual(out[3], { x: 4, y: 3 });
  assert.ok(Number.isNaN(out[7].y) && Number.isNaN(out[8].y));
});

test('100 000 points: about 4 per column, spikes and the ends survive, in row order', () => {
  const spikeAt = 54321;
  const long = rows(100000, (i) => Math.sin(i / 1000) + (i === spikeAt ? 50 : 0) - (i === 777 ? 40 : 0));
  const started = performance.now();
  const out = thinSeries(long, x, y, 700);
  const ms = performance.now() - started;
  assert.ok(out.length <= 4 * 700 && out.length >= 2 * 700, `${out.length} points`);
  assert.ok(out.some((p) => p.x === spikeAt + 1 && p.y === long[spikeAt].v), 'the upward spike is drawn');
  assert.ok(out.some((p) => p.x === 778 && p.y === long[777].v), 'the downward spike is drawn');
  assert.deepEqual(out[0], { x: 1, y: long[0].v });
  assert.deepEqual(out.at(-1), { x: 100000, y: long.at(-1).v });
  for (let i = 1; i < out.length; i += 1) assert.ok(out[i].x > out[i - 1].x, 'x ascending');
  // Every column's extremes equal the data's: the line drawn at this width is the same.
  const max = Math.max(...out.map((p) => p.y));
  const min = Math.min(...out.map((p) => p.y));
  let dataMax = -Infinity;
  let dataMin = Infinity;
  for (const row of long) {
    dataMax = Math.max(dataMax, row.v);
    dataMin = Math.min(dataMin, row.v);
  }
  assert.equal(max, dataMax);
  assert.equal(min, dataMin);
  assert.ok(ms < 1000, `${ms.toFixed(0)} ms`);
});

test('a NaN inside a long series still breaks the line where it happened', () => {
  const long = rows(50000, (i) => (i === 31337 ? NaN : 1));
  const out = thinSeries(long, x, y, 500);
  const gaps = out.filter((p) => Number.isNaN(p.y));
  assert.deepEqual(gaps.map((p) => p.x), [31338]);
  const i = out.findIndex((p) => Number.isNaN(p.y));
  assert.ok(out[i - 1].x < 31338 && out[i + 1].x > 31338, 'the gap sits between its neighbours');
});

test('buckets are two pixels wide (narrower than the line); a thinned line is stroked solid', () => {
  assert.equal(thinBuckets({ clientWidth: 900 }), 450);
  assert.equal(thinBuckets({ clientWidth: 0 }), 600, 'a canvas not laid out yet: a 1200 px guess');
  assert.equal(thinBuckets({ clientWidth: 50 }), 100, 'never fewer than 100 buckets');
  assert.deepEqual(THINNED_SEGMENT.borderDash({}), []);
});
