// The run library's check of a record read back from IndexedDB, as strict as an imported file is
// (docs/limits.md, "The run library"): any page of the same origin can write the database, so a
// record is a hostile input. Types, lengths and sizes are checked before anything is walked (a
// claimed length of 1e9 costs one comparison); the config goes through the core's own reader
// (core.experimentConfig), the one check a config ever gets; the name is rebuilt from it, never
// read. checkRecord returns the entry the page uses, or throws a RecordError naming the field.
import { runName } from './compare.js';
import { HISTORY_COLUMNS, METRIC_COLUMNS, METRIC_ROWS } from './run-format.js';
import { quoted } from '../quote.js';

/** The limits of a record (docs/limits.md). */
export const RECORD_LIMITS = {
  keyChars: 16384, // the key is the config's JSON, the row count and a hash: ~2 kB
  nameChars: 4096, // runName of a config: every field that differs, ~1 kB at most
  historyRows: 100000, // the core's limit on a run file's history (run.history), and at most config.updates
  byPromptRows: 1000, // the core's limit on a run's prompts
  promptChars: 256,
  answerBins: 16, // a by-prompt row's answer histogram (the core writes at most 6 bins)
  answerChars: 256, // one answer's text (the verifier's candidate)
  passAtKPoints: 64, // section 8's pass@k curve: k = 1, 2, 4, ... up to finalEvalSamples (<= 11 points)
};
export const SOURCES = ['live', 'precomputed', 'imported', 'seeds'];

/** Whether a record's savedAt is a time: a finite number >= 0. */
export const isSavedAt = (value) => typeof value === 'number' && Number.isFinite(value) && value >= 0;
const HISTORY_KEYS = new Set(HISTORY_COLUMNS.map((c) => c.key));
const METRIC_KEYS = new Set(METRIC_COLUMNS.map((c) => c.key));
const BY_PROMPT = [
  ['beforeTrainByPrompt', 'trainPrompts'],
  ['afterTrainByPrompt', 'trainPrompts'],
  ['beforeHeldoutByPrompt', 'heldoutPrompts'],
  ['afterHeldoutByPrompt', 'heldoutPrompts'],
];

export class RecordError extends Error {
  constructor(field, message) {
    super(`${field}: ${message}`);
    this.name = 'RecordError';
    this.field = field;
    this.detail = message;
  }
}

const isObject = (v) => typeof v === 'object' && v !== null && !Array.isArray(v) && !ArrayBuffer.isView(v);
const kind = (v) => (v === null ? 'null' : Array.isArray(v) ? 'an array' : ArrayBuffer.isView(v) ? 'a typed array' : typeof v === 'object' ? 'an object' : `a ${typeof v}`);
function need(ok, field, message) {
  if (!ok) throw new RecordError(field, message);
}
const isIndex = (v, max) => Number.isSafeInteger(v) && v >= 0 && v <= max;

function checkMetrics(metrics, field) {
  need(isObject(metrics), field, `must be an object, got ${kind(metrics)}`);
  const keys = Object.keys(metrics);
  need(keys.length <= METRIC_KEYS.size, field, `must hold at most ${METRIC_KEYS.size} measures, got ${keys.length}`);
  for (const key of keys) {
    need(METRIC_KEYS.has(key), `${field}.${key}`, 'is not a measure of a run');
    const v = metrics[key];
    need(typeof v === 'number' || v === null, `${field}.${key}`, `must be a number, got ${kind(v)}`);
  }
}

