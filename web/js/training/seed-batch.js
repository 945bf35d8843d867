// "Run across seeds": N seeds of one config (or of several configs, a seed's back to back in one
// worker) trained in parallel module Web Workers (the same worker.js as a single run, so each
// seed's numbers are its single run's), one progress for the whole batch, pause/resume/stop for
// all. Runs in an LMS iframe without cross-origin isolation; where the page is isolated, Stop also
// reaches a worker inside a long call (interrupt-flag.js).
import { interrupt, interruptFlag } from './interrupt-flag.js';

export const SEEDS_MIN = 1;
export const SEEDS_MAX = 16;
/**
 * How long Stop waits for the seeds to end themselves (each is measured as it is) before their
 * workers are terminated: a worker inside one long call (a warm-up of 100 000 steps, a huge
 * update) reads no message until it returns. Every worker has ended within 1 s of Stop.
 */
export const STOP_GRACE_MS = 400;

/** How many workers for n seeds: min(n, hardwareConcurrency - 1), at least 1. */
export function workerCount(n, cores = globalThis.navigator?.hardwareConcurrency ?? 2) {
  return Math.max(1, Math.min(n, cores - 1));
}

/** The seeds list: n consecutive seeds from `first`; a bad n is a RangeError naming the parameter. */
export function seedList(first, n) {
  if (!Number.isInteger(n) || n < SEEDS_MIN || n > SEEDS_MAX) {
    throw new RangeError(`seeds: must be an integer in [${SEEDS_MIN}, ${SEEDS_MAX}], got ${n}`);
  }
  return Array.from({ length: n }, (_, i) => first + i);
}

/**
 * The worker pool under runSeeds and runSeedsForEach. groups: lists of jobs {id, config, seed},
 * each list run back to back in one worker, so that a seed's configs that share their warm-up
 * (a lesson's two arms) find it in that worker's core (the core keeps its last warm-ups). Returns
 * {promise, pause(), resume(), stop(), workers}: promise resolves to a Map id -> {seed, result,
 * stopped, ms} of the jobs that ended (or were ended by Stop).
 */
function runJobs(groups, { workers, onProgress, workerUrl, keepStopped }) {
  const url = workerUrl ?? new URL('./worker.js', import.meta.url);
  performance.mark('grpo:seeds-start'); // a batch starts its workers (compare-link.test.mjs)
  const queue = groups.map((jobs) => [...jobs]).filter((jobs) => jobs.length);
  const perJob = new Map(queue.flat().map((job) => [job.id, 0]));
  const results = new Map();
  const pool = [];
  // Stop takes a worker out of a long call at once, so its termination completes at once (a busy
  // worker otherwise ends only after the browser's forcible-termination delay, 2 s in Chromium).
  const flag = interruptFlag();
  let paused = false;
  let stopped = false;
  let settled = false;
  let resolveAll;
  let rejectAll;
  const promise = new Promise((resolve, reject) => {
    resolveAll = resolve;
    rejectAll = reject;
  });

  const progress = () => onProgress({ perJob: new Map(perJob), finished: results.size });
  const end = (error) => {
    if (settled) return;
    settled = true;
    interrupt(flag); // a worker still inside a long call leaves it, so its termination completes now
    for (const slot of pool) slot.worker.terminate();
    if (stopped) performance.mark('grpo:seeds-ended'); // Stop's end (compare-link.test.mjs)
    if (error) rejectAll(error);
    else resolveAll(results);
  };
  const next = (slot) => {
    if (!slot.jobs.length && queue.length) slot.jobs = queue.shift();
    if (stopped || !slot.jobs.length) {
      slot.job = null;
      slot.runId = null;
      if (pool.every((s) => s.runId === null)) end();
      return;
    }
    slot.job = slot.jobs.shift();
    slot.runId = `job-${slot.job.id}`;
    slot.worker.postMessage({ type: 'start', runId: slot.runId, config: { ...slot.job.config, seed: slot.job.seed }, autorun: !paused, interruptFlag: flag });
  };
  const record = (slot, fields) => results.set(slot.job.id, { seed: slot.job.seed, ...fields });

  for (let i = 0; i < Math.max(1, Math.min(workers, queue.length)); i += 1) {
    const worker = new Worker(url, { type: 'module', name: `grpo-seeds-${i}` });
    const slot = { worker, jobs: [], job: null, runId: null };
    worker.addEventListener('message', ({ data }) => {
      if (data.type === 'reset') {
        // Stop without keeping (keepStopped false): the job's experiment is disposed.
        if (stopped && slot.runId !== null) {
          record(slot, { result: null, stopped: true, ms: null });
          next(slot);
        }
        return;
      }
      // After Stop a job's error is its interrupted call (the flag above): Stop accounts for it.
      if (data.type === 'error' && stopped && !data.fatal) return;
      if (data.type === 'error' && (data.fatal || data.runId === slot.runId)) {
        end(new Error(`seed ${slot.job?.seed}: ${data.message}`));
        return;
      }
      if (data.runId !== slot.runId) return;
      if (data.type === 'row') {
        perJob.set(slot.job.id, data.updatesDone);
        progress();
      } else if (data.type === 'finished') {
        record(slot, { result: data.result, stopped: data.stopped, ms: data.ms });
        progress();
        next(slot);
      } else if (data.type === 'diverged') {
        record(slot, { result: null, diverged: data.fields, stopped: false, ms: null });
        next(slot);
      }
    });
    worker.addEventListener('error', (event) => {
      event.preventDefault?.();
      end(new Error(event.message || 'a seed worker could not start'));
    });
    pool.push(slot);
  }
  for (const slot of pool) next(slot);

  const broadcast = (type) => {
    for (const slot of pool) if (slot.runId) slot.worker.postMessage({ type, runId: slot.runId });
  };
  return {
    promise,
    workers: pool.length,
    pause() {
      paused = true;
      broadcast('pause');
    },
    resume() {
      paused = false;
      broadcast('resume');
    },
    /**
     * Ends every running job now (each measured as it is, or dropped: keepStopped); jobs not yet
     * started are dropped. A job that has not ended STOP_GRACE_MS later is ended with its worker:
     * {result: null, stopped: true}.
     */
    stop() {
      performance.mark('grpo:seeds-stop');
      stopped = true;
      queue.length = 0;
      for (const slot of pool) slot.jobs = [];
      if (keepStopped) broadcast('stop');
      else {
        interrupt(flag); // nothing of a running job is kept: out of its current call at once
        for (const slot of pool) if (slot.runId) slot.worker.postMessage({ type: 'reset' });
      }
      setTimeout(() => {
        if (settled) return;
        for (const slot of pool) {
          if (slot.runId !== null) record(slot, { result: null, stopped: true, ms: null });
          slot.runId = null;
        }
        end();
      }, STOP_GRACE_MS);
    },
  };
}

