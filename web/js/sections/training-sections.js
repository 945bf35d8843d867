// Sections 6-9 as the page knows them at startup: title, text and URL keys (the training config
// they share). Their widgets, the training controller and the precomputed run load only when the
// reader reaches them (`load`), which keeps the first load of the page small.
import { CONFIG_KEYS, CONFIG_PARAMS, CONFIG_SCHEMA, validateConfig } from '../training/run-config.js';

const trainingSection = (id, number, fields, load) => ({
  id,
  number,
  titleKey: `${id}.title`,
  bodyKey: `${id}.body`,
  embedKeys: CONFIG_KEYS,
  load,
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
