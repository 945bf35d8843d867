// Types of GRPO Lab's public JS API (web/core/index.js, the package's "grpo-lab" export): every
// method of the object loadCore() resolves to, its options, its results and its errors.
// docs/api.md says what each one computes; the numbers' ranges are in docs/limits.md.

// --- errors -----------------------------------------------------------------------------------

/**
 * What a core call throws on bad input: a RangeError (value out of range) or TypeError (wrong
 * kind, missing, unknown option) whose English message starts with the parameter and its range,
 * e.g. "p: must be a probability in [0, 1], got 2". The core stays usable afterwards.
 */
export interface GrpoError extends Error {
  /** A stable name of the rule that failed (see core.messageCodes()), e.g. "range". */
  code: string;
  /** The argument at fault, e.g. "epsHigh" or "rewards[1]" ("" or absent when none). */
  field?: string;
  /** The message's values by name, e.g. {min: 0, max: 1, got: 2}, to say it in another language. */
  params?: Record<string, unknown>;
}

// --- section 1: the verifier ------------------------------------------------------------------

export type VerifierStatus = 'correct' | 'incorrect' | 'no_answer' | 'invalid' | 'truncated';

export interface NumericCheck {
  /** 1 when correct, else 0 (what verifyNumericAnswer returns). */
  accuracy: 0 | 1;
  status: VerifierStatus;
  /** The extracted answer text ("" when there is none). */
  candidate: string;
  /** The candidate's value, null when there is none or it is not a number (e.g. 1/0). */
  value: number | null;
  /** The extraction rule that decided, e.g. "last_box" (docs/verifier.md). */
  rule: string;
  /** The core's explanation, in English. */
  reason: string;
}

// --- section 5: the finite policy ---------------------------------------------------------------

export interface SyntheticModeOptions {
  /** Entropy bonus weight, in [0, 10]. */
  betaEntropy: number;
  /** Step size, in [0, 10]. */
  learningRate: number;
  /** Exact gradient steps, an integer in [0, 100000]. */
  steps: number;
}

export interface SyntheticMode {
  label: string;
  successful: boolean;
  initialProbability: number;
}

export interface SyntheticModeState {
  probabilities: number[];
  expectedReward: number;
  successfulMass: number;
  entropy: number;
  modes: SyntheticMode[];
}

/**
 * Why entropy falls (docs/entropy-mechanism.md): one entry per step t = 0 .. steps-1 of the same
 * training as syntheticModeTraining, for the change from pi_t to pi_{t+1}.
 */
export interface FiniteEntropyMechanism {
  step: number[];
  /** H(pi_t), natural log. */
  entropy: number[];
  /** H(pi_{t+1}) - H(pi_t). */
  exactChange: number[];
  /** The first-order prediction -learningRate * Cov_{a~pi_t}(log pi_t(a), pi_t(a) A_t(a)). */
  predictedChange: number[];
  /** exactChange - predictedChange: O(learningRate^2). */
  difference: number[];
  /** A_t(a) = r(a) - J - betaEntropy (log pi_t(a) + H), one row per step, one entry per mode. */
  advantages: number[][];
  /** Each mode's term of predictedChange, -learningRate pi(a) (log pi(a) + H) pi(a) A(a). */
  contributions: number[][];
  /** The modes' labels, in the order of the rows' entries. */
  labels: string[];
}

// --- sections 6-8: config, prompts, runs ----------------------------------------------------------

export type Profile = 'smoke' | 'full';
export type LossType = 'grpo' | 'bnpo' | 'dr_grpo' | 'dapo' | 'cispo' | 'sapo' | 'luspo' | 'vespo';
export type ScaleRewards = 'group' | 'batch' | 'none';
export type ImportanceSamplingLevel = 'token' | 'sequence';
/** TRL's vllm_importance_sampling_mode. */
export type SamplerCorrectionMode = 'token_truncate' | 'token_mask' | 'sequence_truncate' | 'sequence_mask';

/** TRL 1.9's loss options (TRL's defaults; null = TRL's None). */
export interface TrlLossOptions {
  sapoTemperaturePos: number;
  sapoTemperatureNeg: number;
  vespoKPos: number;
  vespoLambdaPos: number;
  vespoKNeg: number;
  vespoLambdaNeg: number;
  delta: number | null;
  topEntropyQuantile: number;
  offPolicyMaskThreshold: number | null;
  useBiasCorrectionKl: boolean;
  entropyCoef: number;
  vllmImportanceSamplingCorrection: boolean;
  vllmImportanceSamplingMode: SamplerCorrectionMode;
  vllmImportanceSamplingClipMin: number | null;
  vllmImportanceSamplingClipMax: number | null;
}

