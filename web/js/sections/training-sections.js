// Sections 6-9 as the page knows them at startup: title, text and URL keys (the training config
// they share). Their widgets, the training controller, the precomputed run and the full core
// load only when the reader reaches them (`load`), which keeps the first load of the page small:
// the page starts on the core's reference build (page.js), which checks their URL keys
// (experimentConfig) but has no trainer.
import { CONFIG_KEYS, CONFIG_PARAMS, CONFIG_SCHEMA, validateConfig } from '../training/run-config.js';

/** A widget module's loader whose widget mounts with the full core as `ctx.core`. */
const withFullCore = (importWidget) => async () => {
  const [{ default: widget }, core] = await Promise.all([importWidget(), import('../../core/index.js').then(({ loadCore }) => loadCore())]);
  return { default: { ...widget, mount: (host, ctx) => widget.mount(host, { ...ctx, core }) } };
};

const trainingSection = (id, number, fields, load) => ({
  id,
  number,
  titleKey: `${id}.title`,
  bodyKey: `${id}.body`,
  embedKeys: CONFIG_KEYS,
  load: withFullCore(load),
  ...fields,
});

export const rlLoop = trainingSection(
  'rl-loop',
  6,
  { schema: CONFIG_SCHEMA, params: CONFIG_PARAMS, validate: validateConfig },
  () => import('./rl-loop.js'),
);
// `cmp`: the runs compared in section 7's panel (compare.js comparisonLink), so a link reproduces them.
const COMPARE_SCHEMA = { cmp: { kind: 'text', default: null, maxLength: 4000 } };
export const updates = trainingSection('updates', 7, { charts: true, schema: COMPARE_SCHEMA, embedKeys: [...CONFIG_KEYS, 'cmp'] }, () => import('./updates.js'));
export const coverage = trainingSection('coverage', 8, { charts: true }, () => import('./coverage.js'));
export const realModel = trainingSection('real-model', 9, {}, () => import('./real-model.js'));
