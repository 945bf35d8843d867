// Comparing runs without a DOM: a run's name from what differs from the profile defaults, the
// config-diff of a few runs, the across-seed mean with its min-max band, and a paired comparison
// of two configs over the same seeds. Pure functions; the run library and the charts use them.

import { SEEDS_MAX, SEEDS_MIN } from './seed-batch.js';
import { quoted } from '../quote.js';
import { CONFIG_TABLE } from './run-config.js';
import { NONE } from '../state.js';

// The fields that take TRL's None (null in a config, `None` in a name and a link).
const NULLABLE = new Set(CONFIG_TABLE.fields.filter((f) => f.nullable).map((f) => f.name));

// Fields named by a symbol rather than their core name (the notebook's notation).
const SYMBOLS = { beta: 'β', epsLow: 'ε_low', epsHigh: 'ε_high', learningRate: 'lr', groupSize: 'G', temperature: 'T' };
// Never part of a difference: the seed is named on its own, the profile picks the defaults.
const NOT_COMPARED = new Set(['seed', 'profile']);

const shown = (value) => (value === null ? NONE : typeof value === 'number' ? String(Number(value.toPrecision(6))) : String(value));

/**
 * The fields of `config` whose value differs from `defaults` (the profile defaults the core gives,
 * `core.experimentConfig({profile})`), in the config's key order: [{field, value, default}].
 */
export function differences(config, defaults) {
  return Object.keys(config)
    .filter((field) => !NOT_COMPARED.has(field) && JSON.stringify(config[field]) !== JSON.stringify(defaults?.[field]))
    .map((field) => ({ field, value: config[field], default: defaults?.[field] }));
}

/**
 * A run's name: its loss type, what differs from the profile defaults, the profile when it is not
 * the notebook's smoke run, and the seed: "dapo, β = 0.04, seed 3".
 */
export function runName(config, defaults) {
  const parts = [String(config.lossType)];
  if (config.profile && config.profile !== 'smoke') parts.push(String(config.profile));
  for (const { field, value } of differences(config, defaults)) {
    if (field === 'lossType') continue;
    parts.push(`${SYMBOLS[field] ?? field} = ${shown(value)}`);
  }
  parts.push(`seed ${config.seed}`);
  return parts.join(', ');
}

/** The fields on which `configs` do not all agree: [{field, values: [one per config]}]. */
export function configDiff(configs) {
  const fields = [...new Set(configs.flatMap((c) => Object.keys(c)))];
  return fields
    .filter((field) => new Set(configs.map((c) => JSON.stringify(c[field]))).size > 1)
    .map((field) => ({ field, label: SYMBOLS[field] ?? field, values: configs.map((c) => c[field]) }));
}

/**
 * What tells batches apart, one label per config: the fields on which they differ (the seed
 * aside), "β = 0.04" or "β = 0.04, lr = 0.001", the value alone when only the advantage estimator
 * differs (the ancestors: "rloo"), "#2" when nothing does. {labels, fields}.
 */
export function batchLabels(configs) {
  const diff = configDiff(configs.map(({ seed: _seed, ...rest }) => rest));
  const fields = diff.map((d) => d.field);
  const alone = fields.length === 1 && fields[0] === 'advantageEstimator';
  const labels = configs.map((_, i) => (diff.length ? diff.map((d) => (alone ? String(d.values[i]) : `${d.label} = ${shown(d.values[i])}`)).join(', ') : `#${i + 1}`));
  return { labels, fields: diff.map((d) => d.label), estimatorsOnly: alone };
}

/**
 * The across-seed statistics of one metric of several histories, update by update (up to the
 * shortest history): [{update, mean, min, max, n}]. The band is min-max: with 2-16 seeds a
 * quantile band would rest on one or two points.
 */
export function seedBand(histories, metric) {
  if (!histories.length) return [];
  const length = Math.min(...histories.map((h) => h.length));
  const band = [];
  for (let i = 0; i < length; i += 1) {
    const values = histories.map((h) => h[i][metric]).filter((v) => typeof v === 'number' && Number.isFinite(v));
    if (!values.length) continue;
    const mean = values.reduce((a, b) => a + b, 0) / values.length;
    band.push({ update: histories[0][i].update, mean, min: Math.min(...values), max: Math.max(...values), n: values.length });
  }
  return band;
}

/**
 * A paired comparison of two configs over the same seeds: for each seed both ran, b - a of one
 * final metric, and how many seeds favour each side (higher is better unless `lowerIsBetter`).
 * a, b: [{seed, value}]. Returns {pairs: [{seed, a, b, diff}], favourA, favourB, ties, meanDiff}.
 */
export function pairedComparison(a, b, { lowerIsBetter = false } = {}) {
  const bySeed = new Map(b.map((r) => [r.seed, r.value]));
  const pairs = a.filter((r) => bySeed.has(r.seed)).map((r) => ({ seed: r.seed, a: r.value, b: bySeed.get(r.seed), diff: bySeed.get(r.seed) - r.value }));
  const sign = lowerIsBetter ? -1 : 1;
  const favourB = pairs.filter((p) => sign * p.diff > 0).length;
  const favourA = pairs.filter((p) => sign * p.diff < 0).length;
  const meanDiff = pairs.length ? pairs.reduce((s, p) => s + p.diff, 0) / pairs.length : null;
  return { pairs, favourA, favourB, ties: pairs.length - favourA - favourB, meanDiff };
}

