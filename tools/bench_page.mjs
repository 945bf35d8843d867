// Page measurements in headless Chromium, for tools/bench.mjs (`npm run bench`):
//   page.first_load_gzip_bytes   every byte the course page fetches on a cold first load opened at
//                                section 2 (index.html#informative-groups: the core, Chart.js, the
//                                text of every section and the widgets near the reader), until the
//                                network is idle; each response gzip-compressed at level 9 as a
//                                static host would serve it
//   page.first_load_brotli_bytes the same with brotli (quality 11), for hosts that serve br
//   page.first_load_raw_bytes    the same, uncompressed
//   page.first_load_requests     how many requests that takes
//   page.wasm_gzip_bytes         of which the WebAssembly core
//   page.top_load_gzip_bytes     the same for the page opened at its top (index.html): no chart
//                                near the reader, so no Chart.js yet
//   page.all_sections_gzip_bytes everything, once the reader has scrolled through every section
//   page.text_shown_ms           navigation start to the text of every section on screen, median
//   page.section2_rendered_ms    navigation start to section 2 fully rendered (its chart drawn
//                                and painted, animation off), page opened at section 2, median of
//                                RUNS cold loads
//   page.load_longest_task_ms_<page> the longest main-thread task while the page loads (course:
//                                opened at section 2; embed: section 2 alone; teacher: with its
//                                preview), cold, median over RUNS loads (tools/load-tasks.mjs);
//                                the machine's load average is printed beside it
//   page.load_longest_task_cpu_ms_<page> the most thread CPU time one of those tasks took (a
//                                traced load): the page's own work, whatever else the machine runs
//   (the loads above with the service worker blocked: what the page itself fetches)
//   page.offline_cached_files    files the service worker keeps for use with no network
//   page.offline_cached_bytes    their bytes in the cache (uncompressed)
//   page.offline_install_gzip_bytes what the install downloads (gzip level 9, as a host serves it)
//   page.offline_install_ms      first visit, page opened at its top: registration (after the
//                                page's load event) to the page controlled by the complete cache
//   page.offline_ready_ms        navigation start to the same moment
// Run alone: `node tools/bench_page.mjs` prints the rows as JSON.
import { brotliCompressSync, constants as zlib, gzipSync } from 'node:zlib';
import { fileURLToPath } from 'node:url';
import { serve } from './serve.mjs';
import { loadavg } from 'node:os';
import { launchBrowser } from '../tests/browser/helpers.mjs';
import { LOAD_PAGES, LONGEST_TASK_LIMIT_MS, measureLoadTasks } from './load-tasks.mjs';

const RUNS = Number(process.env.BENCH_PAGE_RUNS ?? 5);

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
};

/**
 * A cold load of the course page (a fresh profile, service worker blocked); with `weigh`, every
 * response's bytes: {raw, gzip, brotli, requests, wasm, files: [{url, raw, gzip}]}.
 */
export async function coldLoad(origin, { weigh, hash = '#informative-groups', scrollAll = false }) {
  const browser = await launchBrowser({ reducedMotion: 'reduce', serviceWorkers: 'block' });
  const { context } = browser;
  try {
    const page = context.pages()[0] ?? (await context.newPage());
    const bodies = [];
    if (weigh) {
      page.on('response', (response) => {
        bodies.push(
          response
            .body()
            .then((body) => ({
              url: response.url(),
              raw: body.length,
              gzip: gzipSync(body, { level: 9 }).length,
              brotli: brotliCompressSync(body, { params: { [zlib.BROTLI_PARAM_QUALITY]: 11 } }).length,
            }))
            .catch(() => null),
        );
      });
    }
    await page.goto(`${origin}/index.html${hash}`);
    await page.waitForSelector('html[data-shell="true"]', { timeout: 30000 });
    if (hash) await page.waitForFunction(() => performance.getEntriesByName('grpo:painted:informative-groups').length > 0);
    if (scrollAll) {
      for (const id of await page.$$eval('main section.section', (nodes) => nodes.map((n) => n.id))) {
        await page.locator(`section#${id}`).scrollIntoViewIfNeeded();
        await page.waitForSelector(`section#${id}[data-rendered="true"]`, { timeout: 30000 });
      }
    }
    const times = await page.evaluate(() => ({
      section2: performance.getEntriesByName('grpo:painted:informative-groups')[0]?.startTime ?? NaN,
      shell: performance.getEntriesByName('grpo:shell')[0]?.startTime ?? NaN,
    }));
    let weight = null;
    if (weigh) {
      await page.waitForLoadState('networkidle');
      const responses = (await Promise.all(bodies)).filter(Boolean);
      weight = {
        raw: responses.reduce((sum, r) => sum + r.raw, 0),
        gzip: responses.reduce((sum, r) => sum + r.gzip, 0),
        brotli: responses.reduce((sum, r) => sum + r.brotli, 0),
        requests: responses.length,
        wasm: responses.filter((r) => r.url.endsWith('.wasm')).reduce((sum, r) => sum + r.gzip, 0),
        files: responses.map((r) => ({ url: r.url.replace(origin, ''), raw: r.raw, gzip: r.gzip })),
      };
    }
    return { times, weight };
  } finally {
    await browser.close();
  }
}

