// Section 6, a complete autoregressive RLVR/GRPO loop: the config form (the notebook's fields
// first, the rest folded: config-form.js), presets, the run controls (training in a Web Worker), the before/after table
// and the config as the notebook prints them, and the run as data (export JSON/CSV, import).
import { h, dataTable, downloadBlob, fmt } from '../dom.js';
import { runNotice } from './common.js';
import { rlLoopVerdicts, verdictText } from '../training/verdicts.js';
import { errorText, warningText } from '../core-errors.js';
import * as training from '../training/controller.js';
import { runBar } from '../training/run-bar.js';
import { dockRunBar } from '../training/run-dock.js';
import { getOverlays, onOverlays } from '../training/overlays.js';
import { PRESETS, ANCESTOR_PRESETS } from '../training/presets.js';
import { configForm } from '../training/config-form.js';
import {
  METRIC_COLUMNS,
  METRIC_ROWS,
  coverageCsv,
  historyCsvParts,
  metricsCsv,
  runFile,
  runFileParts,
} from '../training/run-format.js';


// The presets live in a DOM-free module (the verdict matrix test runs every one of them).
export { PRESETS, ANCESTOR_PRESETS };


function download(name, text, type) {
  downloadBlob(name, new Blob(Array.isArray(text) ? text : [text], { type }));
}

/**
 * The before/after table of the run on display (AFTER rows wait for the run's end), then the
 * runs picked in section 7's "Compare runs": their AFTER rows, and their BEFORE rows where they
 * differ from this run's (another seed or warm-up).
 */
export function metricsTable(ctx, s, overlays = []) {
  const { t } = ctx;
  const row = (label, key, metrics, className) => ({
    className,
    cells: [
      { text: label, header: true },
      ...METRIC_COLUMNS.map((c) => (metrics ? { text: fmt(metrics[c.key]), value: metrics[c.key] } : { text: '…', className: 'pending' })),
    ],
  });
  const own = (key) => (key.startsWith('before') ? s.info?.[key] ?? s.result?.[key] : s.result?.[key]);
  const rows = METRIC_ROWS.map(({ label, key }) => row(t(label), key, own(key), `metrics-${key}`));
  for (const run of overlays) {
    for (const { label, key } of METRIC_ROWS) {
      const same = key.startsWith('before') && JSON.stringify(run[key]) === JSON.stringify(own(key));
      if (!same && run[key]) rows.push(row(`${run.name}: ${t(label)}`, key, run[key], `metrics-overlay metrics-${key}`));
    }
  }
  return dataTable({
    caption: t('train.metricsCaption'),
    className: 'metrics-table',
    columns: [{ label: h('span', { class: 'visually-hidden', text: t('train.col.row') }) }, ...METRIC_COLUMNS.map((c) => ({ label: c.label, numeric: true }))],
    rows,
  });
}