/** The final metrics of a finished run's result: {train, heldout} as the before/after table shows them. */
export function finalMetrics(result) {
  return { train: result.afterTrain, heldout: result.afterHeldout };
}

/** A comparison as CSV: one row per run and update, the run's name then every history field. */
export function comparisonCsv(runs) {
  const fields = [...new Set(runs.flatMap((r) => r.history.flatMap((row) => Object.keys(row))))];
  const quote = (s) => (/[",\n]/.test(s) ? `"${s.replaceAll('"', '""')}"` : s);
  const lines = [['run', 'seed', ...fields].join(',')];
  for (const run of runs) {
    for (const row of run.history) lines.push([quote(run.name), run.config.seed, ...fields.map((f) => (row[f] ?? ''))].join(','));
  }
  return `${lines.join('\n')}\n`;
}

// A comparison in a link (`#cmp=seed:9;beta:0.04,seed:9;seed:3,n:8`): one item per picked run or
// seed batch, `;` between items, `field:value` pairs of what differs from the profile's defaults
// (core names), the seed, and `n` (the batch's seed count) when more than one. Values are numbers,
// true/false or option names: no item needs quoting. Reading one checks only its shape (names of
// letters and digits, values of letters, digits and `._+-`, each name once); every value is then
// checked by the core's own config reader (link-plan.js), the one check the trainer applies too.
export const LINK_ITEMS_MAX = 12;
const LINK_NUMBER = /^[+-]?(\d+\.?\d*|\.\d+)(e[+-]?\d+)?$/i;
const LINK_FIELD = /^[A-Za-z][A-Za-z0-9]{0,39}$/;
const LINK_VALUE = /^[A-Za-z0-9_.+-]{1,40}$/;

/**
 * A link that cannot be read: `code` ('items', 'pair', 'duplicate', 'seeds') and `params` for
 * the reader's sentence (compare.link.<code>); any text of the link in it is quoted (quote.js).
 */
export class LinkError extends RangeError {
  constructor(code, params, message) {
    super(message);
    this.name = 'LinkError';
    this.code = code;
    this.params = params;
    this.field = 'cmp';
  }
}

/** items: [{config, n}] -> the `cmp` text. */
export function comparisonLink(items, defaultsOf) {
  return items
    .map(({ config, n = 1 }) => {
      const pairs = differences(config, defaultsOf(config)).map(({ field, value }) => `${field}:${value === null ? NONE : value}`);
      if (config.profile && config.profile !== 'smoke') pairs.unshift(`profile:${config.profile}`);
      pairs.push(`seed:${config.seed}`);
      if (n > 1) pairs.push(`n:${n}`);
      return pairs.join(',');
    })
    .join(';');
}

/**
 * The `cmp` text -> [{options, n}] (options for core.experimentConfig, an own property per
 * field: `__proto__` is a name the shape refuses, `constructor` one the core refuses); a LinkError
 * names the run and quotes the offending text, cut, with controls and bidi marks removed.
 */
export function parseComparisonLink(text) {
  const items = text.split(';').filter(Boolean);
  if (items.length > LINK_ITEMS_MAX) throw new LinkError('items', { max: LINK_ITEMS_MAX, got: items.length }, `cmp: at most ${LINK_ITEMS_MAX} runs, got ${items.length}`);
  return items.map((item, i) => {
    const run = i + 1;
    const options = new Map();
    let n = 1;
    for (const pair of item.split(',')) {
      const at = pair.indexOf(':');
      const field = pair.slice(0, at);
      const raw = pair.slice(at + 1);
      if (at < 1 || !LINK_FIELD.test(field) || !LINK_VALUE.test(raw)) {
        const shown = quoted(pair, 40);
        throw new LinkError('pair', { run, text: shown }, `cmp: run ${run}: "${shown}" is not field:value`);
      }
      if (options.has(field) || (field === 'n' && n !== 1)) throw new LinkError('duplicate', { run, field }, `cmp: run ${run}: ${field} is given twice`);
      const none = raw === NONE && NULLABLE.has(field); // elsewhere the core names the field
      const value = none ? null : raw === 'true' ? true : raw === 'false' ? false : LINK_NUMBER.test(raw) ? Number(raw) : raw;
      if (field === 'n') {
        if (!Number.isInteger(value) || value < SEEDS_MIN || value > SEEDS_MAX) throw new LinkError('seeds', { run, min: SEEDS_MIN, max: SEEDS_MAX, got: quoted(raw, 40) }, `cmp: run ${run}: n must be an integer in [${SEEDS_MIN}, ${SEEDS_MAX}], got ${quoted(raw, 40)}`);
        n = value;
      } else options.set(field, value);
    }
    return { options: Object.fromEntries(options), n };
  });
}
