// The runs picked in section 7's "Compare runs" panel, drawn over every chart of sections 7 and 8
// and added to section 6's before/after table. A small store of its own, so those sections read
// the picks without reaching into the panel (and the panel knows nothing of their charts).
import { COLORS } from '../charts.js';

/** At most this many runs are picked at once. */
export const MAX_OVERLAY = 4;

/**
 * The colour of the j-th pick wherever it is drawn (the panel's chart, sections 7 and 8): the
 * series colours after the two the run on display keeps (its line, or before / after RL), so a
 * pick never takes the colour of the run it is compared with.
 */
export const pickColor = (j) => COLORS[2 + (j % (COLORS.length - 2))];

/** The colour of the run on display when picks are drawn beside it. */
export const ON_DISPLAY_COLOR = COLORS[0];

const listeners = new Set();
let picked = [];

/** runs: [{key, name, config, history, beforeTrain, afterTrain, ...}] as the run library keeps them. */
export function setOverlays(runs) {
  const next = runs.slice(0, MAX_OVERLAY);
  if (next.length === picked.length && next.every((run, i) => run.key === picked[i].key)) return;
  picked = next;
  for (const fn of listeners) fn(picked);
}

export function getOverlays() {
  return picked;
}

/** Calls fn(runs) on every change of the picks; returns the unsubscribe function. */
export function onOverlays(fn) {
  listeners.add(fn);
  return () => listeners.delete(fn);
}

/** The same prompts in the same order (same seed and task): per-prompt numbers compare. */
export function samePrompts(a, b) {
  if (!a?.length || !b?.length || a.length !== b.length) return false;
  return a.every((row, i) => row.promptId === b[i].promptId && row.prompt === b[i].prompt);
}