/** The full, validated training config (camelCase; TRL's GRPOConfig names in docs/api.md). */
export interface ExperimentConfig extends TrlLossOptions {
  // verl v0.7.0's own options, used with engine 'verl' (docs/verl.md "The trainer with engine verl").
  /** 'trl' (default): TRL's objective; 'verl': verl's estimator, policy loss, agg_loss and KL loss. */
  engine: 'trl' | 'verl';
  verlLossMode: 'vanilla' | 'gspo' | 'sapo' | 'gpg' | 'clip_cov' | 'kl_cov' | 'geo_mean' | 'cispo' | 'reinforce';
  verlLossAggMode: 'token-mean' | 'seq-mean-token-sum' | 'seq-mean-token-mean' | 'seq-mean-token-sum-norm';
  /** remax: the trainer samples each prompt's greedy completion as its baseline (verl's REMAX). */
  verlAdvEstimator: 'grpo' | 'grpo_passk' | 'rloo' | 'reinforce_plus_plus' | 'reinforce_plus_plus_baseline' | 'remax' | 'opo' | 'gpg';
  clipRatioC: number;
  clipCovRatio: number;
  clipCovLb: number;
  clipCovUb: number;
  klCovRatio: number;
  ppoKlCoef: number;
  klLossType: 'kl' | 'k1' | 'abs' | 'mse' | 'k2' | 'low_var_kl' | 'k3';
  profile: Profile;
  seed: number;
  /** arithmetic (the notebook's, default), scratch: two-digit problems with optional column work before '>' and the answer (18 tokens; run it with maxNewTokens 32), or rewrite: the arithmetic problems answered by any expression 'c+d' or 'c-d' of the same value (up to 11 right answers a prompt). */
  task: TaskName;
  trainPrompts: number;
  heldoutPrompts: number;
  /** The arithmetic task's largest operand (the scratch task's are always 10..99). */
  maxOperand: number;
  /** TRL's reward_weights over correctness, format and DAPO's overlong punishment. */
  correctnessWeight: number;
  formatWeight: number;
  overlongWeight: number;
  /** get_soft_overlong_punishment's max_completion_len and soft_punish_cache. */
  overlongMaxCompletionLen: number;
  softPunishCache: number;
  multiObjectiveAggregation: RewardAggregation;
  embed: number;
  hidden: number;
  warmupSteps: number;
  warmupLearningRate: number;
  teacherAccuracy: number;
  groupSize: number;
  promptBatch: number;
  updates: number;
  updateEpochs: number;
  lossType: LossType;
  scaleRewards: ScaleRewards;
  epsLow: number;
  /** TRL's epsilon_high; null is None: epsilon_high = epsLow. */
  epsHigh: number | null;
  beta: number;
  temperature: number;
  learningRate: number;
  maxGradNorm: number;
  maxNewTokens: number;
  dynamicSampling: boolean;
  maskTruncated: boolean;
  importanceSamplingLevel: ImportanceSamplingLevel;
  advantageEstimator: AdvantageEstimator;
  /** 0: sample from the policy; s > 0: from a copy with weights rounded to multiples of s. */
  samplerMismatch: number;
  /** The sampler lags k updates, in [0, 8]: update u samples from the policy after update max(0, u - 1 - k). */
  samplerLag: number;
  /** TRL's steps_per_generation, in [1, 16], dividing promptBatch x groupSize: one generation, S optimizer steps per epoch on its shuffled mini-batches. */
  stepsPerGeneration: number;
  useAdaptiveEntropy: boolean;
  entropyTarget: number;
  entropyCoefDelta: number;
  entropyCoefMin: number;
  entropyCoefMax: number;
  syncRefModel: boolean;
  refModelMixupAlpha: number;
  refModelSyncSteps: number;
  evalSamples: number;
  finalEvalSamples: number;
  /** Lab-only (TRL has none): the history's entropy-mechanism columns (probeEntropy ...). Off by default. */
  entropyMechanism: boolean;
  /** pass@k on train and held-out prompts every N updates (0: never; at most 200 evaluations a run): the history's trainPassAt{k} / heldoutPassAt{k}. Lab-only, TRL has none. */
  passAtKEvery: number;
}

/** A profile and any fields to change: the core fills the rest from the profile's defaults. */
export type ExperimentOptions = Partial<ExperimentConfig>;

/** One row of the config's field table (core.configSchema()). */
export interface ConfigField {
  name: keyof ExperimentConfig | string;
  kind: 'int' | 'number' | 'bool' | 'enum' | string;
  min?: number;
  max?: number;
  /** Whether min / max themselves are excluded. */
  minOpen?: boolean;
  maxOpen?: boolean;
  options?: string[];
  /** The default (of the smoke profile where it differs by profile). */
  default?: number | string | boolean;
  /** The default per profile. */
  defaults?: Record<Profile, number | string | boolean>;
  /** TRL's GRPOConfig argument, where TRL has one. */
  trl?: string;
  /** TRL v1.9.0's default of that argument as Python writes it, where it is not the notebook's. */
  trlDefault?: string;
  /** A number TRL types `float | None`: null (None) is a value. */
  nullable?: boolean;
  /** The C++ member it sets. */
  member?: string;
  /** The i18n key of the page's label. */
  description?: string;
  /** The form's group of the field ("setup" for profile and seed, then "task", "rewards", ...). */
  group?: string;
  /** Whether the notebook sets it (its GRPOConfig cells, PROFILE, SEED): section 6 shows it first. */
  notebook?: boolean;
}

/** The config's field table, defined once in the core. */
export interface ConfigSchema {
  profiles: Profile[];
  fields: ConfigField[];
}

export interface ArithmeticPromptOptions {
  seed?: number;
  trainSize?: number;
  heldoutSize?: number;
  maxOperand?: number;
  /** The operators to draw from, e.g. "+-". */
  operations?: string;
  allowNegative?: boolean;
}

export interface Prompt {
  id: number;
  /** "a+b=" or "a-b=". */
  text: string;
  answer: string;
  split: 'train' | 'heldout';
  /** Token ids of the text (vocabulary: 0-9 + - = / ? <eos>). */
  tokens: number[];
}

/** Fresh-generation metrics of one split, before or after RL. */
export interface Metrics {
  accuracy: number;
  meanReward: number;
  meanLength: number;
  entropy: number;
  teacherForcedKl: number;
  passAt4: number;
}

/** One bin of a prompt's answer histogram (docs/coverage.md, "Answer histograms"). */
export interface AnswerBin {
  /** A verifier status, or "other" (the wrong answers beyond the kept bins). */
  kind: 'correct' | 'incorrect' | 'no_answer' | 'invalid' | 'truncated' | 'other';
  /** correct: the prompt's answer; incorrect: the verifier's extracted answer; absent otherwise. */
  answer?: string;
  count: number;
}

export interface PromptAccuracy {
  promptId: number;
  prompt: string;
  accuracy: number;
  /** The prompt's answers among the evaluation's samples: the correct bin first (count = successes), at most 4 more and "other"; counts sum to finalEvalSamples. Absent in a run saved before it. */
  answers?: AnswerBin[];
}

