// The course's sections in notebook order; each module owns its state keys, text and widgets.
import setup from './setup.js';
import verifier from './verifier.js';
import informativeGroups from './informative-groups.js';
import advantages from './advantages.js';
import reductions from './reductions.js';
import finitePolicy from './finite-policy.js';
import { rlLoop, updates, coverage, realModel } from './training-sections.js';

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
