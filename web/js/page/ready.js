// When the page is ready: every section of the current render has drawn its widget. Sets
// <html data-ready>, the performance marks `grpo:rendered:<id>` / `grpo:painted:<id>` /
// `grpo:ready`, and fires the `grpo:ready` event (tests, benches and js/scorm.js wait for these).
export function createReadiness(started) {
  const rendered = new Set();
  const expected = new Set();
  let holding = false; // while a render builds the page, its sections are not all expected yet

  const check = () => {
    if (holding || document.documentElement.dataset.ready) return;
    if (![...expected].every((id) => rendered.has(id))) return;
    document.documentElement.dataset.ready = 'true';
    performance.mark('grpo:ready');
    window.dispatchEvent(new CustomEvent('grpo:ready', { detail: { ms: performance.now() - started } }));
  };

  return {
    /** A new render starts: nothing of it is drawn yet. */
    reset() {
      rendered.clear();
      expected.clear();
      delete document.documentElement.dataset.ready;
    },
    /** Runs `build` (which calls `expect` for every section) before checking readiness. */
    during(build) {
      holding = true;
      try {
        build();
      } finally {
        holding = false;
      }
    },
    expect: (id) => expected.add(id),
    /** Section `id` has drawn its widget into `element`. */
    rendered(id, element) {
      if (rendered.has(id)) return;
      rendered.add(id);
      element.dataset.rendered = 'true';
      performance.mark(`grpo:rendered:${id}`);
      requestAnimationFrame(() => requestAnimationFrame(() => performance.mark(`grpo:painted:${id}`)));
      check();
    },
    check,
  };
}
