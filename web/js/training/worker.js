// The training Web Worker (module worker): loads the same WASM core through the same wrapper as
// the page, runs one stepwise GRPO experiment, and streams one message per update. Between two
// updates it yields to its message queue, so pause, stop and reset take effect within one update.
//
// In:  {type: 'start', runId, config, autorun, interruptFlag?}   create (warm-up + "before" metrics), then run or wait;
//      interruptFlag: an Int32Array over a SharedArrayBuffer the page sets to stop a long core call (core.interruptOn)
//      {type: 'pause' | 'resume' | 'step' | 'stop', runId}
//      {type: 'reset'}                              dispose the experiment, reply {type: 'reset', core}
//      {type: 'rollouts', requestId, runId?, checkpoint?, prompts, config, seed, generatorVersion}
//      {type: 'checkpoint', requestId, runId}      a held checkpoint (finished or imported runs, see hold())
//      {type: 'import', requestId, runId, file | run} read (a File) and validate a run file; its checkpoint is held here
//      {type: 'inspect' | 'counterfactual', requestId, ...}  the step inspector (inspector-worker.js)
// Out: {type: 'ready'} | {type: 'created', runId, info, ms, core} | {type: 'row', runId, row, updatesDone, done, ms, at}
//      {type: 'paused', runId, updatesDone} | {type: 'finished', runId, result, stopped, ms, core}
//      {type: 'diverged', runId, row, fields, core} | {type: 'error', runId?, requestId?, name, message, core?}
//      {type: 'rollouts', requestId, result, ms} | {type: 'checkpoint', requestId, result}
//      {type: 'import', requestId, result, library}  library: the run's libraryMeasure (run-library.js)
//      {type: 'import-rows', requestId, rows}       an imported history, in slices, before its 'import'
//      {type: 'reset', core}
// core = {liveHandles, heapBytes, after}: the C++ objects the core still holds and the size of its
// WASM memory, right after `after` (created, finished, diverged, error or reset; a run's experiment
// is disposed before its end is reported). Between runs liveHandles is 0; the heap grows to what the
// largest run needed and then stays flat (WASM memory never shrinks).
import { loadCore } from '../../core/index.js';
import { MAX_RUN_FILE_BYTES, divergentFields, divergentMetrics, validateRun } from './run-format.js';
import { libraryMeasure } from './run-library.js';
import { inspectorService } from './inspector-worker.js';

let core = null;
let experiment = null;
let runId = null;
let running = false;
let pumping = false;
let startedAt = 0;
let updatesDone = 0;
let inspector = null; // the step inspector's records and replays (inspectorService)
// Checkpoints of finished and imported runs, by run id (the last few): they stay here, where
// fresh groups are drawn, instead of travelling to the page and back.
const held = new Map();
function hold(id, checkpoint) {
  held.delete(id);
  held.set(id, checkpoint);
  while (held.size > 3) held.delete(held.keys().next().value);
}

// An imported history reaches the page in messages of this many rows: each one is a short task
// for the page to receive (a single message of 100 000 rows would block it for a second).
const HISTORY_SLICE = 2000;

/** Reads and parses a run file (a File or Blob the page passed on); errors name the file and the limit. */
async function readRunFile(file) {
  const name = file.name || 'run file';
  if (file.size > MAX_RUN_FILE_BYTES) {
    const message = `${name}: a run file must be at most ${MAX_RUN_FILE_BYTES} bytes (64 MiB), got ${file.size}`;
    throw Object.assign(new RangeError(message), { code: 'too_long', field: name, params: { max: MAX_RUN_FILE_BYTES, got: file.size } });
  }
  const text = await file.text();
  try {
    return JSON.parse(text);
  } catch (error) {
    throw Object.assign(new SyntaxError(`${name}: not JSON (${error.message})`), { code: 'not_json', field: name, params: { detail: error.message } });
  }
}

// A message to ourselves through a MessageChannel: a fresh task with no timer clamping (nested
// setTimeout is clamped to >= 4 ms, which would add 1.2 s to a 300-update run).
const channel = new MessageChannel();
channel.port1.onmessage = () => pump();
const yieldThenPump = () => channel.port2.postMessage(null);

function post(message) {
  self.postMessage(message);
}

/** The core's own bookkeeping right now (see the header). */
function coreStats(after) {
  return { liveHandles: core?.liveHandles() ?? 0, heapBytes: core?.heapBytes() ?? 0, after };
}

// An error as the page needs it: the English message and the core's code, field and params (the
// page renders those in the reader's language).
function errorMessage(error) {
  const { code, field, params } = error ?? {};
  return { name: error?.name ?? 'Error', message: error?.message ?? String(error), code, field, params };
}

function disposeExperiment() {
  running = false;
  if (experiment) {
    try {
      experiment.dispose();
    } catch {
      // already gone
    }
  }
  experiment = null;
}

function finishRun(stopped) {
  running = false;
  const result = experiment.finish();
  const ms = performance.now() - startedAt;
  disposeExperiment();
  const bad = divergentMetrics(result);
  if (bad.length) {
    post({ type: 'diverged', runId, row: null, fields: bad, core: coreStats('diverged') });
  } else {
    // The checkpoint (350 KB of numbers) stays here until asked for: the page needs it only to
    // export the run, and cloning it to the main thread at the end of every run costs a frame.
    const { checkpoint, ...rest } = result;
    hold(runId, checkpoint);
    post({ type: 'finished', runId, result: rest, stopped, ms, core: coreStats('finished') });
  }
}

/** A run failed: its experiment is disposed, then the page is told. */
function failRun(error) {
  disposeExperiment();
  post({ type: 'error', runId, ...errorMessage(error), core: coreStats('error') });
}

