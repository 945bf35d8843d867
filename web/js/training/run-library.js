// The run library: every finished run of the tab (live, precomputed, imported, each seed of a
// batch) kept in IndexedDB so it survives a reload, bounded to the last MAX_RUNS runs or
// MAX_BYTES of JSON (oldest dropped first). A run is stored without its checkpoint: the
// comparison needs configs, histories, before/after metrics and section 8's coverage only.
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

/** The stored form of a run result: {key, name, source, savedAt, bytes, run: {config, history, ...}}. */
export function libraryEntry(result, { source, defaults, savedAt = Date.now() }) {
  const run = Object.fromEntries(KEPT.filter((k) => result[k] !== undefined).map((k) => [k, result[k]]));
  const json = JSON.stringify(run);
  // Same config and same history = the same run (a precomputed run shown twice is kept once).
  const key = `${JSON.stringify(run.config)}#${run.history?.length ?? 0}#${simpleHash(json)}`;
  return { key, name: runName(run.config, defaults), source, savedAt, bytes: json.length, run };
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
  return all.sort((a, b) => b.savedAt - a.savedAt);
}

/** Stores a run (replacing the same run), then drops the oldest beyond the limits. */
export async function add(entry, limits) {
  await transact('readwrite', (store) => store.put(entry));
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