// The widget of section 6 (its title, text and URL keys: training-sections.js).
export default {
  mount(host, ctx) {
    const { t } = ctx;

    // --- the form: the notebook's fields first, then the run, then the folded groups -----------
    // Settings that train to no effect (or that TRL warns about), under the form as it is edited.
    const warnings = h('div', { class: 'callout callout-warn config-warnings', role: 'status', hidden: true });
    const showWarnings = (config) => {
      const list = ctx.core.configWarnings(config);
      warnings.hidden = list.length === 0;
      warnings.replaceChildren(h('p', { text: t('warn.title') }), h('ul', {}, list.map((w) => h('li', { dataset: { warning: w.code, field: w.field }, text: warningText(w) }))));
    };
    const form = configForm(ctx, {
      onRender: (model) => {
        training.setDraftConfig(model.config);
        showWarnings(model.config);
      },
    });
    const presets = h('div', { class: 'presets', role: 'group', 'aria-label': t('train.presetsLabel') });
    const ancestors = h('div', { class: 'presets presets-ancestors', role: 'group', 'aria-label': t('train.ancestorsLabel') });
    const presetNote = h('p', { class: 'muted preset-note', role: 'status' });
    for (const [group, list] of [[presets, PRESETS], [ancestors, ANCESTOR_PRESETS]]) for (const preset of list) {
      const chip = h('button', { type: 'button', class: 'button-chip', dataset: { preset: preset.id }, text: t(`train.preset.${preset.id}`) });
      chip.addEventListener('click', () => {
        form.applyPatch(preset.patch);
        group.after(presetNote); // under the chips clicked
        presetNote.textContent = t(`train.presetNote.${preset.id}`);
      });
      group.append(chip);
    }

    // --- the run ----------------------------------------------------------------------------
    const getConfig = () => {
      if (!form.flush()) {
        const invalid = form.openInvalid();
        invalid?.focus();
        const message = invalid?.closest('.field')?.querySelector('.field-error')?.textContent;
        throw new Error(message || t('train.fixForm'));
      }
      return form.config();
    };
    const bar = runBar(ctx, { getConfig });
    // While a run is live, its controls dock at the bottom of the screen in any section the reader
    // scrolls to (this bar off screen): the run bar stays within reach (issue 24 item 3).
    const dock = ctx.embedded ? null : dockRunBar(ctx, host.closest('section'), getConfig, { whileLive: true });
    host.append(
      h('div', { class: 'training-form' }, form.notebookEl),
      warnings,
      bar.el,
      h('p', { class: 'presets-label', text: t('train.presetsLabel') }),
      presets,
      presetNote,
      h('h3', { class: 'more-settings', text: t('train.moreSettings') }),
      form.groupsEl,
      h('p', { class: 'presets-label', text: t('train.ancestorsLabel') }),
      ctx.rich(t('train.ancestors.explain')),
      ancestors,
      h('h3', { text: t('train.loopTitle') }),
      ctx.rich(t('train.rl.explain')),
    );

    const metricsHost = h('div', { class: 'metrics-host' });
    const configCode = h('code');
    const configNote = h('p', { class: 'muted' });
    const outputs = h(
      'div',
      { class: 'outputs training-outputs' },
      h('h3', { text: t('train.metricsTitle') }),
      metricsHost,
      h('h3', { text: t('train.configPrinted') }),
      configNote,
      h('pre', { class: 'printed config-json', tabindex: '0', 'aria-label': t('train.configPrinted') }, configCode),
    );
    host.append(outputs);

    // --- results as data ------------------------------------------------------------------------
    const exportJson = h('button', { type: 'button', class: 'button-quiet', dataset: { export: 'json' }, text: t('train.export.json') });
    const exportHistory = h('button', { type: 'button', class: 'button-quiet', dataset: { export: 'history' }, text: t('train.export.history') });
    const exportMetrics = h('button', { type: 'button', class: 'button-quiet', dataset: { export: 'metrics' }, text: t('train.export.metrics') });
    const exportCoverage = h('button', { type: 'button', class: 'button-quiet', dataset: { export: 'coverage' }, text: t('train.export.coverage') });
    // The native file input says "Choose File" in the browser's language, not the page's: it is
    // visually hidden (still focusable) and its label, in the page's language, looks like a button.
    const importInput = h('input', { type: 'file', accept: '.json,application/json', id: 'rl-import', class: 'import-input visually-hidden', dataset: { testid: 'import' } });
    const importLabel = h('label', { for: 'rl-import', class: 'import-label button-quiet', text: t('train.import.label') });
    const dataStatus = h('p', { class: 'muted data-status', role: 'status' });
    const importError = h('p', { class: 'field-error', role: 'alert', hidden: true });
    host.append(
      h(
        'div',
        { class: 'data-tools' },
        h('h3', { text: t('train.dataTitle') }),
        ctx.rich(t('train.dataBody')),
        h('div', { class: 'data-buttons' }, exportJson, exportHistory, exportMetrics, exportCoverage),
        h('div', { class: 'field import-field' }, importLabel, importInput, importError),
        dataStatus,
      ),
    );

    const baseName = (s) => `grpo-lab-${s.config.profile}-seed${s.config.seed}-${s.config.lossType}`;
    exportJson.addEventListener('click', async () => {
      const s = training.getState();
      if (!s.result) return;
      let run = s.result;
      if (!run.checkpoint) {
        try {
          const checkpoint = await training.checkpoint();
          if (checkpoint) run = { ...run, checkpoint };
        } catch {
          // exported without the checkpoint; the note below says so
        }
      }
      const { inspection: _inspection, runMs: _ms, hasCheckpoint: _has, ...rest } = run;
      const file = runFile(rest, { source: s.source === 'imported' ? s.result.source ?? 'imported' : s.source, status: s.phase });
      download(`${baseName(s)}.json`, await runFileParts(file), 'application/json'); // sliced: 100 000 rows
      dataStatus.textContent = t(file.checkpoint ? 'train.export.done' : 'train.export.noCheckpoint', { name: `${baseName(s)}.json` });
    });
    exportHistory.addEventListener('click', async () => {
      const s = training.getState();
      download(`${baseName(s)}-history.csv`, await historyCsvParts({ history: s.history }), 'text/csv');
    });
    exportMetrics.addEventListener('click', () => {
      const s = training.getState();
      const labels = Object.fromEntries(METRIC_ROWS.map((r) => [r.label, t(r.label)]));
      download(`${baseName(s)}-metrics.csv`, metricsCsv(s.result ?? { ...s.info }, labels), 'text/csv');
    });
    exportCoverage.addEventListener('click', () => {
      const s = training.getState();
      download(
        `${baseName(s)}-coverage.csv`,
        coverageCsv({ beforeTrainByPrompt: s.info?.beforeTrainByPrompt ?? [], afterTrainByPrompt: s.result?.afterTrainByPrompt ?? [] }),
        'text/csv',
      );
    });
    importInput.addEventListener('change', async () => {
      const file = importInput.files?.[0];
      if (!file) return;
      importError.hidden = true;
      try {
        await training.importRun(file); // read and parsed in the worker
        dataStatus.textContent = t('train.import.done', { name: file.name });
      } catch (error) {
        importError.hidden = false;
        importError.textContent = t('train.import.failed', { message: errorText(error) });
      } finally {
        importInput.value = '';
      }
    });

    // --- drawing ------------------------------------------------------------------------------
    const lesson = runNotice(ctx, 'train.rl.notice');
    let drawnKey = null;
    let drawnPhase = null;
    let drawnInfo = null;
    const draw = (s) => {
      const hasInfo = Boolean(s.info);
      if (s.runKey !== drawnKey || s.phase !== drawnPhase || hasInfo !== drawnInfo) {
        drawnKey = s.runKey;
        drawnPhase = s.phase;
        drawnInfo = hasInfo;
        metricsHost.replaceChildren(metricsTable(ctx, s, getOverlays()));
        configCode.textContent = s.config ? JSON.stringify(s.config, null, 2) : '';
        configNote.textContent = s.config ? t(`train.configNote.${s.source}`, { file: s.fileName ?? '' }) : t('train.configNote.none');
        exportJson.disabled = !s.result;
        exportMetrics.disabled = !s.info;
        exportCoverage.disabled = !s.info;
      }
      exportHistory.disabled = !s.history.length;
      lesson.set(rlLoopVerdicts(s.result), (item) => verdictText(t, item));
      host.dataset.drawn = `${s.runKey}:${s.history.length}:${s.phase}`;
    };
    const unsubscribe = training.subscribe(draw);
    const offOverlays = onOverlays(() => {
      drawnKey = null; // the table again, with the picked runs' rows
      draw(training.getState());
    });
    draw(training.getState());

    form.run();
    host.append(lesson.el);
    training.loadPrecomputed().then(() => {
      draw(training.getState());
      bar.update(training.getState());
      ctx.rendered();
    });
    return {
      destroy() {
        unsubscribe();
        offOverlays();
        bar.destroy();
        dock?.destroy();
        form.destroy();
      },
    };
  },
};
