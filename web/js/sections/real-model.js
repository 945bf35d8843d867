// Section 9, the optional Qwen3-0.6B + TRL branch: shown, never run. The software snapshot, the
// notebook's TRL cell as text, REAL_MODEL_SKIPPED in the reader's language, and the current toy
// config (section 6's form) translated, in two tabs, to TRL GRPOConfig arguments as copyable
// Python and to a verl v0.7.0 launch (Hydra overrides), with the table of the namesakes that differ.
import { h, dataTable } from '../dom.js';
import { notice } from './common.js';
import * as training from '../training/controller.js';
import { NOTEBOOK_TRL_CELL, REQUIREMENTS_TEXT, SOFTWARE_SNAPSHOT, trlConfigPython, trlNotes } from '../training/run-format.js';
import { validateConfig } from '../training/run-config.js';
import { VERL_DIFFERENCES, verlLaunchScript } from '../training/verl-launch.js';

function snapshotRepr() {
  return `{${SOFTWARE_SNAPSHOT.map(([name, version]) => `'${name}': '${version}'`).join(', ')}}`;
}

// The widget of section 9 (its title, text and URL keys: training-sections.js).
export default {
  mount(host, ctx) {
    const { t, core } = ctx;

    host.append(
      h('p', { class: 'callout callout-warn no-claim', role: 'note' }, h('strong', { text: t('train.real.noClaimTitle') }), ' ', t('train.real.noClaim')),
      h('h3', { text: t('train.real.snapshotTitle') }),
      dataTable({
        caption: t('train.real.snapshotCaption'),
        className: 'snapshot-table',
        columns: [{ label: t('train.real.package') }, { label: t('train.real.version') }],
        rows: SOFTWARE_SNAPSHOT.map(([name, version]) => [{ node: h('code', { text: name }), header: true }, { node: h('code', { text: version }) }]),
      }),
      h('pre', { class: 'printed requirements', tabindex: '0', 'aria-label': t('train.real.requirements') }, h('code', { text: REQUIREMENTS_TEXT })),
      h('p', { class: 'muted', text: t('train.real.printed') }),
      h('pre', { class: 'printed' }, h('code', { text: snapshotRepr() })),
      h('h3', { text: t('train.real.cellTitle') }),
      ctx.rich(t('train.real.cellExplain')),
      h('pre', { class: 'printed notebook-cell', tabindex: '0', 'aria-label': t('train.real.cellTitle') }, h('code', { text: NOTEBOOK_TRL_CELL })),
      h('p', { class: 'muted', text: t('train.real.output') }),
      h('pre', { class: 'printed skipped-output', dataset: { testid: 'real-model-skipped' } }, h('code', { text: t('REAL_MODEL_SKIPPED') })),
    );

    // The toy config as TRL arguments and as a verl launch, following section 6's form: two tabs.
    const copyButton = (action, label, code) => {
      const button = h('button', { type: 'button', class: 'button-quiet', dataset: { action }, text: label });
      const status = h('span', { class: 'copy-status', role: 'status' });
      button.addEventListener('click', async () => {
        try {
          await navigator.clipboard.writeText(code.textContent);
          status.textContent = t('train.real.copied');
        } catch {
          // No clipboard permission: select the code so Ctrl+C copies it.
          const range = document.createRange();
          range.selectNodeContents(code);
          const selection = getSelection();
          selection.removeAllRanges();
          selection.addRange(range);
          status.textContent = t('train.real.selected');
        }
      });
      return h('div', { class: 'copy-row' }, button, status);
    };
    const code = h('code');
    const verlCode = h('code');
    const note = h('p', { class: 'muted' });
    const trlPanel = h(
      'div',
      { id: 'real-model-trl', role: 'tabpanel', 'aria-labelledby': 'real-model-tab-trl', class: 'engine-panel', dataset: { engine: 'trl' } },
      h('h3', { text: t('train.real.translatedTitle') }),
      ctx.rich(t('train.real.translatedExplain')),
      copyButton('copy-trl', t('train.real.copy'), code),
      h('pre', { class: 'printed trl-config', tabindex: '0', 'aria-label': t('train.real.translatedTitle') }, code),
    );
    const differences = dataTable({
      caption: t('verl.diff.caption'),
      className: 'verl-differences',
      columns: [{ label: t('verl.diff.col.name') }, { label: t('verl.diff.col.trl') }, { label: t('verl.diff.col.verl') }],
      rows: VERL_DIFFERENCES.map((id) => ({
        className: `diff-${id}`,
        cells: [{ text: t(`verl.diff.${id}.name`), header: true }, { node: ctx.rich(t(`verl.diff.${id}.trl`), { block: false }) }, { node: ctx.rich(t(`verl.diff.${id}.verl`), { block: false }) }],
      })),
    });
    const verlPanel = h(
      'div',
      { id: 'real-model-verl', role: 'tabpanel', 'aria-labelledby': 'real-model-tab-verl', class: 'engine-panel', dataset: { engine: 'verl' }, hidden: true },
      h('h3', { text: t('train.real.verlTitle') }),
      ctx.rich(t('train.real.verlExplain')),
      copyButton('copy-verl', t('train.real.copyVerl'), verlCode),
      h('pre', { class: 'printed verl-launch', tabindex: '0', 'aria-label': t('train.real.verlTitle') }, verlCode),
      h('h4', { text: t('verl.diff.title') }),
      differences,
    );
    const tabs = [
      ['trl', t('train.real.tabTrl'), trlPanel],
      ['verl', t('train.real.tabVerl'), verlPanel],
    ].map(([engine, label, panel], i) =>
      h('button', { type: 'button', role: 'tab', id: `real-model-tab-${engine}`, 'aria-controls': panel.id, 'aria-selected': String(i === 0), tabindex: i === 0 ? '0' : '-1', class: 'engine-tab', dataset: { engine }, text: label }),
    );
    const select = (engine) => {
      for (const tab of tabs) {
        const on = tab.dataset.engine === engine;
        tab.setAttribute('aria-selected', String(on));
        tab.tabIndex = on ? 0 : -1;
      }
      trlPanel.hidden = engine !== 'trl';
      verlPanel.hidden = engine !== 'verl';
    };
    tabs.forEach((tab, i) => {
      tab.addEventListener('click', () => select(tab.dataset.engine));
      tab.addEventListener('keydown', (event) => {
        if (event.key !== 'ArrowRight' && event.key !== 'ArrowLeft') return;
        const next = tabs[(i + 1) % tabs.length];
        select(next.dataset.engine);
        next.focus();
      });
    });
    host.append(h('div', { class: 'engine-tabs', role: 'tablist', 'aria-label': t('train.real.engines') }, ...tabs), trlPanel, verlPanel, note);

    const notes = trlNotes(t);
    let shown = null;
    const draw = (config) => {
      if (!config || config === shown) return;
      shown = config;
      code.textContent = trlConfigPython(config, notes);
      verlCode.textContent = verlLaunchScript(config, t);
      note.textContent = t('train.real.source', { profile: config.profile, seed: config.seed });
    };
    let initial = null;
    try {
      initial = validateConfig(core, ctx.values());
    } catch {
      initial = core.experimentConfig({ profile: ctx.get('profile') ?? 'smoke' });
    }
    draw(training.getState().draftConfig ?? initial);
    const unsubscribe = training.subscribe((s) => draw(s.draftConfig));

    host.append(notice(ctx, 'train.real.notice'));
    ctx.rendered();
    return { destroy: unsubscribe };
  },
};
