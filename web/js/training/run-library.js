// The run library: every finished run of the tab (live, precomputed, imported, each seed of a
// batch) kept in IndexedDB so it survives a reload, bounded to the last MAX_RUNS runs or
// MAX_BYTES of JSON (oldest dropped first). A run is stored without its checkpoint: the
// comparison needs configs, histories, before/after metrics and section 8's coverage only. A
// history is stored as one Float64Array per field, so IndexedDB copies bytes on the page's thread
// instead of one object per row (100 000 rows cost 0.3-0.6 s to write and as much to read back).
// Every record is checked as it is read (library-record.js): any page of the same origin can
// write the database, so a record that fails is set aside (named, with the reason) until Clear.
import { runName } from './compare.js';
import { checkRecord, isSavedAt, recordLabel } from './library-record.js';
import { loadCore } from '../../core/index.js';

export const MAX_RUNS = 50;
export const MAX_BYTES = 20 * 1024 * 1024;
const DB = 'grpo-lab-runs';
const STORE = 'runs';
const VERSION = 1;

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

/**
 * The keys to drop so that at most maxRuns entries of at most maxBytes remain, newest first: an
 * entry is kept while the kept ones and it fit, so the bytes count only what is kept (a large
 * entry dropped does not push out a small older one). A size that is not a finite number >= 0
 * (never written by this page) counts as too large: it is dropped, never "no limit".
 */
export function overLimit(entries, { maxRuns = MAX_RUNS, maxBytes = MAX_BYTES } = {}) {
  const newest = [...entries].sort((a, b) => b.savedAt - a.savedAt);
  const drop = [];
  let kept = 0;
  let bytes = 0;
  for (const entry of newest) {
    const size = Number.isFinite(entry.bytes) && entry.bytes >= 0 ? entry.bytes : Infinity;
    if (kept < maxRuns && bytes + size <= maxBytes) {
      kept += 1;
      bytes += size;
    } else drop.push(entry.key);
  }
  return drop;
}

/** Why the library cannot be used: code 'version' (another version of the database), 'schema' (not its store) or 'unavailable'. */
export class LibraryError extends Error {
  constructor(code, message) {
    super(message);
    this.name = 'LibraryError';
    this.code = code;
  }
}

