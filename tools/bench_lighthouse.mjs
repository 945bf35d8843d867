// Lighthouse (npm lighthouse, pinned to 12.2.3: the last line that runs on Node 20 and installs
// from its lock file) over the course page, served by tools/serve.mjs with the hosting guide's
// headers, in Debian's Chromium (/usr/bin/chromium, the flags of TOOLCHAIN.md). Lighthouse's
// default settings: a mobile device with simulated slow 4G and a 4x slower CPU, the setting
// under which its scores are usually quoted. Rows for tools/bench.mjs:
//   lighthouse_performance | lighthouse_accessibility | lighthouse_best_practices  (score, 0-100)
//   page_fcp_ms, page_tbt_ms (and page_lcp_ms, page_cls, page_si_ms)             (Lighthouse's values)
//   lighthouse_benchmark_index   Lighthouse's CPU yardstick of the run (lower: a busier machine)
// Run alone: node tools/bench_lighthouse.mjs [--desktop] (prints the rows and any audit below 1
// in the three categories, with what it found).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { serve } from './serve.mjs';
import { CHROMIUM_ARGS, disableFeatures } from '../tests/browser/helpers.mjs';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
// chrome-launcher starts Chromium itself: the tests' flags, plus headless; the features switch
// repeats chrome-launcher's own list (its defaultFlags) instead of Playwright's.
const flags = (Launcher) => {
  const launcherFeatures = Launcher.defaultFlags().find((flag) => flag.startsWith('--disable-features='))?.split('=')[1].split(',') ?? [];
  return ['--headless=new', ...CHROMIUM_ARGS.filter((flag) => !flag.startsWith('--disable-features=')), disableFeatures(launcherFeatures)];
};

/** Runs Lighthouse once; returns the Lighthouse result object (lhr). */
export async function runLighthouse({ url, desktop = false } = {}) {
  const [{ default: lighthouse }, chromeLauncher, desktopConfig] = await Promise.all([
    import('lighthouse'),
    import('chrome-launcher'),
    desktop ? import('lighthouse/core/config/desktop-config.js').then((m) => m.default) : null,
  ]);
  const profile = mkdtempSync(join(tmpdir(), 'grpo-lighthouse-'));
  const chrome = await chromeLauncher.launch({
    chromePath: CHROMIUM,
    chromeFlags: [...flags(chromeLauncher.Launcher), `--user-data-dir=${profile}`],
    userDataDir: false,
    logLevel: 'silent',
  });
  try {
    const result = await lighthouse(
      url,
      { port: chrome.port, output: 'json', logLevel: 'error', onlyCategories: ['performance', 'accessibility', 'best-practices'] },
      desktopConfig ?? undefined,
    );
    return result.lhr;
  } finally {
    await chrome.kill();
    rmSync(profile, { recursive: true, force: true });
  }
}

/** The bench rows of tools/bench.mjs for the course page (English). */
export async function benchLighthouse({ desktop = false } = {}) {
  const server = await serve({ root: join(ROOT, 'web'), port: 0, host: '127.0.0.1' });
  const { port } = server.address();
  try {
    const lhr = await runLighthouse({ url: `http://127.0.0.1:${port}/index.html#lang=en`, desktop });
    if (lhr.runtimeError) throw new Error(`lighthouse: ${lhr.runtimeError.code} ${lhr.runtimeError.message}`);
    const variant = desktop ? 'chromium-desktop' : 'chromium';
    const score = (id) => Math.round((lhr.categories[id]?.score ?? NaN) * 100);
    const metric = (id) => lhr.audits[id]?.numericValue ?? NaN;
    const rows = [
      { name: 'lighthouse_performance', variant, reference: '>= 90', value: score('performance'), unit: 'score' },
      { name: 'lighthouse_accessibility', variant, reference: '>= 90', value: score('accessibility'), unit: 'score' },
      { name: 'lighthouse_best_practices', variant, reference: '>= 90', value: score('best-practices'), unit: 'score' },
      { name: 'page_fcp_ms', variant, value: metric('first-contentful-paint'), unit: 'ms' },
      { name: 'page_tbt_ms', variant, value: metric('total-blocking-time'), unit: 'ms' },
      { name: 'page_lcp_ms', variant, value: metric('largest-contentful-paint'), unit: 'ms' },
      { name: 'page_si_ms', variant, value: metric('speed-index'), unit: 'ms' },
      { name: 'page_cls', variant, value: metric('cumulative-layout-shift'), unit: 'score' },
      // Lighthouse's CPU yardstick for this run: TBT scales with it (a busy machine scores lower).
      { name: 'lighthouse_benchmark_index', variant, value: lhr.environment?.benchmarkIndex ?? NaN, unit: 'index' },
    ];
    Object.defineProperty(rows, 'lhr', { value: lhr, enumerable: false });
    return rows;
  } finally {
    server.closeAllConnections?.();
    await new Promise((resolve) => server.close(resolve));
  }
}

/** Audits that cost points in the three categories: [{category, id, score, title, display}]. */
export function shortfalls(lhr) {
  const out = [];
  for (const id of ['performance', 'accessibility', 'best-practices']) {
    for (const ref of lhr.categories[id]?.auditRefs ?? []) {
      const audit = lhr.audits[ref.id];
      if (ref.weight > 0 && audit?.score !== null && audit?.score < 1) {
        out.push({ category: id, id: ref.id, score: audit.score, weight: ref.weight, title: audit.title, display: audit.displayValue ?? '' });
      }
    }
  }
  return out;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const rows = await benchLighthouse({ desktop: process.argv.includes('--desktop') });
  for (const row of rows) console.log(`${row.name.padEnd(28)} ${String(Math.round(row.value * 1000) / 1000).padStart(8)} ${row.unit}`);
  for (const item of shortfalls(rows.lhr)) {
    console.log(`  ${item.category}: ${item.id} score ${item.score} (weight ${item.weight}) ${item.title} ${item.display}`);
  }
  process.exit(0);
}
