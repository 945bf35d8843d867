// The sentences of sections 6-8 that describe a run, each chosen by a rule of
// web/js/training/verdicts.js (docs/coverage.md, "Verdicts"). {count#noun} is the form of
// plural.noun that agrees with count (i18n.js pluralForm).
export default {
  'plural.update': 'update|updates',
  'plural.updateOf': 'update|updates',
  'plural.prompt': 'prompt|prompts',
  'plural.promptOf': 'prompt|prompts',
  'plural.row': 'row|rows',
  'plural.answer': 'answer|answers',
  'plural.answerOf': 'answer|answers',
  'plural.answerDat': 'answer|answers',
  'plural.completion': 'completion|completions',
  'plural.token': 'token|tokens',
  'plural.tokenOf': 'token|tokens',
  'plural.seed': 'seed|seeds',
  'plural.seedDat': 'seed|seeds',
  'plural.seedPer': 'seed|seeds',
  'plural.run': 'run|runs',
  'plural.runOf': 'run|runs',
  'plural.worker': 'worker|workers',
  'plural.workerIn': 'worker|workers',
  'plural.batch': 'batch|batches',

  // --- section 6 ---------------------------------------------------------------------------------
  'verdict.rl.train.rose':
    'In this run train accuracy rose from {acc0} to {acc1} ({samples} fresh {samples#completion} for each of {prompts} {prompts#promptOf}; a change within ±{noise} would be noise).',
  'verdict.rl.train.fell':
    'In this run train accuracy fell from {acc0} to {acc1} ({samples} fresh {samples#completion} for each of {prompts} {prompts#promptOf}; a change within ±{noise} would be noise).',
  'verdict.rl.train.flat':
    'In this run train accuracy did not change beyond noise: {acc0} → {acc1}, within ±{noise} ({samples} fresh {samples#completion} for each of {prompts} {prompts#promptOf}).',
  'verdict.rl.entropy.fell':
    'The entropy of the completions fell from {h0} to {h1}; the teacher-forced KL from the base policy ended at {kl1}.',
  'verdict.rl.entropy.rose':
    'The entropy of the completions rose from {h0} to {h1}; the teacher-forced KL from the base policy ended at {kl1}.',
  'verdict.rl.entropy.flat':
    'The entropy of the completions changed by less than {floor} nats ({h0} → {h1}); the teacher-forced KL from the base policy ended at {kl1}.',
  'verdict.rl.held.rose': 'On held-out prompts, never trained on, accuracy rose from {acc0} to {acc1} (noise ±{noise}).',
  'verdict.rl.held.fell': 'On held-out prompts, never trained on, accuracy fell from {acc0} to {acc1} (noise ±{noise}).',
  'verdict.rl.held.flat': 'On held-out prompts, never trained on, accuracy did not change beyond noise: {acc0} → {acc1}, within ±{noise}.',
  'verdict.rl.transfer.carried':
    'The held-out change ({dh}) is level with the train change ({dt}) within noise (±{noise}), or above it: in this run what was learnt carried over.',
  'verdict.rl.transfer.partly':
    'The held-out gain ({dh}) is smaller than the train gain ({dt}) beyond noise (±{noise}): what RL gained on the prompts it practised carried over only in part.',
  'verdict.rl.transfer.notFlat': 'So the train gain ({dt}) did not carry over to prompts never trained on.',
  'verdict.rl.transfer.notFell': 'So the train gain ({dt}) did not carry over: on prompts never trained on, accuracy fell ({dh}).',
  'verdict.rl.transfer.less': 'The held-out change ({dh}) is below the train change ({dt}) beyond noise (±{noise}).',
  'verdict.rl.transfer.more': 'The held-out change ({dh}) is above the train change ({dt}) beyond noise (±{noise}).',
  'verdict.rl.transfer.same': 'The held-out change ({dh}) and the train change ({dt}) are level within noise (±{noise}).',
  'verdict.rl.pass4.rose': 'Held-out pass@4 rose from {p0} to {p1} (noise ±{noise}): more held-out prompts are solved within 4 tries.',
  'verdict.rl.pass4.fell': 'Held-out pass@4 fell from {p0} to {p1} (noise ±{noise}): fewer held-out prompts are solved within 4 tries.',
  'verdict.rl.pass4.flat': 'Held-out pass@4 did not change beyond noise: {p0} → {p1}, within ±{noise}.',

  // --- section 7 ---------------------------------------------------------------------------------
  'verdict.updates.summary.eval':
    'Over {n} {n#update}: train accuracy {acc0} → {acc1} and entropy {h0} → {h1} ({samples}-completion evaluations before and after RL, as in sections 6 and 8); informative-group rate {info0} → {info1} (means of the first and the last {w} {w#update}); the ratios stayed within [{rmin}, {rmax}].',
  'verdict.updates.summary.window':
    'Over {n} {n#update} so far: fresh-generation accuracy {acc0} → {acc1}, entropy {h0} → {h1}, informative-group rate {info0} → {info1} (means of the first and the last {w} {w#update}); the ratios stayed within [{rmin}, {rmax}].',
  'verdict.updates.signal': 'In this run every one of the {n} {n#updateOf} had informative groups (rate between {min} and {max}).',
  'verdict.updates.silent':
    'In this run {silent} of the {n} {n#updateOf} had no informative group at all (rate between {min} and {max}): those updates carried no reward signal.',
  'verdict.updates.silentOutside':
    'In this run {silent} of the {n} {n#updateOf} had no informative group at all (rate between {min} and {max}): no group’s rewards differed within it. The {est} advantage estimator does not take its baseline from the group, so such an update still moves the policy wherever a reward differs from that baseline.',
  'verdict.updates.rate.fell':
    'The informative-group rate fell from {start} (mean of updates 1–{w}) to {end} (updates {from}–{n}), by more than its noise (±{noise}).',
  'verdict.updates.rate.rose':
    'The informative-group rate rose from {start} (mean of updates 1–{w}) to {end} (updates {from}–{n}), by more than its noise (±{noise}).',
  'verdict.updates.rate.flat':
    'The informative-group rate did not change beyond its noise (±{noise}): {start} in updates 1–{w}, {end} in updates {from}–{n}.',
  'verdict.updates.cause.succeeds':
    'Train accuracy rose ({acc0} → {acc1}), and the groups that stopped disagreeing are mostly ones the policy now gets all right: by the evaluations, a group of {g} {g#completion} for one prompt is all right with chance {r0} → {r1}, all wrong {w0} → {w1}. As the policy succeeds on a prompt, its groups stop disagreeing.',
  'verdict.updates.cause.polarized':
    'Train accuracy rose ({acc0} → {acc1}), but the groups that stopped disagreeing are more often all wrong than all right: by the evaluations, a group of {g} {g#completion} for one prompt is all wrong with chance {w0} → {w1}, all right {r0} → {r1}. The policy gained on some prompts and gave up on others: not only success silences the groups.',
  'verdict.updates.cause.notInEval':
    'Train accuracy rose ({acc0} → {acc1}), but by the evaluations a group of {g} {g#completion} for one prompt is not more often all right or all wrong (all right {r0} → {r1}, all wrong {w0} → {w1}): the fall shows in the training batches, not in the evaluations before and after RL.',
  'verdict.updates.cause.risingSoFar':
    'Train accuracy has risen so far ({acc0} → {acc1}); whether the groups stopped disagreeing because their completions are all right or all wrong, the evaluations at the end of the run will say.',
  'verdict.updates.cause.formatOnly':
    'The groups whose correctness differs did not fall beyond noise ({c0} → {c1}, ±{noise}): the fall ({drop}) is in the groups that differ only in format (down {fdrop}), which says nothing about the completions becoming right.',
  'verdict.updates.cause.alike':
    'Train accuracy did not rise ({acc0} → {acc1}) while the entropy fell to {h1}: the groups stopped disagreeing because the policy answers alike, right or wrong, not because it succeeds.',
  'verdict.updates.cause.notSucceeds': 'Train accuracy did not rise ({acc0} → {acc1}): the groups stopped disagreeing, but not because the policy succeeds.',
  'verdict.updates.split':
    'By cause, as shares of all groups: groups whose correctness differs went {c0} → {c1}; groups that differ only in the format reward (or the overlong punishment) went {f0} → {f1}.',
  'verdict.updates.formatFall':
    'Most of that fall ({fdrop} of {drop}) is the format-only part: fewer groups differ in format alone, which says nothing about the answers becoming right.',
  'verdict.updates.formatDominates':
    'In the last {w} {w#update} more groups differ only in format ({f1} of all groups) than in correctness ({c1}): most of the signal there teaches the format reward, not the answer.',
  'verdict.updates.allWrong.off':
    'With the format reward off and no overlong punishment, a group whose completions are all wrong has equal rewards and zero advantages: it teaches nothing.',
  'verdict.updates.allWrong.outside':
    'With the format reward off and no overlong punishment, a group whose completions are all wrong has equal rewards, but the {est} advantage estimator does not take its baseline from the group: its advantages are zero only when that baseline equals its rewards, so such a group can still push its completions down.',
  'verdict.updates.allWrong.format':
    'With the format reward on (weight {w}), a group whose completions are all wrong still carries a gradient when their format differs: rewards of {w} (well formed) and 0 in one group are not equal, so its advantages are not zero, and they teach format, not correctness.',
  'verdict.updates.allWrong.overlong':
    'With the overlong punishment on (weight {w}), a group whose completions are all wrong still carries a gradient when the punishment hits their lengths unequally (it is 0 up to the length limit minus its cache, then grows linearly): its rewards are then not equal, so its advantages are not zero.',
  'verdict.updates.ratios.clip':
    'The ratios stayed within [{rmin}, {rmax}]; in any one update at most {clip}% of tokens were clipped (ratio below {lo} with A < 0, or above {hi} with A > 0).',
  'verdict.updates.ratios.clipSeq':
    'The ratios stayed within [{rmin}, {rmax}]; in any one update at most {clip}% of completions were clipped (sequence-level ratio below {lo} with A < 0, or above {hi} with A > 0).',
  'verdict.updates.ratios.clipNone':
    'The ratios stayed within [{rmin}, {rmax}]; no token was clipped in any update (the clip acts on a ratio below {lo} with A < 0, or above {hi} with A > 0).',
  'verdict.updates.ratios.clipSeqNone':
    'The ratios stayed within [{rmin}, {rmax}]; no completion was clipped in any update (the clip acts on a sequence-level ratio below {lo} with A < 0, or above {hi} with A > 0).',
  'verdict.updates.ratios.unclipped':
    'The ratios that left [{lo}, {hi}] did so on the side where the clip does not act (below {lo} with A ≥ 0, or above {hi} with A ≤ 0): the minimum keeps the unclipped, more pessimistic branch, so the clip chart stays at 0.',
  'verdict.updates.ratios.cispo':
    'The ratios stayed within [{rmin}, {rmax}]. CISPO clips no token out of the gradient: it caps each token’s importance weight at ε high = {hi} (the cap carries no gradient) and has no lower bound, so the clip chart stays at 0; in any one update at most {capped}% of tokens (with A > 0) had their weight capped.',
  'verdict.updates.ratios.cispoNone':
    'The ratios stayed within [{rmin}, {rmax}]. CISPO clips no token out of the gradient: it caps each token’s importance weight at ε high = {hi} (the cap carries no gradient) and has no lower bound, so the clip chart stays at 0; in this run no ratio reached the cap, so no weight was capped.',
  'verdict.updates.ratios.cispoUncounted':
    'The ratios stayed within [{rmin}, {rmax}]. CISPO clips no token out of the gradient: it caps each token’s importance weight at ε high = {hi} (the cap carries no gradient) and has no lower bound, so the clip chart stays at 0; the ratios above the cap were all on tokens with A ≤ 0, whose weight is capped too but which cispo_clip_ratio does not count (it counts A > 0 only: 0 here).',
  'verdict.updates.ratios.noClip': 'The ratios stayed within [{rmin}, {rmax}]. The loss {loss} has no PPO-style clip, so the clip chart stays at 0.',

  'verdict.updates.ratios.noClipVerl':
    'The ratios stayed within [{rmin}, {rmax}]. verl’s loss {loss} clips no ratio; the clip chart counts the tokens a PPO clip at [{plo}, {phi}] would have clipped (at most {clip}% in any one update), which this loss did not clip.',
  'verdict.updates.ratios.noClipVerlNone':
    'The ratios stayed within [{rmin}, {rmax}]. verl’s loss {loss} clips no ratio, so the clip chart, which counts the tokens a PPO clip at [{plo}, {phi}] would have clipped, stays at 0.',
  'verdict.updates.ratios.geoMean':
    'The ratios stayed within [{rmin}, {rmax}]. GMPO (verl’s geo_mean) clips each token’s log-ratio to [−{el}, {eh}], a ratio within [{lo}, {hi}], and trains on the completion’s geometric mean; in any one update at most {clip}% of tokens with A ≠ 0 had a log-ratio outside that range (verl’s actor/pg_clipfrac and actor/pg_clipfrac_lower). The clip chart counts a PPO clip’s range [{plo}, {phi}] instead.',
  'verdict.updates.ratios.geoMeanNone':
    'The ratios stayed within [{rmin}, {rmax}]. GMPO (verl’s geo_mean) clips each token’s log-ratio to [−{el}, {eh}], a ratio within [{lo}, {hi}], and trains on the completion’s geometric mean; in this run no token with A ≠ 0 had a log-ratio outside that range. The clip chart counts a PPO clip’s range [{plo}, {phi}] instead.',
  'verdict.updates.ratios.verlGspo':
    'The ratios stayed within [{rmin}, {rmax}]. verl’s gspo clips each completion’s sequence-level ratio to [{plo}, {phi}] on the side of its advantage; in any one update at most {clip}% of tokens belonged to a clipped completion (verl’s actor/pg_clipfrac). The clip chart counts token ratios instead.',
  'verdict.updates.ratios.verlGspoNone':
    'The ratios stayed within [{rmin}, {rmax}]. verl’s gspo clips each completion’s sequence-level ratio to [{plo}, {phi}] on the side of its advantage; no completion was clipped in this run (verl’s actor/pg_clipfrac is 0). The clip chart counts token ratios instead.',
  'verdict.updates.ratios.verlCispo':
    'The ratios stayed within [{rmin}, {rmax}]. verl’s cispo clips no token out of the gradient: it caps each token’s importance weight to [{plo}, {phi}], on both sides, whatever the sign of A (the cap carries no gradient); in any one update at most {clip}% of tokens had their weight capped (verl’s actor/pg_clipfrac).',
  'verdict.updates.ratios.verlCispoNone':
    'The ratios stayed within [{rmin}, {rmax}]. verl’s cispo clips no token out of the gradient: it caps each token’s importance weight to [{plo}, {phi}], on both sides, whatever the sign of A (the cap carries no gradient); in this run no weight was capped (verl’s actor/pg_clipfrac is 0).',
  'verdict.updates.ratios.dualClip':
    'verl’s dual clip capped the loss of tokens with A < 0 whose ratio passed clip_ratio_c = {c}: at most {dual}% of tokens in any one update (verl’s actor/pg_clipfrac_lower).',

  // --- section 8 ---------------------------------------------------------------------------------
  'verdict.coverage.summary':
    '{n} train {n#prompt}, {samples} fresh {samples#completion} for each. Mean accuracy {mean0} → {mean1}. Solved at least once: {solved0} → {solved1} ({lost} lost all success, {gained} newly solved). Share of all successes held by the best quarter ({top} {top#prompt}): {share0} → {share1}.',
  'verdict.coverage.heldout': 'Held-out ({n} {n#prompt}): solved at least once {solved0} → {solved1}, mean accuracy {mean0} → {mean1}.',
  'verdict.coverage.concentrated':
    'In this run success concentrated on fewer prompts, as the notebook says: mean accuracy rose ({mean0} → {mean1}), {lost} {lost#prompt} lost all success, more than chance explains (up to {chance}), and the best quarter’s share grew beyond noise ({share0} → {share1}).',
  'verdict.coverage.lostCoverage':
    'In this run RL lost coverage: {lost} {lost#prompt} lost all success, more than chance explains (up to {chance}; solved {solved0} → {solved1}), while mean accuracy did not rise ({mean0} → {mean1}). This is not the notebook’s trade of coverage for accuracy; the best quarter’s share went {share0} → {share1}.',
  'verdict.coverage.narrowNoShare':
    'In this run fewer prompts were solved ({lost} lost all success, more than chance explains, up to {chance}) and mean accuracy rose ({mean0} → {mean1}), but the best quarter’s share did not grow beyond noise ({share0} → {share1}): success did not concentrate as the notebook says.',
  'verdict.coverage.spread':
    'In this run success spread: {gained} {gained#prompt} unsolved before RL were solved after it, more than chance explains (up to {chance}; solved {solved0} → {solved1}); mean accuracy {mean0} → {mean1}.',
  'verdict.coverage.same.rose':
    'In this run the number of prompts solved at least once did not change beyond chance ({solved0} → {solved1}; up to {chance} of the solved prompts would show no success by chance alone), so success did not concentrate on fewer prompts; mean accuracy rose ({mean0} → {mean1}).',
  'verdict.coverage.same.fell':
    'In this run the number of prompts solved at least once did not change beyond chance ({solved0} → {solved1}; up to {chance} of the solved prompts would show no success by chance alone), so success did not concentrate on fewer prompts; mean accuracy fell ({mean0} → {mean1}).',
  'verdict.coverage.same.flat':
    'In this run the number of prompts solved at least once did not change beyond chance ({solved0} → {solved1}; up to {chance} of the solved prompts would show no success by chance alone), and mean accuracy did not change beyond noise either ({mean0} → {mean1}).',
  'verdict.coverage.lostBeyond':
    '{lost} of the {n} train {n#promptOf} showed no success in {samples} {samples#completion} after RL although they had some before; an unchanged policy would lose about {expected} that way by chance (chance alone explains up to {bound}), so chance alone does not explain them. A lost prompt is below about {floor}% success per completion, not at zero.',
  'verdict.coverage.lostWithin':
    '{lost} of the {n} train {n#promptOf} showed no success in {samples} {samples#completion} after RL although they had some before; an unchanged policy would lose about {expected} that way by chance (chance alone explains up to {bound}), so these losses are within chance. A prompt shown as lost is below about {floor}% success per completion, not at zero.',
  'verdict.coverage.lostNone':
    'No train prompt that had a success before RL was left without one after it, in {samples} {samples#completion} each. A prompt shown as lost would be below about {floor}% success per completion, not at zero.',
  'verdict.coverage.allWrong.off':
    'With the format reward off, a group of all-wrong completions has equal rewards: a prompt the policy never solves produces no gradient, and one it always solves produces none either.',
  'verdict.coverage.allWrong.outside':
    'With the format reward off, the {est} advantage estimator does not take its baseline from the group: a prompt the policy never solves, or always solves, still produces a gradient whenever that baseline differs from its rewards.',
  'verdict.coverage.allWrong.none':
    'With the format reward off, the {est} advantage estimator uses no baseline: a prompt the policy never solves has rewards 0, so zero advantages and no gradient, but one it always solves has positive advantages and is pushed further up.',
  'verdict.coverage.allWrong.format':
    'With the format reward on (weight {w}), a prompt the policy never solves still produces a gradient whenever its completions differ in format: the update pushes it towards well-formed completions, right or not.',
  'verdict.coverage.allWrong.overlong':
    'With the overlong punishment on (weight {w}), a prompt the policy never solves still produces a gradient whenever the punishment hits its completions unequally, that is when at least one of them is longer than the length limit minus the punishment’s cache and their lengths differ.',
  'verdict.on.train': 'On train prompts',
  'verdict.on.heldout': 'On held-out prompts',
  'verdict.passAtK.crossed':
    '{split} the RL policy is ahead at small k (pass@1 {a1} → {b1}) and the base policy overtakes it at k = {k} (pass@{k}: base {ak}, RL {bk}): RL sharpened what the base policy could already do more than it expanded it.',
  'verdict.passAtK.reverse':
    '{split} the base policy is ahead at small k (pass@1 {a1} → {b1}) and the RL policy overtakes it at k = {k} (pass@{k}: base {ak}, RL {bk}).',
  'verdict.passAtK.rlAhead':
    '{split} the curves never cross up to k = {n}: the RL policy is ahead, or level within noise, at every k (pass@1 {a1} → {b1}, pass@{n} {an} → {bn}).',
  'verdict.passAtK.baseAhead':
    '{split} the RL policy is ahead at no k up to {n}, and the base policy is ahead beyond noise at k = {ks} (level within noise at the other k): the curves never cross, and RL is not sharper here (pass@1 {a1} → {b1}, pass@{n} {an} → {bn}).',
  'verdict.passAtK.baseAll':
    '{split} the base policy is ahead beyond noise at every k up to {n}, so the curves never cross: RL is worse here at every k, not sharper (pass@1 {a1} → {b1}, pass@{n} {an} → {bn}).',
  'verdict.passAtK.level': '{split} the two curves are level within noise at every k up to {n} (pass@1 {a1} → {b1}, pass@{n} {an} → {bn}).',
  'verdict.passAtK.both.crossed':
    'On train and held-out prompts alike the RL policy is ahead at small k (pass@1 on train {a1} → {b1}, on held-out {ha1} → {hb1}) and the base policy overtakes it, at k = {k} on train (pass@{k}: base {ak}, RL {bk}) and k = {hk} on held-out (pass@{hk}: base {hak}, RL {hbk}): RL sharpened what the base policy could already do more than it expanded it.',
  'verdict.passAtK.both.reverse':
    'On train and held-out prompts alike the base policy is ahead at small k (pass@1 on train {a1} → {b1}, on held-out {ha1} → {hb1}) and the RL policy overtakes it, at k = {k} on train (pass@{k}: base {ak}, RL {bk}) and k = {hk} on held-out (pass@{hk}: base {hak}, RL {hbk}).',
  'verdict.passAtK.both.rlAhead':
    'On train and held-out prompts the curves never cross up to k = {n}: the RL policy is ahead, or level within noise, at every k (pass@1 on train {a1} → {b1}, on held-out {ha1} → {hb1}).',
  'verdict.passAtK.both.baseAhead':
    'On train and held-out prompts the RL policy is ahead at no k up to {n}, and the base policy is ahead beyond noise at k = {ks} on train and k = {hks} on held-out (level within noise at the other k): the curves never cross, and RL is not sharper (pass@1 on train {a1} → {b1}, on held-out {ha1} → {hb1}).',
  'verdict.passAtK.both.baseAll':
    'On train and held-out prompts the base policy is ahead beyond noise at every k up to {n}, so the curves never cross: RL is worse at every k, not sharper (pass@1 on train {a1} → {b1}, on held-out {ha1} → {hb1}).',
  'verdict.passAtK.both.level':
    'On train and held-out prompts the two curves are level within noise at every k up to {n} (pass@1 on train {a1} → {b1}, on held-out {ha1} → {hb1}).',
};