/** One update of a run (NaN where a metric has no value, e.g. ratios with no unmasked token). */
export interface HistoryRow {
  update: number;
  evalAccuracy: number;
  evalEntropy: number;
  informativeFraction: number;
  discardedFraction: number;
  ratioMin: number;
  ratioMean: number;
  ratioMax: number;
  clipFractionLow: number;
  clipFractionHigh: number;
  clipFractionRegion: number;
  kl: number;
  loss: number;
  gradNorm: number;
  meanReward: number;
  accuracy: number;
  meanLength: number;
  truncatedFraction: number;
  /** TRL's `entropy`: the learner's mean per-token entropy over the loss-mask tokens, mean over the update's epochs (0 when every completion is masked). Absent in a row imported from a file older than it. */
  entropy?: number;
  /** Ours: the sampler's mean per-token entropy over every sampled completion (an older file's `entropy`). */
  samplerEntropy: number;
  // TRL's metrics (names in HISTORY_COLUMNS, web/js/training/run-format.js); absent in older files.
  clipRatioLowMin?: number;
  clipRatioHighMax?: number;
  fracRewardZeroStd?: number;
  minLength?: number;
  maxLength?: number;
  cispoClipRatio?: number;
  /** TRL's sampling/*: only with a separate sampler (samplerMismatch > 0 or samplerLag > 0); absent without one. */
  samplingRatioMin?: number;
  samplingRatioMean?: number;
  samplingRatioMax?: number;
  samplingLogpDifferenceMean?: number;
  samplingLogpDifferenceMax?: number;
  entropyCoef?: number;
  /** Groups whose correctness differs / groups; informativeFraction minus it differ in format (or overlong) alone. Absent before issue 24. */
  correctnessInformativeFraction?: number;
  /**
   * Only with entropyMechanism (docs/entropy-mechanism.md, "The GRU"): the learner's mean token
   * entropy on the fixed probe set after the update, its measured change over the update, the
   * first-order prediction grad H . delta theta (every optimizer step of the update), |delta theta|,
   * and Cov(log pi, A) over the batch's loss-mask tokens (the learner's log-probs before the update).
   */
  probeEntropy?: number;
  probeEntropyChange?: number;
  probeEntropyPrediction?: number;
  stepNorm?: number;
  logpAdvantageCov?: number;
  /** engine verl only: verl's metric names as verl v0.7.0's dp_actor logs them: actor/pg_loss and actor/kl_loss (0 with beta 0) summed over the update's optimizer steps; actor/pg_clipfrac, actor/ppo_kl, actor/pg_clipfrac_lower (as the loss mode returns them) their mean. */
  'actor/pg_loss'?: number;
  'actor/pg_clipfrac'?: number;
  'actor/ppo_kl'?: number;
  'actor/pg_clipfrac_lower'?: number;
  'actor/kl_loss'?: number;
  /** Issue 23: the mean length of the update's correct / incorrect completions; absent when it had none. */
  meanLengthCorrect?: number;
  meanLengthIncorrect?: number;
  /** With passAtKEvery, on the updates that log it: pass@k at k = 1, 2, 4, ... up to finalEvalSamples, on train and held-out prompts (e.g. trainPassAt1, heldoutPassAt64). */
  [passAtK: `${'train' | 'heldout'}PassAt${number}`]: number | undefined;
}

export interface Tensor {
  shape: number[];
  /** Row-major values. */
  data: number[];
}

/** A trained policy (docs/checkpoint.md): PyTorch-named tensors of the GRU policy. */
export interface Checkpoint {
  vocab: string[];
  config: { embed: number; hidden: number; temperature: number; experiment?: ExperimentConfig; [key: string]: unknown };
  tensors: Record<string, Tensor>;
}

/** What createExperiment() measures before RL (its `info`). */
export interface ExperimentInfo {
  handle: number;
  config: ExperimentConfig;
  prompts: Prompt[];
  vocab: string[];
  beforeTrain: Metrics;
  beforeHeldout: Metrics;
  beforeTrainByPrompt: PromptAccuracy[];
  beforeHeldoutByPrompt?: PromptAccuracy[];
}

/** The advantage estimator of the update: GRPO and its ancestors (docs/api.md). */
export type AdvantageEstimator = 'grpo' | 'dr_grpo' | 'rloo' | 'reinforce_baseline' | 'reinforce';

/** Section 8's measures of one policy on one prompt set (docs/coverage.md). */
export interface Coverage {
  prompts: number;
  samples: number;
  /** Prompts with at least one success in `samples` fresh answers. */
  solved: number;
  /** ceil(prompts / 4): the best quarter. */
  topCount: number;
  /** Share of all successes held by the best quarter of prompts (0 when none). */
  topQuarterShare: number;
  meanAccuracy: number;
  /** 1 - 0.05^(1/samples): a prompt solved at this rate or more shows up with chance >= 95%. */
  detectionFloor: number;
}

/** pass@k at k = 1, 2, 4, ..., samples: the mean unbiased estimate over prompts. */
export interface PassAtKCurve {
  ks: number[];
  values: number[];
}

/** A run's section 8 block; recomputed by importRun from the by-prompt accuracies. */
export interface RunCoverage {
  beforeTrain: (Coverage & { passAtK: PassAtKCurve }) | null;
  afterTrain: (Coverage & { passAtK: PassAtKCurve }) | null;
  beforeHeldout: (Coverage & { passAtK: PassAtKCurve }) | null;
  afterHeldout: (Coverage & { passAtK: PassAtKCurve }) | null;
  /** The first k where the base policy's pass@k lies above the trained one's; null: never. */
  crossingTrain: number | null;
  crossingHeldout: number | null;
  samples: number;
  detectionFloor: number;
}

/** A finished (or stopped) run: the run file's content, format "grpo-lab-run" version 1. */
export interface RunResult {
  format: 'grpo-lab-run';
  version: 1;
  config: ExperimentConfig;
  beforeTrain: Metrics;
  afterTrain: Metrics;
  beforeHeldout: Metrics;
  afterHeldout: Metrics;
  history: HistoryRow[];
  beforeTrainByPrompt: PromptAccuracy[];
  afterTrainByPrompt: PromptAccuracy[];
  beforeHeldoutByPrompt: PromptAccuracy[];
  afterHeldoutByPrompt: PromptAccuracy[];
  prompts: Prompt[];
  vocab: string[];
  checkpoint?: Checkpoint;
  coverage: RunCoverage;
  /** The config's settings that train to no effect, and those TRL warns about (from the config). */
  warnings: ConfigWarning[];
  updatesDone: number;
  /** Plain labels a run file may carry (where it came from, how it ended). */
  source?: string;
  status?: string;
}

/** A run in steps (what the page's Web Worker streams). */
export interface Experiment {
  readonly info: ExperimentInfo;
  /** True once every update has run. */
  readonly done: boolean;
  /** Runs up to `count` updates (default 1) and returns their rows. */
  step(count?: number): HistoryRow[];
  /** Measures after RL and returns the full result (callable at any point, e.g. after a stop). */
  finish(): RunResult;
  /** Frees the C++ experiment; safe to call twice. */
  dispose(): void;
  /** Keeps the step inspector's record of the updates from now on (docs/inspector.md). */
  keepInspection(options?: KeepInspectionOptions): InspectionRecord;
  /** Runs updates up to `to` without their evaluations (evalAccuracy, evalEntropy NaN): a replay. */
  replay(to: number): HistoryRow[];
}

// --- the step inspector (docs/inspector.md) ---------------------------------------------------------

export interface KeepInspectionOptions {
  /** The record's budget in bytes (default 32 MiB, at most 1 GiB): past it the oldest updates go. */
  maxBytes?: number;
  /** Also keep the gradient the trainer applied per step (a check: `steps[k].applied`). */
  applied?: boolean;
}

