// The training controller: one per page, outliving the sections (a language switch re-mounts
// every section; the run goes on). It owns the Web Worker, the run on display (precomputed,
// imported or live), its history and the inspected group, and tells subscribers about changes
// at most once per animation frame, however fast the worker streams. Every run that ends is saved
// in the run library at that moment (run-saver.js).
import { PRECOMPUTED_CHECKPOINT_URL, PRECOMPUTED_RUN_URL, inspectionRequest } from './run-format.js';
import { saveRun } from './run-saver.js';
import { interrupt, interruptFlag } from './interrupt-flag.js';

const listeners = new Set();
let frame = 0;
let fallbackTimer = 0;
let runCounter = 0;
let requestCounter = 0;
const pending = new Map(); // rollout requests: requestId -> {resolve, reject}

let worker = null;
let completionTimes = []; // when each update of the live run completed (timeOrigin-based ms)
let precomputed = null; // {run, promise}
let precomputedCheckpoint = null;

const blankRun = () => ({
  source: null, // 'precomputed' | 'imported' | 'live'
  fileName: null,
  config: null,
  info: null, // {vocab, prompts, beforeTrain, beforeHeldout, beforeTrainByPrompt, beforeHeldoutByPrompt}
  history: [],
  result: null,
  updatesTotal: 0,
  divergence: null, // {update, fields}
  error: null, // {name, message}
  createMs: null,
  runMs: null,
  activeMs: 0, // time spent running, pauses excluded
  activeSince: null,
  inspection: null, // {index, seed, config, generatorVersion, loading, result, error}
  libraryMeasure: null, // an imported run's {key, bytes} in the run library, measured by the worker
});

let state = {
  runKey: 0, // changes whenever another run takes the display
  runId: null,
  phase: 'loading', // loading | empty | precomputed | imported | starting | running | paused | stopping | finished | stopped | diverged | error
  ...blankRun(),
  draftConfig: null, // the config form's current valid config (section 9 translates it)
  precomputedError: null,
  // The worker's core as last reported (after a run was created, ended or reset): C++ objects
  // still held (0 between runs) and WASM memory in bytes. Null until the worker reports.
  coreStats: null, // {liveHandles, heapBytes, after}
};

export function getState() {
  return state;
}

/** Calls fn(state) after every change, at most once per animation frame. Returns unsubscribe. */
export function subscribe(fn) {
  listeners.add(fn);
  return () => listeners.delete(fn);
}

// While a run streams, subscribers draw at most every LIVE_INTERVAL_MS (and never more than once
// per animation frame): charts of 300 points redrawn 60 times a second would cost the main
// thread far more than a reader can see. Phase changes are drawn on the next frame.
const LIVE_INTERVAL_MS = 200;
let lastFlush = 0;
let delayTimer = 0;

// Listeners still waiting for this flush: when one listener took long (a finished run redraws
// several sections), the rest run in the next task, so no single task blocks the page for long.
let queue = [];
const slicer = new MessageChannel();
slicer.port1.onmessage = () => runQueue();

function runQueue() {
  const started = performance.now();
  while (queue.length) {
    const fn = queue.shift();
    if (!listeners.has(fn)) continue;
    try {
      fn(state);
    } catch (error) {
      console.error(error);
    }
    if (queue.length && performance.now() - started > 12) {
      slicer.port2.postMessage(null);
      return;
    }
  }
}

/**
 * What a function given to sliced() returns to have the rest run after the page's next frame:
 * its style and layout then run in the browser's rendering task, not forced in a later slice's
 * (Chart.js builds a chart by reading its canvas's size: after the history table's rows, that
 * forced layout made one slice 204 ms on a 2-core machine, a 48 MB import, 2026-12-07).
 */
export const AFTER_FRAME = Symbol('after the next frame');
// Hidden tabs get no animation frames: past this, the slices go on anyway.
const FRAME_WAIT_MS = 100;

/**
 * Runs fns in order, from the next task on, yielding to the event loop whenever 12 ms have passed,
 * so a big redraw (four charts and a table) is several short tasks instead of one long one, none
 * of them the caller's (a mount's: section 7's first slice read a canvas's width there, a forced
 * layout of the page it had just grown, 70-90 ms of wall time on a 2-core machine). A function
 * that returns AFTER_FRAME has the rest wait for the next frame. Returns a cancel().
 */
