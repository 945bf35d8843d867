// The lazy-mount queue: each section's widget mounts when the reader comes within one screen of
// it (IntersectionObserver), one section per task so the browser paints and answers input in
// between, after the core is in and the widget's own module (sections 6-9) and Chart.js are
// loaded (js/lazy-load.js; a module that fails to load gets a message with Retry). Sections met once stay "approached": after a re-render (a language switch) they mount
// again at once, in the same task, so the page keeps its place.
import { loadWidgetParts, retryWidget } from '../lazy-load.js';
import { t } from '../i18n.js';
import { h, nextTask } from '../dom.js';
import { viewMoved } from './view-keeper.js';
import { inputMaxLength } from '../state.js';
import { fullSchema } from './schema.js';

const SCHEMA = fullSchema();

/**
 * embedded: the embed page (its one section mounts at once); coreReady: a promise settled when
 * the core is loaded or failed; coreState(): {core, coreError}; readiness: js/page/ready.js;
 * contextFor(section, element, onDestroy): the `ctx` a widget's mount gets.
 */
export function createMountQueue({ embedded, coreReady, coreState, readiness, contextFor }) {
  const observing = !embedded && typeof IntersectionObserver === 'function';
  const approached = new Set(); // section ids the reader came near (outlives a re-render)
  const widgets = new Map(); // section id -> its loaded widget module
  let chartsLoaded = false;
  let waiting = []; // {section, element, host} of this render, not mounted yet, in page order
  let mounted = []; // {destroy} of every widget mounted in this render
  let generation = 0; // bumped by every render: a mount finishing late for an old one is dropped
  let pumping = false;
  let pendingFocus = null; // {find, top}: a field to focus once its widget mounts

  /** Everything a section's widget needs before it can mount: its module and Chart.js. */
  const loadWidget = async (section) => {
    if (!widgets.has(section.id) || (section.charts && !chartsLoaded)) widgets.set(section.id, await loadWidgetParts(section));
    if (section.charts) chartsLoaded = true;
  };
  const loadedNow = (section) => {
    const { core, coreError } = coreState();
    return (core || coreError) && widgets.has(section.id) && (!section.charts || chartsLoaded);
  };

  const observer = observing
    ? new IntersectionObserver(
        (entries) => entries.filter((e) => e.isIntersecting).forEach((e) => approach(e.target.dataset.section)),
        { rootMargin: '100% 0px 100% 0px' },
      )
    : null;

  const approach = (id) => {
    if (approached.has(id)) return;
    approached.add(id);
    pump();
  };

  const pump = async () => {
    if (pumping) return;
    pumping = true;
    try {
      for (;;) {
        const item = waiting.find((entry) => approached.has(entry.section.id));
        if (!item) break;
        const gen = generation;
        await coreReady;
        try {
          await loadWidget(item.section);
        } catch {
          // Not loaded (offline, or a deploy in between): a message with Retry stands in for it.
          widgets.set(item.section.id, retryWidget(item.section, (widget) => widgets.set(item.section.id, widget)));
        }
        if (gen === generation && waiting.includes(item)) mount(item);
        // One section per task: the browser paints and answers input in between.
        await nextTask();
      }
    } finally {
      pumping = false;
    }
  };

  const mount = (item) => {
    const { section, element, host } = item;
    waiting = waiting.filter((entry) => entry !== item);
    observer?.unobserve(element);
    host.classList.remove('widget-pending');
    host.replaceChildren();
    const cleanups = [];
    const ctx = contextFor(section, element, (fn) => cleanups.push(fn));
    const failed = (message) => {
      host.append(h('p', { class: 'callout callout-error', role: 'alert' }, message));
      readiness.rendered(section.id, element);
    };
    const { core, coreError } = coreState();
    let widget = {};
    if (section.needsCore !== false && !core) {
      failed(t('page.coreFailed', { message: coreError?.message ?? '?' }));
    } else {
      try {
        const started = performance.now();
        widget = widgets.get(section.id).mount(host, ctx) ?? {};
        performance.measure(`grpo:mount:${section.id}`, { start: started }); // what each mount costs the thread
        // A field takes no more than its URL key keeps (a 5 MB paste is cut by the browser).
        for (const input of host.querySelectorAll('input[data-key], textarea[data-key]')) {
          const limit = inputMaxLength(SCHEMA[input.dataset.key]);
          if (limit) input.maxLength = limit;
        }
      } catch (error) {
        console.error(error);
        failed(t('common.sectionError', { message: error.message }));
      }
    }
    mounted.push({
      destroy() {
        for (const fn of cleanups) fn();
        widget.destroy?.();
      },
    });
    focusIfMounted(element);
  };

  const focusIfMounted = (element) => {
    const target = pendingFocus?.find();
    if (!target || !element.contains(target)) return;
    const { top } = pendingFocus;
    pendingFocus = null;
    target.focus({ preventScroll: true });
    if (Number.isFinite(top)) window.scrollBy({ top: target.getBoundingClientRect().top - top, behavior: 'instant' });
    viewMoved();
  };

  return {
    /** A new render: drops the widgets of the last one and whatever of it still waits. */
    reset() {
      generation += 1;
      waiting = [];
      pendingFocus = null;
      observer?.disconnect();
      for (const item of mounted) item.destroy();
      mounted = [];
    },
    /** A section's shell is on the page: mount its widget into `host` now or when approached. */
    add(section, element, host) {
      readiness.expect(section.id);
      if (!observing) approached.add(section.id);
      const item = { section, element, host };
      if (approached.has(section.id) && loadedNow(section)) mount(item);
      else {
        waiting.push(item);
        observer?.observe(element);
      }
    },
    pump,
    /** Focuses the field `find()` returns once the widget holding it mounts, where it was. */
    focusWhenMounted(find, top) {
      pendingFocus = { find, top };
    },
  };
}
