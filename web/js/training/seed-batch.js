// "Run across seeds": N seeds of one config trained in parallel module Web Workers (the same
// worker.js as a single run, so each seed's numbers are its single run's), one progress for the
// whole batch, pause/resume/stop for all. Runs in an LMS iframe without cross-origin isolation;
// where the page is isolated, Stop also reaches a worker inside a long call (interrupt-flag.js).
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
  const url = workerUrl ?? new URL('./worker.js', import.meta.url);
  performance.mark('grpo:seeds-start'); // a batch starts its workers (compare-link.test.mjs)
  const total = seeds.length * config.updates;
  const perSeed = new Map(seeds.map((s) => [s, 0]));
  const results = new Map();
  const queue = [...seeds];
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

  const progress = () => {
    let done = 0;
    for (const v of perSeed.values()) done += v;
    onProgress({ done, total, finished: results.size, perSeed: new Map(perSeed) });
  };
  const end = (error) => {
    if (settled) return;
    settled = true;
    interrupt(flag); // a worker still inside a long call leaves it, so its termination completes now
    for (const slot of pool) slot.worker.terminate();
    if (stopped) performance.mark('grpo:seeds-ended'); // Stop's end (compare-link.test.mjs)
    if (error) rejectAll(error);
    else resolveAll(seeds.filter((s) => results.has(s)).map((s) => results.get(s)));
  };
  const next = (slot) => {
    if (stopped || !queue.length) {
      slot.runId = null;
      if (pool.every((s) => s.runId === null)) end();
      return;
    }
    const seed = queue.shift();
    slot.seed = seed;
    slot.runId = `seed-${seed}`;
    slot.worker.postMessage({ type: 'start', runId: slot.runId, config: { ...config, seed }, autorun: !paused, interruptFlag: flag });
  };

  for (let i = 0; i < Math.max(1, Math.min(workers, seeds.length)); i += 1) {
    const worker = new Worker(url, { type: 'module', name: `grpo-seeds-${i}` });
    const slot = { worker, seed: null, runId: null };
    worker.addEventListener('message', ({ data }) => {
      if (data.type === 'reset') {
        // Stop without keeping (keepStopped false): the seed's experiment is disposed.
        if (stopped && slot.runId !== null) {
          results.set(slot.seed, { seed: slot.seed, result: null, stopped: true, ms: null });
          next(slot);
        }
        return;
      }
      // After Stop a seed's error is its interrupted call (the flag above): Stop accounts for it.
      if (data.type === 'error' && stopped && !data.fatal) return;
      if (data.type === 'error' && (data.fatal || data.runId === slot.runId)) {
        end(new Error(`seed ${slot.seed}: ${data.message}`));
        return;
      }
      if (data.runId !== slot.runId) return;
      if (data.type === 'row') {
        perSeed.set(slot.seed, data.updatesDone);
        progress();
      } else if (data.type === 'finished') {
        results.set(slot.seed, { seed: slot.seed, result: data.result, stopped: data.stopped, ms: data.ms });
        progress();
        next(slot);
      } else if (data.type === 'diverged') {
        results.set(slot.seed, { seed: slot.seed, result: null, diverged: data.fields, stopped: false, ms: null });
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
     * Ends every running seed now (each measured as it is, or dropped: keepStopped); seeds not
     * yet started are dropped. A seed that has not ended STOP_GRACE_MS later is ended with its
     * worker: {result: null, stopped: true}.
     */
    stop() {
      performance.mark('grpo:seeds-stop');
      stopped = true;
      queue.length = 0;
      if (keepStopped) broadcast('stop');
      else {
        interrupt(flag); // nothing of a running seed is kept: out of its current call at once
        for (const slot of pool) if (slot.runId) slot.worker.postMessage({ type: 'reset' });
      }
      setTimeout(() => {
        if (settled) return;
        for (const slot of pool) {
          if (slot.runId !== null) results.set(slot.seed, { seed: slot.seed, result: null, stopped: true, ms: null });
          slot.runId = null;
        }
        end();
      }, STOP_GRACE_MS);
    },
  };
}

/**
 * Several configs over the same seeds, one config after another (each across its seeds in
 * parallel, as runSeeds): one progress for all of it (onProgress({done, total, finished, n,
 * config})), pause/resume/stop for all. Returns {promise, pause(), resume(), stop(), workers}:
 * promise resolves to one runSeeds result per config that ran (a stop drops the configs after it).
 */
export function runSeedsForEach(configs, seeds, { workers = workerCount(seeds.length), onProgress = () => {}, workerUrl } = {}) {
  const total = configs.reduce((sum, config) => sum + seeds.length * config.updates, 0);
  let current = null;
  let paused = false;
  let stopped = false;
  const promise = (async () => {
    const all = [];
    let before = 0;
    for (const [index, config] of configs.entries()) {
      if (stopped) break;
      current = runSeeds(config, seeds, {
        workers,
        workerUrl,
        onProgress: ({ done, finished }) => onProgress({ done: before + done, total, finished: index * seeds.length + finished, n: configs.length * seeds.length, config: index }),
      });
      if (paused) current.pause();
      all.push(await current.promise);
      before += seeds.length * config.updates;
    }
    return all;
  })();
  return {
    promise,
    workers: Math.max(1, Math.min(workers, seeds.length)),
    pause() {
      paused = true;
      current?.pause();
    },
    resume() {
      paused = false;
      current?.resume();
    },
    stop() {
      stopped = true;
      current?.stop();
    },
  };
}
