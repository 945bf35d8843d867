// English strings: the source of truth for every word on the page (ru.js must have every key).
// Markup: $tex$, $$display tex$$, `code`, **strong**, blank line = new paragraph; {name} = parameter.
// {count#noun} = the form of plural.noun agreeing with count (i18n.js pluralForm).
// The UPPER_CASE keys are the notebook's chart-label constants, copied exactly from the seed.

import training from './en-training.js'; // sections 6-9 (training) keep their strings there
import trl from './en-trl.js'; // TRL fidelity: metric meanings, no-effect warnings
import form from './en-form.js'; // section 6's config form
import compare from './en-compare.js'; // the compare panel's drawing, the picks' legends
import lessons from './en-lessons.js'; // the lessons gallery (training/lessons.js)
import teacher from './en-teacher.js'; // the instructor page (teacher.html)
import coreMessages from './en-core.js'; // the core's error codes (core.messageCodes())
import recovery from './en-recovery.js'; // ways out: offline updates, link budget, library checks
import verdicts from './en-verdicts.js'; // sentences of sections 6-8 chosen by verdicts.js
import inspector from './en-inspector.js'; // section 7's step inspector (training/step-inspector.js)

export default {
  // --- Notebook constants (seeds/000_*.txt), exact strings -------------------------------
  INFO_X: 'single-response success probability p',
  INFO_Y: 'informative-group probability',
  FINITE_REWARD: 'expected reward',
  FINITE_ENTROPY: 'entropy',
  FINITE_X: 'exact update step',
  BEFORE_TRAIN: 'before RL, train',
  AFTER_TRAIN: 'after RL, train',
  BEFORE_HELDOUT: 'before RL, held-out',
  AFTER_HELDOUT: 'after RL, held-out',
  HIST_ACCURACY: 'fresh-generation accuracy',
  HIST_ENTROPY: 'entropy',
  HIST_INFO: 'informative-group rate',
  HIST_X: 'update',
  RATIO_MIN: 'minimum ratio',
  RATIO_MEAN: 'mean ratio',
  RATIO_MAX: 'maximum ratio',
  COVERAGE_BEFORE: 'before RL',
  COVERAGE_AFTER: 'after RL',
  COVERAGE_Y: 'sampled accuracy',
  REAL_MODEL_SKIPPED:
    'The real-model branch is disabled. Set RUN_REAL_MODEL=True only in a prepared GPU environment.',

  // --- Page chrome ------------------------------------------------------------------------
  'page.title': 'Module 9. RLVR and GRPO: verifiable rewards, group-relative estimates, and stability',
  'page.kicker': 'GRPO Lab · RL for LLM, module 9',
  'page.docTitle': 'GRPO Lab: RLVR and GRPO (module 9)',
  'page.intro':
    'This page is the live companion of the module notebook. It connects the module’s equations to practice: every table and chart below is computed on your own CPU, in this browser, by a C++17 core compiled to WebAssembly. Nothing is sent to a server.\n\nThe objective is not to obtain one attractive reward curve. It is to inspect the full contract: verifier behavior, behavior-policy distribution, policy roles, loss reduction, fresh generation, entropy, coverage, and transfer.',
  'page.skip': 'Skip to the content',
  'page.toc': 'Contents',
  'page.language': 'Language',
  'page.coreFailed':
    'The WebAssembly core could not be loaded ({message}). The explanations are still readable; the live widgets need the core (build it with `bash tools/build.sh`).',
  'page.footer':
    'GRPO Lab. Every number on this page comes from the same C++ core that the course’s Node tests run; the widgets keep their settings in the link, so a shared link shows exactly what you see.',
  'page.copyLink': 'Copy a link to this state',
  'page.copied': 'Link copied.',
  'page.copyFailed': 'Could not copy; the link is in the address bar.',
  'page.reset': 'Reset this section',
  'page.widgetLoading': 'Loading the live widget…',
  'lazy.failed': 'This part of the page could not be downloaded: the network is unreachable, or the site was updated in the meantime.',
  'lazy.retry': 'Retry',
  'lazy.retrying': 'Loading…',
  'offline.updateReady': 'A new version of GRPO Lab is ready.',
  'offline.reload': 'Reload',
  'page.embedLink': 'Embed this section',
  'lang.en': 'English',
  'lang.ru': 'Русский',

  'url.noteTitle': 'Some settings in the link were not valid and were replaced by defaults:',
  'url.bad': '{key} = “{value}”: {reason}. Using {fallback}.',
  'url.unknown': '{key}: unknown setting, ignored.',
  'url.tooLong': 'the text is too long for a link',
  'url.notNumber': 'not a number',
  'url.notInteger': 'not an integer',
  'url.outOfRange': 'must be between {min} and {max}',
  'url.notOption': 'must be one of {options}',
  'url.notList': 'not a comma-separated list of numbers',
  'url.notBool': 'must be 1 or 0',
  'url.more': '… and {n} more.',
  'url.hashTooLong': 'The link carries {size} characters of settings, more than the {max} a link of this page may hold: none of them was used.',
  'url.dismiss': 'Dismiss',

  'embed.openFull': 'Open the full course page',
  'embed.unknown': 'Unknown section “{id}”. Choose one of the sections below.',
  'embed.pick': 'Sections that can be embedded',
  'embed.frameTitle': 'GRPO Lab: {title}',

  'common.yes': 'yes',
  'common.no': 'no',
  'common.pass': 'pass',
  'common.fail': 'fail',
  'common.notice': 'What to notice',
  'common.chartData': 'The chart’s numbers as a table',
  'common.chartPng': 'Save the chart as PNG',
  // The axes a chart draws, named in its accessible description (charts.js axesSentence).
  'chart.axes': 'Axes: {axes}.',
  'chart.axis.x': 'horizontal, {title}',
  'chart.axis.y': 'vertical, {title}',
  'chart.axis.right': 'vertical on the right, {title}',
  'common.infinity': '∞',
  'common.errorIn': 'Not computed: {message}',
  'common.sectionError': 'This widget could not compute: {message}',
  'common.stale': 'The results below are from the last valid entries; fix the highlighted field to update them.',
  'common.hintList': 'Numbers separated by commas.',
  'common.row': 'row {n}',

  // --- 0. Setup -----------------------------------------------------------------------------
  'setup.title': '0. Reproducible setup',
  'setup.body':
    '`PROFILE="smoke"` executes the complete required route. `PROFILE="full"` increases the CPU experiment budget. In the notebook the code locates the extracted course root automatically; here there is nothing to locate: the page carries its own core.\n\nThe profile and the seed below configure the training run of sections 6–8; like every control on this page, they live in the link, so a shared link reproduces the run.',
  'setup.profile': 'Profile',
  'setup.profile.smoke': 'smoke: seconds',
  'setup.profile.full': 'full: a larger CPU budget',
  'setup.seed': 'Seed',
  'setup.seedHint': 'An integer from 0 to 4294967295; the notebook uses 9.',
  'setup.language': 'Language',
  'setup.run': 'Run the training of sections 6–8',
  'setup.runNote':
    'Trains section 6’s config with this profile and seed in a background worker on your CPU. While it runs, its controls stay at the bottom of the screen wherever you read, and sections 6–8 show the run as it trains.',
  'setup.whereTitle': 'What runs where',
  'setup.where.core': 'Core',
  'setup.where.coreValue': 'C++17 compiled to WebAssembly (core {version}, {methods} functions), ready in {ms} ms',
  'setup.where.device': 'Device',
  'setup.where.deviceValue': 'your CPU, inside this browser tab; no GPU',
  'setup.where.server': 'Server',
  'setup.where.serverValue': 'none: no request leaves this site',
  'setup.where.offline': 'Works offline',
  'setup.where.offline.active': 'yes: {files} files cached ({size} MB), a reload works with no network too',
  'setup.where.offline.pending': 'not yet: the course is being saved for use with no network',
  'setup.where.offline.interrupted': 'not yet: saving the course was interrupted (a file could not be downloaded); it is tried again on the next visit',
  'setup.where.offline.file': 'no: opened from a file (this page carries everything it needs, nothing to save)',
  'setup.where.offline.singleFile': 'nothing to save: this page is one file that carries everything it needs',
  'setup.where.offline.scorm': 'not in an LMS package: the LMS serves its files',
  'setup.where.offline.frame': 'not in this frame: open the course page itself to save it for use with no network',
  'setup.where.offline.unsupported': 'no: the browser does not allow it here (it needs HTTPS, and service workers can be turned off)',
  'setup.where.offline.disabled': 'off: `?nosw` in the address removed the saved copy',
  'setup.where.offline.failed': 'no: the course could not be saved ({message})',
  'setup.where.realModel': 'Real-model branch (Qwen3-0.6B + TRL)',
  'setup.where.realModelValue': 'off: `RUN_REAL_MODEL = False`',
  'setup.where.profile': 'Profile and seed',
  'setup.printed': 'What the notebook’s setup cell prints, for these settings:',
  'setup.notice':
    'The seed fixes every random draw of the training run: the same seed and configuration give the same numbers in every browser and in Node, because the core uses its own random-number generator.',

  // --- 1. Verifier ----------------------------------------------------------------------------
  'verifier.title': '1. Test the verifier before training',
  'verifier.body':
    'Positive, negative, and adversarial cases come before policy optimization. The exercise also exposes the boundary of the teaching parser: it is reproducible, but it is not a general mathematical equivalence prover.\n\nThe rules: if the completion holds a `\\boxed{...}` (also written `\\\\boxed{...}` or `\\fbox{...}`), the candidate is the content of the **last** box, and a box that is not a number is wrong, with no fallback to numbers outside it. Otherwise the candidate is the **last** number in the text. A number is an integer or a decimal (`42`, `-7`, `0.25`, `.5`) with an optional exponent (`1e3`, `1E-2`) and thousands groups of exactly three digits (`1,000`, `12,345,678`, `1,000.5`; in `3, 4` and `1,2,3` the comma separates numbers), or a fraction (`3/7`, `3 / 7`, `\\frac{a}{b}`, `\\dfrac{a}{b}`); a currency sign before it (`$1,250`, `€5`), a percent sign (`50%` and `50\\%` are 50), a unit after it (`5kg`, `5 cm`, `30°`, `30^\\circ`) and emphasis (`**73**`, `\\text{13}`) do not hide it. The reference may be written in any of these notations. A zero denominator is invalid. The candidate $\\hat y$ matches the reference $y$ when',
  'verifier.formula': '$$|\\hat y - y| \\le 10^{-6}\\,\\max(1, |y|)$$',
  'verifier.casesTitle': 'The notebook’s five cases, checked live',
  'verifier.casesCaption': 'The notebook’s verifier cases: observed verdict against the expected one.',
  'verifier.col.text': 'text',
  'verifier.col.reference': 'reference',
  'verifier.col.observed': 'observed',
  'verifier.col.expected': 'expected',
  'verifier.col.pass': 'check',
  'verifier.col.status': 'status',
  'verifier.allPass': 'All {n} cases hold, as the notebook asserts.',
  'verifier.someFail': '{failed} of {n} cases do not hold.',
  'verifier.tryTitle': 'Try any completion',
  'verifier.text': 'Completion',
  'verifier.reference': 'Reference answer',
  'verifier.presets': 'Adversarial presets',
  'verifier.preset.earlier': 'an earlier number',
  'verifier.preset.corrected': 'a corrected box',
  'verifier.preset.divzero': 'division by zero',
  'verifier.preset.word': 'a number inside a word',
  'verifier.preset.unclosed': 'a box that never closes',
  'verifier.preset.fraction': 'a LaTeX fraction',
  'verifier.preset.unit': 'a unit and a power',
  'verifier.preset.latexRef': 'a LaTeX reference',
  'verifier.preset.escaped': 'JSON-escaped backslashes',
  'verifier.preset.currency': 'dollars with thousands',
  'verifier.preset.degrees': 'degrees in a box',
  // The core's reasons (cpp/core/verifier.cpp, verifier_reason_templates): the English texts
  // must stay equal to the core's templates (tests/node/verifier-i18n.test.mjs checks).
  'verifier.reason.unclosed_box':
    "The last {box}{ never closes with a matching '}', so the answer is invalid; numbers outside a box are not used.",
  'verifier.reason.empty_box': 'The last {box}{} is empty, so the answer is invalid; numbers outside the box are not used.',
  'verifier.reason.box_not_number':
    "The last {box}{...} holds '{content}', which is not a single number, so the answer is invalid; numbers outside the box are not used.",
  'verifier.reason.no_number': 'The text has no \\boxed{...} and no standalone number, so there is no answer to check.',
  'verifier.reason.box_zero_denominator':
    "The last {box}{...} holds '{content}', a fraction with a zero denominator, so the answer is invalid; an earlier number is not used.",
  'verifier.reason.text_zero_denominator':
    "The last number in the text is '{candidate}', a fraction with a zero denominator, so the answer is invalid; an earlier number is not used.",
  'verifier.reason.box_non_finite':
    "The last {box}{...} holds '{content}', whose value is too large to represent (not finite), so the answer is invalid; an earlier number is not used.",
  'verifier.reason.text_non_finite':
    "The last number in the text is '{candidate}', whose value is too large to represent (not finite), so the answer is invalid; an earlier number is not used.",
  'verifier.reason.box_equal':
    "The last {box}{...} holds '{content}' = {value}, which equals the reference {reference} within 1e-6 * max(1, |reference|).",
  'verifier.reason.box_differs':
    "The last {box}{...} holds '{content}' = {value}, which differs from the reference {reference} by more than 1e-6 * max(1, |reference|).",
  'verifier.reason.text_equal':
    "The last number in the text is '{candidate}' = {value}, which equals the reference {reference} within 1e-6 * max(1, |reference|).",
  'verifier.reason.text_differs':
    "The last number in the text is '{candidate}' = {value}, which differs from the reference {reference} by more than 1e-6 * max(1, |reference|).",
  'verifier.result': 'Verdict',
  'verifier.verdict': 'verdict (reward)',
  'verifier.status': 'status',
  'verifier.candidate': 'extracted candidate',
  'verifier.value': 'its value',
  'verifier.rule': 'rule that decided',
  'verifier.reason': 'the core’s explanation',
  'verifier.none': '(none)',
  'verifier.status.correct': 'correct',
  'verifier.status.incorrect': 'incorrect',
  'verifier.status.no_answer': 'no answer',
  'verifier.status.invalid': 'invalid',
  'verifier.status.truncated': 'truncated',
  'verifier.ruleName.last_box': 'the last box decides',
  'verifier.ruleName.last_number': 'the last number in the text decides',
  'verifier.ruleName.no_number': 'no box and no number',
  'verifier.ruleName.unclosed_box': 'the last box never closes',
  'verifier.ruleName.empty_box': 'the last box is empty',
  'verifier.ruleName.box_not_number': 'the last box does not hold one number',
  'verifier.ruleName.zero_denominator': 'a zero denominator',
  'verifier.ruleName.non_finite': 'a value too large to be finite',
  'verifier.notice':
    'Case 2 mentions the reference 42, but the last number is 41: the verifier is not fooled by an earlier number. In case 3 the corrected (last) box wins. In case 5, `1/0` is invalid, not infinity. Try `H2O` or `v1.5`: a number never starts inside a word.',

  // --- 2. Informative groups ------------------------------------------------------------------
  'groups.title': '2. When is a group informative?',
  'groups.body':
    'With binary rewards, a centered group signal requires at least one success and one failure. Increasing $G$ helps in the middle difficulty band, but it does not eliminate rare success near $p\\approx0$ or rare failure near $p\\approx1$.\n\nA group of $G$ independent completions, each correct with probability $p$, is informative unless all succeed or all fail:',
  'groups.formula':
    '$$P_{\\text{info}}(p, G) = 1 - p^{G} - (1-p)^{G}$$ $$\\operatorname{E}[D_n] = \\frac{n}{P_{\\text{info}}(p, G)}$$',
  'groups.formulaNote':
    'where $D_n$ is the number of prompts (groups) drawn until $n$ of them are informative.',
  'groups.freeG': 'Free group size G (extra curve)',
  'groups.freeGHint': 'An integer ≥ 1; drawn dashed next to G = 2, 4, 8, 16.',
  'groups.p': 'Inspect one p',
  'groups.pHint': 'A probability in [0, 1]; marked on the chart.',
  'groups.readout': 'P_info at p = {p}:',
  'groups.tableG': 'Group size G for the table',
  'groups.chartAria':
    'Line chart of the informative-group probability against the single-completion success probability p, for group sizes {sizes}. Every curve is 0 at p = 0 and p = 1 and peaks at p = 0.5; larger groups are higher and flatter.',
  'groups.chartTitle': 'P_info(p) for several group sizes',
  'groups.examplesTitle': 'Examples (the notebook’s table)',
  'groups.examplesCaption': 'Informative-group probability and expected draws for 100 informative prompts, G = {g}.',
  'groups.col.p': 'p',
  'groups.col.pinfo': 'P_info, G={g}',
  'groups.col.draws': 'draws for 100 informative prompts',
  'groups.notice':
    'With $G = 8$ (the notebook’s table), at $p = 0.5$ almost every group is informative; at $p = 0.01$ fewer than one group in twelve is, so about 1 300 draws buy 100 informative prompts. From $G = 2$ to $G = 16$ the middle band ($0.1 \\le p \\le 0.9$) rises by about 0.5 or more, the ends near $p = 0.01$ and $p = 0.99$ by only about 0.13: difficulty filtering, not only group size, decides how much signal a batch carries.',

  // --- 3. Advantages and clipping -------------------------------------------------------------
  'advantages.title': '3. Group advantages and clipping',
  'advantages.body':
    'We first center and scale rewards, then apply PPO-like clipping. The sign matters: upper and lower clipping branches act differently.\n\nFor a group of rewards $r_1,\\dots,r_G$ the advantage is the reward minus the group mean, divided (when scaling is on) by the sample standard deviation plus $10^{-4}$, as TRL’s GRPOTrainer does. Each completion’s term of the objective uses its probability ratio $\\rho_i = \\pi_\\theta / \\pi_{\\text{old}}$:',
  'advantages.formula':
    '$$A_i = \\frac{r_i - \\bar r}{\\operatorname{std}(r) + 10^{-4}}$$ $$\\ell_i = \\min(\\rho_i A_i,\\; \\operatorname{clip}(\\rho_i,\\, 1-\\varepsilon_{\\text{low}},\\, 1+\\varepsilon_{\\text{high}})\\, A_i)$$',
  'advantages.rewards': 'Rewards',
  'advantages.ratios': 'Probability ratios ρ',
  'advantages.epsLow': 'ε_low',
  'advantages.epsHigh': 'ε_high',
  'advantages.scale': 'Scale by the standard deviation (scale=True)',
  'advantages.tableCaption': 'Rewards, advantages, ratios and each completion’s term of the loss drawn, one row per completion. Loss: {loss}.',
  'advantages.col.row': '#',
  'advantages.col.reward': 'reward',
  'advantages.col.centered': 'centered',
  'advantages.col.standardized': 'standardized',
  'advantages.col.ratio': 'ratio',
  'advantages.col.clip': 'clip_active',
  'advantages.uses': 'The surrogate uses the {which} advantages.',
  'advantages.uses.standardized': 'standardized',
  'advantages.uses.centered': 'centered',
  'advantages.sum': 'Sum of the advantages used: {sum}',
  'advantages.sumOk': 'sums to zero (|sum| < 1e-10), as the notebook asserts',
  'advantages.sumBad': 'does not sum to zero',
  'advantages.chartX': 'probability ratio ρ',
  'advantages.curve': 'A = {a}',
  'advantages.rowsFree': 'rows (clip inactive)',
  'advantages.rowsClipped': 'rows (clip active)',
  'advantages.notice':
    'With the notebook’s numbers, row 1 has $A>0$ and ratio 1.35 above $1+\\varepsilon_{\\text{high}}$: its term is flat, so it stops pushing the ratio up. Row 4 has $A<0$ and ratio 0.70 below $1-\\varepsilon_{\\text{low}}$: also clipped. Row 2 ($A>0$, ratio 0.85) lies inside $[1-\\varepsilon_{\\text{low}}, 1+\\varepsilon_{\\text{high}}]$: not clipped, so the gradient still acts. A row with $A>0$ below $1-\\varepsilon_{\\text{low}}$ is not clipped either: the minimum keeps the unclipped, more pessimistic branch. Widen $\\varepsilon_{\\text{high}}$ past 0.35 and watch row 1 come back (DAPO’s “clip higher” value 0.28 is not enough for this row).',

  'advantages.chartTitle': 'The per-token objective of the chosen loss against the ratio',
  'advantages.chartY.objective': 'per-token objective J(ρ, A)',
  'advantages.chartY.weight': 'gradient weight w = dJ/d log ρ',
  'advantages.col.term.objective': 'J(ρ, A)',
  'advantages.col.term.weight': 'w(ρ, A)',
  'advantages.rows': 'rows',
  'advantages.chartAria':
    'Line chart of the {what} of the {loss} loss against the probability ratio for advantages {values}, with marked ratios at {bounds} and the table’s rows marked as points: {rows}.',
  'advantages.loss': 'Loss (TRL 1.9)',
  'advantages.loss.clip': 'PPO clip (grpo, bnpo, dr_grpo, dapo)',
  'advantages.loss.delta': 'PPO clip with delta (two-sided)',
  'advantages.loss.cispo': 'CISPO',
  'advantages.loss.sapo': 'SAPO',
  'advantages.loss.vespo': 'VESPO',
  'advantages.view': 'Draw',
  'advantages.view.objective': 'the objective J(ρ)',
  'advantages.view.weight': 'the gradient weight dJ/d log ρ',
  'advantages.delta': 'delta',
  'advantages.param.sapoTemperaturePos': 'sapo_temperature_pos (A > 0)',
  'advantages.param.sapoTemperatureNeg': 'sapo_temperature_neg (A ≤ 0)',
  'advantages.param.vespoKPos': 'vespo_k_pos (A ≥ 0)',
  'advantages.param.vespoLambdaPos': 'vespo_lambda_pos (A ≥ 0)',
  'advantages.param.vespoKNeg': 'vespo_k_neg (A < 0)',
  'advantages.param.vespoLambdaNeg': 'vespo_lambda_neg (A < 0)',
  'advantages.bound.clip': 'clip bounds 1−ε_low, 1+ε_high',
  'advantages.bound.delta': 'clip bounds 1−ε_low, 1+ε_high and the cap delta',
  'advantages.bound.cispo': 'the cap ε_high itself',
  'advantages.bound.sapo': 'ρ = 1',
  'advantages.bound.vespo': 'ρ = 1',
  'advantages.reading':
    'What is drawn: each loss’s per-token gradient is $-w(\\rho, A)\\,\\nabla \\log \\pi_\\theta$ for some weight $w$. “Objective” draws the surrogate $J(\\rho, A)$ whose slope in $\\log\\rho$ is that weight, $dJ/d\\log\\rho = w$; “gradient weight” draws $w$ itself. For the PPO clip, delta and SAPO, $J$ is minus TRL’s per-token loss. CISPO’s and VESPO’s losses, $-c\\,A \\log\\pi_\\theta$ with $c$ detached, are not functions of $\\rho$ (their value depends on $\\log\\pi_\\theta$), so for them $J = A\\int_0^\\rho c(s)/s\\,ds$: the surrogate with the same gradient, zero at $\\rho = 0$ like $\\rho A$.',
  'advantages.note.clip':
    'The PPO clip of `grpo`, `bnpo`, `dr_grpo` and `dapo`: $-\\min(\\rho A, \\operatorname{clip}(\\rho, 1-\\varepsilon_{\\text{low}}, 1+\\varepsilon_{\\text{high}}) A)$. Where the clipped branch wins, the curve is flat and the weight is 0: the token stops pushing.',
  'advantages.note.delta':
    'TRL’s `delta` (INTELLECT-2’s two-sided clipping) caps the unclipped branch too: $\\min(\\min(\\rho, \\delta) A, \\operatorname{clip}(\\rho) A)$. With $A<0$ the plain clip lets $\\rho A$ fall without bound as $\\rho$ grows; with delta the curve goes flat past $\\rho = \\delta$, so a token far off-policy cannot dominate the gradient.',
  'advantages.note.cispo':
    '**CISPO’s trap in TRL.** The loss is $-\\operatorname{detach}(\\min(\\rho, \\varepsilon_{\\text{high}}))\\,A \\log\\pi_\\theta$: TRL reuses `epsilon_high` as an absolute cap on the ratio, not as $1+\\varepsilon_{\\text{high}}$. With the notebook’s 0.28 every ratio above 0.28 (that is, nearly every token) is capped at 0.28, so every token’s gradient weight is about 0.28 A; the CISPO paper’s value is 5.0. Set ε_high to 0.28 and to 5 and compare. Unlike the PPO clip, a capped token keeps a nonzero weight: CISPO never stops a token’s gradient, it only bounds it.',
  'advantages.note.sapo':
    'SAPO replaces the hard clip by a smooth gate: $-\\sigma(\\tau(\\rho - 1))\\,\\frac{4}{\\tau}\\,A$, with $\\tau$ = `sapo_temperature_pos` when $A>0$ and `sapo_temperature_neg` otherwise. Its weight $4A\\,\\sigma(1-\\sigma)\\,\\rho$ peaks near $\\rho = 1$ and fades on both sides instead of dropping to 0 at a bound; a larger $\\tau$ narrows the gate.',
  'advantages.note.vespo':
    'VESPO weights a whole sequence by $\\varphi(w) = e^{\\lambda + k \\log w - \\lambda w}$ (detached), $w$ the product of its token ratios; here, one token, $w = \\rho$. $(k, \\lambda)$ are `vespo_k_pos`, `vespo_lambda_pos` for $A \\ge 0$ and `vespo_k_neg`, `vespo_lambda_neg` for $A<0$. The weight is a smooth bump with its peak at $\\rho = k/\\lambda$: far off-policy sequences, in either direction, get little weight. The objective view needs $k>0$.',

  // --- 4. Reductions --------------------------------------------------------------------------
  'reductions.title': '4. Same token terms, different reductions',
  'reductions.body':
    'Original GRPO, Dr. GRPO, and DAPO allocate weight differently across completions and tokens. The table isolates denominator geometry; it is not an empirical quality ranking.\n\nFor completion $i$ with length $L_i$ in a group of $G$, each of its tokens receives the weight',
  'reductions.formula':
    '$$w^{\\text{GRPO}}_{i} = \\frac{A_i}{G\\,L_i}$$ $$w^{\\text{Dr.GRPO}}_{i} = \\frac{\\tilde A_i}{G\\,L_{\\text{fixed}}}$$ $$w^{\\text{DAPO}}_{i} = \\frac{A_i}{\\sum_j L_j}$$',
  'reductions.formulaNote':
    'where $A_i$ is the standardized advantage and $\\tilde A_i = r_i - \\bar r$ the centered one (Dr. GRPO does not divide by the standard deviation). These are the weights TRL applies for `loss_type` `grpo`, `dr_grpo` and `dapo`.',
  'reductions.rewards': 'Rewards',
  'reductions.lengths': 'Completion lengths L (tokens)',
  'reductions.fixed': 'Fixed length for Dr. GRPO',
  'reductions.lengthsHint': 'Positive integers separated by commas, one per reward.',
  'reductions.tableCaption': 'Total weight of each completion (the notebook’s columns response_1, response_2, ...) under each reduction, and the sum of absolute token weights.',
  'reductions.col.reduction': 'reduction',
  'reductions.col.response': 'response_{n}',
  'reductions.col.abs': 'absolute_token_weight_sum',
  'reductions.chartTitle': 'Weight of every token, completion after completion',
  'reductions.chartX': 'token (completion.position)',
  'reductions.chartY': 'per-token weight',
  'reductions.chartAria':
    'Step chart of the per-token weight of each of {tokens} {tokens#token} under original GRPO, Dr. GRPO and DAPO; completions have lengths {lengths}. Shorter completions get larger per-token weights under original GRPO.',
  'reductions.tokenCaption': 'Per-token weight of each completion under each reduction.',
  'reductions.notice':
    'Under original GRPO every completion carries the total weight $A_i/G$ whatever its length. With the notebook’s rewards 1, 0, 1 and lengths 2, 5, 8, the 2 tokens of completion 1 therefore each weigh four times as much as the 8 tokens of completion 3: short correct answers are pushed harder, and long wrong ones are punished less per token. Dr. GRPO and DAPO give every token of the group the same scale, so a completion’s total grows with its length.',
  'reductions.name.original_grpo': 'original_grpo',
  'reductions.name.dr_grpo': 'dr_grpo',
  'reductions.name.dapo': 'dapo',

  'reductions.normTitle': 'Every TRL 1.9 loss type’s normaliser',
  'reductions.slider': 'Length L of completion 1 (tokens)',
  'reductions.normCaption':
    'How each loss type divides the per-token losses of completion 1 (L = {length} {length#token}) in this batch: N = {n} {n#completion}, {total} {total#token} in all, max_completion_length = {max} (the fixed length above). The completion’s total weight is L / D.',
  'reductions.col.lossType': 'loss_type',
  'reductions.col.normalizer': 'normaliser D',
  'reductions.col.d': 'D at L = {length}',
  'reductions.col.token': 'weight of one token, 1/D',
  'reductions.col.completion': 'weight of the completion, {length}/D',
  'reductions.norm.grpo': '$N \\cdot L_i$: sequence mean, then mean over completions',
  'reductions.norm.bnpo': 'the batch’s token count $\\sum_j L_j$',
  'reductions.norm.dr_grpo': '$N \\cdot$ `max_completion_length`',
  'reductions.norm.dapo': 'the batch’s active token count $\\sum_j L_j$',
  'reductions.norm.cispo': 'as dapo',
  'reductions.norm.sapo': 'as grpo',
  'reductions.norm.luspo': '$N$: each completion counts $L_i$ times (trl#6654’s reading, `docs/trl.md`)',
  'reductions.norm.vespo': 'as dapo',

  // --- 5. Finite policy -----------------------------------------------------------------------
  'finite.title': '5. Exact finite policy: reward can rise while support narrows',
  'finite.body':
    'A small categorical policy permits exact gradients. It demonstrates a basic possibility: pass@1 and expected reward can improve while entropy and alternative coverage shrink.\n\nThe policy is a softmax over a handful of answer modes; several are successful (reward 1) with unequal initial probabilities. Each step is exact gradient ascent with learning rate $\\eta$ on',
  'finite.formula':
    '$$J(\\theta) = \\sum_m \\pi_\\theta(m)\\, r(m) + \\beta_{\\text{ent}}\\, H(\\pi_\\theta)$$ $$H(\\pi) = -\\sum_m \\pi(m)\\log \\pi(m)$$ $$\\text{pass@}k = 1 - (1 - m_{\\text{succ}})^{k}$$',
  'finite.beta': 'β_entropy (entropy bonus)',
  'finite.lr': 'Learning rate η',
  'finite.steps': 'Steps',
  'finite.stepsHint': 'Charts steps 0 to this number (the notebook: 60).',
  'finite.at': 'Mode probabilities at step',
  'finite.chartAria':
    'Line chart over exact update steps 0 to {steps}: expected reward goes from {r0} to {r1}, entropy from {h0} to {h1}, pass@4 from {p0} to {p1}.',
  'finite.tableCaption': 'The notebook’s rows: steps 0, 9, 19, 39 and 60.',
  'finite.col.step': 'step',
  'finite.col.reward': 'expected_reward',
  'finite.col.entropy': 'entropy',
  'finite.col.pass': 'pass_at_4',
  'finite.modesTitle': 'Probability of each mode at step {step}',
  'finite.modesAria':
    'Bar chart of the probability of each of {n} answer modes at step {step}, next to step 0; successful modes: {successful}.',
  'finite.modesCaption': 'Probability of each mode at step 0 and at step {step}.',
  'finite.col.mode': 'mode',
  'finite.col.successful': 'successful',
  'finite.col.p0': 'step 0',
  'finite.col.pAt': 'step {step}',
  'finite.barSuccess': 'step {step}, successful mode',
  'finite.barFail': 'step {step}, failing mode',
  'finite.mode': 'mode {n}',
  'finite.modeSuccess': 'mode {n} ✓',
  'finite.successMass': 'Successful mass at step {step}: {mass}; the largest successful mode holds {share} of it.',
  'finite.notice':
    'With $\\beta_{\\text{ent}} = 0$ and $\\eta = 0.18$, expected reward rises while entropy falls, and the successful mass concentrates on one successful mode: the policy gets right more often, but by fewer different routes. Scrub the step to watch the other successful modes fade; raise $\\beta_{\\text{ent}}$ to keep them alive at some cost in reward.\n\nThe table’s `pass_at_4` cannot show this narrowing: here it is $1 - (1 - m_{\\text{succ}})^4$, which depends only on the total successful mass, not on how many successful modes hold it, so it climbs towards 1 as reward rises. The narrowing shows in the mode chart and in the largest successful mode’s share above. (Section 8 measures pass@k per prompt, where a prompt the policy stops solving does pull it down.)',
  'plural.step': 'step|steps',
  'finite.entropy.title': 'Why entropy falls: each step’s exact entropy change and its first-order prediction −η·Cov(log π, π·A)',
  'finite.entropy.y': 'entropy change per step',
  'finite.entropy.exact': 'exact change H(πₜ₊₁) − H(πₜ)',
  'finite.entropy.predicted': 'first order −η·Cov(log π, π·A)',
  'finite.entropy.colExact': 'exact entropy change per step',
  'finite.entropy.colDifference': 'difference (exact − first order)',
  'finite.entropy.aria': 'Line chart over steps 0 to {last}: the exact entropy change of each step, from {e0} to {e1}, and its first-order prediction −η·Cov(log π, π·A), from {p0} to {p1}; they differ by at most {diff}.',
  'finite.entropy.ariaEmpty': 'Line chart with no steps: set Steps above 0.',
  'finite.entropy.none': 'No steps, so no entropy change to compare.',
  'finite.entropy.still': 'With η = 0 the policy does not move: the entropy stays at {h} on every step.',
  'finite.entropy.match': 'Over {n} {n#step}, the first-order prediction −η·Cov(log π, π·A) has the sign of the exact entropy change every time and is within {diff} of it (the largest change in one step is {change})',
  'finite.entropy.matchSome': 'Over {n} {n#step}, the first-order prediction −η·Cov(log π, π·A) has the sign of the exact entropy change on {k} of them and is within {diff} of it (the largest change in one step is {change})',
  'finite.entropy.fall': '; mode {mode}, {kind}, drives it down most: {amount} of the predicted {total} over the run.',
  'finite.entropy.rise': '; over the run it rises (predicted {total}), and mode {mode}, {kind}, pushes it up most: {amount}.',
  'finite.entropy.end': '.',
  'finite.entropy.kind.confidentPositive': 'confident (more likely than the typical exp(−H)) with a positive advantage',
  'finite.entropy.kind.confidentNegative': 'confident (more likely than the typical exp(−H)) but with a negative advantage',
  'finite.entropy.kind.rarePositive': 'rare (less likely than the typical exp(−H)) but with a positive advantage',
  'finite.entropy.kind.rareNegative': 'rare (less likely than the typical exp(−H)) with a negative advantage',

  // --- 6-9 (live in the next release) -----------------------------------------------------------
  'rl-loop.title': '6. A complete autoregressive RLVR/GRPO loop',
  'rl-loop.body':
    'A small causal language model now collects grouped completions under a frozen old policy. The verifier returns decomposed rewards, the current policy is updated, and a separate reference remains available for KL diagnostics. Evaluation uses fresh generation on train and held-out prompts.',
  'updates.title': '7. What happened inside the updates?',
  'updates.body':
    'No single curve is sufficient. We compare accuracy, entropy, informative-group rate, and the probability-ratio distribution.',
  'coverage.title': '8. Mean accuracy hides coverage',
  'coverage.body':
    'The notebook’s claim: after RL, mean train accuracy is higher but success is concentrated on fewer prompts. The lines under the charts say whether the run on display bears it out. We then inspect one fresh group and verify that the log contains the completion (`response`), reward, verifier status, length, and generator version.',
  'real-model.title': '9. Optional Qwen3-0.6B + TRL branch',
  'real-model.body':
    'This branch pins a dependency snapshot and makes ambiguous GRPOConfig choices explicit. It needs network access and a suitable accelerator. The release gate did not execute it, so the notebook makes no Qwen3 runtime, memory, or quality claim.',
  ...training,
  ...trl,
  ...form,
  ...compare,
  ...lessons,
  ...teacher,
  ...coreMessages,
  ...recovery,
  ...verdicts,
  ...inspector,
};
