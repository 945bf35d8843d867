// Section 9, the optional Qwen3-0.6B + TRL branch: shown, never run. The software snapshot, the
// notebook's TRL cell as text, REAL_MODEL_SKIPPED in the reader's language, and the current toy
// config (section 6's form) translated to TRL GRPOConfig arguments as copyable Python.
import { h, dataTable } from '../dom.js';
import { notice } from './common.js';
import * as training from '../training/controller.js';
import { NOTEBOOK_TRL_CELL, REQUIREMENTS_TEXT, SOFTWARE_SNAPSHOT, trlConfigPython } from '../training/run-format.js';
import { validateConfig } from '../training/run-config.js';

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

    // The toy config as TRL arguments, following section 6's form.
    const code = h('code');
    const copy = h('button', { type: 'button', class: 'button-quiet', dataset: { action: 'copy-trl' }, text: t('train.real.copy') });
    const copied = h('span', { class: 'copy-status', role: 'status' });
    const note = h('p', { class: 'muted' });
    host.append(
      h('h3', { text: t('train.real.translatedTitle') }),
      ctx.rich(t('train.real.translatedExplain')),
      h('div', { class: 'copy-row' }, copy, copied),
      h('pre', { class: 'printed trl-config', tabindex: '0', 'aria-label': t('train.real.translatedTitle') }, code),
      note,
    );
    copy.addEventListener('click', async () => {
      try {
        await navigator.clipboard.writeText(code.textContent);
        copied.textContent = t('train.real.copied');
      } catch {
        // No clipboard permission: select the code so Ctrl+C copies it.
        const range = document.createRange();
        range.selectNodeContents(code);
        const selection = getSelection();
        selection.removeAllRanges();
        selection.addRange(range);
        copied.textContent = t('train.real.selected');
      }
    });

    const notes = { batch: t('train.real.batchNote'), dynamic: t('train.real.dynamicNote'), lag: t('train.real.lagNote'), estimator: t('train.real.estimatorNote'), task: t('train.real.taskNote'), untranslated: t('train.real.untranslated'), trlDefault: t('train.real.trlDefault') };
    let shown = null;
    const draw = (config) => {
      if (!config || config === shown) return;
      shown = config;
      code.textContent = trlConfigPython(config, notes);
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
