// Section 7's way into the step inspector: an update picker under the charts (a click on a chart
// at an update opens it too) and the library's "Inspect" buttons. The inspector itself
// (step-inspector.js) loads on first use; until then this costs a paragraph and a button.
import { h } from '../dom.js';
import * as training from './controller.js';
import { runName } from './compare.js';
import { profileDefaults } from './run-saver.js';

/** The run on display as an inspector source (null while it has no history). */
export function shownSource(s) {
  const config = s.config ?? s.result?.config;
  if (!config || !s.history.length) return null;
  return {
    key: `shown:${s.runKey}`,
    name: runName(config, profileDefaults(config.profile)),
    config,
    history: s.history,
    runId: s.source === 'live' ? s.runId : undefined,
  };
}

/** A run of the library (run-library.js entry) as an inspector source. */
export const librarySource = (entry) => ({ key: `library:${entry.key}`, name: entry.name, config: entry.run.config, history: entry.run.history });

export function inspectorLauncher(ctx) {
  const { t } = ctx;
  const input = h('input', { type: 'number', id: 'inspector-pick', min: '1', max: '1', step: '1', value: '1', inputmode: 'numeric' });
  const button = h('button', { type: 'button', dataset: { action: 'inspect-update' }, title: t('inspector.openTitle'), text: t('inspector.open') });
  const el = h('div', { class: 'inspector-launcher' }, h('p', { class: 'muted', text: t('inspector.launcher') }), h('p', { class: 'inspector-pick' }, h('label', { for: 'inspector-pick', text: t('inspector.update') }), ' ', input, ' ', button));
  let inspector = null;
  let loading = null;
  let gone = false;

  const ensure = () => {
    loading ??= import('./step-inspector.js').then(({ createInspector }) => {
      if (gone) return null;
      inspector = createInspector(ctx);
      el.after(inspector.el);
      return inspector;
    });
    return loading;
  };

  /**
   * Opens `source` (the run on display when omitted) at `update`. `scroll`: bring the panel into
   * view (from a chart or the library; the picker sits right above it, so no jump then, and no
   * layout forced in the click's task).
   */
  const open = async (update, source = shownSource(training.getState()), { scroll = true } = {}) => {
    if (!source) return;
    const panel = await ensure();
    if (!panel) return;
    panel.show(source, update);
    if (scroll) panel.el.scrollIntoView({ block: 'start' });
  };

  const sync = (s) => {
    const n = s.history.length;
    input.max = String(Math.max(1, n));
    if (Number(input.value) > n) input.value = String(Math.max(1, n));
    button.disabled = n === 0;
    if (!inspector?.sourceKey?.startsWith('shown:')) return;
    const source = shownSource(s);
    if (!source) inspector.hide();
    else if (source.key !== inspector.sourceKey) inspector.hide(); // another run took the display
    else inspector.grow(s.history);
  };

  button.addEventListener('click', () => open(Number(input.value), undefined, { scroll: false }));
  input.addEventListener('keydown', (event) => {
    if (event.key === 'Enter') open(Number(input.value), undefined, { scroll: false });
  });

  return {
    el,
    open,
    sync,
    destroy() {
      gone = true;
      inspector?.hide();
      inspector?.el.remove();
    },
  };
}