export interface InspectionStats {
  bytes: number;
  maxBytes: number;
  /** The updates kept (0 and 0 before any). */
  firstKept: number;
  lastKept: number;
  /** Updates dropped to stay within maxBytes. */
  dropped: number;
}

/** verl's Clip-Cov and KL-Cov ratios for the covariance marks (default: the run's). */
export interface InspectionViewOptions {
  klCovRatio?: number;
  clipCovRatio?: number;
}

export interface InspectionRecord {
  readonly record: number;
  readonly maxBytes: number;
  readonly applied: boolean;
  /** The first update it records. */
  readonly from: number;
  /** One update: every token's term of every optimizer step, as the trainer applied it. */
  view(update: number, options?: InspectionViewOptions): InspectionView;
  stats(): InspectionStats;
  /** Frees the record; safe to call twice. */
  dispose(): void;
}

export interface InspectionRow {
  tokens: string[];
  tokenIds: number[];
  text: string;
  status: VerifierStatus;
  accuracy: number;
  reward: number;
  /** The reward the objective took (the weighted sum, or normalize_then_sum's). */
  objectiveReward: number;
  advantage: number;
  terminated: boolean;
  /** Its index among the update's kept rows (the steps' `rows`), -1 in a dropped group. */
  keptRow: number;
}

export interface InspectionGroup {
  promptId: number;
  prompt: string;
  /** False: dropped by dynamic sampling. */
  kept: boolean;
  rows: InspectionRow[];
}

/** One completion's tokens taken apart (grpo_objective.h TokenTerm), one array per quantity. */
export interface TokenTerms {
  ratio: number[];
  /** The ratio the policy term reads (the completion's at importanceSamplingLevel "sequence"). */
  termRatio: number[];
  /** w = -d(policy term)/d log r (CISPO, VESPO: c A), before masks and the sampler weight. */
  policy: number[];
  /** CISPO's min(r, epsHigh) or VESPO's phi; 0 for the other loss types. */
  coefficient: number[];
  /** A sequence-level ratio term: every token shares it, scaled by `share` (k_i / n_i). */
  shared: boolean[];
  share: number[];
  /** The sampler correction's weight (1 when none is applied). */
  sampler: number[];
  entropyKept: boolean[];
  offPolicyKept: boolean[];
  clippedLow: boolean[];
  clippedHigh: boolean[];
  /** k3 to the reference (times r with useBiasCorrectionKl) and beta d k3 / d logp. */
  kl: number[];
  klGrad: number[];
  /** D_i. */
  normalizer: number[];
  /** False: the completion is masked (maskTruncated). */
  active: boolean[];
  /** dJ/d log pi = -gradLogProbs: (policy m_ent m_off s_IS - klGrad) / D, or shared (policy share m_off - klGrad) / D. */
  weight: number[];
}

/** Engine verl's steps carry the weight, the ratio, the mask and TRL's clip events only. */
export type InspectionTerms = TokenTerms | Pick<TokenTerms, 'ratio' | 'weight' | 'clippedLow' | 'clippedHigh' | 'active'>;

export interface InspectionCovariance {
  /** (A - mean A)(log pi - mean log pi) per token (0 on masked ones). */
  values: number[][];
  /** Cov(log pi, A) over the loss-mask tokens. */
  mean: number;
  klCovRatio: number;
  clipCovRatio: number;
  clipCovLb: number;
  clipCovUb: number;
  /** [row, token] pairs verl's KL-Cov (top k) and Clip-Cov select. */
  klCov: [number, number][];
  clipCov: [number, number][];
}

export interface InspectionStep {
  epoch: number;
  /** Its mini-batch (stepsPerGeneration). */
  part: number;
  /** Its rows: indices into the update's kept rows. */
  rows: number[];
  advantages: number[];
  loss: number;
  /** The norm of d loss / d logp over its tokens. */
  gradNorm: number;
  terms: InspectionTerms[];
  gradEntropies?: number[][] | null;
  metrics: Record<string, number | null>;
  /** The options the objective used (engine trl). */
  config?: GrpoObjectiveResolved;
  covariance: InspectionCovariance;
  logProbs: number[][];
  oldLogProbs: number[][] | null;
  entropies: number[][] | null;
  /** grpoObjective's arguments for this step's batch (grpoCounterfactual's `batch`). */
  objective: GrpoObjectiveOptions;
  /** The gradient the trainer applied (keepInspection({applied: true})). */
  applied?: number[][];
}

export interface InspectionView {
  update: number;
  engine: 'trl' | 'verl';
  groupSize: number;
  groups: InspectionGroup[];
  steps: InspectionStep[];
  /** The largest |weight| over the update's steps (the page's colour scale). */
  largestWeight: number;
  /** What keeping this update costs. */
  bytes: number;
  stats: InspectionStats;
}

/** The settings a counterfactual changes (null: None for delta and epsHigh). */
export interface CounterfactualChange {
  lossType?: LossType;
  epsHigh?: number | null;
  delta?: number | null;
  importanceSamplingLevel?: ImportanceSamplingLevel;
  vllmImportanceSamplingMode?: SamplerCorrectionMode;
}

export interface GrpoCounterfactualOptions {
  batch: GrpoObjectiveOptions;
  change?: CounterfactualChange;
}

export interface CounterfactualSide {
  loss: number;
  gradNorm: number;
  terms: TokenTerms[];
  gradEntropies: number[][] | null;
  metrics: GrpoObjectiveMetrics;
  config: GrpoObjectiveResolved;
}

export interface GrpoCounterfactual {
  original: CounterfactualSide;
  counterfactual: CounterfactualSide;
  lossChange: number;
  gradNormChange: number;
  tokens: number;
  tokensChanged: number;
  largestChange: number;
}

export interface InspectUpdateOptions extends InspectionViewOptions {
  maxBytes?: number;
}

export interface RolloutConfig extends ExperimentOptions {}

export interface RolloutOptions {
  seed?: number;
  generatorVersion?: string;
}

export interface RolloutRow {
  promptId: number;
  responseTokens: string[];
  responseTokenIds: number[];
  responseText: string;
  reward: number;
  rewardComponents: { correctness: number; format: number };
  accuracy: number;
  status: VerifierStatus;
  length: number;
  terminated: boolean;
  oldLogProbs: number[];
  entropies: number[];
  advantage: number;
  generatorVersion: string;
}

export interface Rollouts {
  groups: RolloutRow[][];
  discardedFraction: number;
  informativeFraction: number;
  correctnessInformativeFraction: number;
  generatorVersion: string;
  prompts: Prompt[];
}

