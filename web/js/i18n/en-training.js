// English strings of sections 6-9 (training in the page); merged into en.js. Same markup as en.js:
// $tex$, $$display tex$$, `code`, **strong**, blank line = new paragraph; {name} = parameter.
export default {
  // --- run controls (sections 6, and 7-8 when embedded) ---------------------------------------
  'train.controls': 'Training controls',
  'train.dock.label': 'Training controls for the charts on screen',
  'train.dock.settings': 'Settings',
  'train.run': 'Run',
  'train.resume': 'Resume',
  'train.pause': 'Pause',
  'train.step': 'Step',
  'train.stop': 'Stop',
  'train.reset': 'Reset',
  'train.runTitle': 'Train with this config in a background worker, all updates',
  'train.pauseTitle': 'Pause after the current update',
  'train.stepTitle': 'Run exactly one update, then wait',
  'train.stopTitle': 'End the run now and measure the policy as it is',
  'train.resetTitle': 'Discard this run and show the precomputed one again',
  'train.progressLabel': 'Updates done',
  'train.progress': '{done} / {total} updates',
  'train.elapsed': 'elapsed {time}',
  'train.eta': 'about {time} left',
  'train.took': 'took {time}',
  'train.warmup': 'warming up the base policy and measuring it before RL…',
  'train.measuring': 'measuring the policy after RL…',
  'train.refused': 'Not started: {message}',
  'train.fixForm': 'fix the highlighted field first',
  'train.source.loading': 'Loading the precomputed run…',
  'train.source.empty':
    'No precomputed run is available ({error}). Press **Run** to train one: the smoke profile takes a few seconds.',
  'train.source.precomputed':
    'On display: the **precomputed** smoke run (profile `{profile}`, seed {seed}, lossType `{lossType}`, {updates} updates), computed when the page was built by this same core (`tools/precompute.mjs`). Press **Run** to train your own in this tab.',
  'train.source.live': 'On display: **your run** (profile `{profile}`, seed {seed}, lossType `{lossType}`, {updates} updates), trained in this tab.',
  'train.source.imported': 'On display: the run imported from `{file}` (profile `{profile}`, seed {seed}, lossType `{lossType}`), not retrained.',
  'train.diverged':
    'The run diverged at update {update}: {fields} became NaN or infinite, so training stopped there. The charts and the history show the updates up to that point. Lower the learning rate, lower the clip range or raise the temperature, then run again.',
  'train.error': 'The run stopped with an error: {message}',
  'train.announce.started': 'Training started: {total} updates.',
  'train.announce.progress': 'Training: {percent}% done ({done} of {total} updates).',
  'train.announce.paused': 'Paused after update {done} of {total}.',
  'train.announce.resumed': 'Resumed at update {done} of {total}.',
  'train.announce.finished': 'Finished {total} updates in {time}. Train accuracy {before} before RL, {after} after.',
  'train.announce.stopped': 'Stopped after update {done} of {total}; the policy was measured as it is.',
  'train.announce.diverged': 'The run diverged at update {update} and stopped.',
  'train.announce.showing': 'Showing a finished run.',

  // --- section 6 ----------------------------------------------------------------------------------
  'train.rl.explain':
    'Here the policy is a tiny causal language model: a token embedding, one GRU layer and a linear head over a 16-token vocabulary (digits, `+`, `-`, `=`, end of sequence). A short supervised warm-up on a noisy teacher teaches it the answer format and makes it right only sometimes, as SFT does before RL. Every update then draws `promptBatch` train prompts, samples a group of $G$ responses per prompt from the frozen old policy $\\pi_{\\text{old}}$, scores each with the verifier of section 1 (reward = correctness + 0.1 × format), turns the rewards into group-relative advantages $\\hat A_i$ (section 3), and takes `updateEpochs` Adam steps on the clipped surrogate, reduced over tokens by `lossType` (section 4):\n\n$$\\mathcal{J}(\\theta)=\\frac{1}{Z}\\sum_{i=1}^{G}\\sum_{t=1}^{|o_i|}\\min\\Big(\\rho_{i,t}\\hat A_i,\\ \\operatorname{clip}\\big(\\rho_{i,t},1-\\varepsilon_{\\text{low}},1+\\varepsilon_{\\text{high}}\\big)\\hat A_i\\Big)-\\beta\\,\\widehat{\\mathrm{KL}}\\big[\\pi_\\theta\\,\\|\\,\\pi_{\\text{ref}}\\big]$$\n\n$$\\rho_{i,t}=\\frac{\\pi_\\theta(o_{i,t}\\mid q,o_{i,<t})}{\\pi_{\\text{old}}(o_{i,t}\\mid q,o_{i,<t})}$$\n\nAccuracy is always measured by **fresh generation** after the update, never from the rewards the update trained on. Training runs in a background worker on your CPU, one message per update, so the page stays responsive; every number below is computed by the same C++ core as sections 1-5.',
  'train.configTitle': 'Config (the notebook’s defaults for the chosen profile)',
  'train.field.profile': 'profile',
  'train.field.seed': 'seed',
  'train.hint.seed': 'Every random draw of the run derives from it.',
  'train.field.groupSize': 'group size G (groupSize)',
  'train.field.promptBatch': 'prompts per update (promptBatch)',
  'train.field.updates': 'updates',
  'train.field.updateEpochs': 'epochs per update (updateEpochs)',
  'train.field.lossType': 'loss reduction (lossType)',
  'train.field.scaleRewards': 'reward scaling (scaleRewards)',
  'train.field.epsLow': 'ε low (epsLow)',
  'train.field.epsHigh': 'ε high (epsHigh)',
  'train.field.beta': 'KL weight β (beta)',
  'train.field.temperature': 'temperature',
  'train.field.learningRate': 'learning rate (learningRate)',
  'train.field.maxNewTokens': 'max new tokens (maxNewTokens)',
  'train.field.dynamicSampling': 'dynamic sampling: drop groups with equal rewards (dynamicSampling)',
  'train.field.maskTruncated': 'mask truncated responses (maskTruncated)',
  'train.field.importanceSamplingLevel': 'importance ratio level (importanceSamplingLevel)',
  'train.field.sapoTemperaturePos': 'SAPO gate temperature, A > 0 (sapoTemperaturePos)',
  'train.field.sapoTemperatureNeg': 'SAPO gate temperature, A ≤ 0 (sapoTemperatureNeg)',
  'train.field.vespoKPos': 'VESPO shape k, A ≥ 0 (vespoKPos)',
  'train.field.vespoLambdaPos': 'VESPO rate λ, A ≥ 0 (vespoLambdaPos)',
  'train.field.vespoKNeg': 'VESPO shape k, A < 0 (vespoKNeg)',
  'train.field.vespoLambdaNeg': 'VESPO rate λ, A < 0 (vespoLambdaNeg)',
  'train.field.topEntropyQuantile': 'train only the top fraction of tokens by entropy (topEntropyQuantile)',
  'train.field.useBiasCorrectionKl': 'KL term times the ratio (useBiasCorrectionKl)',
  'train.field.trainPrompts': 'train prompts (trainPrompts)',
  'train.field.heldoutPrompts': 'held-out prompts (heldoutPrompts)',
  'train.field.maxOperand': 'largest operand (maxOperand)',
  'train.field.formatWeight': 'format reward weight (formatWeight)',
  'train.field.embed': 'embedding size E (embed)',
  'train.field.hidden': 'GRU hidden size H (hidden)',
  'train.field.warmupSteps': 'warm-up steps (warmupSteps)',
  'train.field.warmupLearningRate': 'warm-up learning rate (warmupLearningRate)',
  'train.field.teacherAccuracy': 'teacher accuracy in the warm-up (teacherAccuracy)',
  'train.field.maxGradNorm': 'gradient norm clip (maxGradNorm)',
  'train.field.evalSamples': 'samples per prompt after each update (evalSamples)',
  'train.field.finalEvalSamples': 'samples per prompt before/after RL (finalEvalSamples)',
  'train.hint.default': 'default {value} · TRL: {trl}',
  'train.hint.changed': 'changed (default {value}) · TRL: {trl}',
  'train.presetsLabel': 'Experiments to try (each sets the form; press Run):',
  'train.preset.notebook': 'notebook defaults',
  'train.preset.kl': 'KL penalty β = 0.04',
  'train.preset.noClip': 'no clipping, 4 epochs',
  'train.preset.hotLr': 'hot learning rate',
  'train.preset.dynamic': 'dynamic sampling',
  'train.preset.smallGroup': 'groups of 2',
  'train.preset.gspo': 'sequence-level ratio (GSPO)',
  'train.preset.drGrpo': 'Dr. GRPO',
  'train.presetNote.notebook': 'The notebook’s settings for this profile.',
  'train.presetNote.kl': 'β = 0.04 adds the k3 KL penalty to the frozen reference (the warmed-up base): watch the KL line in section 7 and the teacher-forced KL after RL.',
  'train.presetNote.noClip':
    'ε low 0.999 and ε high 10 switch the clip off in practice, and 4 epochs per update let the policy drift from the old one: watch the ratio spread in section 7.',
  'train.presetNote.hotLr': 'A learning rate 20 times the default with 4 epochs: ratios spread, the clip engages, and the run may become unstable.',
  'train.presetNote.dynamic': 'Groups whose rewards are all equal are dropped from the update (DAPO’s dynamic sampling): the discarded fraction appears in the history.',
  'train.presetNote.smallGroup': 'G = 2: a group is informative only when one response is right and the other wrong; compare the informative-group rate with G = 8.',
  'train.presetNote.gspo': 'One importance ratio per response (the geometric mean over its tokens, as GSPO does) instead of one per token.',
  'train.presetNote.drGrpo': 'Dr. GRPO: centred rewards without std scaling and a constant normaliser (section 4).',
  'train.runHeading': 'Run',
  'train.metricsTitle': 'Before and after RL',
  'train.col.row': 'when and on which prompts',
  'train.metricsCaption': 'Fresh-generation metrics of the run on display, before and after RL, on train and held-out prompts.',
  'train.configPrinted': 'The run’s config',
  'train.configNote.precomputed': 'The config of the precomputed run (as the notebook prints asdict(experiment["config"])).',
  'train.configNote.live': 'The config of your run, validated by the core (as the notebook prints asdict(experiment["config"])).',
  'train.configNote.imported': 'The config stored in {file}.',
  'train.configNote.none': 'No run on display yet.',
  'train.dataTitle': 'The run as data',
  'train.dataBody':
    'Download the run on display as JSON (config, before/after metrics, history, coverage and the trained policy’s checkpoint, which loads into PyTorch: see `docs/checkpoint.md`), or its tables as CSV. Import a run file to view it again without retraining.',
  'train.export.json': 'Download run (JSON)',
  'train.export.history': 'History (CSV)',
  'train.export.metrics': 'Before/after (CSV)',
  'train.export.coverage': 'Coverage (CSV)',
  'train.export.done': 'Saved {name}.',
  'train.export.noCheckpoint': 'Saved {name}, without a checkpoint (none is available for this run).',
  'train.import.label': 'Import a run file (JSON)',
  'train.import.done': 'Imported {name}.',
  'train.import.failed': 'Not imported: {message}',
  'train.rl.notice':
    'A group-relative update needs groups that hold both a success and a failure, so the warmed-up policy is built to be right only sometimes before RL (`docs/training-page.md` says how the task and the warm-up are chosen). Compare the train rows with the held-out rows, prompts never trained on: what RL gains on the prompts it practises need not carry over, and `pass_at_4` can fall while accuracy rises when the policy answers the same way more often, right or wrong, and samples fewer alternatives. The lines below say what this run did. Then change one thing (a preset, the seed, the loss) and run again.',
  'train.rl.lesson':
    'In this run train accuracy went from {acc0} to {acc1} and the entropy of the samples from {h0} to {h1}; the teacher-forced KL from the base policy ended at {kl1}.',
  'train.rl.lessonHeldLess':
    'On held-out prompts accuracy went from {acc0} to {acc1}, a smaller change than on train prompts (pass@4 {p0} → {p1}).',
  'train.rl.lessonHeldPassFell':
    'On held-out prompts accuracy went from {acc0} to {acc1}, a smaller change than on train prompts, and pass@4 fell from {p0} to {p1}: fewer distinct answers are tried.',
  'train.rl.lessonHeldMore':
    'On held-out prompts accuracy went from {acc0} to {acc1}, at least as much as on train prompts (pass@4 {p0} → {p1}): in this run what was learnt carried over.',

  // --- section 7 ----------------------------------------------------------------------------------
  'train.updates.explain':
    'Every point is one update. **Fresh-generation accuracy** and **entropy** are measured on the train prompts with new samples after the update. The **informative-group rate** is the share of the update’s groups whose rewards were not all equal: only those carry a gradient (section 2). The **ratios** $\\rho=\\pi_\\theta/\\pi_{\\text{old}}$ are per token, over the update’s epochs: the first epoch starts at exactly 1, later epochs drift. The **clip fractions** count tokens whose ratio left $[1-\\varepsilon_{\\text{low}},\\,1+\\varepsilon_{\\text{high}}]$ on the side where the clip stops the gradient (section 3); **KL** (the k3 estimator to the frozen reference) is computed only when $\\beta>0$.',
  'train.chart.history': 'Accuracy, entropy and informative groups per update',
  'train.chart.ratio': 'Probability ratios per update (dashed: ratio 1)',
  'train.chart.clip': 'Clip fractions and KL per update',
  'train.chart.loss': 'Loss and gradient norm per update',
  'train.series.clipLow': 'clipped below (ratio < 1 − ε low, A < 0)',
  'train.series.clipHigh': 'clipped above (ratio > 1 + ε high, A > 0)',
  'train.series.clipRegion': 'outside the clip range',
  'train.series.kl': 'KL to the reference (right axis)',
  'train.series.loss': 'loss',
  'train.series.gradNorm': 'gradient norm before clipping (right axis)',
  'train.axis.fraction': 'fraction of tokens',
  'train.axis.kl': 'KL',
  'train.axis.loss': 'loss',
  'train.axis.gradNorm': 'gradient norm',
  'train.chartNumbers': 'Every number of this chart is in the history table.',
  'train.historyLink': 'Go to the history table',
  'train.chartAria': 'Line chart: {title}, over {n} updates. From the first to the last update: {series}.',
  'train.historyTitle': 'The full history',
  'train.history.pager': 'Pages of the history table',
  'train.history.rows': 'Rows {from}–{to} of {n} (the History CSV holds them all)',
  'train.history.first': 'First',
  'train.history.previous': 'Previous',
  'train.history.next': 'Next',
  'train.history.last': 'Last',
  'train.historyCaption': 'One row per update ({n} rows), as the notebook displays history.round(4).',
  'train.updates.empty': 'No update yet.',
  'train.updates.summary':
    'Over {n} updates: fresh-generation accuracy {acc0} → {acc1}, entropy {h0} → {h1}, informative-group rate {info0} → {info1}; the ratios stayed within [{rmin}, {rmax}].',
  'train.updates.notice':
    'Read the charts together. A group where every sample is right (or every sample wrong) has equal rewards and zero advantages: the more often the policy succeeds on a prompt, the less that prompt teaches, so GRPO can starve itself of signal as it succeeds. The ratios measure how far an update moved the policy from the one that sampled; the clip fractions count where the trust region stopped the gradient. The lines below say what this run did. Try the presets in section 6: a hot learning rate spreads the ratios and engages the clip, no clipping shows what the clip was holding back, and the KL penalty keeps the policy closer to its base.',
  'train.updates.lessonSignal':
    'In this run every one of the {n} updates had informative groups (rate between {min} and {max}).',
  'train.updates.lessonSilent':
    'In this run {silent} of the {n} updates had no informative group at all (rate between {min} and {max}): those updates taught nothing.',
  'train.updates.lessonStarves':
    'The informative-group rate fell from {start} (first {tail} updates) to {end} (last {tail}): as the policy succeeds, its groups stop disagreeing.',
  'train.updates.lessonKeepsSignal':
    'The informative-group rate did not fall in this run ({start} in the first {tail} updates, {end} in the last {tail}): with accuracy at {acc1}, most groups still mix right and wrong answers.',
  'train.updates.lessonRatios':
    'The ratios stayed within [{rmin}, {rmax}], and at most {clip}% of tokens were outside the clip range in any one update.',

  // --- section 8 ----------------------------------------------------------------------------------
  'train.chart.coverage': 'Sampled accuracy per train prompt, before and after RL',
  'train.chart.coverageHeldout':
    'Sampled accuracy per held-out prompt, before and after RL',
  'train.coverage.xSorted':
    'prompts, sorted by before-RL accuracy',
  'train.col.lost':
    'lost all success',
  'train.coverage.lostMark':
    '✗ lost',
  'train.split.train':
    'train',
  'train.split.heldout':
    'held-out',
  'train.coverage.heldout':
    'Held-out ({n} prompts): solved at least once {solved0} → {solved1}, mean accuracy {mean0} → {mean1}.',
  'train.coverage.holds':
    'In this run success concentrated on fewer prompts, as the notebook says.',
  'train.coverage.fails':
    'In this run success did not concentrate as the notebook says: {missing}.',
  'train.coverage.missAccuracy':
    'the mean train accuracy did not rise',
  'train.coverage.missSolved':
    'no fewer prompts were solved at least once',
  'train.coverage.missShare':
    'the best quarter’s share did not grow',
  'train.coverage.lessonHolds':
    'In this run {lost} of {n} train prompts lost all success: after RL only {solved1} were solved at least once in {samples} samples, while the mean accuracy rose.',
  'train.coverage.lessonFails':
    'In this run the train prompts did not lose coverage overall ({solved1} of {n} solved at least once in {samples} samples after RL): read the summary above for which measure moved.',
  'train.coverage.floor':
    '“Solved at least once” counts successes among {samples} fresh answers per prompt: a prompt the policy solves with probability {floor}% or more shows up as solved with chance 95% or more, so a lost prompt is below about that rate, not at zero.',
  'train.chart.passAtK':
    'pass@k across k, before and after RL',
  'train.passAtK.x':
    'k (samples per prompt, log scale)',
  'train.passAtK.y':
    'pass@k',
  'train.passAtK.aria':
    'Line chart: {y} against “{x}”, k = 1 to {n}, for {curves}.',
  'train.passAtK.caption':
    'Mean unbiased pass@k over prompts (section 5’s estimator), before and after RL.',
  'train.passAtK.cross':
    'On {split} prompts the base policy’s pass@k overtakes the RL policy’s at k = {k}: RL sharpened what the base policy could already do more than it expanded it.',
  'train.passAtK.noCross':
    'On {split} prompts the curves do not cross up to k = {n}: in this run the RL policy stays ahead at every k.',
  'train.passAtK.waiting':
    'The pass@k curves appear when the run ends.',
  'train.coverage.aria':
    'Bar chart, {split} prompts: {y} of each of {n} prompts before and after RL, along the x axis “{x}”; mean before {before}, after {after}; {lost} prompts lost all success (marked ✗).',
  'train.coverage.caption':
    'Sampled accuracy per {split} prompt before and after RL, sorted by before-RL accuracy.',
  'train.col.prompt': 'prompt',
  'train.coverage.summary':
    '{n} train prompts, {samples} fresh answers to each. Mean accuracy {mean0} → {mean1}. Solved at least once: {solved0} → {solved1} ({lost} lost all success). Share of all successes held by the best quarter ({top} prompts): {share0} → {share1}.',
  'train.coverage.waiting': '{n} train prompts; {solved0} solved at least once before RL (mean {mean0}). The after-RL bars appear when the run ends.',
  'train.coverage.empty': 'No run on display yet.',
  'train.inspect.title': 'One fresh group, inspected',
  'train.inspect.explain':
    'As the notebook does: `GRPOConfig(group_size=4, prompt_batch=2, updates=1, update_epochs=1, loss_type="dapo")`, a generator seeded with `SEED + 777` and generator version `notebook-inspection`, sampled from the trained policy. The table is the first group. Click a response to see its tokens: the probability the sampling policy gave each token, $p=e^{\\log\\pi_{\\text{old}}}$, and the response’s advantage.',
  'train.inspect.another': 'Draw another fresh group',
  'train.inspect.waiting': 'A group is drawn when the run ends.',
  'train.inspect.loading': 'Drawing a fresh group (seed {seed})…',
  'train.inspect.failed': 'No group drawn: {message}',
  'train.inspect.drawn': 'Group {n}: seed {seed}, prompt {prompt}, generator version {version}.',
  'train.inspect.caption': 'The first group of the fresh batch: prompt {prompt}.',
  'train.inspect.showTokens': 'Show this response’s tokens',
  'train.inspect.pick': 'Click a response above to see its tokens, their probabilities and the advantage.',
  'train.inspect.tokensTitle': 'Tokens of the response “{response}” to {prompt}',
  'train.inspect.tokensCaption': 'Each sampled token with the probability the old (sampling) policy gave it.',
  'train.inspect.sequenceP': 'Probability of the whole response: {p}. Advantage of this response (shared by all its tokens): {advantage}.',
  'train.col.token': 'token',
  'train.col.prob': 'probability p',
  'train.col.entropy': 'entropy',
  'train.coverage.notice':
    'Compare the bars prompt by prompt, not the means. A prompt at 0 before and after never produced a success, so it never produced a gradient either; a prompt at 1 has stopped contributing too, since its groups are all correct. “Success concentrates” means three things at once on the train prompts: the mean rises, fewer prompts are solved at least once, and the best quarter of prompts holds a larger share of the successes (`docs/coverage.md`). A lost prompt is pushed to a low probability, not proven unsolvable: the pass@k chart below asks the same question across k: whether, as k grows, the base policy catches up with the trained one. In the inspected group, equal rewards mean all-zero advantages: such a group teaches the policy nothing.',

  // --- section 9 ----------------------------------------------------------------------------------
  'train.real.noClaimTitle': 'No real-model claim.',
  'train.real.noClaim':
    'This page never downloads or runs Qwen3-0.6B, TRL or any GPU code, and it makes no claim about the real model’s runtime, memory use or quality. Every number on the page comes from the toy GRU policy trained in your browser.',
  'train.real.snapshotTitle': 'The pinned software snapshot',
  'train.real.snapshotCaption': 'SOFTWARE_SNAPSHOT, as the notebook pins it.',
  'train.real.package': 'package',
  'train.real.version': 'version',
  'train.real.requirements': 'requirements',
  'train.real.printed': 'print(SOFTWARE_SNAPSHOT):',
  'train.real.cellTitle': 'The notebook’s TRL cell (shown, not run)',
  'train.real.cellExplain':
    'With `RUN_REAL_MODEL = False` the notebook skips the branch below and prints `REAL_MODEL_SKIPPED`. Each ambiguous GRPOConfig choice is spelled out: the loss reduction, reward scaling, importance-sampling level, both clip bounds, β and the masking of truncated completions.',
  'train.real.output': 'Output:',
  'train.real.translatedTitle': 'Your toy config as TRL GRPOConfig arguments',
  'train.real.translatedExplain':
    'The config of section 6, with TRL’s parameter names, so the same choices carry over to TRL on a GPU. It follows the form as you edit it. Model, dataset, reward function and batch sizes are yours to choose; the comments name the field of this page each argument comes from.',
  'train.real.copy': 'Copy the Python',
  'train.real.copied': 'Copied.',
  'train.real.selected': 'Selected: press Ctrl+C (⌘C) to copy.',
  'train.real.batchNote':
    'One update here samples {prompts} prompts × {group} responses = {completions} completions; in TRL that is the generation batch (per_device_train_batch_size × gradient_accumulation_steps × number of processes).',
  'train.real.dynamicNote':
    'dynamicSampling=True (dropping groups whose rewards are all equal) is not one of the arguments translated here; check how your TRL version offers it.',
  'train.field.advantageEstimator': 'advantage estimator: the baseline subtracted from the reward (advantageEstimator)',
  'train.ancestorsLabel': 'GRPO and its ancestors (each sets the advantage estimator; press Run, then the next, same seed):',
  'train.preset.estimator_grpo': 'GRPO: group mean and std',
  'train.preset.estimator_dr_grpo': 'group mean, no std',
  'train.preset.estimator_rloo': 'RLOO: leave-one-out mean',
  'train.preset.estimator_reinforce_baseline': 'REINFORCE, batch-mean baseline',
  'train.preset.estimator_reinforce': 'REINFORCE, no baseline',
  'train.presetNote.estimator_grpo': 'GRPO as the notebook runs it: each reward minus its group’s mean, divided by the group’s std (scaleRewards).',
  'train.presetNote.estimator_dr_grpo': 'The group mean as the baseline, without dividing by the std: a group with a rare success gets a small push, not a normalised one.',
  'train.presetNote.estimator_rloo': 'RLOO (TRL’s RLOOTrainer): each reward minus the mean of the other G − 1 rewards of its group, that is G/(G − 1) times the group-centred reward.',
  'train.presetNote.estimator_reinforce_baseline': 'One baseline for the whole batch: groups where every answer is right still push their answers up, and easy prompts outweigh hard ones.',
  'train.presetNote.estimator_reinforce': 'The raw reward as the advantage: every rewarded answer is pushed up and nothing is ever pushed down; watch the gradient norm and the entropy.',
  'train.ancestors.explain': 'GRPO’s advantage is the reward minus a baseline, and its ancestors differ only in the baseline. REINFORCE uses none: the gradient is right on average but noisy, since every rewarded sample pushes, whatever the prompt. A batch-mean baseline takes out the common level, but an easy prompt still pushes all its answers up and a hard one pushes all of them down. A group baseline (GRPO’s mean, or RLOO’s mean of the other samples, which does not include the sample itself and so keeps the gradient unbiased) compares answers to the same prompt: it removes the prompt’s difficulty from the signal, which lowers the variance, and it gives exactly zero to a group whose rewards are all equal, so only informative groups (some right, some wrong) move the policy. Run the five presets at the same seed and compare the accuracy, the gradient norm and the entropy in section 7.',
  'train.real.estimatorNote': 'advantageEstimator={estimator}: GRPOConfig has no such field (GRPO’s group mean is its only baseline); TRL’s RLOOTrainer computes rloo, and dr_grpo is scale_rewards="none".',
  'train.real.untranslated': 'no GRPOConfig argument',
  'train.real.source': 'Translated from the section 6 form: profile {profile}, seed {seed}.',
  'train.real.notice':
    'The toy run and the TRL template make the same choices explicit: how tokens are weighted (loss_type), how rewards are scaled, where the ratio is clipped, whether a KL term pulls towards a reference, and how truncated answers count. What does not carry over is scale: a GRU with a 16-token vocabulary says nothing about the time, memory or final quality of a 0.6B-parameter model, and this page does not pretend otherwise.',
  // --- compare runs (section 7): the run library, run across seeds, overlays --------------------
  'compare.title': 'Compare runs',
  'compare.explain':
    'Every finished run of this tab is kept in a library that survives a reload (the last 50 runs or 20 MB). Tick up to four to overlay them. "Run across seeds" trains the current config on N seeds in parallel background workers; the chart shows their mean with a min-max band (the lowest and highest seed at each update). Run two configs on the same seeds for a paired comparison.',
  'compare.seedsLabel': 'Seeds',
  'compare.runSeeds': 'Run across seeds',
  'compare.progressLabel': 'Updates done across all seeds',
  'compare.running': '{n} seeds in {workers} workers…',
  'compare.progress': '{done} / {total} updates; {finished} of {n} seeds done ({workers} workers)',
  'compare.done': '{n} seeds done.',
  'compare.failed': 'The seed batch failed: {message}',
  'compare.libraryTitle': 'Run library',
  'compare.libraryEmpty': 'No runs yet: finish a run or import one.',
  'compare.libraryError': 'The run library is not available here: {message}',
  'compare.clear': 'Clear the library',
  'compare.metric': 'Metric',
  'compare.chartTitle': 'Runs compared, per update',
  'compare.chartAria': 'Line chart comparing {n} picked runs and a batch of {seeds} seeds (mean with a min-max band), per update.',
  'compare.batchName': 'mean of {n} seeds: {name}',
  'compare.batchShort': 'mean of {n} seeds',
  'compare.bandMax': 'seed maximum',
  'compare.bandMin': 'seed minimum (band: min-max)',
  'compare.diffCaption': 'What differs between the runs compared',
  'compare.field': 'Field',
  'compare.noDiff': 'The configs are the same',
  'compare.seed': 'Seed',
  'compare.seedCaption': 'Accuracy before and after RL, per seed ({n} seeds)',
  'compare.trainBefore': 'train, before',
  'compare.trainAfter': 'train, after',
  'compare.heldoutBefore': 'held-out, before',
  'compare.heldoutAfter': 'held-out, after',
  'compare.pairedCaption': 'Held-out accuracy after RL, paired by seed',
  'compare.pairedSummary': 'Paired over {n} seeds, A = {a}, B = {b}: {favourB} seeds favour B, {favourA} favour A, {ties} tie; mean difference B − A = {mean}.',
  'compare.exportJson': 'Export comparison (JSON)',
  'compare.exportCsv': 'Export comparison (CSV)',
  'compare.exportPng': 'Chart as PNG',
  'compare.source.live': 'live',
  'compare.source.precomputed': 'precomputed',
  'compare.source.imported': 'imported',
  'compare.source.seeds': 'seed batch',
};