function checkByPrompt(rows, field, count, samples) {
  need(Array.isArray(rows), field, `must be an array, got ${kind(rows)}`);
  need(rows.length <= count, field, `must hold at most ${count} prompts (the run's), got ${rows.length}`);
  rows.forEach((row, i) => {
    const at = `${field}[${i}]`;
    need(isObject(row), at, `must be an object, got ${kind(row)}`);
    need(isIndex(row.promptId, RECORD_LIMITS.byPromptRows), `${at}.promptId`, `must be an integer in [0, ${RECORD_LIMITS.byPromptRows}]`);
    need(typeof row.prompt === 'string' && row.prompt.length <= RECORD_LIMITS.promptChars, `${at}.prompt`, `must be a string of at most ${RECORD_LIMITS.promptChars} characters`);
    need(typeof row.accuracy === 'number' && row.accuracy >= 0 && row.accuracy <= 1, `${at}.accuracy`, 'must be a number in [0, 1]');
    if (row.answers !== undefined) checkAnswers(row.answers, `${at}.answers`, samples);
  });
}

const ANSWER_KINDS = ['correct', 'incorrect', 'no_answer', 'invalid', 'truncated', 'other'];

/** A row's answer histogram (section 8's panel): bins of a kind, an optional answer and a count. */
function checkAnswers(bins, field, samples) {
  need(Array.isArray(bins) && bins.length >= 1 && bins.length <= RECORD_LIMITS.answerBins, field, `must be an array of 1 to ${RECORD_LIMITS.answerBins} bins`);
  let total = 0;
  bins.forEach((bin, i) => {
    const at = `${field}[${i}]`;
    need(isObject(bin), at, `must be an object, got ${kind(bin)}`);
    need(ANSWER_KINDS.includes(bin.kind), `${at}.kind`, `must be one of ${ANSWER_KINDS.join(', ')}`);
    need(isIndex(bin.count, samples), `${at}.count`, `must be an integer in [0, ${samples}] (finalEvalSamples)`);
    need(bin.answer === undefined || (typeof bin.answer === 'string' && bin.answer.length <= RECORD_LIMITS.answerChars), `${at}.answer`, `must be a string of at most ${RECORD_LIMITS.answerChars} characters`);
    need(Object.keys(bin).every((key) => key === 'kind' || key === 'count' || key === 'answer'), at, 'has a field other than kind, count and answer');
    total += bin.count;
  });
  need(total === samples, field, `counts must sum to ${samples} (finalEvalSamples), got ${total}`);
}

// Section 8's block (the core's run_coverage_json): four splits, each null or a concentration
// with its pass@k curve, the crossings, the samples and the detection floor. Every field the page
// reads is typed here (a picked run's curve is drawn: values.map, ks[i]); a field it does not
// know is refused.
const COVERAGE_SPLITS = ['beforeTrain', 'afterTrain', 'beforeHeldout', 'afterHeldout'];
const COVERAGE_NUMBERS = ['prompts', 'samples', 'solved', 'topCount', 'topQuarterShare', 'meanAccuracy', 'detectionFloor'];