export interface TeacherForcedOptions {
  /** Also return d(sum of log-probs)/d(parameter) per PyTorch parameter name. */
  gradients?: boolean;
}

export interface TeacherForced {
  /** One array per sequence: the log-prob of each token after the first (the context). */
  logProbs: number[][];
  gradients?: Record<string, Tensor>;
}

/** TRL's multi_objective_aggregation. */
export type TaskName = 'arithmetic' | 'scratch' | 'rewrite';
export type RewardAggregation = 'sum_then_normalize' | 'normalize_then_sum';

/** The rewards of a batch: one per completion, or one per completion and reward function. */
export type GrpoObjectiveRewards =
  | {
      /** One reward per completion, groups of `groupSize` in a row. */
      rewards: number[];
      rewardsPerFunc?: never;
      rewardWeights?: never;
    }
  | {
      /** TRL's rewards_per_func: [completion][reward function], groups in a row. */
      rewardsPerFunc: number[][];
      /** TRL's reward_weights, one per function (default: all 1). */
      rewardWeights?: number[];
      rewards?: never;
    }
  | {
      /** A mini-batch of a larger generation: its advantages as they are (no rewards read). */
      advantages: number[];
      rewards?: never;
      rewardsPerFunc?: never;
      rewardWeights?: never;
    };

/** grpoObjective's options: the rewards (above) and these. */
export interface GrpoObjectiveBatch {
  groupSize: number;
  /** sum_then_normalize (default) or normalize_then_sum (GDPO: then scaled over the batch). */
  multiObjectiveAggregation?: RewardAggregation;
  /** Per-token log-probs of each completion under the current policy. */
  logProbs: number[][];
  oldLogProbs?: number[][];
  refLogProbs?: number[][];
  /** Completions without EOS. */
  truncated?: boolean[];
  entropies?: number[][];
  lossType?: LossType;
  scaleRewards?: ScaleRewards;
  epsLow?: number;
  epsHigh?: number | null;
  beta?: number;
  maxCompletionLength?: number;
  importanceSamplingLevel?: ImportanceSamplingLevel;
  maskTruncated?: boolean;
  advantageEstimator?: AdvantageEstimator;
  /** The sampler's log-probs (TRL's sampling_per_token_logps): the correction, the off-policy mask. */
  samplingLogProbs?: number[][];
  /** TRL's num_items_in_batch: the generation's loss-mask tokens (dapo, cispo, vespo's normaliser). */
  numItemsInBatch?: number;
  /** Also return every token's term taken apart (`tokenTerms`, the step inspector's). */
  tokenTerms?: boolean;
}

export interface GrpoObjectiveBatch extends Partial<TrlLossOptions> {}

export type GrpoObjectiveOptions = GrpoObjectiveRewards & GrpoObjectiveBatch;

/** The per-token term's options of grpoObjective (TRL 1.9's names in camelCase, TRL's defaults). */
export interface TokenTermOptions {
  lossType?: LossType;
  epsLow?: number;
  epsHigh?: number | null;
  /** Two-sided clipping of the clip family (TRL's delta; absent = None). */
  delta?: number;
  sapoTemperaturePos?: number;
  sapoTemperatureNeg?: number;
  vespoKPos?: number;
  vespoLambdaPos?: number;
  vespoKNeg?: number;
  vespoLambdaNeg?: number;
}

/**
 * Section 3's curves: one token of one completion at each (ratios[i], advantages[i]). view
 * "objective" (default): the surrogate J(r, A) whose d/d log r is the gradient weight (minus TRL's
 * per-token loss for the ratio-based types); "weight": w = -d loss / d logp (docs/trl.md).
 */
export interface TokenTermCurveOptions extends TokenTermOptions {
  ratios: number[];
  advantages: number[];
  view?: 'objective' | 'weight';
}

/** Section 4: D_i of one completion of `length` tokens (core/reductions.h loss_normalizer). */
export interface LossNormalizerOptions {
  lossType: LossType;
  completions: number;
  length: number;
  totalTokens: number;
  maxCompletionLength: number;
}

export interface SoftOverlongOptions {
  /** Completion lengths in tokens, integers >= 0. */
  lengths: number[];
  /** TRL's max_completion_len (>= 1) and soft_punish_cache (<= max_completion_len). */
  maxCompletionLen: number;
  softPunishCache: number;
}

export interface GrpoObjectiveMetrics {
  clipRatioLowMean: number;
  clipRatioHighMean: number;
  clipRatioRegionMean: number;
  /** null when not computed (no entropies / no reference given). */
  entropy: number | null;
  kl: number | null;
  fracRewardZeroStd: number;
  numTokens: number;
  numTruncated: number;
  ratioMin: number;
  ratioMean: number;
  ratioMax: number;
  /** null where TRL logs none (the clip family only for grpo, bnpo, dr_grpo, dapo, luspo). */
  clipRatioLowMin: number | null;
  clipRatioHighMax: number | null;
  cispoClipRatio: number | null;
  vespoPhiSeqMean: number | null;
  numEntropyMasked: number;
  numOffPolicyMasked: number;
  /** null without samplingLogProbs. */
  samplingImportanceRatioMin: number | null;
  samplingImportanceRatioMean: number | null;
  samplingImportanceRatioMax: number | null;
  samplingLogpDifferenceMean: number | null;
  samplingLogpDifferenceMax: number | null;
}

/** The options grpoObjective used, defaults filled in. */
export interface GrpoObjectiveResolved extends TrlLossOptions {
  lossType: LossType;
  /** normalize_then_sum: "batch", whatever was asked (TRL scales its sum over the batch). */
  scaleRewards: ScaleRewards;
  advantageEstimator: AdvantageEstimator;
  epsLow: number;
  epsHigh: number;
  beta: number;
  groupSize: number;
  maxCompletionLength: number;
  importanceSamplingLevel: ImportanceSamplingLevel;
  maskTruncated: boolean;
  multiObjectiveAggregation: RewardAggregation;
  /** null when the rewards came as `rewards`. */
  rewardWeights: number[] | null;
}

export interface GrpoObjective {
  loss: number;
  /** The one reward per completion the advantages are computed from (aggregated). */
  rewards: number[];
  advantages: number[];
  /** d loss / d logProbs, shaped like logProbs. */
  gradLogProbs: number[][];
  /** d loss / d entropies (entropyCoef's gradient); null without entropies. */
  gradEntropies: number[][] | null;
  metrics: GrpoObjectiveMetrics;
  config: GrpoObjectiveResolved;
  /** With tokenTerms: true. */
  tokenTerms?: TokenTerms[];
}

