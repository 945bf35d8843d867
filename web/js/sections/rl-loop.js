// Section 6, a complete autoregressive RLVR/GRPO loop: the config form (the notebook's defaults
// for the chosen profile), the run controls (training in a Web Worker), the before/after table
// and the config as the notebook prints them, and the run as data (export JSON/CSV, import).
import { h, field, bindForm, dataTable, downloadBlob, fmt } from '../dom.js';
import { runNotice } from './common.js';
import { rlLoopLesson } from '../training/lessons.js';
import { errorText } from '../core-errors.js';
import * as training from '../training/controller.js';
import { runBar } from '../training/run-bar.js';
import { getOverlays, onOverlays } from '../training/overlays.js';
import { ESTIMATORS, PROFILE_FIELD, SEED_FIELD } from '../training/run-config.js';
import {
  CONFIG_FIELDS,
  CONFIG_PARAMS,
  METRIC_COLUMNS,
  METRIC_ROWS,
  configOptions,
  coverageCsv,
  historyCsvParts,
  metricsCsv,
  runFile,
  runFileParts,
} from '../training/run-format.js';


/** Learning experiments: each a patch of the form, one click away. */
export const PRESETS = [
  { id: 'notebook', patch: {} },
  { id: 'kl', patch: { 'rl.beta': 0.04 } },
  { id: 'noClip', patch: { 'rl.epsLow': 0.999, 'rl.epsHigh': 10, 'rl.updateEpochs': 4 } },
  { id: 'hotLr', patch: { 'rl.lr': 0.02, 'rl.updateEpochs': 4 } },
  { id: 'dynamic', patch: { 'rl.dynamic': true } },
  { id: 'smallGroup', patch: { 'rl.groupSize': 2 } },
  { id: 'gspo', patch: { 'rl.isLevel': 'sequence' } },
  { id: 'drGrpo', patch: { 'rl.lossType': 'dr_grpo', 'rl.scaleRewards': 'none' } },
  // TRL 1.9's ideas. CISPO's cap is epsilon_high itself: the paper's 5.0, not the notebook's 0.28.
  { id: 'cispo', patch: { 'rl.lossType': 'cispo', 'rl.epsHigh': 5 } },
  { id: 'sapo', patch: { 'rl.lossType': 'sapo' } },
  { id: 'entropyMask', patch: { 'rl.topEntropyQuantile': 0.2 } },
  { id: 'samplerMismatch', patch: { 'rl.samplerMismatch': 0.5, 'rl.vllmImportanceSamplingCorrection': false } },
  {
    id: 'samplerCorrected',
    patch: { 'rl.samplerMismatch': 0.5, 'rl.vllmImportanceSamplingCorrection': true, 'rl.vllmImportanceSamplingMode': 'token_truncate' },
  },
  { id: 'normalizeThenSum', patch: { 'rl.multiObjectiveAggregation': 'normalize_then_sum' } },
];

/**
 * "GRPO and its ancestors": the notebook's config with each advantage estimator in turn (the
 * same seed, so a reader can run them one after another and compare).
 */
export const ANCESTOR_PRESETS = ESTIMATORS.map((estimator) => ({
  id: `estimator_${estimator}`,
  patch: { 'rl.advantageEstimator': estimator },
}));


