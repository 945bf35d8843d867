// The run bar docked at the bottom of the screen on the course page (issue 17): while section 7
// or 8 is on screen and section 6's own bar is not, Run/Pause/Step/Stop and the run's progress
// stay within reach of the charts they drive, on a phone as on a desktop; and wherever the reader
// is while a run is live (sections 0 and 6 ask for that: issue 24). One dock per
// page, shared by the sections that ask for it; the page's bottom is padded by its height so it
// never hides the end of the page, and scroll-padding keeps a focused or scrolled-to element above it.
import { h } from '../dom.js';
import { runBar } from './run-bar.js';
import * as training from './controller.js';

const OWN_BAR = '#rl-loop .run-bar'; // section 6's bar: when on screen, the dock steps aside

let dock = null; // {el, bar, sections: Set<Element>, live: Set<Element>, frame, onScroll, resize, unsubscribe}

/** Whether `el` has any part inside the viewport above `bottom` (px from the top). */
function onScreen(el, bottom) {
  if (!el) return false;
  const rect = el.getBoundingClientRect();
  return rect.bottom > 0 && rect.top < bottom && rect.height > 0;
}

function place() {
  if (!dock) return;
  dock.frame = 0;
  const bottom = window.innerHeight - (dock.el.hidden ? 0 : dock.el.offsetHeight);
  const driven = [...dock.sections].some((section) => onScreen(section, bottom)) || (dock.live.size > 0 && training.isLive());
  const show = driven && !onScreen(document.querySelector(OWN_BAR), window.innerHeight);
  if (dock.el.hidden === !show) return;
  dock.el.hidden = !show;
  document.documentElement.classList.toggle('run-docked', show);
}

const queuePlace = () => {
  if (dock && !dock.frame) dock.frame = requestAnimationFrame(place);
};

function createDock(ctx, getConfig) {
  const { t } = ctx;
  const bar = runBar(ctx, { getConfig, docked: true });
  const settings = h('a', { class: 'run-dock-settings', href: '#rl-loop', text: t('train.dock.settings') });
  // Beside the progress, not on a row of its own: the dock stays two rows high on a phone.
  bar.el.querySelector('.run-progress-row').append(settings);
  const el = h('div', { class: 'run-dock', role: 'region', 'aria-label': t('train.dock.label'), hidden: true }, h('div', { class: 'run-dock-inner' }, bar.el));
  document.body.append(el);
  // The dock's height (it wraps in Russian, at 390 px) is what the page's bottom is padded by.
  const resize = new ResizeObserver(() => document.documentElement.style.setProperty('--run-dock-height', `${Math.ceil(el.offsetHeight)}px`));
  resize.observe(el);
  const onScroll = () => queuePlace();
  window.addEventListener('scroll', onScroll, { passive: true });
  window.addEventListener('resize', onScroll, { passive: true });
  // A run starting or ending shows or hides the dock of a run started from section 0.
  const unsubscribe = training.subscribe(onScroll);
  return { el, bar, sections: new Set(), live: new Set(), frame: 0, onScroll, resize, unsubscribe };
}

function removeDock() {
  cancelAnimationFrame(dock.frame);
  window.removeEventListener('scroll', dock.onScroll);
  window.removeEventListener('resize', dock.onScroll);
  dock.resize.disconnect();
  dock.unsubscribe();
  dock.bar.destroy();
  dock.el.remove();
  document.documentElement.classList.remove('run-docked');
  document.documentElement.style.removeProperty('--run-dock-height');
  dock = null;
}

/**
 * Section `section` (an element of the course page) is driven by the training run: the dock shows
 * while it is on screen, or, with `whileLive`, while a run is live wherever the reader is.
 * getConfig: the run bar's (the config to run, or throws). Returns {destroy()}, called when the
 * section's widget goes (the last one removes the dock).
 */
export function dockRunBar(ctx, section, getConfig, { whileLive = false } = {}) {
  if (typeof ResizeObserver !== 'function' || !section) return { destroy() {} };
  dock ??= createDock(ctx, getConfig);
  const mine = dock;
  const set = whileLive ? mine.live : mine.sections;
  set.add(section);
  queuePlace();
  return {
    destroy() {
      if (dock !== mine || !set.delete(section)) return;
      if (!mine.sections.size && !mine.live.size) removeDock();
      else queuePlace();
    },
  };
}

/**
 * The run bar of section 7 or 8: embedded alone, the section's own compact bar at the top of
 * `host`; on the course page, section 6's bar docked at the bottom of the screen while this
 * section is on it. Returns what the section ends with it: {destroy()}.
 */
export function sectionRunBar(ctx, host, getConfig) {
  if (!ctx.embedded) return dockRunBar(ctx, host.closest('section'), getConfig);
  const bar = runBar(ctx, { compact: true, getConfig });
  host.append(bar.el);
  return bar;
}
