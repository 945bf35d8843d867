// The run library: every finished run of the tab (live, precomputed, imported, each seed of a
// batch) kept in IndexedDB so it survives a reload, bounded to the last MAX_RUNS runs or
// MAX_BYTES of JSON (oldest dropped first). A run is stored without its checkpoint: the
// comparison needs configs, histories, before/after metrics and section 8's coverage only. A
// history is stored as one Float64Array per field, so IndexedDB copies bytes on the page's thread
// instead of one object per row (100 000 rows cost 0.3-0.6 s to write and as much to read back).
import { runName } from './compare.js';

export const MAX_RUNS = 50;
export const MAX_BYTES = 20 * 1024 * 1024;
const DB = 'grpo-lab-runs';
const STORE = 'runs';

const KEPT = [
  'config', 'history', 'beforeTrain', 'beforeHeldout', 'afterTrain', 'afterHeldout', 'updatesDone',
  // For the overlays of section 8: per-prompt accuracy and the pass@k curves (a few kB).
  'beforeTrainByPrompt', 'afterTrainByPrompt', 'beforeHeldoutByPrompt', 'afterHeldoutByPrompt', 'coverage',
];

const keptOf = (result) => Object.fromEntries(KEPT.filter((k) => result[k] !== undefined).map((k) => [k, result[k]]));

/**
 * A run's library key and size (bytes of its JSON). The training worker measures an imported run
 * with it, so that a long history is never stringified on the page's thread.
 */
export function libraryMeasure(result) {
  const run = keptOf(result);
  const json = JSON.stringify(run);
  // Same config and same history = the same run (a precomputed run shown twice is kept once).
  return { key: `${JSON.stringify(run.config)}#${run.history?.length ?? 0}#${simpleHash(json)}`, bytes: json.length };
}

/**
 * The stored form of a run result: {key, name, source, savedAt, bytes, run: {config, history, ...}}.
 * `measured`: libraryMeasure(result) when already known (an import, measured in the worker).
 */
export function libraryEntry(result, { source, defaults, savedAt = Date.now(), measured = null }) {
  const run = keptOf(result);
  const { key, bytes } = measured ?? libraryMeasure(result);
  return { key, name: runName(run.config, defaults), source, savedAt, bytes, run };
}

/** A history as {keys, columns: Float64Array per key, length}, or null if a row is not all numbers. */
export function packHistory(history) {
  const keys = history.length ? Object.keys(history[0]) : [];
  const columns = keys.map(() => new Float64Array(history.length));
  for (let i = 0; i < history.length; i += 1) {
    const row = history[i];
    if (Object.keys(row).length !== keys.length) return null;
    for (let k = 0; k < keys.length; k += 1) {
      const value = row[keys[k]];
      if (typeof value !== 'number') return null;
      columns[k][i] = value;
    }
  }
  return { keys, columns, length: history.length };
}

/** The rows of packHistory(history) again: the same keys, in the same order, the same numbers. */
export function unpackHistory({ keys, columns, length }) {
  const rows = new Array(length);
  for (let i = 0; i < length; i += 1) {
    const row = {};
    for (let k = 0; k < keys.length; k += 1) row[keys[k]] = columns[k][i];
    rows[i] = row;
  }
  return rows;
}

// The stored form of an entry: its history packed when it is all numbers (else kept as rows).
function stored(entry) {
  const packed = entry.run.history ? packHistory(entry.run.history) : null;
  if (!packed) return entry;
  const { history: _history, ...run } = entry.run;
  return { ...entry, run: { ...run, packedHistory: packed } };
}

// An entry as read back: `run.history` unpacks its rows on first use (the list shows names only).
function restored(entry) {
  const { packedHistory, ...run } = entry.run ?? {};
  if (!packedHistory) return entry;
  let rows = null;
  Object.defineProperty(run, 'history', { enumerable: true, configurable: true, get: () => (rows ??= unpackHistory(packedHistory)) });
  return { ...entry, run };
}

function simpleHash(text) {
  let hash = 2166136261;
  for (let i = 0; i < text.length; i += 1) hash = Math.imul(hash ^ text.charCodeAt(i), 16777619) >>> 0;
  return hash.toString(16);
}

/** The keys to drop so that at most maxRuns entries of at most maxBytes remain, oldest first. */
export function overLimit(entries, { maxRuns = MAX_RUNS, maxBytes = MAX_BYTES } = {}) {
  const newest = [...entries].sort((a, b) => b.savedAt - a.savedAt);
  const drop = [];
  let bytes = 0;
  newest.forEach((entry, i) => {
    bytes += entry.bytes;
    if (i >= maxRuns || bytes > maxBytes) drop.push(entry.key);
  });
  return drop;
}

let dbPromise = null;
function open() {
  if (!dbPromise) {
    dbPromise = new Promise((resolve, reject) => {
      const request = indexedDB.open(DB, 1);
      request.onupgradeneeded = () => request.result.createObjectStore(STORE, { keyPath: 'key' });
      request.onsuccess = () => resolve(request.result);
      request.onerror = () => reject(request.error);
    });
    dbPromise.catch(() => (dbPromise = null));
  }
  return dbPromise;
}

async function transact(mode, fn) {
  const db = await open();
  return new Promise((resolve, reject) => {
    const tx = db.transaction(STORE, mode);
    const result = fn(tx.objectStore(STORE));
    tx.oncomplete = () => resolve(result?.result ?? result);
    tx.onerror = () => reject(tx.error);
    tx.onabort = () => reject(tx.error ?? new Error('run library: transaction aborted'));
  });
}

const listeners = new Set();
/** Calls fn() after every change of the library; returns unsubscribe. */
export function onChange(fn) {
  listeners.add(fn);
  return () => listeners.delete(fn);
}
const changed = () => listeners.forEach((fn) => fn());

/** Every stored run, newest first. */
export async function list() {
  const all = await transact('readonly', (store) => store.getAll());
  return all.map(restored).sort((a, b) => b.savedAt - a.savedAt);
}

/**
 * Stores a run (replacing the same run), then drops the oldest beyond the limits. A run larger
 * than the byte limit on its own is not stored: it could never stay, and its write and read
 * back would hold the page's thread for nothing.
 */
export async function add(entry, limits) {
  if (entry.bytes > (limits?.maxBytes ?? MAX_BYTES)) return entry;
  await transact('readwrite', (store) => store.put(stored(entry)));
  const drop = overLimit(await list(), limits);
  if (drop.length) await transact('readwrite', (store) => drop.forEach((key) => store.delete(key)));
  changed();
  return entry;
}

/** Empties the library. */
export async function clear() {
  await transact('readwrite', (store) => store.clear());
  changed();
}
