// A run's interrupt flag: an Int32Array over a SharedArrayBuffer that a training worker's core
// reads between the time steps of a long call (core.interruptOn), so Stop reaches a worker inside
// one (a warm-up or an update at the config maxima lasts minutes): the call throws 'interrupted'
// within ~0.1 s. Only a cross-origin isolated page has SharedArrayBuffer (docs/hosting.md): null
// elsewhere, where such a worker ends only when its call returns or its termination completes.

/** A new flag, or null where the page cannot share memory with its workers. */
export function interruptFlag() {
  return globalThis.crossOriginIsolated && typeof SharedArrayBuffer === 'function' ? new Int32Array(new SharedArrayBuffer(4)) : null;
}

/** Asks every worker holding `flag` to leave its current call (null: nothing to ask). */
export function interrupt(flag) {
  if (flag) Atomics.store(flag, 0, 1);
}