// --- verl v0.7.0 (docs/verl.md): verl's argument names in camelCase, verl's defaults -----------

/** verl's outcome advantage estimators (algorithm.adv_estimator), and gae (with a critic). */
export type VerlEstimator = 'grpo' | 'grpo_passk' | 'rloo' | 'reinforce_plus_plus' | 'reinforce_plus_plus_baseline' | 'remax' | 'opo' | 'gpg' | 'gae';
export type VerlLossAggMode = 'token-mean' | 'seq-mean-token-sum' | 'seq-mean-token-mean' | 'seq-mean-token-sum-norm';
export type VerlLossMode = 'vanilla' | 'gspo' | 'sapo' | 'gpg' | 'clip_cov' | 'kl_cov' | 'geo_mean' | 'cispo' | 'reinforce';
/** verl v0.7.0 raises for 'full' and for every '+' variant: they are refused. */
export type VerlKlPenaltyType = 'kl' | 'k1' | 'abs' | 'mse' | 'k2' | 'low_var_kl' | 'k3';

export interface VerlAdvantagesOptions {
  estimator: VerlEstimator;
  /** [B][T]; the outcome estimators sum every position (unmasked), as verl does. */
  tokenLevelRewards: number[][];
  /** [B][T] of 0 and 1. */
  responseMask: number[][];
  /** verl's uid per row (its group); required by every estimator but reinforce_plus_plus, remax, gae. */
  index?: (number | string)[];
  /** algorithm.norm_adv_by_std_in_grpo (grpo, grpo_passk), default true. */
  normAdvByStdInGrpo?: boolean;
  /** algorithm.gamma (reinforce_plus_plus, gae), default 1. */
  gamma?: number;
  /** algorithm.lam (gae), default 1. */
  lam?: number;
  /** [B][T] the critic's values (gae). */
  values?: number[][];
  /** [B] remax's baselines (the greedy rollout's reward). */
  rewardBaselines?: number[];
}

export interface VerlAdvantages {
  advantages: number[][];
  returns: number[][];
}

/** agg_loss's keyword arguments (config.global_batch_info); absent or null = verl's None. */
export interface VerlGlobalBatchInfo {
  dpSize?: number;
  batchNumTokens?: number | null;
  globalBatchSize?: number | null;
  lossScaleFactor?: number | null;
}

export interface VerlAggLossOptions extends VerlGlobalBatchInfo {
  lossMat: number[][];
  lossMask: number[][];
  lossAggMode: VerlLossAggMode;
}

export interface VerlAggLoss {
  loss: number;
  /** d loss / d lossMat. */
  gradLossMat: number[][];
}

/** ActorConfig / PolicyLossConfig fields, verl's defaults (actor.yaml); null = verl's None. */
export interface VerlPolicyLossConfig extends VerlGlobalBatchInfo {
  clipRatio?: number;
  clipRatioLow?: number | null;
  clipRatioHigh?: number | null;
  clipRatioC?: number;
  tauPos?: number;
  tauNeg?: number;
  clipCovRatio?: number | null;
  clipCovLb?: number | null;
  clipCovUb?: number | null;
  klCovRatio?: number | null;
  ppoKlCoef?: number | null;
}

export interface VerlPolicyLossOptions {
  /** Default vanilla. */
  lossMode?: VerlLossMode;
  /** Required except for reinforce. */
  oldLogProb?: number[][];
  logProb: number[][];
  advantages: number[][];
  responseMask: number[][];
  /** Default: the function's own (seq-mean-token-sum for reinforce, token-mean otherwise). */
  lossAggMode?: VerlLossAggMode;
  /** reinforce's rollout log-probs (required there). */
  rolloutLogProb?: number[][];
  /** rollout_is_weights: multiply each token's loss (geo_mean: their per-row geometric mean). */
  rolloutIsWeights?: number[][];
  /** clip_cov / kl_cov: the [row, col] tokens verl selected (default: docs/verl.md's rule). */
  selectedTokens?: [number, number][];
  config?: VerlPolicyLossConfig;
}

/** verl's metric names, as its actor logs them; only those the loss mode returns are present. */
export interface VerlPolicyMetrics {
  'actor/pg_clipfrac'?: number;
  'actor/ppo_kl'?: number;
  'actor/pg_clipfrac_lower'?: number;
}

export interface VerlPolicyLoss {
  pgLoss: number;
  metrics: VerlPolicyMetrics;
  /** d pgLoss / d logProb (verl's autograd: detached factors held). */
  gradLogProb: number[][];
  /** clip_cov, kl_cov: the tokens treated apart. */
  selectedTokens?: [number, number][];
}

export interface VerlKlPenaltyOptions {
  logProb: number[][];
  refLogProb: number[][];
  /** Default kl (algorithm.kl_penalty). */
  klPenalty?: VerlKlPenaltyType;
}

export interface VerlKlPenalty {
  kl: number[][];
  /** d sum(kl) / d logProb. */
  gradLogProb: number[][];
}

/** One error code the core may set on GrpoError.code, with the names of its params. */
export interface MessageCode {
  code: string;
  params: string[];
}

/** A setting that trains to no effect, or one TRL warns about: not an error (core.configWarnings). */
export interface ConfigWarning {
  /** The rule (see core.warningCodes()), e.g. "no_answer_fits"; the page's text is "warn.<code>". */
  code: string;
  /** The field to change. */
  field: string;
  params: Record<string, number | string>;
  /** The English sentence. */
  message: string;
}

// --- the raw core (core.call) ---------------------------------------------------------------------

/**
 * Every method the WASM core answers (core.methods()), with its named JSON arguments and its
 * result: what core.call(method, args) takes and returns. The friendly methods below wrap them.
 */
