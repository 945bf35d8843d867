// Section 7's tables of the history's columns under the metric names of the engines a learner
// moves to: TRL 1.9's (HISTORY_COLUMNS' `trl`) and verl v0.7.0's (its default, legacy FSDP actor
// dp_actor.py and trainer/ppo/metric_utils.py), each verl metric beside the history column it is
// and TRL's metric for it, with where they differ (strings train.verlNames.diff.<verl name>).
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

/** A folded table under its title and note (strings `train.<names>.title`, `.note`, one per column id). */
function namesTable(t, names, { className, columns, rows, tableClass }) {
  return h(
    'details',
    { class: className },
    h('summary', { text: t(`train.${names}.title`) }),
    h('p', { class: 'muted', text: t(`train.${names}.note`) }),
    dataTable({ caption: t(`train.${names}.title`), className: tableClass, columns: columns.map((id) => ({ label: t(`train.${names}.${id}`) })), rows }),
  );
}

/** The history's columns beside the metrics TRL 1.9 logs for them (a learner moving to TRL). */
export function trlNames(t) {
  const named = HISTORY_COLUMNS.filter((c) => c.trl && c.key !== 'update');
  return namesTable(t, 'trlNames', {
    className: 'trl-names',
    columns: ['ours', 'trl'],
    rows: named.map((c) => [{ text: c.label, value: c.label, header: true }, { text: c.trl, value: c.trl }]),
  });
}

/** The history's columns under verl's metric names (a learner moving to verl). */
export function verlNames(t, rich) {
  return namesTable(t, 'verlNames', {
    className: 'trl-names verl-names',
    tableClass: 'verl-differences',
    columns: ['verl', 'ours', 'trl', 'diff'],
    rows: verlMetricRows().map((row) => [
      { text: row.verl, value: row.verl, header: true },
      { text: row.column, value: row.column },
      { text: row.trl ?? '—', value: row.trl ?? '' },
      { node: rich(t(`train.verlNames.diff.${row.verl}`), { block: false }) },
    ]),
  });
}