/** One update; returns false when the run ended (done, diverged or failed). */
function stepOnce() {
  const t0 = performance.now();
  const [row] = experiment.step(1);
  const bad = divergentFields(row);
  updatesDone = row.update;
  if (bad.length) {
    disposeExperiment();
    post({ type: 'diverged', runId, row, fields: bad, core: coreStats('diverged') });
    return false;
  }
  // `at`: when this update completed, on the clock every realm shares (timeOrigin + now).
  const at = performance.timeOrigin + performance.now();
  post({ type: 'row', runId, row, updatesDone, done: experiment.done, ms: at - performance.timeOrigin - t0, at });
  if (experiment.done) {
    finishRun(false);
    return false;
  }
  return true;
}

function pump() {
  pumping = false;
  if (!running || !experiment) return;
  try {
    if (stepOnce() && running) {
      pumping = true;
      yieldThenPump();
    }
  } catch (error) {
    failRun(error);
  }
}

function schedule() {
  if (!pumping) {
    pumping = true;
    yieldThenPump();
  }
}

async function handle(message) {
  const { type } = message;
  if (inspector.handles(type)) {
    await inspector.handle(message);
    return;
  }
  if (type === 'rollouts') {
    const t0 = performance.now();
    try {
      const checkpoint = message.checkpoint ?? held.get(message.runId) ?? null;
      if (!checkpoint) throw new Error('checkpoint: not available in the worker; send it with the request');
      const result = core.collectRollouts(checkpoint, message.prompts, message.config, {
        seed: message.seed,
        generatorVersion: message.generatorVersion,
      });
      post({ type: 'rollouts', requestId: message.requestId, result, ms: performance.now() - t0 });
    } catch (error) {
      post({ type: 'error', requestId: message.requestId, ...errorMessage(error) });
    }
    return;
  }
  if (type === 'import') {
    // A run file, read, parsed and validated here (core.importRun), never on the page's thread:
    // a 48 MB file costs the page nothing but the history it then receives in slices.
    try {
      const run = message.file ? await readRunFile(message.file) : message.run;
      const { checkpoint, history, ...rest } = validateRun(core, run);
      if (checkpoint) hold(message.runId, checkpoint);
      for (let i = 0; i < history.length; i += HISTORY_SLICE) {
        post({ type: 'import-rows', requestId: message.requestId, rows: history.slice(i, i + HISTORY_SLICE) });
      }
      // The run library's key and size of this run, measured here: stringifying 100 000 rows
      // would hold the page's thread for a third of a second.
      const library = libraryMeasure({ ...rest, history });
      post({ type: 'import', requestId: message.requestId, result: { ...rest, history: null, hasCheckpoint: Boolean(checkpoint) }, library });
    } catch (error) {
      post({ type: 'error', requestId: message.requestId, ...errorMessage(error) });
    }
    return;
  }
  if (type === 'checkpoint') {
    if (held.has(message.runId)) {
      post({ type: 'checkpoint', requestId: message.requestId, result: held.get(message.runId) });
    } else {
      post({ type: 'error', requestId: message.requestId, name: 'Error', message: `checkpoint: run ${message.runId} is no longer held by the worker` });
    }
    return;
  }
  if (type === 'reset') {
    disposeExperiment();
    inspector.reset();
    runId = null;
    post({ type: 'reset', core: coreStats('reset') });
    return;
  }
  if (type === 'start') {
    disposeExperiment();
    core.interruptOn(message.interruptFlag ?? null);
    runId = message.runId;
    updatesDone = 0;
    startedAt = performance.now();
    try {
      experiment = core.createExperiment(message.config);
      inspector.keepLive(runId, experiment); // the step inspector's record of its updates
    } catch (error) {
      failRun(error);
      return;
    }
    const { handle: _handle, ...info } = experiment.info;
    post({ type: 'created', runId, info, ms: performance.now() - startedAt, core: coreStats('created') });
    if (message.autorun) {
      running = true;
      schedule();
    } else {
      try {
        if (stepOnce()) post({ type: 'paused', runId, updatesDone });
      } catch (error) {
        failRun(error);
      }
    }
    return;
  }
  // The rest concern the current run only; a late message for an old run is ignored.
  if (message.runId !== runId || !experiment) return;
  try {
    if (type === 'pause') {
      running = false;
      post({ type: 'paused', runId, updatesDone });
    } else if (type === 'resume') {
      running = true;
      schedule();
    } else if (type === 'step') {
      running = false;
      if (stepOnce()) post({ type: 'paused', runId, updatesDone });
    } else if (type === 'stop') {
      finishRun(true);
    }
  } catch (error) {
    failRun(error);
  }
}

// Messages that arrive while the core loads wait in this queue, then run in order.
const queue = [];
let ready = false;
self.onmessage = ({ data }) => {
  if (!ready) queue.push(data);
  else handle(data);
};

// The threaded core where loadCore takes it by default (an isolated worker on a machine of at least
// THREADED_MIN_CORES cores: 2 threads, the same bytes), except in a seed batch's workers
// (seed-batch.js names them grpo-seeds-N): they already fill the cores. `worker.js?threads=1` asks
// for it on any machine, `?threads=0` never.
const askedThreads = new URL(self.location.href).searchParams.get('threads');
loadCore({ threads: self.name?.startsWith('grpo-seeds-') ? false : askedThreads === null ? undefined : askedThreads === '1' })
  .then((loaded) => {
    core = loaded;
    inspector = inspectorService(core, post);
    ready = true;
    post({ type: 'ready' });
    for (const data of queue.splice(0)) handle(data);
  })
  .catch((error) => post({ type: 'error', fatal: true, ...errorMessage(error) }));