function checkCoverage(coverage, field, samples) {
  need(isObject(coverage), field, `must be an object, got ${kind(coverage)}`);
  const known = [...COVERAGE_SPLITS, 'crossingTrain', 'crossingHeldout', 'samples', 'detectionFloor'];
  for (const key of Object.keys(coverage)) need(known.includes(key), field, `has no field '${key.slice(0, 40)}'`);
  for (const key of ['crossingTrain', 'crossingHeldout', 'samples']) {
    const v = coverage[key];
    need(v === undefined || v === null || isIndex(v, samples), `${field}.${key}`, `must be null or an integer in [0, ${samples}] (finalEvalSamples)`);
  }
  const floor = coverage.detectionFloor;
  need(floor === undefined || floor === null || typeof floor === 'number', `${field}.detectionFloor`, `must be a number, got ${kind(floor)}`);
  for (const split of COVERAGE_SPLITS) {
    const block = coverage[split];
    const at = `${field}.${split}`;
    if (block === undefined || block === null) continue;
    need(isObject(block), at, `must be null or an object, got ${kind(block)}`);
    for (const key of Object.keys(block)) need(key === 'passAtK' || COVERAGE_NUMBERS.includes(key), at, `has no field '${key.slice(0, 40)}'`);
    for (const key of COVERAGE_NUMBERS) need(block[key] === undefined || block[key] === null || typeof block[key] === 'number', `${at}.${key}`, `must be a number, got ${kind(block[key])}`);
    if (block.passAtK === undefined) continue;
    const curve = block.passAtK;
    need(isObject(curve), `${at}.passAtK`, `must be an object, got ${kind(curve)}`);
    need(Object.keys(curve).every((key) => key === 'ks' || key === 'values'), `${at}.passAtK`, 'has a field other than ks and values');
    const { ks, values } = curve;
    const points = RECORD_LIMITS.passAtKPoints;
    need(Array.isArray(ks) && ks.length >= 1 && ks.length <= points, `${at}.passAtK.ks`, `must be an array of 1 to ${points} k`);
    ks.forEach((k, i) => need(isIndex(k, samples) && k >= 1 && (i === 0 || k > ks[i - 1]), `${at}.passAtK.ks[${i}]`, `must be an integer in [1, ${samples}] (finalEvalSamples), above the k before it`));
    need(Array.isArray(values) && values.length === ks.length, `${at}.passAtK.values`, `must be an array of ${ks.length} numbers (one per k)`);
    values.forEach((v, i) => need(v === null || (typeof v === 'number' && !(v < 0) && !(v > 1)), `${at}.passAtK.values[${i}]`, 'must be a number in [0, 1]'));
  }
}

/** The stored history: packed columns (Float64Array per field) or rows; returns its row count. */
function checkHistory(run, maxRows) {
  if (run.packedHistory !== undefined) {
    const packed = run.packedHistory;
    const field = 'run.packedHistory';
    need(isObject(packed), field, `must be an object, got ${kind(packed)}`);
    const { keys, columns, length } = packed;
    need(isIndex(length, maxRows), `${field}.length`, `must be an integer in [0, ${maxRows}] (the run's updates, at most ${RECORD_LIMITS.historyRows}), got ${typeof length === 'number' ? length : kind(length)}`);
    need(Array.isArray(keys) && keys.length >= 1 && keys.length <= HISTORY_KEYS.size, `${field}.keys`, `must be an array of 1 to ${HISTORY_KEYS.size} history fields`);
    need(new Set(keys).size === keys.length && keys.every((k) => typeof k === 'string' && HISTORY_KEYS.has(k)), `${field}.keys`, 'must name history fields, each once');
    need(keys.includes('update'), `${field}.keys`, "must include 'update'");
    need(Array.isArray(columns) && columns.length === keys.length, `${field}.columns`, `must be an array of ${keys.length} columns`);
    columns.forEach((column, k) => need(column instanceof Float64Array && column.length === length, `${field}.columns[${k}]`, `must be a Float64Array of ${length} numbers`));
    const update = columns[keys.indexOf('update')];
    for (let i = 0; i < length; i += 1) if (update[i] !== i + 1) throw new RecordError(`${field}.update[${i}]`, `must be ${i + 1}`);
    return length;
  }
  const rows = run.history;
  const field = 'run.history';
  need(Array.isArray(rows), field, `must be an array, got ${kind(rows)}`);
  need(rows.length <= maxRows, field, `must hold at most ${maxRows} rows (the run's updates, at most ${RECORD_LIMITS.historyRows}), got ${rows.length}`);
  rows.forEach((row, i) => {
    need(isObject(row), `${field}[${i}]`, `must be an object, got ${kind(row)}`);
    const keys = Object.keys(row);
    need(keys.length <= HISTORY_KEYS.size, `${field}[${i}]`, `must hold at most ${HISTORY_KEYS.size} fields`);
    for (const key of keys) {
      need(HISTORY_KEYS.has(key), `${field}[${i}]`, `has no field '${key.slice(0, 40)}'`);
      need(typeof row[key] === 'number' || row[key] === null, `${field}[${i}].${key}`, `must be a number, got ${kind(row[key])}`);
    }
    need(row.update === i + 1, `${field}[${i}].update`, `must be ${i + 1}`);
  });
  return rows.length;
}

