// Section 7's flat charts say why they are flat (a flat line with no word reads as a broken chart).
// Each note is chosen by the run's loss (verdicts.js clipRegime: one place says which losses clip
// how) and its numbers, so it is true for the run it is printed under.
import { bound, clipRegime, ratioRange } from './verdicts.js';

/** Why the clip chart's lines lie flat at 0, from the run's config and history: [[key, params]]. */
export function clipFlatNotes(config, history) {
  if (!config || !history.length) return [];
  const notes = [];
  const clipped = history.some((row) => row.clipFractionRegion > 0 || row.clipFractionLow > 0 || row.clipFractionHigh > 0);
  const regime = clipRegime(config);
  if (regime.kind === 'clip') {
    if (!clipped) {
      const { min, max, dual: dualShare } = ratioRange(history);
      const dual = regime.dual ? dualShare : 0;
      const bounds = { lo: bound(regime.lo), hi: bound(regime.hi) };
      // The ratios left the range only where the minimum keeps the unclipped branch (or verl's dual clip acts).
      if (dual > 0) notes.push(['train.flat.dualOnly', { ...bounds, c: String(regime.dual) }]);
      else if (min < regime.lo || max > regime.hi) notes.push(['train.flat.clipSideUnused', bounds]);
      else notes.push([regime.unit === 'sequence' ? 'train.flat.noneClippedSeq' : 'train.flat.noneClipped', bounds]);
    }
  } else if (!regime.verl) {
    // TRL logs clip_ratio/* for the clip family only: the other losses' columns are 0 by definition.
    notes.push(['train.flat.noClipRegion', { lossType: regime.loss }]);
  } else if (!clipped) {
    // With engine verl the columns count what a PPO clip would clip, whatever verl's loss does.
    notes.push(['train.flat.verlOwnClip', { lossType: regime.loss, lo: bound(regime.ppo.lo), hi: bound(regime.ppo.hi) }]);
  }
  // verl's actor adds a KL loss only with use_kl_loss (section 9's launch sets it from β > 0).
  if (config.beta === 0) notes.push([regime.verl ? 'train.flat.klUnusedVerl' : 'train.flat.klUnused', {}]);
  return notes;
}