export function sliced(fns) {
  const channel = new MessageChannel();
  let cancelled = false;
  let waiting = 0; // the frame an AFTER_FRAME waits for, and its fallback timer
  let fallback = 0;
  const resume = () => {
    cancelAnimationFrame(waiting);
    clearTimeout(fallback);
    waiting = 0;
    channel.port2.postMessage(null);
  };
  const run = () => {
    const started = performance.now();
    while (fns.length && !cancelled) {
      const fn = fns.shift();
      let result;
      try {
        result = fn();
      } catch (error) {
        console.error(error);
      }
      if (result === AFTER_FRAME && fns.length) {
        waiting = requestAnimationFrame(resume);
        fallback = setTimeout(resume, FRAME_WAIT_MS);
        return;
      }
      if (fns.length && performance.now() - started > 12) {
        channel.port2.postMessage(null);
        return;
      }
    }
    channel.port1.close();
  };
  channel.port1.onmessage = run;
  channel.port2.postMessage(null);
  return () => {
    cancelled = true;
    cancelAnimationFrame(waiting);
    clearTimeout(fallback);
    channel.port1.close();
  };
}

function flush() {
  cancelAnimationFrame(frame);
  clearTimeout(fallbackTimer);
  frame = 0;
  fallbackTimer = 0;
  lastFlush = performance.now();
  const busy = queue.length > 0;
  for (const fn of listeners) if (!queue.includes(fn)) queue.push(fn);
  // The listeners run in their own task, not in the frame's rendering task: their DOM changes
  // are then styled and laid out in the next frame, apart from the script that made them.
  if (!busy) slicer.port2.postMessage(null);
}

function requestFlush() {
  delayTimer = 0;
  if (frame) return;
  frame = requestAnimationFrame(flush);
  // Hidden tabs get no animation frames; draw anyway, rarely.
  fallbackTimer = setTimeout(flush, 500);
}

function notify({ urgent = false } = {}) {
  if (frame || (delayTimer && !urgent)) return;
  const wait = LIVE_INTERVAL_MS - (performance.now() - lastFlush);
  if (urgent || wait <= 0) {
    clearTimeout(delayTimer);
    requestFlush();
  } else if (!delayTimer) {
    delayTimer = setTimeout(requestFlush, wait);
  }
}

function set(patch) {
  const urgent = patch.phase !== undefined && patch.phase !== state.phase;
  state = { ...state, ...patch };
  notify({ urgent: urgent || patch.runKey !== undefined || patch.inspection !== undefined || patch.draftConfig !== undefined });
}

/** Milliseconds spent running so far (pauses excluded). */
export function elapsedMs(s = state) {
  return s.activeMs + (s.activeSince === null ? 0 : performance.now() - s.activeSince);
}

export const isBusy = (phase = state.phase) => phase === 'starting' || phase === 'running' || phase === 'stopping';
export const isLive = (phase = state.phase) => ['starting', 'running', 'paused', 'stopping'].includes(phase);

// --- the worker -----------------------------------------------------------------------------------

function ensureWorker() {
  if (worker) return worker;
  worker = new Worker(new URL('./worker.js', import.meta.url), { type: 'module', name: 'grpo-training' });
  worker.addEventListener('message', (event) => onMessage(event.data));
  worker.addEventListener('error', (event) => {
    event.preventDefault?.();
    failAll(new Error(event.message || 'the training worker could not start'));
  });
  return worker;
}

function failAll(error) {
  for (const { reject } of pending.values()) reject(error);
  pending.clear();
  worker?.terminate();
  worker = null;
  if (state.coreStats) set({ coreStats: null }); // its core is gone with it
  if (isLive()) stopClock({ phase: 'error', error: plainError(error) });
}

// What the page keeps of an error: its message and the core's code, field and params.
function plainError({ name, message, code, field, params }) {
  return { name, message, code, field, params };
}

function stopClock(patch) {
  const active = elapsedMs();
  set({ activeMs: active, activeSince: null, ...patch });
}

function onMessage(message) {
  if (message.core) set({ coreStats: message.core });
  if (message.requestId !== undefined) {
    const request = pending.get(message.requestId);
    if (!request) return;
    if (message.type === 'inspect-progress') {
      request.onProgress?.(message); // a replay's progress; the answer follows
      return;
    }
    if (message.type === 'import-rows') {
      // An imported history arrives in slices (one short task each); the last message completes it.
      request.rows ??= [];
      for (const row of message.rows) request.rows.push(row);
      return;
    }
    pending.delete(message.requestId);
    if (message.type === 'import' && message.result) {
      message.result.history = request.rows ?? [];
      request.resolve({ run: message.result, library: message.library ?? null });
      return;
    }
    if (message.type === 'error') {
      const Type = message.name === 'RangeError' ? RangeError : message.name === 'TypeError' ? TypeError : Error;
      request.reject(Object.assign(new Type(message.message), { code: message.code, field: message.field, params: message.params }));
    } else request.resolve(message.result);
    return;
  }
  if (message.type === 'error' && message.fatal) {
    failAll(new Error(message.message));
    return;
  }
  if (message.runId === undefined || message.runId !== state.runId) return; // an old run's message
  switch (message.type) {
    case 'created':
      set({ info: message.info, config: message.info.config, createMs: message.ms, phase: state.phase === 'starting' ? state.pendingPhase ?? 'running' : state.phase });
      break;
    case 'row':
      state.history.push(message.row); // appended in place; subscribers draw the new tail
      completionTimes.push(message.at);
      set({ history: state.history });
      break;
    case 'paused':
      if (state.phase !== 'stopping') stopClock({ phase: 'paused' });
      break;
    case 'finished':
      stopClock({ phase: message.stopped ? 'stopped' : 'finished', result: message.result, runMs: message.ms });
      saveRun(state); // now, before a next run can take the display
      inspect(0).catch(() => {});
      break;
    case 'diverged':
      if (message.row) state.history.push(message.row);
      stopClock({
        phase: 'diverged',
        history: state.history,
        divergence: { update: message.row?.update ?? state.history.length, fields: message.fields },
      });
      break;
    case 'error':
      stopClock({ phase: 'error', error: plainError(message) });
      break;
    default:
      break;
  }
}

