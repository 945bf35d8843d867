// English strings of TRL fidelity (issue 26): the learner's entropy, the absent sampler, the
// warnings for settings that train to no effect.
export default {
  'trl.series.learnerEntropy': 'learner entropy (loss tokens)',
  'train.flat.noClipRegion': 'The clip fractions are 0 by definition: lossType {lossType} has no PPO clip region (its weight is capped or gated, not clipped), so there is nothing for clip_ratio/* to count.',
  'train.flat.noneClipped': 'No token\'s ratio left [1 − ε_low, 1 + ε_high] = [{lo}, {hi}] in this run, so the clip fractions stay at 0.',
  'train.flat.noneClippedSeq': 'No completion\'s sequence-level ratio left [1 − ε_low, 1 + ε_high] = [{lo}, {hi}] in this run, so the clip fractions stay at 0.',
  'train.flat.clipSideUnused': 'The clip fractions stay at 0 although some ratios left [{lo}, {hi}]: each left it on the side the clip leaves alone (below with A ≥ 0, above with A ≤ 0), and clip_ratio/* counts only clipped tokens.',
  'train.flat.dualOnly': 'No ratio was clipped at [{lo}, {hi}], so the clip fractions stay at 0; only verl\'s dual clip acted (A < 0, ratio above clip_ratio_c = {c}), and this chart does not draw it (actor/pg_clipfrac_lower in the history).',
  'train.flat.verlOwnClip': 'The clip fractions count the tokens a PPO clip at [{lo}, {hi}] would clip, and no ratio left that range on the side such a clip acts on; verl\'s loss {lossType} does not clip that way in any case.',
  'train.flat.klUnused': 'β = 0: the loss has no KL term, so TRL computes no KL and the KL line is 0. Section 6\'s KL to the base policy (teacher-forced, after RL) is measured outside the loss.',
  'train.flat.klUnusedVerl': 'β = 0: verl’s actor has no KL loss (use_kl_loss is off), so it computes no KL and the KL line is 0. Section 6\'s KL to the base policy (teacher-forced, after RL) is measured outside the loss.',
  'trl.sampler.none': 'No separate sampler in this run (samplerMismatch 0): the rollouts come from the policy itself, so there is no sampler-to-learner ratio and TRL logs no sampling/* metrics.',
  'trl.updates.metrics':
    'The **learner entropy** is TRL’s `entropy`: the policy’s mean per-token entropy during the update, over the tokens the loss uses (a truncated completion leaves them when maskTruncated is on; 0 when every completion is masked). The sampler’s entropy over every sampled completion is the table’s `sampler_entropy`. `frac_reward_zero_std` counts every sampled group, before dynamic sampling drops any, as TRL does; `kl` reads 0 when $\\beta=0$, where TRL logs no `kl` at all.',
  // Settings that train to no effect, and TRL's warnings (core.configWarnings; the core's EN words).
  'warn.title': 'This config trains to no effect, or TRL warns about it:',
  'warn.no_answer_fits': '{field}: no answer fits in {got} token (the shortest, a digit and <eos>, needs {needed}): every completion is truncated, none is correct, nothing is learnt',
  'warn.scratch_cut': '{field}: the scratch task\'s teacher writes up to {needed} {needed#token} with <eos>: its longer completions (the column work, the check) are cut at {got}, truncated and scored 0, so the run can only learn short answers',
  'warn.all_weights_zero': '{field}: every reward weight (correctnessWeight, formatWeight, overlongWeight) is 0, so every reward and every advantage is 0: the policy term has no gradient',
  'warn.delta_below_one': '{field}: {got} < 1 caps the ratio below 1: a token with a positive advantage and a ratio above delta (every token of the first pass, where r = 1) gets no gradient',
  'warn.cispo_cap_low': "{field}: lossType cispo caps every ratio at epsHigh = {got}, at or below 1 where the ratios lie: the coefficient is that constant, the cap clips every token and only scales the gradient (CISPO's recommendation is 5.0)",
  'warn.trl_luspo_token': '{field}: TRL warns that lossType luspo should use importanceSamplingLevel sequence, as its paper does',
  'warn.trl_vespo_sequence': '{field}: TRL warns that VESPO computes its sequence weights itself and the level should be token; the level changes nothing but the bias-corrected KL',
  'warn.trl_sequence_sums': "{field}: TRL warns that at sequence level the {lossType} loss sums per-token terms, weighting each sequence by its length; GSPO's setup is lossType grpo",
};