export interface CoreMethods {
  verifyNumericAnswer: { args: { text: string; reference: string }; result: 0 | 1 };
  checkNumericAnswer: { args: { text: string; reference: string }; result: NumericCheck };
  informativeGroupProbability: { args: { p: number; groupSize: number }; result: number };
  informativeGroupCurve: { args: { ps: number[]; groupSize: number }; result: number[] };
  expectedDrawsForInformativeGroups: { args: { n: number; p: number; groupSize: number }; result: number };
  groupRelativeAdvantages: { args: { rewards: number[]; scale?: boolean }; result: number[] };
  estimateAdvantages: { args: { rewards: number[]; groupSize: number; advantageEstimator?: AdvantageEstimator }; result: number[] };
  clippedSurrogateTerms: { args: { ratios: number[]; advantages: number[]; epsLow: number; epsHigh: number }; result: number[] };
  clipActivity: { args: { ratios: number[]; advantages: number[]; epsLow: number; epsHigh: number }; result: boolean[] };
  originalGrpoTokenWeights: { args: { rewards: number[]; lengths: number[] }; result: number[][] };
  drGrpoTokenWeights: { args: { rewards: number[]; lengths: number[]; fixedLength: number }; result: number[][] };
  dapoTokenWeights: { args: { rewards: number[]; lengths: number[] }; result: number[][] };
  responseContributions: { args: { tokenWeights: number[][] }; result: number[] };
  flattenTokenWeights: { args: { tokenWeights: number[][] }; result: number[] };
  syntheticModeTraining: { args: SyntheticModeOptions; result: SyntheticModeState };
  finiteEntropyMechanism: { args: SyntheticModeOptions; result: FiniteEntropyMechanism };
  categoricalEntropy: { args: { probabilities: number[] }; result: number };
  passAtKIndependent: { args: { p: number; k: number }; result: number };
  passAtKUnbiased: { args: { n: number; c: number; k: number }; result: number };
  coverageConcentration: { args: { successes: number[]; samples: number }; result: Coverage };
  passAtKCurve: { args: { successes: number[]; samples: number; ks?: number[] }; result: PassAtKCurve };
  arithmeticPrompts: { args: ArithmeticPromptOptions; result: Prompt[] };
  experimentConfig: { args: ExperimentOptions; result: ExperimentConfig };
  configSchema: { args: Record<string, never>; result: ConfigSchema };
  configWarnings: { args: ExperimentOptions; result: ConfigWarning[] };
  warningCodes: { args: Record<string, never>; result: MessageCode[] };
  experimentCreate: { args: ExperimentOptions; result: ExperimentInfo };
  experimentStep: { args: { handle: number; count: number }; result: { rows: HistoryRow[]; done: boolean } };
  experimentFinish: { args: { handle: number }; result: RunResult };
  experimentDispose: { args: { handle: number }; result: unknown };
  liveExperiments: { args: Record<string, never>; result: number };
  collectRollouts: {
    args: { checkpoint: Checkpoint; prompts: Prompt[]; config?: RolloutConfig; seed?: number; generatorVersion?: string };
    result: Rollouts;
  };
  teacherForcedLogProbs: { args: { checkpoint: Checkpoint; sequences: number[][]; gradients?: boolean }; result: TeacherForced };
  grpoObjective: { args: GrpoObjectiveOptions; result: GrpoObjective };
  tokenTermCurve: { args: TokenTermCurveOptions; result: number[] };
  lossNormalizer: { args: LossNormalizerOptions; result: number };
  softOverlongPunishment: { args: SoftOverlongOptions; result: number[] };
  verlAdvantages: { args: VerlAdvantagesOptions; result: VerlAdvantages };
  verlAggLoss: { args: VerlAggLossOptions; result: VerlAggLoss };
  verlPolicyLoss: { args: VerlPolicyLossOptions; result: VerlPolicyLoss };
  verlKlPenalty: { args: VerlKlPenaltyOptions; result: VerlKlPenalty };
  importRun: { args: { run: unknown }; result: RunResult };
  experimentKeepInspection: { args: KeepInspectionOptions & { handle: number }; result: { record: number; maxBytes: number; applied: boolean; from: number } };
  experimentReplay: { args: { handle: number; to: number }; result: { rows: HistoryRow[]; updatesDone: number } };
  inspectionView: { args: InspectionViewOptions & { record: number; update: number }; result: InspectionView };
  inspectionStats: { args: { record: number }; result: InspectionStats };
  inspectionDispose: { args: { record: number }; result: { disposed: boolean } };
  liveInspections: { args: Record<string, never>; result: number };
  grpoCounterfactual: { args: GrpoCounterfactualOptions; result: GrpoCounterfactual };
  memoryStats: { args: Record<string, never>; result: { heapInUse: number } };
  messageCodes: { args: Record<string, never>; result: MessageCode[] };
  version: { args: Record<string, never>; result: { core: string; scalar: string } };
}

export type CoreMethodName = keyof CoreMethods;

// --- the API object -------------------------------------------------------------------------------

export interface GrpoCore {
  /** Names of every method the WASM core answers. */
  methods(): CoreMethodName[];
  /** Bytes of WASM linear memory (grows, never shrinks). */
  heapBytes(): number;
  /** Stepwise experiments held by this core and not yet disposed. */
  liveHandles(): number;
  /** Step-inspector records (experiment.keepInspection) held by this core and not yet disposed. */
  liveInspections(): number;
  /**
   * Lets another thread stop this core's long calls: while flag[0] (an Int32Array over a
   * SharedArrayBuffer) is non-zero, a running warm-up, step or finish throws an Error with code
   * 'interrupted' within ~0.1 s, and that experiment answers nothing but dispose(). null: never.
   */
  interruptOn(flag: Int32Array | null): void;
  /** Every error code the core may set on GrpoError.code, with its parameter names. */
  messageCodes(): MessageCode[];
  /** Low-level access for tests and tools: any core method with its named arguments. */
  call<M extends CoreMethodName>(method: M, args: CoreMethods[M]['args']): CoreMethods[M]['result'];

