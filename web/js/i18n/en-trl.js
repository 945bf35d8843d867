// English strings of TRL fidelity (issue 26): the learner's entropy, the absent sampler, the
// warnings for settings that train to no effect.
export default {
  'trl.series.learnerEntropy': 'learner entropy (loss tokens)',
  'trl.sampler.none': 'No separate sampler in this run (samplerMismatch 0): the rollouts come from the policy itself, so there is no sampler-to-learner ratio and TRL logs no sampling/* metrics.',
  'trl.updates.metrics':
    'The **learner entropy** is TRL’s `entropy`: the policy’s mean per-token entropy during the update, over the tokens the loss uses (a truncated completion leaves them when maskTruncated is on; 0 when every completion is masked). The sampler’s entropy over every sampled completion is the table’s `sampler_entropy`. `frac_reward_zero_std` counts every sampled group, before dynamic sampling drops any, as TRL does; `kl` reads 0 when $\\beta=0$, where TRL logs no `kl` at all.',
};