let dbPromise = null;
function open() {
  if (!dbPromise) {
    dbPromise = new Promise((resolve, reject) => {
      let request;
      try {
        request = indexedDB.open(DB, VERSION);
      } catch (error) {
        reject(new LibraryError('unavailable', error?.message ?? String(error)));
        return;
      }
      request.onupgradeneeded = () => request.result.createObjectStore(STORE, { keyPath: 'key' });
      request.onsuccess = () => {
        const db = request.result;
        // Another tab resets or upgrades the database: let it, this connection is not kept.
        db.onversionchange = () => {
          db.close();
          dbPromise = null;
        };
        // A database of this name and version whose store is not ours (another page wrote it).
        let keyPath = null;
        try {
          keyPath = db.objectStoreNames.contains(STORE) ? db.transaction(STORE, 'readonly').objectStore(STORE).keyPath : null;
        } catch {
          keyPath = null;
        }
        if (keyPath !== 'key') {
          db.close();
          reject(new LibraryError('schema', `run library: the database ${DB} does not hold a store '${STORE}' keyed by 'key'`));
          return;
        }
        resolve(db);
      };
      request.onerror = () => {
        const error = request.error;
        const code = error?.name === 'VersionError' ? 'version' : 'unavailable';
        reject(new LibraryError(code, code === 'version' ? `run library: the database ${DB} is of a version this page does not know (it reads version ${VERSION})` : `run library: ${error?.message ?? 'IndexedDB refused'}`));
      };
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
/** Calls fn() after every change of the library, in this tab or another of the site; returns unsubscribe. */
export function onChange(fn) {
  listeners.add(fn);
  return () => listeners.delete(fn);
}
// Other tabs of the site hear of a change (a run kept, a Clear) and read the library again.
const channel = typeof BroadcastChannel === 'undefined' ? null : new BroadcastChannel(DB);
if (channel) channel.onmessage = () => listeners.forEach((fn) => fn());
channel?.unref?.(); // in Node (tests, tools) an open channel would keep the process alive
const changed = () => {
  listeners.forEach((fn) => fn());
  channel?.postMessage('changed');
};

// Records whose check failed in the last read: [{key, label, message, field, cause}], until Clear
// (cause: the core's error when the config was refused).
let quarantined = [];

/**
 * Every stored run that passes its check, newest first (the configs are read by the page's core,
 * loadCore()'s one instance). Reads one record per task (a cursor), so a library of big or corrupt
 * records never holds the page's thread for all of them at once. Records that fail are in
 * quarantine().
 */
export async function list({ maxBytes = MAX_BYTES } = {}) {
  const [db, core] = await Promise.all([open(), loadCore()]);
  const defaults = new Map();
  const defaultsOf = (config) => {
    if (!defaults.has(config.profile)) defaults.set(config.profile, core.experimentConfig({ profile: config.profile }));
    return defaults.get(config.profile);
  };
  const entries = [];
  const bad = [];
  await new Promise((resolve, reject) => {
    const tx = db.transaction(STORE, 'readonly');
    const request = tx.objectStore(STORE).openCursor();
    request.onsuccess = () => {
      const cursor = request.result;
      if (!cursor) return;
      const record = cursor.value;
      try {
        entries.push(restored(checkRecord(record, { core, maxBytes, defaultsOf })));
      } catch (error) {
        bad.push({ key: cursor.primaryKey, label: recordLabel(record), message: String(error?.message ?? error).slice(0, 300), field: error?.field ?? 'record', detail: error?.detail ?? String(error?.message ?? error).slice(0, 300), cause: error?.cause ?? null });
      }
      cursor.continue();
    };
    tx.oncomplete = () => resolve();
    tx.onerror = () => reject(tx.error);
    tx.onabort = () => reject(tx.error ?? new Error('run library: transaction aborted'));
  });
  quarantined = bad;
  return entries.sort((a, b) => b.savedAt - a.savedAt);
}

/** The records the last list() set aside: [{key, label, message}] (label: quoted, cut). */
export function quarantine() {
  return quarantined;
}

// The last run add() could not keep, too large on its own: {name, bytes, maxBytes}, or null.
let tooLarge = null;
/** The last run shown but not kept (too large for the library), for the page to say so; or null. */
export function notKept() {
  return tooLarge;
}

/**
 * Stores a run, then drops the oldest beyond the limits. The same run kept again (the precomputed
 * run on every load, a seed batch repeated) replaces its record but keeps its place (its first
 * savedAt): the list a reader is picking from does not reorder under the pointer. A run larger
 * than the byte limit on its own is not stored: it could never stay, and its write and read back
 * would hold the page's thread for nothing. Returns {kept: true} or {kept: false, reason:
 * 'tooLarge', bytes, maxBytes}, which the page tells the reader.
 */
export async function add(entry, { maxRuns = MAX_RUNS, maxBytes = MAX_BYTES } = {}) {
  if (!(entry.bytes <= maxBytes)) {
    tooLarge = { name: entry.name, bytes: entry.bytes, maxBytes };
    listeners.forEach((fn) => fn());
    return { kept: false, reason: 'tooLarge', bytes: entry.bytes, maxBytes };
  }
  await transact('readwrite', (store) => {
    const kept = store.get(entry.key);
    kept.onsuccess = () => {
      const savedAt = kept.result?.savedAt;
      store.put(stored(isSavedAt(savedAt) ? { ...entry, savedAt } : entry));
    };
  });
  const drop = overLimit(await list({ maxBytes }), { maxRuns, maxBytes });
  if (drop.length) await transact('readwrite', (store) => drop.forEach((key) => store.delete(key)));
  changed();
  return { kept: !drop.includes(entry.key) };
}

/** Empties the library, set-aside records included; a database it cannot use is reset instead. */
export async function clear() {
  try {
    await transact('readwrite', (store) => store.clear());
    quarantined = [];
    changed();
  } catch (error) {
    if (!(error instanceof LibraryError)) throw error;
    await reset();
  }
}

/**
 * Deletes the database (of any version or shape) so that the next use creates it anew. Other tabs
 * of the course close their connections when asked (onversionchange); a tab of another page that
 * keeps one open makes this a LibraryError 'blocked'.
 */
export async function reset() {
  const db = await dbPromise?.catch(() => null);
  db?.close();
  dbPromise = null;
  await new Promise((resolve, reject) => {
    const request = indexedDB.deleteDatabase(DB);
    request.onsuccess = () => resolve();
    request.onerror = () => reject(new LibraryError('unavailable', `run library: ${request.error?.message ?? 'could not be deleted'}`));
    request.onblocked = () => reject(new LibraryError('blocked', 'run library: another tab holds the database open; close it and try again'));
  });
  quarantined = [];
  changed();
}