/**
 * Starts the batch. config: a validated config (its seed is replaced per run); seeds: the seeds;
 * workers: the pool size (default workerCount); onProgress({done, total, finished, perSeed}) is
 * called on every update of any seed; keepStopped: false when a stopped seed is of no use (a
 * link's run must be whole): Stop then drops each running seed as it is, without its after-RL
 * measurement, so its worker is idle at once and ends at once. Returns {promise, pause(),
 * resume(), stop(), workers}: promise resolves to [{seed, result, stopped, ms}] in seed order
 * (result as the worker's 'finished' message: history, before/after metrics, no checkpoint), or
 * rejects on an error.
 */
export function runSeeds(config, seeds, { workers = workerCount(seeds.length), onProgress = () => {}, workerUrl, keepStopped = true } = {}) {
  const total = seeds.length * config.updates;
  const batch = runJobs(
    seeds.map((seed) => [{ id: seed, config, seed }]),
    {
      workers,
      workerUrl,
      keepStopped,
      onProgress: ({ perJob, finished }) => onProgress({ done: sum(perJob.values()), total, finished, perSeed: perJob }),
    },
  );
  return { ...batch, promise: batch.promise.then((results) => seeds.filter((s) => results.has(s)).map((s) => results.get(s))) };
}

/**
 * Several configs over the same seeds: each seed's configs back to back in one worker (they share
 * the warm-up, which that worker's core then keeps), the seeds across the workers in parallel; one
 * progress for all of it (onProgress({done, total, finished, n})), pause/resume/stop for all.
 * Returns {promise, pause(), resume(), stop(), workers}: promise resolves to one list per config,
 * [{seed, result, stopped, ms}] in seed order of the seeds that ran (a stop drops the rest; the
 * configs that had not started are dropped from the end).
 */
export function runSeedsForEach(configs, seeds, { workers = workerCount(seeds.length), onProgress = () => {}, workerUrl } = {}) {
  const total = configs.reduce((all, config) => all + seeds.length * config.updates, 0);
  const n = configs.length * seeds.length;
  const batch = runJobs(
    seeds.map((seed) => configs.map((config, index) => ({ id: `${index}:${seed}`, config, seed }))),
    { workers, workerUrl, keepStopped: true, onProgress: ({ perJob, finished }) => onProgress({ done: sum(perJob.values()), total, finished, n }) },
  );
  const promise = batch.promise.then((results) => {
    const all = configs.map((_, index) => seeds.filter((s) => results.has(`${index}:${s}`)).map((s) => results.get(`${index}:${s}`)));
    while (all.length && !all[all.length - 1].length) all.pop();
    return all;
  });
  return { ...batch, promise };
}

function sum(values) {
  let total = 0;
  for (const v of values) total += v;
  return total;
}
