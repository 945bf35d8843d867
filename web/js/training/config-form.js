// Section 6's config form, built from the core's config table (run-config.js): the fields the
// notebook sets (the table's `notebook` flag: PROFILE, SEED, its GRPOConfig cells) first and open,
// every other field in its table `group`, folded under a summary that counts the fields changed
// from the profile's default. A new field or group in the table lands here without a JS edit.
// Presets, links and a field the core refuses open the groups they touch.
import { h, field, bindForm } from '../dom.js';
import { CONFIG_FIELDS, CONFIG_PARAMS, PROFILE_FIELD, SEED_FIELD, configOptions } from './run-config.js';
import { NONE, isNoneText } from '../state.js';

/** A profile's defaults, {coreName: value}, from the core's config table. */
export function defaultsOf(profile) {
  return Object.fromEntries(CONFIG_FIELDS.map((f) => [f.core, f.defaults[profile]]));
}

/** The table's fields split as the form shows them: {notebook: [field], groups: [[group, [field]]]}. */
export function formLayout(fields = CONFIG_FIELDS) {
  const groups = new Map();
  for (const f of fields) {
    if (f.notebook) continue;
    if (!groups.has(f.group)) groups.set(f.group, []);
    groups.get(f.group).push(f);
  }
  return { notebook: fields.filter((f) => f.notebook), groups: [...groups] };
}

/**
 * The state value of what a field's input reads (`read`): null for the profile's default
 * (`fallback`, the core's value: null is None), else the value. In a None-able field, empty or
 * "None" is TRL's None: NONE, or null when None is the default.
 */
export function stateValue(spec, read, fallback) {
  const value = spec.nullable && (read === null || isNoneText(read)) ? (fallback === null ? null : NONE) : read;
  return value === null || value === fallback ? null : value;
}

/**
 * A label's "(camelCaseName)" may break between its words (<wbr>), never before the ")": a
 * narrow column wrapped "(importanceSamplingLevel" and left ")" alone on a line.
 */
function breakableName(label) {
  const text = label?.textContent ?? '';
  const match = /\(([a-z][a-z0-9]*(?:[A-Z][a-z0-9]*)+)\)/.exec(text);
  if (!match) return;
  const nodes = [text.slice(0, match.index + 1)];
  match[1].split(/(?=[A-Z])/).forEach((word, i) => nodes.push(...(i ? [document.createElement('wbr')] : []), word));
  nodes.push(`)${text.slice(match.index + match[0].length)}`);
  label.replaceChildren(...nodes);
}

/**
 * The form. onRender(model): after every valid edit ({values, config, defaults}). Returns
 * {notebookEl, groupsEl, flush(), run(), config(), applyPatch(patch), openInvalid(), destroy()}.
 */
