// Test-only probe that the engines' test server (engines.mjs) puts first in every page's <head>:
// records console errors, uncaught errors, unhandled rejections, failed loads, CSP violations
// and every resource the page fetched into window.__probe, from page load on. It is the one
// error and request record that works in every engine (WebKitWebDriver gives no console log
// and no request events); Chromium and Firefox add their drivers' own records on top.
(() => {
  const probe = { console: [], page: [], csp: [], resources: [], notices: [] };
  window.__probe = probe;
  const text = (value) => (value instanceof Error ? `${value.name}: ${value.message}` : String(value));
  const consoleError = console.error;
  console.error = function (...args) {
    probe.console.push(args.map(text).join(' '));
    return consoleError.apply(this, args);
  };
  // Capture phase: a failed <script>/<link>/<img> fires a non-bubbling error on its element.
  window.addEventListener(
    'error',
    (event) => {
      // The spec's notice that some ResizeObserver notifications go to the next frame (the
      // page's scroll anchoring re-measures in its callback): no exception, no console line.
      if (event instanceof ErrorEvent && !event.error && /^ResizeObserver loop/.test(event.message)) probe.notices.push(event.message);
      else if (event instanceof ErrorEvent) probe.page.push(text(event.error ?? event.message));
      else if (event.target && event.target !== window) probe.console.push(`failed to load ${event.target.src || event.target.href}`);
    },
    true,
  );
  window.addEventListener('unhandledrejection', (event) => probe.page.push(`unhandled rejection: ${text(event.reason)}`));
  document.addEventListener('securitypolicyviolation', (event) => probe.csp.push(`${event.violatedDirective} ${event.blockedURI}`));
  // Resource Timing sees every fetch of this document (scripts, styles, fetch(), the worker's
  // script), but not the fetches a worker makes itself: those are covered by the CSP
  // (connect-src 'self'), whose violations the line above records.
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) {
      probe.resources.push(entry.name);
      // A fetch() the page answered itself is no console line in WebKit: its status shows here
      // (responseStatus, where the engine has it).
      if (entry.responseStatus >= 400) probe.console.push(`HTTP ${entry.responseStatus} for ${entry.name}`);
    }
  }).observe({ type: 'resource', buffered: true });
  // Every sentence the loading line (#boot-status) shows, kept in this tab across reloads: a
  // page that leaves its service worker says so for a moment, then reloads.
  // (No storage in a sandboxed frame: nothing kept there.)
  const BOOT_LINES = 'engines-probe-boot-lines';
  const bootLines = () => JSON.parse(sessionStorage.getItem(BOOT_LINES) ?? '[]');
  let last = null;
  new MutationObserver(() => {
    const line = document.getElementById('boot-status')?.textContent;
    if (!line || line === last) return;
    last = line;
    try {
      if (bootLines().at(-1) !== line) sessionStorage.setItem(BOOT_LINES, JSON.stringify([...bootLines(), line]));
    } catch {}
  }).observe(document, { subtree: true, childList: true, characterData: true });
})();
