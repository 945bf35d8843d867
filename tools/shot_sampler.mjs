// Screenshots of section 7 after section 6's two sampler-mismatch presets (issue 13's evidence):
// test-results/trl13/section7-sampler-{uncorrected,corrected}.png. Usage: node tools/shot_sampler.mjs
import { startServer, launchBrowser } from '../tests/browser/helpers.mjs';

const server = await startServer();
const browser = await launchBrowser({ viewport: { width: 1280, height: 1000 } });
const page = await browser.context.newPage();
const errors = [];
page.on('pageerror', (e) => errors.push(String(e)));
page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
await page.goto(`${server.origin}/index.html#rl-loop`);
await page.waitForSelector('section#rl-loop button[data-action="run"]', { timeout: 120000 });
for (const preset of ['samplerMismatch', 'samplerCorrected']) {
  await page.locator(`section#rl-loop button[data-preset="${preset}"]`).click();
  await page.locator('section#rl-loop button[data-action="run"]').click();
  await page.waitForFunction(
    () => {
      const bar = document.querySelector('section#rl-loop .run-bar');
      return bar?.dataset.source === 'live' && Number(bar.dataset.updatesDone ?? 0) >= 60 && bar.dataset.phase === 'finished';
    },
    null,
    { timeout: 300000, polling: 500 },
  );
  await page.waitForTimeout(1500);
  const figure = page.locator('section#updates figure[data-chart="sampler"]');
  await figure.scrollIntoViewIfNeeded();
  await page.waitForTimeout(500);
  const name = preset === 'samplerMismatch' ? 'uncorrected' : 'corrected';
  await figure.screenshot({ path: `test-results/trl13/section7-sampler-${name}.png` });
  await page.locator('section#updates figure[data-chart="history"]').screenshot({ path: `test-results/trl13/section7-history-${name}.png` });
  const summary = await page.locator('section#rl-loop').evaluate((s) => s.querySelector('.metrics-host')?.innerText ?? '');
  console.log(name, summary.split('\n').slice(0, 8).join(' | '));
}
console.log('errors:', JSON.stringify(errors));
await browser.close();
await server.close();