/** The longest load task of each page (LOAD_PAGES): median wall time over `runs` cold loads, and the CPU time of a traced one. */
async function loadTasks(origin, runs, verbose) {
  const rows = [];
  for (const page of LOAD_PAGES) {
    const walls = [];
    let cpu = NaN;
    for (let i = 0; i <= runs; i += 1) {
      const browser = await launchBrowser({ reducedMotion: 'reduce' });
      try {
        const load = loadavg()[0].toFixed(1);
        // The last load is traced, for the CPU time: tracing itself slows the tasks it times.
        const result = await measureLoadTasks(browser.context, origin, page, { trace: i === runs });
        if (i === runs) cpu = result.longestCpu;
        else walls.push(result.longest);
        if (verbose) console.error(`load tasks ${page.name}: longest ${result.longest} ms${i === runs ? ` (traced; CPU ${cpu} ms)` : ''}, load average ${load}; ${result.tasks.map((t) => t.ms).join(', ') || 'none over 50 ms'}`);
      } finally {
        await browser.close();
      }
    }
    rows.push({ page: page.name, wall: median(walls), cpu });
  }
  return rows;
}

/** First visit with the service worker: what it caches, what that downloads, how long until the page is offline-ready. */
async function offlineInstall(origin) {
  const browser = await launchBrowser({ reducedMotion: 'reduce', serviceWorkers: 'allow' });
  const { context } = browser;
  try {
    const downloads = [];
    context.on('response', (response) => {
      if (!response.request().serviceWorker()) return;
      downloads.push(response.body().then((body) => gzipSync(body, { level: 9 }).length, () => 0));
    });
    const page = context.pages()[0] ?? (await context.newPage());
    await page.goto(`${origin}/index.html`);
    await page.waitForFunction(() => performance.getEntriesByName('grpo:offline-ready').length > 0, null, { timeout: 120000 });
    const measured = await page.evaluate(async () => {
      let files = 0;
      let bytes = 0;
      for (const name of (await caches.keys()).filter((n) => n.startsWith('grpo-lab-precache'))) {
        const cache = await caches.open(name);
        for (const request of await cache.keys()) {
          files += 1;
          bytes += (await (await cache.match(request)).blob()).size;
        }
      }
      const [register] = performance.getEntriesByName('grpo:offline-register');
      const [ready] = performance.getEntriesByName('grpo:offline-ready');
      return { files, bytes, installMs: ready.startTime - register.startTime, readyMs: ready.startTime };
    });
    const gzip = (await Promise.all(downloads)).reduce((sum, n) => sum + n, 0);
    return { ...measured, gzip };
  } finally {
    await browser.close();
  }
}

export async function benchPage({ runs = RUNS, verbose = false } = {}) {
  const root = fileURLToPath(new URL('../web', import.meta.url));
  const server = await serve({ root, port: 0, host: '127.0.0.1' });
  const origin = `http://127.0.0.1:${server.address().port}`;
  try {
    const first = await coldLoad(origin, { weigh: true });
    const top = await coldLoad(origin, { weigh: true, hash: '' });
    const all = await coldLoad(origin, { weigh: true, hash: '', scrollAll: true });
    const offline = await offlineInstall(origin);
    const loadBefore = loadavg()[0];
    const tasks = await loadTasks(origin, Math.max(1, Math.min(runs, 3)), verbose);
    const loadNote = `load average ${loadBefore.toFixed(1)} / ${loadavg()[0].toFixed(1)} (before / after)`;
    const section2 = [first.times.section2];
    const shell = [first.times.shell];
    for (let i = 1; i < runs; i += 1) {
      const { times } = await coldLoad(origin, { weigh: false });
      section2.push(times.section2);
      shell.push(times.shell);
    }
    if (verbose) {
      for (const file of first.weight.files.sort((a, b) => b.gzip - a.gzip)) {
        console.error(`${String(file.gzip).padStart(8)} ${String(file.raw).padStart(8)}  ${file.url}`);
      }
    }
    const row = (name, value, unit, reference) => ({ name, variant: 'chromium', value, unit, ...(reference ? { reference } : {}) });
    return [
      row('page.first_load_gzip_bytes', first.weight.gzip, 'B', '< 400 kB (400000 B)'),
      row('page.first_load_brotli_bytes', first.weight.brotli, 'B'),
      row('page.first_load_raw_bytes', first.weight.raw, 'B'),
      row('page.first_load_requests', first.weight.requests, 'requests'),
      row('page.wasm_gzip_bytes', first.weight.wasm, 'B'),
      row('page.top_load_gzip_bytes', top.weight.gzip, 'B'),
      row('page.all_sections_gzip_bytes', all.weight.gzip, 'B'),
      row('page.text_shown_ms', Math.round(median(shell) * 10) / 10, 'ms'),
      row('page.section2_rendered_ms', Math.round(median(section2) * 10) / 10, 'ms', '< 1000 ms'),
      row('page.offline_cached_files', offline.files, 'files'),
      row('page.offline_cached_bytes', offline.bytes, 'B'),
      row('page.offline_install_gzip_bytes', offline.gzip, 'B'),
      row('page.offline_install_ms', Math.round(offline.installMs), 'ms'),
      row('page.offline_ready_ms', Math.round(offline.readyMs), 'ms'),
      ...tasks.flatMap(({ page, wall, cpu }) => [
        row(`page.load_longest_task_ms_${page}`, wall, 'ms', `<= ${LONGEST_TASK_LIMIT_MS} ms; ${loadNote}`),
        row(`page.load_longest_task_cpu_ms_${page}`, cpu, 'ms'),
      ]),
    ];
  } finally {
    server.closeAllConnections?.();
    await new Promise((resolve) => server.close(resolve));
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  console.log(JSON.stringify(await benchPage({ verbose: true }), null, 2));
}
