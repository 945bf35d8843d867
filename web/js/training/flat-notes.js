// Section 7's flat charts say why they are flat (a flat line with no word reads as a broken chart).
import { CLIP_LOSSES } from './verdicts.js';

// The loss types with a PPO clip region: TRL 1.9 logs clip_ratio/* for these only
// (grpo_trainer.py 3242); CISPO caps its detached weight (cispo_clip_ratio), SAPO and VESPO gate it.
const CLIP_REGION = new Set(CLIP_LOSSES);

/** Why the clip chart's lines lie flat at 0, from the run's config and history: [[key, params]]. */
export function clipFlatNotes(config, history) {
  if (!config || !history.length) return [];
  const notes = [];
  const clipped = history.some((row) => row.clipFractionRegion > 0 || row.clipFractionLow > 0 || row.clipFractionHigh > 0);
  if (!CLIP_REGION.has(config.lossType)) notes.push(['train.flat.noClipRegion', { lossType: config.lossType }]);
  else if (!clipped) notes.push(['train.flat.noneClipped', {}]);
  if (config.beta === 0) notes.push(['train.flat.klUnused', {}]);
  return notes;
}