/** A profile's defaults, {coreName: value}, from the core's config table. */
function defaultsOf(profile) {
  return Object.fromEntries(CONFIG_FIELDS.map((f) => [f.core, f.defaults[profile]]));
}


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
    const { t, core } = ctx;
    host.append(ctx.rich(t('train.rl.explain')));

    // --- the form ------------------------------------------------------------------------------
    const profile = field({
      key: 'profile',
      label: t('train.field.profile'),
      kind: 'select',
      options: PROFILE_FIELD.options.map((value) => ({ value, label: t(`setup.profile.${value}`) })),
      value: ctx.get('profile'),
    });
    const seed = field({ key: 'seed', label: t('train.field.seed'), hint: t('train.hint.seed'), step: 1, min: SEED_FIELD.min, max: SEED_FIELD.max, value: ctx.get('seed') });
    const base = () => defaultsOf(profile.input.value);
    // One control per field of the core's table, in its order (CONFIG_FIELDS).
    const fields = CONFIG_FIELDS.map((f) => {
      const kind = f.kind === 'enum' ? 'select' : f.kind === 'bool' ? 'checkbox' : 'number';
      const stored = ctx.get(f.key);
      return {
        spec: f,
        control: field({
          key: f.key,
          label: t(f.label),
          hint: ' ',
          kind,
          options: f.options?.map((value) => ({ value, label: value })),
          step: f.step,
          min: f.min,
          max: f.max,
          value: stored ?? base()[f.core],
        }),
      };
    });
    // Checkbox fields have no hint slot in dom.field(); add one so defaults show everywhere.
    for (const { control } of fields) {
      if (control.kind === 'checkbox') {
        const hintNode = h('p', { class: 'hint', id: `${control.input.id}-hint` });
        control.el.insertBefore(hintNode, control.el.querySelector('.field-error'));
        control.input.setAttribute('aria-describedby', `${hintNode.id} ${control.input.getAttribute('aria-describedby')}`);
      }
    }
    const hintOf = (control) => control.el.querySelector('.hint');
    const overrides = () => Object.fromEntries(CONFIG_FIELDS.map((f) => [f.key, ctx.get(f.key)]));

    // When the profile changes, every field the reader has not changed shows the new defaults.
    // (Registered before bindForm's own listener, so the form reads the new values.)
    const showProfileDefaults = () => {
      const current = overrides();
      const next = defaultsOf(profile.input.value);
      for (const { spec, control } of fields) if (current[spec.key] === null) control.write(next[spec.core]);
    };
    profile.input.addEventListener('change', showProfileDefaults);

    const presets = h('div', { class: 'presets', role: 'group', 'aria-label': t('train.presetsLabel') });
    // The fields in the table's groups (task, rewards, policy, ..., evaluation), one fieldset each.
    const groups = new Map();
    for (const f of fields) {
      if (!groups.has(f.spec.group)) groups.set(f.spec.group, []);
      groups.get(f.spec.group).push(f.control.el);
    }
    const controls = h(
      'div',
      { class: 'training-form' },
      h('div', { class: 'controls controls-training' }, profile.el, seed.el),
      [...groups].map(([group, els]) =>
        h('fieldset', { class: 'controls controls-training field-group', dataset: { group } }, h('legend', { text: t(`train.group.${group}`) }), els),
      ),
    );
    host.append(
      h('h3', { text: t('train.configTitle') }),
      controls,
      h('p', { class: 'presets-label', text: t('train.presetsLabel') }),
      presets,
    );
    const ancestors = h('div', { class: 'presets presets-ancestors', role: 'group', 'aria-label': t('train.ancestorsLabel') });
    host.append(
      h('p', { class: 'presets-label', text: t('train.ancestorsLabel') }),
      ctx.rich(t('train.ancestors.explain')),
      ancestors,
    );
    const presetNote = h('p', { class: 'muted preset-note', role: 'status' });
    host.append(presetNote);

    let current = null; // the last valid config
    // The state keys of a draft: a field left at its profile's default is stored as null.
    const valuesOf = (draft) => {
      const defaults = defaultsOf(draft.profile);
      const values = { profile: draft.profile, seed: draft.seed };
      for (const { spec } of fields) {
        const value = draft[spec.key];
        values[spec.key] = value === null || value === defaults[spec.core] ? null : value;
      }
      return values;
    };
    const form = bindForm({
      fields: [profile, seed, ...fields.map((f) => f.control)],
      params: CONFIG_PARAMS,
      compute: (draft) => {
        const values = valuesOf(draft);
        const config = core.experimentConfig(configOptions(values));
        return { values, config, defaults: defaultsOf(draft.profile) };
      },
      commit: (draft) => ctx.commit(valuesOf(draft)),
      render: (model) => {
        current = model.config;
        for (const { spec, control } of fields) {
          const changed = model.values[spec.key] !== null;
          control.el.classList.toggle('field-changed', changed);
          const value = model.defaults[spec.core];
          const shown = spec.kind === 'bool' ? (value ? t('common.yes') : t('common.no')) : value === null ? 'None' : String(value);
          const hint = hintOf(control);
          if (hint) hint.textContent = t(changed ? 'train.hint.changed' : 'train.hint.default', { value: shown, trl: spec.trl ?? '—' });
        }
        training.setDraftConfig(model.config);
      },
    });

    // Section 0 holds the same profile and seed: when it changes them in the store, show them here.
    ctx.subscribe(['profile', 'seed'], (_keys, source) => {
      if (source === 'rl-loop') return;
      seed.write(ctx.get('seed'));
      if (profile.input.value !== ctx.get('profile')) {
        profile.write(ctx.get('profile'));
        showProfileDefaults();
      }
      form.run();
    });

    for (const [group, list] of [[presets, PRESETS], [ancestors, ANCESTOR_PRESETS]]) for (const preset of list) {
      const chip = h('button', { type: 'button', class: 'button-chip', dataset: { preset: preset.id }, text: t(`train.preset.${preset.id}`) });
      chip.addEventListener('click', () => {
        const defaults = base();
        for (const { spec, control } of fields) {
          control.write(spec.key in preset.patch ? preset.patch[spec.key] : defaults[spec.core]);
        }
        form.flush();
        presetNote.textContent = t(`train.presetNote.${preset.id}`);
      });
      group.append(chip);
    }

    // --- the run ----------------------------------------------------------------------------
    const bar = runBar(ctx, {
      getConfig: () => {
        if (!form.flush()) {
          const invalid = host.querySelector('[aria-invalid="true"]');
          invalid?.focus();
          const message = invalid?.closest('.field')?.querySelector('.field-error')?.textContent;
          throw new Error(message || t('train.fixForm'));
        }
        return current;
      },
    });
    host.append(h('h3', { text: t('train.runHeading') }), bar.el);

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
      lesson.set(rlLoopLesson(s.result));
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
      },
    };
  },
};