export function configForm(ctx, { onRender }) {
  const { t, core } = ctx;
  const profile = field({
    key: 'profile',
    label: t('train.field.profile'),
    kind: 'select',
    options: PROFILE_FIELD.options.map((value) => ({ value, label: t(`setup.profile.${value}`) })),
    value: ctx.get('profile'),
  });
  const seed = field({ key: 'seed', label: t('train.field.seed'), hint: t('train.hint.seed'), step: 1, min: SEED_FIELD.min, max: SEED_FIELD.max, value: ctx.get('seed') });
  const base = () => defaultsOf(profile.input.value);
  const fields = CONFIG_FIELDS.map((f) => {
    const kind = f.kind === 'enum' ? 'select' : f.kind === 'bool' ? 'checkbox' : 'number';
    const stored = ctx.get(f.key);
    const control = field({
      key: f.key,
      label: t(f.label),
      hint: ' ',
      kind,
      options: f.options?.map((value) => ({ value, label: value })),
      step: f.step,
      min: f.min,
      max: f.max,
      value: stored ?? base()[f.core],
    });
    breakableName(control.el.querySelector('label'));
    if (control.kind === 'checkbox') {
      // dom.field() gives a checkbox no hint slot; add one so its default shows too.
      const hintNode = h('p', { class: 'hint', id: `${control.input.id}-hint` });
      control.el.insertBefore(hintNode, control.el.querySelector('.field-error'));
      control.input.setAttribute('aria-describedby', `${hintNode.id} ${control.input.getAttribute('aria-describedby')}`);
    }
    return { spec: f, control };
  });
  const bySpec = new Map(fields.map((f) => [f.spec, f]));

  // --- layout: the notebook's fields, then one folded group per table group --------------------
  const layout = formLayout(CONFIG_FIELDS);
  const notebookEl = h(
    'fieldset',
    { class: 'controls controls-training field-group field-group-notebook', dataset: { group: 'notebook' } },
    h('legend', { text: t('train.group.notebook') }),
    profile.el,
    seed.el,
    layout.notebook.map((spec) => bySpec.get(spec).control.el),
  );
  const folded = layout.groups.map(([group, specs]) => {
    const count = h('span', { class: 'group-count' });
    const details = h(
      'details',
      { class: 'field-fold', dataset: { group } },
      h('summary', {}, h('span', { class: 'group-name', text: t(`train.group.${group}`) }), ' · ', count),
      h('div', { class: 'controls controls-training field-group' }, specs.map((spec) => bySpec.get(spec).control.el)),
    );
    return { group, specs, details, count };
  });
  const groupOf = new Map(folded.flatMap((g) => g.specs.map((spec) => [spec.key, g])));
  const groupsEl = h('div', { class: 'field-folds' }, folded.map((g) => g.details));
  const open = (key) => {
    const g = groupOf.get(key);
    if (g) g.details.open = true;
  };
  /** Opens the group of a field the core refused (so its message is on screen); returns its input. */
  const openInvalid = () => {
    const invalid = [profile, seed, ...fields.map((f) => f.control)].find((c) => c.input.getAttribute('aria-invalid') === 'true');
    if (invalid) open(invalid.key);
    return invalid?.input ?? null;
  };

  // A link's changes show where they are.
  for (const { spec } of fields) if (ctx.get(spec.key) !== null && ctx.get(spec.key) !== undefined) open(spec.key);

  // When the profile changes, every field the reader has not changed shows the new defaults.
  // (Registered before bindForm's own listener, so the form reads the new values.)
  const showProfileDefaults = () => {
    const next = defaultsOf(profile.input.value);
    for (const { spec, control } of fields) if (ctx.get(spec.key) === null) control.write(next[spec.core]);
  };
  profile.input.addEventListener('change', showProfileDefaults);

  // The state keys of a draft (stateValue).
  const valuesOf = (draft) => {
    const defaults = defaultsOf(draft.profile);
    const values = { profile: draft.profile, seed: draft.seed };
    for (const { spec } of fields) values[spec.key] = stateValue(spec, draft[spec.key], defaults[spec.core]);
    return values;
  };
  let current = null; // the last valid config
  const form = bindForm({
    fields: [profile, seed, ...fields.map((f) => f.control)],
    params: CONFIG_PARAMS,
    compute: (draft) => {
      const values = valuesOf(draft);
      return { values, config: core.experimentConfig(configOptions(values)), defaults: defaultsOf(draft.profile) };
    },
    commit: (draft) => ctx.commit(valuesOf(draft)),
    render: (model) => {
      current = model.config;
      for (const { spec, control } of fields) {
        const changed = model.values[spec.key] !== null;
        control.el.classList.toggle('field-changed', changed);
        const value = model.defaults[spec.core];
        const shown = spec.kind === 'bool' ? (value ? t('common.yes') : t('common.no')) : value === null ? 'None' : String(value);
        control.el.querySelector('.hint').textContent = t(changed ? 'train.hint.changed' : 'train.hint.default', { value: shown, trl: spec.trl ?? '—' });
      }
      for (const g of folded) {
        const changed = g.specs.filter((spec) => model.values[spec.key] !== null).length;
        g.count.textContent = changed ? t('train.groupCount.changed', { changed, total: g.specs.length }) : t('train.groupCount.none', { total: g.specs.length });
        g.details.classList.toggle('fold-changed', changed > 0);
        g.details.dataset.changed = String(changed);
      }
      onRender(model);
    },
  });
  // Whoever ran the form (an edit, Run, a preset), a refused field is shown in its open group.
  const watch = new MutationObserver(openInvalid);
  for (const el of [notebookEl, groupsEl]) watch.observe(el, { subtree: true, attributes: true, attributeFilter: ['aria-invalid'] });

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

  return {
    notebookEl,
    groupsEl,
    run: form.run,
    flush: form.flush,
    config: () => current,
    /** A preset: every field to the profile's default but those `patch` sets ({urlKey: value}); opens their groups. */
    applyPatch(patch) {
      const defaults = base();
      for (const { spec, control } of fields) control.write(spec.key in patch ? patch[spec.key] : defaults[spec.core]);
      for (const key of Object.keys(patch)) open(key);
      return form.flush();
    },
    openInvalid,
    destroy: () => watch.disconnect(),
  };
}
