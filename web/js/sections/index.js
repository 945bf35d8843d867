// The course's sections in notebook order; each module owns its state keys, text and widgets.
import setup from './setup.js';
import verifier from './verifier.js';
import informativeGroups from './informative-groups.js';
import advantages from './advantages.js';
import reductions from './reductions.js';
import finitePolicy from './finite-policy.js';
import rlLoop from './rl-loop.js';
import updates from './updates.js';
import coverage from './coverage.js';
import realModel from './real-model.js';

export const SECTIONS = [
  setup,
  verifier,
  informativeGroups,
  advantages,
  reductions,
  finitePolicy,
  rlLoop,
  updates,
  coverage,
  realModel,
];

export function sectionById(id) {
  return SECTIONS.find((section) => section.id === id) ?? null;
}
