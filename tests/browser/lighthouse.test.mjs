// Issue 6: Lighthouse (npm lighthouse, the bench's runner: Debian's Chromium, Lighthouse's default
// mobile settings with simulated slow 4G and a 4x slower CPU) over the course page served with the
// hosting guide's headers: Performance, Accessibility and Best Practices of at least 90 each.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { benchLighthouse, shortfalls } from '../../tools/bench_lighthouse.mjs';

test('Lighthouse scores the course page at least 90 for Performance, Accessibility and Best Practices', { timeout: 240000 }, async () => {
  const rows = await benchLighthouse();
  const value = (name) => rows.find((row) => row.name === name).value;
  const report = rows.map((row) => `${row.name}=${Math.round(row.value * 1000) / 1000}`).join(' ');
  const missed = shortfalls(rows.lhr)
    .map((item) => `${item.category}/${item.id} ${item.score} ${item.display}`)
    .join('; ');
  console.log(`lighthouse: ${report}`);
  for (const category of ['performance', 'accessibility', 'best_practices']) {
    assert.ok(value(`lighthouse_${category}`) >= 90, `${category} below 90: ${report}; audits short of full marks: ${missed}`);
  }
});