  // Section 1
  verifyNumericAnswer(text: string, reference: string): 0 | 1;
  checkNumericAnswer(text: string, reference: string): NumericCheck;
  // Section 2
  informativeGroupProbability(p: number, groupSize: number): number;
  informativeGroupCurve(ps: number[], groupSize: number): number[];
  /** n / P_info; Infinity when P_info = 0. */
  expectedDrawsForInformativeGroups(n: number, p: number, groupSize: number): number;
  // Section 3
  groupRelativeAdvantages(rewards: number[], scale?: boolean): number[];
  /** Advantages of `rewards` in groups of `groupSize` by one of GRPO's ancestors' baselines (issue 14). */
  estimateAdvantages(rewards: number[], groupSize: number, advantageEstimator?: AdvantageEstimator): number[];
  clippedSurrogateTerms(ratios: number[], advantages: number[], epsLow: number, epsHigh: number): number[];
  clipActivity(ratios: number[], advantages: number[], epsLow: number, epsHigh: number): boolean[];
  // Section 4
  originalGrpoTokenWeights(rewards: number[], lengths: number[]): number[][];
  drGrpoTokenWeights(rewards: number[], lengths: number[], fixedLength: number): number[][];
  dapoTokenWeights(rewards: number[], lengths: number[]): number[][];
  responseContributions(tokenWeights: number[][]): number[];
  flattenTokenWeights(tokenWeights: number[][]): number[];
  // Section 5
  syntheticModeTraining(options: SyntheticModeOptions): SyntheticModeState;
  /** Each step's exact entropy change beside its first-order prediction -lr Cov(log p, p A). */
  finiteEntropyMechanism(options: SyntheticModeOptions): FiniteEntropyMechanism;
  categoricalEntropy(probabilities: number[]): number;
  passAtKIndependent(p: number, k: number): number;
  passAtKUnbiased(n: number, c: number, k: number): number;
  // Section 8
  coverageConcentration(options: { successes: number[]; samples: number }): Coverage;
  passAtKCurve(options: { successes: number[]; samples: number; ks?: number[] }): PassAtKCurve;
  // Sections 6-8
  arithmeticPrompts(options?: ArithmeticPromptOptions): Prompt[];
  experimentConfig(options?: ExperimentOptions): ExperimentConfig;
  /** The config's field table (names, kinds, ranges, defaults, TRL names). */
  configSchema(): ConfigSchema;
  /** The settings of a config that train to no effect, and those TRL warns about. */
  configWarnings(options?: ExperimentOptions): ConfigWarning[];
  /** Every warning code configWarnings may give, with its parameter names. */
  warningCodes(): MessageCode[];
  createExperiment(options?: ExperimentOptions): Experiment;
  /** The notebook's run_toy_grpo_experiment: runs to the end, onProgress(row) once per update. */
  runToyGrpoExperiment(options?: ExperimentOptions, onProgress?: (row: HistoryRow) => void): RunResult;
  collectRollouts(checkpoint: Checkpoint, prompts: Prompt[], config?: RolloutConfig, options?: RolloutOptions): Rollouts;
  teacherForcedLogProbs(checkpoint: Checkpoint, sequences: number[][], options?: TeacherForcedOptions): TeacherForced;
  grpoObjective(options: GrpoObjectiveOptions): GrpoObjective;
  /** One token's term of a loss type against its ratio (section 3's curves). */
  tokenTermCurve(options: TokenTermCurveOptions): number[];
  /** The normaliser D_i a loss type divides a completion's per-token losses by (section 4). */
  lossNormalizer(options: LossNormalizerOptions): number;
  /** DAPO's soft overlong punishment per length: 0, a ramp over the cache, then -1. */
  softOverlongPunishment(options: SoftOverlongOptions): number[];
  // verl v0.7.0's functions (docs/verl.md)
  /** An outcome estimator of verl/trainer/ppo/core_algos.py. */
  verlAdvantages(options: VerlAdvantagesOptions): VerlAdvantages;
  /** agg_loss and its gradient. */
  verlAggLoss(options: VerlAggLossOptions): VerlAggLoss;
  /** A policy loss, verl's metrics and d loss / d log_prob. */
  verlPolicyLoss(options: VerlPolicyLossOptions): VerlPolicyLoss;
  /** kl_penalty per token and the gradient of its sum. */
  verlKlPenalty(options: VerlKlPenaltyOptions): VerlKlPenalty;
  /** Validates a saved run (e.g. a run file read back) and returns it normalized. */
  importRun(run: unknown): RunResult;
  // The step inspector (docs/inspector.md)
  /** One update of a run recomputed by replaying `config` from its seed: its view and the replayed rows. */
  inspectUpdate(config: ExperimentOptions, update: number, options?: InspectUpdateOptions): { view: InspectionView; rows: HistoryRow[] };
  /** One step's batch (an InspectionStep's `objective`) under other settings, beside the original. */
  grpoCounterfactual(options: GrpoCounterfactualOptions): GrpoCounterfactual;
}

export interface LoadCoreOptions {
  /** The .wasm bytes, if the caller already has them (Node reads the file next to the module). */
  wasmBinary?: ArrayBuffer | Uint8Array;
  /** The threaded build where it can run (cross-origin isolated): by default in a worker on a machine of at least THREADED_MIN_CORES logical cores, not in a page's own thread; false: one thread; true: threads on fewer cores and in a page's thread too. */
  threads?: boolean;
}

/**
 * Loads the WASM core once; later calls return the same object. In a cross-origin isolated worker
 * (or page, with {threads: true}) it is the threaded build (grpo_core_mt, 2 threads, the same
 * bytes); {threads: false} keeps one thread.
 */
export function loadCore(options?: LoadCoreOptions): Promise<GrpoCore>;

/** Whether loadCore(options) takes the threaded build here (a cross-origin isolated browser). */
export function threadedCoreAvailable(options?: LoadCoreOptions): boolean;
/** The fewest logical cores (navigator.hardwareConcurrency) on which a worker takes the threaded build by default. */
export const THREADED_MIN_CORES: number;

/** The functions of the reference build's API object (sections 1-5, experimentConfig). */
export type ReferenceCoreFunction =
  | 'methods' | 'heapBytes' | 'call' | 'messageCodes'
  | 'verifyNumericAnswer' | 'checkNumericAnswer'
  | 'informativeGroupProbability' | 'informativeGroupCurve' | 'expectedDrawsForInformativeGroups'
  | 'groupRelativeAdvantages' | 'estimateAdvantages' | 'clippedSurrogateTerms' | 'clipActivity'
  | 'originalGrpoTokenWeights' | 'drGrpoTokenWeights' | 'dapoTokenWeights' | 'responseContributions' | 'flattenTokenWeights'
  | 'tokenTermCurve' | 'lossNormalizer' | 'softOverlongPunishment'
  | 'syntheticModeTraining' | 'finiteEntropyMechanism' | 'categoricalEntropy' | 'passAtKIndependent' | 'passAtKUnbiased'
  | 'experimentConfig';

/**
 * What loadReferenceCore() resolves to: the same functions as GrpoCore's for sections 1-5 and
 * experimentConfig, with the same results, from a module without the trainer (a page's first
 * load). call() answers the methods() of this build only.
 */
export type ReferenceCore = Pick<GrpoCore, ReferenceCoreFunction>;

/**
 * Loads the reference build once (grpo_core_reference.wasm; options.wasmBinary: its bytes);
 * later calls return the same object. Where loadCore() was called first, or in a single-file
 * page (one core inlined), it resolves to the full core.
 */
export function loadReferenceCore(options?: LoadCoreOptions): Promise<ReferenceCore | GrpoCore>;
