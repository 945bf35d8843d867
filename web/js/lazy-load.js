// Loads what a section's widget needs on demand (its module, Chart.js) and, when that fails (the
// network went away before the service worker had the files, or a deploy replaced them), stands
// in for the widget: a message in the reader's language with a Retry button that loads again and
// mounts the real widget in place. Nothing is thrown into the console.
import { loadChartJs } from './charts.js';
import { h } from './dom.js';

/** The widget of `section` (its own module for sections loaded on demand), Chart.js loaded if it draws charts. */
export async function loadWidgetParts(section) {
  const widget = section.load ? (await section.load()).default : section;
  if (section.charts) await loadChartJs();
  return widget;
}

/**
 * A widget that says `section` could not be loaded and offers Retry. Retry loads again; on success
 * `onLoaded(widget)` is called (the page keeps the loaded module) and the real widget is mounted
 * in the same host with the same context. `destroy()` reaches the real widget once it is there.
 */
export function retryWidget(section, onLoaded) {
  return {
    mount(host, ctx) {
      let inner = null;
      let gone = false;
      const show = () => {
        const retry = h('button', { type: 'button', dataset: { action: 'retry-load' }, text: ctx.t('lazy.retry') });
        const status = h('span', { class: 'lazy-status', role: 'status' });
        host.replaceChildren(
          h('div', { class: 'callout callout-error lazy-failed', role: 'alert' }, h('p', { text: ctx.t('lazy.failed') }), h('p', {}, retry, ' ', status)),
        );
        retry.addEventListener('click', async () => {
          // The button goes away with the message: keep the keyboard in this section after.
          const hadFocus = document.activeElement === retry;
          retry.disabled = true;
          status.textContent = ctx.t('lazy.retrying');
          let widget;
          try {
            widget = await loadWidgetParts(section);
          } catch {
            if (gone) return;
            show();
            if (hadFocus) host.querySelector('[data-action="retry-load"]')?.focus();
            return;
          }
          if (gone) return;
          onLoaded(widget);
          host.replaceChildren();
          if (hadFocus) host.closest('section')?.querySelector('h2')?.focus({ preventScroll: true });
          try {
            inner = widget.mount(host, ctx) ?? {};
          } catch (error) {
            host.replaceChildren(h('p', { class: 'callout callout-error', role: 'alert' }, ctx.t('common.sectionError', { message: error.message })));
          }
        });
      };
      show();
      ctx.rendered();
      return {
        destroy() {
          gone = true;
          inner?.destroy?.();
        },
      };
    },
  };
}