// --- runs -----------------------------------------------------------------------------------------

function show(run, source, extra = {}) {
  set({
    runKey: state.runKey + 1,
    runId: null,
    ...blankRun(),
    source,
    config: run.config,
    info: {
      vocab: run.vocab,
      prompts: run.prompts,
      beforeTrain: run.beforeTrain,
      beforeHeldout: run.beforeHeldout,
      beforeTrainByPrompt: run.beforeTrainByPrompt,
      beforeHeldoutByPrompt: run.beforeHeldoutByPrompt,
    },
    history: [...run.history],
    result: run,
    updatesTotal: run.config.updates,
    runMs: run.runMs ?? null,
    ...extra,
  });
  saveRun(state); // the precomputed run, an import
}

/** Loads the build-time smoke run once and shows it unless another run is on display. */
export function loadPrecomputed() {
  if (!precomputed) {
    const promise = fetch(new URL(`../../${PRECOMPUTED_RUN_URL}`, import.meta.url))
      .then((response) => {
        if (!response.ok) throw new Error(`${PRECOMPUTED_RUN_URL}: HTTP ${response.status}`);
        return response.json();
      })
      .then((run) => {
        precomputed.run = run;
        if (state.phase === 'loading' || state.phase === 'empty') showPrecomputed();
        return run;
      })
      .catch((error) => {
        if (state.phase === 'loading') set({ phase: 'empty', precomputedError: error.message });
        else set({ precomputedError: error.message });
        return null;
      });
    precomputed = { run: null, promise };
  }
  return precomputed.promise;
}

function showPrecomputed() {
  const run = precomputed?.run;
  if (!run) {
    set({ runKey: state.runKey + 1, runId: null, ...blankRun(), phase: 'empty' });
    return;
  }
  show(run, 'precomputed', {
    phase: 'precomputed',
    inspection: run.inspection ? { ...run.inspection, index: 0, loading: false, error: null } : null,
  });
}

/** Starts a new live run with a validated config; autorun=false makes one update and pauses. */
export function start(config, { autorun = true } = {}) {
  runCounter += 1;
  clearTimeout(interruptTimer);
  runInterrupt = interruptFlag();
  const runId = `run-${runCounter}`;
  completionTimes = [];
  set({
    runKey: state.runKey + 1,
    runId,
    ...blankRun(),
    source: 'live',
    config,
    updatesTotal: config.updates,
    phase: 'starting',
    pendingPhase: autorun ? 'running' : 'paused',
    activeSince: performance.now(),
  });
  ensureWorker().postMessage({ type: 'start', runId, config, autorun, interruptFlag: runInterrupt });
}

// The run's interrupt flag (interrupt-flag.js): Stop sets it when the worker is inside a long
// call (the warm-up, or an update that has not ended STOP_INTERRUPT_MS after Stop), which then
// ends with the core's 'interrupted' error instead of holding the run at "stopping" for minutes.
const STOP_INTERRUPT_MS = 1000;
let runInterrupt = null;
let interruptTimer = 0;

export function pause() {
  if (state.phase !== 'running' && state.phase !== 'starting') return;
  worker?.postMessage({ type: 'pause', runId: state.runId });
  set({ pendingPhase: 'paused' });
}

export function resume() {
  if (state.phase !== 'paused') return;
  set({ phase: 'running', activeSince: performance.now() });
  worker.postMessage({ type: 'resume', runId: state.runId });
}

export function step() {
  if (state.phase !== 'paused') return false;
  set({ activeSince: performance.now() });
  worker.postMessage({ type: 'step', runId: state.runId });
  return true;
}

