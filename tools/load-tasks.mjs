// The main thread's long tasks while a page loads, in headless Chromium: every task over 50 ms
// (PerformanceObserver 'longtask', registered before the page's first script in every frame, so
// the teacher page's preview iframe counts too) from navigation until the page is drawn (the
// course page at its section, the embed page and the teacher page with its preview: data-ready),
// the network is idle and one more second has passed. Used by tools/bench_page.mjs (`npm run
// bench`, rows page.load_longest_task_ms_*) and tests/browser/first-load.test.mjs.

/** The pages whose load is measured: the course page opened at section 2, the embed page, the teacher page. */
export const LOAD_PAGES = [
  { name: 'course', path: 'index.html#informative-groups', ready: 'painted:informative-groups' },
  { name: 'embed', path: 'embed.html#section=informative-groups', ready: 'data-ready' },
  { name: 'teacher', path: 'teacher.html', ready: 'data-ready' },
];

/** What a task's length is checked against (issue 28: no task over 200 ms on a 2-core machine). */
export const LONGEST_TASK_LIMIT_MS = 200;

function observeLongTasks() {
  window.__loadTasks = [];
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) window.__loadTasks.push({ start: Math.round(entry.startTime), ms: Math.round(entry.duration) });
  }).observe({ type: 'longtask' });
}

/**
 * The thread CPU time of the longest-running task (by CPU) on the renderer main thread(s) that ran
 * `origin`'s pages, from a Chromium trace: what the page's own work costs, whatever else the
 * machine runs (a task's wall time also counts the time other processes held the core).
 */
function longestCpuTask(events, origin) {
  const pids = new Set(events.filter((e) => JSON.stringify(e.args ?? {}).includes(origin)).map((e) => e.pid));
  const mains = new Set(events.filter((e) => e.name === 'thread_name' && e.args?.name === 'CrRendererMain' && pids.has(e.pid)).map((e) => `${e.pid}:${e.tid}`));
  const tasks = events.filter((e) => e.ph === 'X' && e.name === 'RunTask' && mains.has(`${e.pid}:${e.tid}`));
  return Math.round(Math.max(0, ...tasks.map((e) => e.tdur ?? 0)) / 1000);
}

/**
 * Starts a Chromium trace of `tab` (the timeline categories longestCpuTask reads); `stop()` ends it
 * and resolves to the longest main-thread task's CPU time in ms for `origin`'s pages.
 */
export async function traceMainThread(context, tab, origin) {
  const cdp = await context.newCDPSession(tab);
  const events = [];
  cdp.on('Tracing.dataCollected', ({ value }) => events.push(...value));
  await cdp.send('Tracing.start', { categories: 'devtools.timeline,disabled-by-default-devtools.timeline', transferMode: 'ReportEvents' });
  return {
    async stop() {
      const complete = new Promise((resolve) => cdp.once('Tracing.tracingComplete', resolve));
      await cdp.send('Tracing.end');
      await complete;
      await cdp.detach().catch(() => {});
      return longestCpuTask(events, origin);
    },
  };
}

/**
 * Loads `origin/page.path` in a new page of `context` (a fresh Chromium profile: nothing cached)
 * and returns {longest, tasks: [{frame, start, ms}]}: the longest task in ms (0 when none went
 * over 50 ms) and every long task, by frame ('top' or the iframe's path). With `trace`, also
 * `longestCpu`: the most thread CPU time one task took (longestCpuTask), from a trace of the load.
 */
export async function measureLoadTasks(context, origin, page, { trace = false } = {}) {
  const tab = await context.newPage();
  try {
    await tab.addInitScript(observeLongTasks);
    const tracing = trace ? await traceMainThread(context, tab, origin) : null;
    await tab.goto(`${origin}/${page.path}`);
    if (page.ready === 'data-ready') await tab.waitForSelector('html[data-ready="true"]', { state: 'attached', timeout: 60000 });
    else await tab.waitForFunction((mark) => performance.getEntriesByName(`grpo:${mark}`).length > 0, page.ready, { timeout: 60000 });
    await tab.waitForLoadState('networkidle');
    await tab.waitForTimeout(1000);
    const tasks = [];
    for (const frame of tab.frames()) {
      const found = await frame.evaluate(() => window.__loadTasks ?? []).catch(() => []);
      const name = frame === tab.mainFrame() ? 'top' : new URL(frame.url()).pathname;
      tasks.push(...found.map((task) => ({ frame: name, ...task })));
    }
    const result = { longest: Math.max(0, ...tasks.map((task) => task.ms)), tasks };
    if (tracing) result.longestCpu = await tracing.stop();
    return result;
  } finally {
    await tab.close();
  }
}
