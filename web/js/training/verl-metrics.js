// Section 7's table of verl's metric names: the metrics verl v0.7.0 logs (its default, legacy FSDP
// actor dp_actor.py, and trainer/ppo/metric_utils.py), each beside the history column it is and
// TRL 1.9's metric for it, with where they differ (strings train.verlNames.diff.<verl name>).
import { h, dataTable } from '../dom.js';
import { HISTORY_COLUMNS } from './run-format.js';

/**
 * One row per verl metric: `key` the history column; `verl` verl's name when the column is not
 * logged under it (the actor/* columns are: HISTORY_COLUMNS' `verl`); `trl` TRL's nearest metric
 * when the column has no TRL name of its own.
 */
export const VERL_METRICS = [
  { key: 'actor/pg_loss', trl: 'loss' },
  { key: 'actor/kl_loss', trl: 'kl' },
  { key: 'actor/pg_clipfrac', trl: 'clip_ratio/region_mean' },
  { key: 'actor/pg_clipfrac_lower' },
  { key: 'actor/ppo_kl' },
  { key: 'entropy', verl: 'actor/entropy' },
  { key: 'gradNorm', verl: 'actor/grad_norm' },
  { key: 'meanReward', verl: 'critic/score/mean' },
  { key: 'meanLength', verl: 'response_length/mean' },
  { key: 'minLength', verl: 'response_length/min' },
  { key: 'maxLength', verl: 'response_length/max' },
  { key: 'truncatedFraction', verl: 'response_length/clip_ratio' },
];

/** The table's rows: {verl, column, trl (null: TRL logs none)}, verl's name first. */
export function verlMetricRows() {
  return VERL_METRICS.map((row) => {
    const column = HISTORY_COLUMNS.find((c) => c.key === row.key);
    return { verl: row.verl ?? column.verl, column: column.label, trl: row.trl ?? column.trl ?? null };
  });
}

/** The history's columns under verl's metric names (a learner moving to verl), as trlNames is for TRL. */
export function verlNames(t, rich) {
  return h(
    'details',
    { class: 'trl-names verl-names' },
    h('summary', { text: t('train.verlNames.title') }),
    h('p', { class: 'muted', text: t('train.verlNames.note') }),
    dataTable({
      caption: t('train.verlNames.title'),
      className: 'verl-differences',
      columns: ['verl', 'ours', 'trl', 'diff'].map((id) => ({ label: t(`train.verlNames.${id}`) })),
      rows: verlMetricRows().map((row) => [
        { text: row.verl, value: row.verl, header: true },
        { text: row.column, value: row.column },
        { text: row.trl ?? '—', value: row.trl ?? '' },
        { node: rich(t(`train.verlNames.diff.${row.verl}`), { block: false }) },
      ]),
    }),
  );
}
