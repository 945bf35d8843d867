// English strings of the lessons gallery (training/lessons.js, shown in section 7's compare
// panel); merged into en.js. A lesson's claim is a clause: the verdict sentences put it after "that".
export default {
  'plural.seedOf': 'seed|seeds',
  'lesson.title': 'Lessons gallery: why each knob exists, run by run',
  'lesson.explain':
    'Each lesson is one paired comparison: arm A and arm B on the same seeds (the Seeds field above; seeds 0, 1, 2, …), run in the parallel workers, drawn as the mean with its min-max band, and judged by the rule written beside it. A seed shows the lesson when the rule holds for its pair of runs; a lesson shows when at least 70% of the seeds do. The bench also runs a null control (arm A against arm A on seeds 10-19), which the page does not.',
  'lesson.metric.entropy': 'learner’s entropy (TRL’s entropy)',
  'lesson.metric.meanLength': 'mean completion length',
  'lesson.metric.truncatedFraction': 'share of completions truncated',
  'lesson.run': 'Run this lesson',
  'lesson.setup': 'Setup: {setup}. A: {a}. B: {b}.',
  'lesson.rule': 'Rule: {rule}.',
  'lesson.running': 'Lesson “{name}”: {n} {n#run} (2 arms × {seeds} {seeds#seed}) in {workers} {workers#worker}…',
  'lesson.none': 'the profile’s defaults',
  'lesson.verdict.shown': 'Shown on {count} of {n} {n#seedOf} (a lesson needs {need}): {claim}.',
  'lesson.verdict.partly': 'Not shown: only on {count} of {n} {n#seedOf} does it hold that {claim} (a lesson needs {need}).',
  'lesson.verdict.none': 'Did not show on any of the {n} {n#seedOf}: on none of them does it hold that {claim}.',
  'lesson.verdict.noneOne': 'Did not show on this seed: it does not hold that {claim}.',
  'lesson.verdict.empty': 'No pair of runs finished: nothing to judge.',

  'lesson.clipHigher.name': 'Clip-higher (DAPO)',
  'lesson.clipHigher.question': 'With a stale sampler, does ε_high = 0.28 keep entropy higher than 0.2, at equal or better accuracy?',
  'lesson.clipHigher.claim': 'B ends with an entropy higher than A’s by more than {entropy} nats, at a train accuracy at most {accuracy} lower',
  'lesson.clipHigher.values': 'Means over {n} {n#seed}: entropy over the last quarter of the updates {a_entropy} (A) and {b_entropy} (B); train accuracy after RL {a_accuracy} and {b_accuracy}.',

  'lesson.dynamicSampling.name': 'Dynamic sampling (DAPO)',
  'lesson.dynamicSampling.question': 'Dropping the groups whose rewards are all equal: the same accuracy from fewer completions trained on? (Fewer completions, not fewer updates: a dropped group is not resampled here.)',
  'lesson.dynamicSampling.claim': 'B trains on fewer completions than A (it drops the zero-advantage groups) and reaches a train accuracy at most {accuracy} below A’s in the same number of updates',
  'lesson.dynamicSampling.values': 'Means over {n} {n#seed}: share of each generation trained on {a_trained} (A) and {b_trained} (B); share of zero-advantage groups {a_zeroStd} and {b_zeroStd}; train accuracy after RL {a_accuracy} and {b_accuracy}.',

  'lesson.isCorrection.name': 'Importance-sampling correction',
  'lesson.isCorrection.question': 'With a sampler one update behind (mean |Δlog p| well under 0.1), does the correction help accuracy?',
  'lesson.isCorrection.claim': 'B (with the correction) ends with a train accuracy higher than A’s (without it) by more than {accuracy}',
  'lesson.isCorrection.values': 'Means over {n} {n#seed}: train accuracy after RL {a_accuracy} (A) and {b_accuracy} (B); mean |Δlog p| between sampler and learner {a_logpDiff} and {b_logpDiff}.',

  'lesson.klBeta.name': 'KL to the reference (β)',
  'lesson.klBeta.question': 'Does β = 0.04 keep the policy nearer the reference (teacher-forced KL) than β = 0, and at what cost in accuracy?',
  'lesson.klBeta.claim': 'B’s teacher-forced KL to the reference after RL is below {ratio} of A’s',
  'lesson.klBeta.values': 'Means over {n} {n#seed}: teacher-forced KL after RL {a_kl} (A) and {b_kl} (B); train accuracy after RL {a_accuracy} and {b_accuracy}.',

  'lesson.adaptiveEntropy.name': 'Adaptive entropy control',
  'lesson.adaptiveEntropy.question': 'Does the adaptive entropy bonus hold the learner’s entropy near its target?',
  'lesson.adaptiveEntropy.claim': 'B’s entropy over the last quarter of the updates is within {gap} nats of its target, and A’s is not',
  'lesson.adaptiveEntropy.values': 'Means over {n} {n#seed}: entropy over the last quarter {a_entropy} (A) and {b_entropy} (B), distance to the target {a_gap} and {b_gap}.',

  'lesson.overlong.name': 'Overlong punishment (DAPO)',
  'lesson.overlong.question': 'On the variable-length task, does the soft overlong punishment leave fewer truncated completions?',
  'lesson.overlong.claim': 'B’s share of truncated completions over the last quarter of the updates is lower than A’s by more than {truncated}',
  'lesson.overlong.values': 'Means over {n} {n#seed}: share truncated over the last quarter {a_truncated} (A) and {b_truncated} (B); train accuracy after RL {a_accuracy} and {b_accuracy}.',

  'lesson.lengthBias.name': 'Length bias (Dr. GRPO)',
  'lesson.lengthBias.question': 'On the variable-length task, do completions end longer under grpo’s per-completion mean than under dr_grpo? (The lengths of correct and incorrect completions apart are not logged: this compares the mean length.)',
  'lesson.lengthBias.claim': 'B’s mean completion length over the last quarter of the updates is longer than A’s by more than {length} {length#token}',
  'lesson.lengthBias.values': 'Means over {n} {n#seed}: completion length over the last quarter {a_length} (A) and {b_length} (B) tokens; its change from the first quarter {a_growth} and {b_growth}.',

  'lesson.coverage.name': 'Coverage narrows (section 8)',
  'lesson.coverage.question': 'After RL, is success concentrated on fewer prompts, beyond chance, where a run stopped after one update is not?',
  'lesson.coverage.claim': 'section 8’s verdict calls B’s run concentrated (fewer prompts solved beyond chance, accuracy and the best quarter’s share up) and A’s not',
  'lesson.coverage.values': 'Means over {n} {n#seed}: share of runs called concentrated {a_concentrated} (A) and {b_concentrated} (B); train prompts solved at least once after RL {a_solved} and {b_solved}; best quarter’s share {a_share} and {b_share}.',

  'lesson.passAtK.name': 'pass@k crosses (section 8)',
  'lesson.passAtK.question': 'On train prompts, does the base policy’s pass@k overtake the RL policy’s at large k, where a run stopped after one update does not?',
  'lesson.passAtK.claim': 'B’s pass@k on train prompts crosses (RL ahead at small k, the base ahead at larger k, beyond noise) and A’s does not',
  'lesson.passAtK.values': 'Means over {n} {n#seed}: share of runs whose pass@k crossed {a_crossed} (A) and {b_crossed} (B); the k where B’s crossed {b_k}.',

  'lesson.ancestors.name': 'GRPO against its ancestors',
  'lesson.ancestors.question': 'Does GRPO’s group baseline beat plain REINFORCE (no baseline) over the same seeds?',
  'lesson.ancestors.claim': 'B (GRPO) ends with a held-out accuracy higher than A’s (REINFORCE) by more than {accuracy}',
  'lesson.ancestors.values': 'Means over {n} {n#seed}: held-out accuracy after RL {a_accuracy} (A) and {b_accuracy} (B).',
};
