// A run trained by the `grpo-lab train` command, imported into the course page in real headless
// Chromium: the page takes the file as it takes its own exports and shows the command's numbers.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { gotoReady, openPage, screenshot, useServerAndBrowser } from './helpers.mjs';
import { HISTORY_COLUMNS } from '../../web/js/training/run-format.js';

const BIN = fileURLToPath(new URL('../../bin/grpo-lab.mjs', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'grpo-lab-cli-run-'));
const env = useServerAndBrowser();
after(() => rmSync(dir, { recursive: true, force: true }));

test('the page imports a run file written by grpo-lab train and shows its history and config', async () => {
  const out = join(dir, 'cli-run.json');
  await promisify(execFile)(process.execPath, [BIN, 'train', '--set', 'updates=7', '--set', 'seed=5', '--set', 'lossType=grpo', '--out', out], { timeout: 120000 });
  const text = readFileSync(out, 'utf8');
  const file = JSON.parse(text);

  const { page, problems } = await openPage(env.browser.context, env.server.origin);
  await gotoReady(page, `${env.server.origin}/index.html#rl-loop`);
  await page.locator('section#rl-loop input[type="file"]').setInputFiles({ name: 'cli-run.json', mimeType: 'application/json', buffer: Buffer.from(text) });
  await page.waitForSelector('section#rl-loop .run-bar[data-phase="imported"]', { timeout: 60000, state: 'attached' });
  await page.waitForFunction((n) => document.querySelectorAll('section#updates .history-table tbody tr').length === n, file.history.length, { timeout: 30000 });

  const history = await page.$$eval('section#updates .history-table tbody tr', (rows) => rows.map((tr) => [...tr.children].map((td) => td.dataset.value)));
  // A column the run does not have (sampling/* without a sampler) is an empty cell.
  assert.deepEqual(history, file.history.map((row) => HISTORY_COLUMNS.map((c) => String(row[c.key] ?? ''))));
  assert.match(await page.locator('section#rl-loop .run-source').textContent(), /cli-run\.json/);
  assert.match(await page.locator('section#rl-loop .config-json').textContent(), /"lossType": "grpo"/);
  await page.evaluate(() => document.querySelector('section#rl-loop .run-bar').scrollIntoView({ block: 'start', behavior: 'instant' }));
  await screenshot(page, 'cli-run-imported');
  assert.deepEqual(problems, { console: [], page: [], csp: [], outside: [] });
  await page.close();
});
