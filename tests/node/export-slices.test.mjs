// A long run exports in slices (web/js/training/run-format.js runFileParts, historyCsvParts): the
// parts joined are the same JSON value and the same CSV text as in one piece, at every slice edge.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { historyCsv, historyCsvParts, runFile, runFileParts } from '../../web/js/training/run-format.js';

const base = JSON.parse(readFileSync(new URL('../../web/data/smoke-run.json', import.meta.url), 'utf8'));

for (const n of [0, 1, 1999, 2000, 2001, 4500]) {
  test(`${n} history rows: the same file and CSV`, async () => {
    const history = Array.from({ length: n }, (_, i) => ({ ...base.history[i % base.history.length], update: i + 1, loss: i === 3 ? NaN : base.history[0].loss }));
    const file = runFile({ ...base, history }, { source: 'imported' });
    const parts = await runFileParts(file);
    assert.deepEqual(JSON.parse(parts.join('')), JSON.parse(JSON.stringify(file)));
    assert.ok(parts.length >= Math.ceil(n / 2000), 'one part per slice');
    assert.equal((await historyCsvParts({ history })).join(''), historyCsv({ history }));
  });
}