/**
 * Checks one record; returns {key, name, source, savedAt, bytes, run} with the name rebuilt from
 * the config. `core`: the page's core (experimentConfig); `maxBytes`: the library's byte cap (a
 * kept record is never larger). Throws RecordError (or the core's error, prefixed run.config.).
 */
export function checkRecord(record, { core, maxBytes, defaultsOf = (config) => core.experimentConfig({ profile: config.profile }) }) {
  need(isObject(record), 'record', `must be an object, got ${kind(record)}`);
  need(typeof record.key === 'string' && record.key.length >= 1 && record.key.length <= RECORD_LIMITS.keyChars, 'key', `must be a string of 1 to ${RECORD_LIMITS.keyChars} characters`);
  need(record.name === undefined || (typeof record.name === 'string' && record.name.length <= RECORD_LIMITS.nameChars), 'name', `must be a string of at most ${RECORD_LIMITS.nameChars} characters (it is rebuilt from the config, never shown as stored)`);
  need(SOURCES.includes(record.source), 'source', `must be one of ${SOURCES.join(', ')}`);
  need(isSavedAt(record.savedAt), 'savedAt', 'must be a time (a finite number >= 0)');
  need(Number.isSafeInteger(record.bytes) && record.bytes >= 1 && record.bytes <= maxBytes, 'bytes', `must be an integer in [1, ${maxBytes}] (the library's byte limit), got ${typeof record.bytes === 'number' ? record.bytes : kind(record.bytes)}`);
  const { run } = record;
  need(isObject(run), 'run', `must be an object, got ${kind(run)}`);
  need(isObject(run.config), 'run.config', `must be an object, got ${kind(run.config)}`);
  let config;
  try {
    config = core.experimentConfig(run.config);
  } catch (error) {
    // The core's own error (its code renders it in the reader's language), under run.config.
    const wrapped = new RecordError(`run.config${error.field ? `.${String(error.field).slice(0, 40)}` : ''}`, String(error.message ?? error).slice(0, 240));
    wrapped.cause = error;
    throw wrapped;
  }
  need(JSON.stringify(config) === JSON.stringify(run.config), 'run.config', 'must be a whole config as the core writes it');
  const rows = checkHistory(run, Math.min(RECORD_LIMITS.historyRows, config.updates));
  if (run.updatesDone !== undefined) need(run.updatesDone === rows, 'run.updatesDone', `must equal the history's ${rows} rows`);
  for (const { key } of METRIC_ROWS) if (run[key] !== undefined) checkMetrics(run[key], `run.${key}`);
  for (const [key, count] of BY_PROMPT) if (run[key] !== undefined) checkByPrompt(run[key], `run.${key}`, config[count], config.finalEvalSamples);
  if (run.coverage !== undefined && run.coverage !== null) checkCoverage(run.coverage, 'run.coverage', config.finalEvalSamples);
  const known = new Set(['config', 'history', 'packedHistory', 'updatesDone', 'coverage', ...METRIC_ROWS.map((r) => r.key), ...BY_PROMPT.map(([key]) => key)]);
  for (const key of Object.keys(run)) need(known.has(key), 'run', `has no field '${key.slice(0, 40)}'`);
  return { key: record.key, name: runName(config, defaultsOf(config)), source: record.source, savedAt: record.savedAt, bytes: record.bytes, run };
}

/** How a message names a record: its stored name if it is text, else its key, quoted (cut, no bidi marks). */
export function recordLabel(record) {
  const name = isObject(record) && typeof record.name === 'string' ? record.name : isObject(record) ? record.key : null;
  return quoted(typeof name === 'string' ? name : '?', 60);
}
