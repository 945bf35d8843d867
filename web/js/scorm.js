// SCORM 1.2 adapter of the packaged SCOs (tools/package.mjs puts it on each launch page, before
// the page's own script): finds the LMS's `API` object the standard way (this window, then up
// the parents, then the opener's), calls LMSInitialize, marks the SCO "incomplete" on open and
// "completed" once the learner has run every widget it holds, keeps which ones in
// cmi.suspend_data (so a learner resumes where they were), commits, and calls LMSFinish when the
// page goes away. Without an LMS it does nothing at all: the page runs as on any web server.
//
// What "ran the widget" means, per section (CRITERIA):
//   input  the learner changed a control and the widget recomputed (page.js sends
//          `grpo:section-used` when a section commits new values)
//   run    a live training run finished (sections 6-8 all show that run)
//   view   the section was on screen (setup, the real-model branch: nothing to run)
import { SECTIONS } from './sections/index.js';
import * as training from './training/controller.js';
import { connectScorm } from './scorm-api.js';

export { connectScorm, findApi, languageOf, timespan } from './scorm-api.js';

export const CRITERIA = { setup: 'view', 'rl-loop': 'run', updates: 'run', coverage: 'run', 'real-model': 'view' };

export const criterionOf = (id) => CRITERIA[id] ?? 'input';

/** Wires the events of the page to a connection (see CRITERIA). Returns a function that unwires. */
export function watchPage(connection, sections, { win = window, doc = document } = {}) {
  const offs = [];
  const listen = (target, type, fn) => {
    target.addEventListener(type, fn);
    offs.push(() => target.removeEventListener(type, fn));
  };

  listen(win, 'grpo:section-used', (event) => {
    const id = event.detail?.section;
    if (criterionOf(id) === 'input') connection.markUsed(id);
  });

  const running = sections.filter((id) => criterionOf(id) === 'run');
  if (running.length) {
    const onRun = (s) => {
      if (s.source === 'live' && s.phase === 'finished') running.forEach(connection.markUsed);
    };
    offs.push(training.subscribe(onRun));
  }

  const viewed = sections.filter((id) => criterionOf(id) === 'view');
  if (viewed.length && typeof IntersectionObserver === 'function') {
    const observer = new IntersectionObserver((entries) => {
      for (const entry of entries) {
        if (entry.isIntersecting) connection.markUsed(entry.target.dataset.section);
      }
    });
    // Each render (the first, a language switch) makes new section elements: observe those.
    const observe = () => {
      observer.disconnect();
      for (const id of viewed) {
        const element = doc.querySelector(`section.section[data-section="${id}"]`);
        if (element && !connection.used.has(id)) observer.observe(element);
      }
    };
    listen(win, 'grpo:shell', observe);
    observe();
    offs.push(() => observer.disconnect());
  }

  // Save on the way out: pagehide covers closing, navigating and the LMS replacing the frame;
  // a hidden page (a phone switching apps) may never come back, so commit then too.
  listen(win, 'pagehide', () => connection.finish());
  listen(doc, 'visibilitychange', () => {
    if (doc.visibilityState === 'hidden') connection.commit();
  });
  return () => offs.splice(0).forEach((off) => off());
}

/** Starts the adapter for this launch page: <html data-scorm="1.2" [data-section="id"]>. */
export function startScorm() {
  const html = document.documentElement;
  const only = html.dataset.section;
  const sections = only ? [only] : SECTIONS.map((section) => section.id);
  const connection = connectScorm({ sections });
  if (!connection) return null;
  // The learner's language in the LMS, unless the link names one (page.js reads data-lang).
  if (connection.language && !/(^#|&)lang=/.test(location.hash)) html.dataset.lang = connection.language;
  watchPage(connection, sections);
  return connection;
}

if (typeof document !== 'undefined' && document.documentElement.dataset.scorm) startScorm();