export function stop() {
  if (!isLive() || state.phase === 'stopping') return;
  worker.postMessage({ type: 'stop', runId: state.runId });
  // Still in its warm-up: there is nothing to measure yet, so out of it at once.
  const flag = runInterrupt;
  if (state.phase === 'starting') interrupt(flag);
  else interruptTimer = setTimeout(() => state.phase === 'stopping' && interrupt(flag), STOP_INTERRUPT_MS);
  set({ phase: 'stopping', activeSince: state.activeSince ?? performance.now() });
}

/** Discards the live or imported run and shows the precomputed one again. */
export function reset() {
  if (isLive()) interrupt(runInterrupt); // nothing of it is kept: out of a long call at once
  worker?.postMessage({ type: 'reset' });
  showPrecomputed();
}

let importCounter = 0;

/**
 * Shows a run file once the worker has read, parsed and validated it (core.importRun): `file`, a
 * File from an <input type="file">, is read in the worker, so even a 48 MB file never blocks the
 * page; a parsed object works too. Rejects with the error, which names the field or the file.
 */
export async function importRun(file, fileName = file?.name ?? null) {
  importCounter += 1;
  const runId = `import-${importCounter}`;
  const isFile = typeof Blob === 'function' && file instanceof Blob;
  const { run, library } = await ask('import', { runId, ...(isFile ? { file } : { run: file }) });
  if (isLive()) worker?.postMessage({ type: 'reset' });
  show(run, 'imported', { phase: 'imported', fileName, runId, libraryMeasure: library });
  inspect(0).catch(() => {});
  return run;
}

/** The config form's current valid config (null while it has an error). */
export function setDraftConfig(config) {
  if (JSON.stringify(config) === JSON.stringify(state.draftConfig)) return;
  set({ draftConfig: config });
}

// --- checkpoints and inspection ---------------------------------------------------------------------

/** The checkpoint of the run on display (fetched for the precomputed run), or null. */
export async function checkpoint() {
  if (state.result?.checkpoint) return state.result.checkpoint;
  if ((state.source === 'live' || state.source === 'imported') && state.result) {
    if (state.source === 'imported' && !state.result.hasCheckpoint) return null;
    return ask('checkpoint', { runId: state.runId });
  }
  if (state.source === 'precomputed') {
    if (!precomputedCheckpoint) {
      precomputedCheckpoint = fetch(new URL(`../../${PRECOMPUTED_CHECKPOINT_URL}`, import.meta.url)).then((response) => {
        if (!response.ok) throw new Error(`${PRECOMPUTED_CHECKPOINT_URL}: HTTP ${response.status}`);
        return response.json();
      });
      precomputedCheckpoint.catch(() => (precomputedCheckpoint = null));
    }
    return precomputedCheckpoint;
  }
  return null;
}

function ask(type, message, onProgress = null) {
  requestCounter += 1;
  const requestId = requestCounter;
  return new Promise((resolve, reject) => {
    pending.set(requestId, { resolve, reject, onProgress });
    ensureWorker().postMessage({ type, requestId, ...message });
  });
}

/**
 * The step inspector's requests to the worker (inspector-worker.js): 'inspect' (one update's
 * view; onProgress({done, total}) while it replays) and 'counterfactual'.
 */
export const askInspector = (type, message, onProgress) => ask(type, message, onProgress);

const rollouts = (message) => ask('rollouts', message);

/** Draws the index-th fresh group from the displayed run's policy (0 = the notebook's). */
export async function inspect(index) {
  const run = state.result;
  if (!run) return null;
  const key = state.runKey;
  const request = inspectionRequest(run.config, index);
  set({ inspection: { ...request, index, loading: true, result: null, error: null } });
  try {
    const message = { prompts: run.prompts, config: request.config, seed: request.seed, generatorVersion: request.generatorVersion };
    let result;
    if (state.source === 'live' || (state.source === 'imported' && run.hasCheckpoint)) {
      // The worker holds this run's checkpoint (it never left the worker).
      result = await rollouts({ ...message, runId: state.runId });
    } else {
      const local = await checkpoint();
      if (!local) throw new Error('checkpoint: this run file has no checkpoint, so no fresh group can be drawn');
      result = await rollouts({ ...message, checkpoint: local });
    }
    if (state.runKey === key && state.inspection?.index === index) {
      set({ inspection: { ...request, index, loading: false, result, error: null } });
    }
    return result;
  } catch (error) {
    if (state.runKey === key && state.inspection?.index === index) {
      set({ inspection: { ...request, index, loading: false, result: null, error: error.message } });
    }
    throw error;
  }
}

/**
 * For tests and tools: the live run's id, phase, when each of its updates completed, and the
 * worker core's last report (coreStats: {liveHandles, heapBytes, after} or null).
 */
export function debugInfo() {
  return { worker: Boolean(worker), runId: state.runId, phase: state.phase, completionTimes: [...completionTimes], coreStats: state.coreStats };
}
