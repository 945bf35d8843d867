// Sections 6-9's logic without a DOM: the config form's fields and URL keys, the run file
// (export/import), CSV tables, divergence checks, the notebook's inspection request, coverage
// order and the toy config translated to TRL's GRPOConfig. Used by the page, the worker,
// tools/precompute.mjs and the Node tests alike.

export const RUN_FORMAT = 'grpo-lab-run';
/** The largest run file the page reads: the core's limit on one call's JSON (docs/limits.md). */
export const MAX_RUN_FILE_BYTES = 64 * 1024 * 1024;
export const RUN_VERSION = 1;

/** The precomputed run the page shows until the reader starts their own (tools/precompute.mjs). */
export const PRECOMPUTED = { profile: 'smoke', seed: 9, lossType: 'dapo' };
export const PRECOMPUTED_RUN_URL = 'data/smoke-run.json';
export const PRECOMPUTED_CHECKPOINT_URL = 'data/smoke-checkpoint.json';

/** The notebook's inspection: GRPOConfig(group_size=4, prompt_batch=2, updates=1, update_epochs=1, loss_type="dapo"). */
export const INSPECTION = { groupSize: 4, promptBatch: 2, updates: 1, updateEpochs: 1, lossType: 'dapo' };
export const INSPECTION_SEED_OFFSET = 777;
export const INSPECTION_VERSION = 'notebook-inspection';

import { CONFIG_TABLE } from './run-config.js';

export { CONFIG_FIELDS, CONFIG_SCHEMA, CONFIG_PARAMS, CONFIG_KEYS, configOptions, resolveConfig } from './run-config.js';

// passAtKEvery's history columns (cpp/api/api_coverage.h logged_pass_at_ks, pass_at_k_column):
// k = 1, 2, 4, ... up to the largest finalEvalSamples of the core's table.
const MAX_SAMPLES = CONFIG_TABLE.fields.find((f) => f.name === 'finalEvalSamples').max;
export const LOGGED_PASS_AT_KS = Array.from({ length: Math.floor(Math.log2(MAX_SAMPLES)) + 1 }, (_, i) => 2 ** i);
export const PASS_AT_K_SPLITS = ['train', 'heldout'];
export const passAtKColumn = (split, k) => `${split}PassAt${k}`;

// --- rows, metrics, divergence -------------------------------------------------------------

/** The notebook's selected_columns of the before/after table, with the API's names. */
export const METRIC_COLUMNS = [
  { key: 'accuracy', label: 'accuracy' },
  { key: 'meanReward', label: 'mean_reward' },
  { key: 'meanLength', label: 'mean_length' },
  { key: 'entropy', label: 'entropy' },
  { key: 'teacherForcedKl', label: 'teacher_forced_kl' },
  { key: 'passAt4', label: 'pass_at_4' },
];

/** The four rows of the notebook's metrics table: label constant and result field. */
export const METRIC_ROWS = [
  { label: 'BEFORE_TRAIN', key: 'beforeTrain' },
  { label: 'AFTER_TRAIN', key: 'afterTrain' },
  { label: 'BEFORE_HELDOUT', key: 'beforeHeldout' },
  { label: 'AFTER_HELDOUT', key: 'afterHeldout' },
];

/** Every history field, in the table's order, with the notebook's snake_case column names. */
export const HISTORY_COLUMNS = [
  // label: the notebook's column; trl: the metric TRL 1.9's GRPOTrainer logs for it (none: null).
  { key: 'update', label: 'update', trl: 'step' },
  { key: 'evalAccuracy', label: 'eval_accuracy', trl: null },
  { key: 'evalEntropy', label: 'eval_entropy', trl: null },
  { key: 'informativeFraction', label: 'informative_fraction', trl: null },
  { key: 'discardedFraction', label: 'discarded_fraction', trl: null },
  { key: 'ratioMin', label: 'ratio_min', trl: null },
  { key: 'ratioMean', label: 'ratio_mean', trl: null },
  { key: 'ratioMax', label: 'ratio_max', trl: null },
  { key: 'clipFractionLow', label: 'clip_fraction_low', trl: 'clip_ratio/low_mean' },
  { key: 'clipFractionHigh', label: 'clip_fraction_high', trl: 'clip_ratio/high_mean' },
  { key: 'clipFractionRegion', label: 'clip_fraction_region', trl: 'clip_ratio/region_mean' },
  // kl: TRL's when beta > 0; at beta 0 it reads 0, ours (TRL logs no kl, grpo_trainer.py 3237).
  { key: 'kl', label: 'kl', trl: 'kl' },
  { key: 'loss', label: 'loss', trl: 'loss' },
  { key: 'gradNorm', label: 'grad_norm', trl: 'grad_norm' },
  { key: 'meanReward', label: 'mean_reward', trl: 'reward' },
  { key: 'accuracy', label: 'accuracy', trl: null },
  { key: 'meanLength', label: 'mean_length', trl: 'completions/mean_length' },
  { key: 'truncatedFraction', label: 'truncated_fraction', trl: 'completions/clipped_ratio' },
  // entropy: the learner's over the loss-mask tokens (TRL's); samplerEntropy: the sampler's over
  // every sampled completion (ours; what an older file's `entropy` was, importRun maps it).
  { key: 'entropy', label: 'entropy', trl: 'entropy' },
  { key: 'samplerEntropy', label: 'sampler_entropy', trl: null },
  // Added with TRL 1.9 parity (absent from older run files: shown as "—"; sampling/* are absent
  // from a run without a separate sampler, samplerMismatch and samplerLag 0, as TRL logs none).
  { key: 'clipRatioLowMin', label: 'clip_ratio_low_min', trl: 'clip_ratio/low_min' },
  { key: 'clipRatioHighMax', label: 'clip_ratio_high_max', trl: 'clip_ratio/high_max' },
  { key: 'fracRewardZeroStd', label: 'frac_reward_zero_std', trl: 'frac_reward_zero_std' },
  { key: 'minLength', label: 'min_length', trl: 'completions/min_length' },
  { key: 'maxLength', label: 'max_length', trl: 'completions/max_length' },
  { key: 'cispoClipRatio', label: 'cispo_clip_ratio', trl: 'cispo_clip_ratio' },
  { key: 'samplingRatioMin', label: 'sampling_ratio_min', trl: 'sampling/importance_sampling_ratio/min' },
  { key: 'samplingRatioMean', label: 'sampling_ratio_mean', trl: 'sampling/importance_sampling_ratio/mean' },
  { key: 'samplingRatioMax', label: 'sampling_ratio_max', trl: 'sampling/importance_sampling_ratio/max' },
  { key: 'samplingLogpDifferenceMean', label: 'sampling_logp_difference_mean', trl: 'sampling/sampling_logp_difference/mean' },
  { key: 'samplingLogpDifferenceMax', label: 'sampling_logp_difference_max', trl: 'sampling/sampling_logp_difference/max' },
  { key: 'entropyCoef', label: 'entropy_coef', trl: 'entropy_coef' },
  // Added in issue 24: the informative groups whose correctness differs (the rest: format alone).
  { key: 'correctnessInformativeFraction', label: 'correctness_informative_fraction', trl: null },
  // Only with entropyMechanism (ours; docs/entropy-mechanism.md "The GRU"): absent otherwise.
  { key: 'probeEntropy', label: 'probe_entropy', trl: null },
  { key: 'probeEntropyChange', label: 'probe_entropy_change', trl: null },
  { key: 'probeEntropyPrediction', label: 'probe_entropy_prediction', trl: null },
  { key: 'stepNorm', label: 'step_norm', trl: null },
  { key: 'logpAdvantageCov', label: 'logp_advantage_cov', trl: null },
  // Added in issue 23: the mean length of the update's correct and incorrect completions (absent
  // when it had none), and with passAtKEvery, on the updates that log it, pass@k on train and
  // held-out prompts at k = 1, 2, 4, ... up to finalEvalSamples (absent on the other updates).
  { key: 'meanLengthCorrect', label: 'mean_length_correct', trl: null },
  { key: 'meanLengthIncorrect', label: 'mean_length_incorrect', trl: null },
  ...PASS_AT_K_SPLITS.flatMap((split) => LOGGED_PASS_AT_KS.map((k) => ({ key: passAtKColumn(split, k), label: `${split}_pass_at_${k}`, trl: null }))),
  // Added in issue 27: verl's own metric names, only in a run with engine verl (absent otherwise;
  // those its loss mode returns; actor/kl_loss with beta > 0). verl: the metric verl logs.
  ...['pg_loss', 'pg_clipfrac', 'ppo_kl', 'pg_clipfrac_lower', 'kl_loss'].map((name) => ({ key: `actor/${name}`, label: `actor/${name}`, trl: null, verl: `actor/${name}` })),
];

/** The TRL 1.9 metric a history field corresponds to, or null. */
export function trlMetric(key) {
  return HISTORY_COLUMNS.find((c) => c.key === key)?.trl ?? null;
}

/** Fields of a history row that are not finite numbers (NaN, ±Infinity, missing): divergence. */
export function divergentFields(row) {
  const bad = [];
  for (const { key } of HISTORY_COLUMNS) {
    if (!(key in row)) continue;
    const value = row[key];
    if (typeof value !== 'number' || !Number.isFinite(value)) bad.push(key);
  }
  return bad;
}

/** Non-finite entries of a metrics object ({accuracy, ...}), as "afterTrain.entropy". */
export function divergentMetrics(result) {
  const bad = [];
  for (const { key } of METRIC_ROWS) {
    const metrics = result?.[key];
    if (!metrics) continue;
    for (const column of METRIC_COLUMNS) {
      const value = metrics[column.key];
      if (typeof value !== 'number' || !Number.isFinite(value)) bad.push(`${key}.${column.key}`);
    }
  }
  return bad;
}

// --- coverage and inspection ----------------------------------------------------------------

/**
 * The notebook's coverage frame: before/after accuracy per train prompt, sorted by the prompt
 * text (pandas sort_index on the prompt index). `after` may be missing (run not finished).
 */
export function coverageRows(before = [], after = []) {
  const afterById = new Map((after ?? []).map((row) => [row.promptId, row.accuracy]));
  const rows = before.map((row) => ({
    promptId: row.promptId,
    prompt: row.prompt,
    before: row.accuracy,
    after: afterById.has(row.promptId) ? afterById.get(row.promptId) : null,
  }));
  return rows.sort((a, b) => (a.prompt < b.prompt ? -1 : a.prompt > b.prompt ? 1 : a.promptId - b.promptId));
}

/**
 * Section 8's chart rows: one split's prompts sorted by before-RL accuracy (highest first, ties
 * by prompt text), each marked `lost` when it was solved before RL and never after.
 */
export function coverageByBefore(before = [], after = null) {
  const rows = coverageRows(before, after);
  for (const row of rows) row.lost = row.after !== null && row.before > 0 && row.after === 0;
  return rows.sort((a, b) => b.before - a.before || (a.prompt < b.prompt ? -1 : a.prompt > b.prompt ? 1 : 0));
}

/**
 * The notebook's inspection of one fresh group: its sizes (group 4, prompt batch 2, 1 update,
 * 1 epoch, dapo), the run's sampling settings, the seed SEED + 777 (+ n for the n-th extra group)
 * and generator version "notebook-inspection".
 */
export function inspectionRequest(runConfig, index = 0) {
  const config = { profile: runConfig.profile, ...INSPECTION };
  // The run's task too: its verifier grades the group (and the scratch task's vocabulary is its own).
  for (const key of ['task', 'maxNewTokens', 'scaleRewards', 'formatWeight', 'dynamicSampling', 'maxOperand', 'trainPrompts', 'heldoutPrompts']) {
    if (runConfig[key] !== undefined) config[key] = runConfig[key];
  }
  return { config, seed: runConfig.seed + INSPECTION_SEED_OFFSET + index, generatorVersion: INSPECTION_VERSION };
}

// --- run files --------------------------------------------------------------------------------

/** The run file: {format, version, ...result} plus where it came from. */
export function runFile(result, extra = {}) {
  return { format: RUN_FORMAT, version: RUN_VERSION, ...extra, ...result };
}

/** Checks a parsed run file (shape, types, config, checkpoint) in the core; returns it normalised. */
export function validateRun(core, run) {
  return core.importRun(run);
}

// --- CSV ----------------------------------------------------------------------------------------

function csvCell(value) {
  if (value === null || value === undefined) return '';
  if (typeof value === 'number') return Number.isFinite(value) ? String(value) : String(value);
  const text = String(value);
  return /[",\n\r]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

function csv(header, rows) {
  return `${[header, ...rows].map((row) => row.map(csvCell).join(',')).join('\n')}\n`;
}

/** The before/after table as CSV: one row per (split, phase), the notebook's column names. */
export function metricsCsv(run, labels = {}) {
  return csv(
    ['row', ...METRIC_COLUMNS.map((c) => c.label)],
    METRIC_ROWS.filter((r) => run[r.key]).map((r) => [labels[r.label] ?? r.label, ...METRIC_COLUMNS.map((c) => run[r.key][c.key])]),
  );
}

/** The full history as CSV (every field, full precision). */
export function historyCsv(run) {
  return csv(
    HISTORY_COLUMNS.map((c) => c.label),
    (run.history ?? []).map((row) => HISTORY_COLUMNS.map((c) => row[c.key])),
  );
}

// A long history (100 000 rows) is written a slice of rows per task, as Blob parts, so an export
// never blocks the page for long; the text is the same as in one piece.
const EXPORT_SLICE = 2000;
async function inSlices(rows, toText) {
  const parts = [];
  for (let i = 0; i < rows.length; i += EXPORT_SLICE) {
    if (i > 0) await new Promise((resolve) => setTimeout(resolve, 0));
    parts.push(rows.slice(i, i + EXPORT_SLICE).map(toText).join(''));
  }
  return parts;
}

/** historyCsv(run) as Blob parts, built in slices. */
export async function historyCsvParts(run) {
  const header = HISTORY_COLUMNS.map((c) => csvCell(c.label)).join(',');
  const rows = await inSlices(run.history ?? [], (row) => `\n${HISTORY_COLUMNS.map((c) => csvCell(row[c.key])).join(',')}`);
  return [header, ...rows, '\n'];
}

/** JSON.stringify(file) as Blob parts, its history built in slices (the same JSON value). */
export async function runFileParts(file) {
  const { history = [], ...rest } = file;
  const head = JSON.stringify(rest);
  const open = head === '{}' ? '{"history":[' : `${head.slice(0, -1)},"history":[`;
  const rows = await inSlices(history, (row, i) => `${i > 0 ? ',' : ''}${JSON.stringify(row)}`);
  // Slices after the first start with a comma of their own.
  return [open, ...rows.map((part, i) => (i > 0 ? `,${part}` : part)), ']}\n'];
}

/** Per-prompt train accuracy before and after RL, sorted as the notebook sorts it. */
export function coverageCsv(run) {
  return csv(
    ['prompt_id', 'prompt', 'before', 'after'],
    coverageRows(run.beforeTrainByPrompt, run.afterTrainByPrompt).map((r) => [r.promptId, r.prompt, r.before, r.after]),
  );
}

// --- Section 9: TRL ---------------------------------------------------------------------------

export const SOFTWARE_SNAPSHOT = [
  ['trl', '1.9.2'],
  ['transformers', '5.14.1'],
  ['datasets', '5.0.1'],
  ['peft', '0.20.0'],
  ['accelerate', '1.14.0'],
  ['bitsandbytes', '0.50.0'],
  ['model', 'Qwen/Qwen3-0.6B'],
];

/** The notebook's real-model cell, verbatim (shown, never run). */
export const NOTEBOOK_TRL_CELL = `if RUN_REAL_MODEL:
    from datasets import load_dataset
    from peft import LoraConfig
    from trl import GRPOConfig as TRLGRPOConfig, GRPOTrainer
    from trl.rewards import accuracy_reward

    train_dataset = load_dataset("trl-lib/DeepMath-103K", split="train[:128]")
    training_args = TRLGRPOConfig(
        output_dir="module-09-qwen3-grpo",
        learning_rate=5e-6,
        per_device_train_batch_size=2,
        gradient_accumulation_steps=4,
        max_completion_length=192,
        num_generations=4,
        num_iterations=1,
        loss_type="dapo",
        scale_rewards="group",
        importance_sampling_level="token",
        epsilon=0.2,
        epsilon_high=0.28,
        beta=0.0,
        mask_truncated_completions=True,
        max_steps=2 if SMOKE_MODE else 80,
        logging_steps=1,
        report_to="none",
    )
    peft_config = LoraConfig(r=8, lora_alpha=16, lora_dropout=0.05, task_type="CAUSAL_LM")
    trainer = GRPOTrainer(
        model=SOFTWARE_SNAPSHOT["model"],
        reward_funcs=accuracy_reward,
        args=training_args,
        train_dataset=train_dataset,
        peft_config=peft_config,
    )
    trainer.train()
else:
    print(REAL_MODEL_SKIPPED)`;

export const REQUIREMENTS_TEXT = SOFTWARE_SNAPSHOT.filter(([name]) => name !== 'model')
  .map(([name, version]) => `${name}==${version}`)
  .join('\n');

/** Python's repr of a float (0.001, 1.0, 5e-06, 1e+16). */
export function pyFloat(x) {
  if (!Number.isFinite(x)) return Number.isNaN(x) ? "float('nan')" : x > 0 ? "float('inf')" : "-float('inf')";
  if (x === 0) return Object.is(x, -0) ? '-0.0' : '0.0';
  const [mantissa, exp] = x.toExponential().split('e');
  const e = Number(exp);
  if (e < -4 || e >= 16) return `${mantissa}e${e < 0 ? '-' : '+'}${String(Math.abs(e)).padStart(2, '0')}`;
  const text = String(x);
  return text.includes('.') || text.includes('e') ? text : `${text}.0`;
}

function pyValue(value, kind) {
  if (value === null) return 'None'; // a None-able field at TRL's default
  if (kind === 'bool') return value ? 'True' : 'False';
  if (kind === 'enum' || typeof value === 'string') return JSON.stringify(value);
  if (kind === 'int') return String(value);
  return pyFloat(value);
}

/** A Python literal of a GRPOConfig argument as JS (True, False, None, a number, a string), or undefined. */
function pyLiteral(text) {
  const t = text.trim();
  if (t === 'True' || t === 'False') return t === 'True';
  if (t === 'None') return null;
  if (/^-?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$/.test(t)) return Number(t);
  const quoted = /^"([^"\\]*)"$|^'([^'\\]*)'$/.exec(t);
  return quoted ? (quoted[1] ?? quoted[2]) : undefined;
}

/**
 * The arguments of a GRPOConfig(...) call (one `name=value` per line, as TRL's docs and the
 * notebook write them) as the toy's options: {options: {field: value}, other: {name: text}} where
 * `other` holds the arguments no table field translates (TrainingArguments, expressions).
 */
export function trlArgsToOptions(python) {
  const byTrl = new Map(CONFIG_TABLE.fields.filter((f) => f.trl).map((f) => [f.trl, f.name]));
  const listed = (name, text) => {
    const items = /^\[(.*)\]$/.exec(text.trim())?.[1].split(',').map(pyLiteral);
    if (!items?.every((v) => typeof v === 'number') || !byTrl.has(`${name}[0]`)) return false;
    items.forEach((v, i) => byTrl.has(`${name}[${i}]`) && (options[byTrl.get(`${name}[${i}]`)] = v));
    return true;
  };
  const options = {};
  const other = {};
  for (const match of python.matchAll(/^\s*([a-z_][a-z0-9_]*)=(.*?),?\s*(#.*)?$/gm)) {
    const [, name, text] = match;
    const value = pyLiteral(text);
    if (byTrl.has(name) && value !== undefined) options[byTrl.get(name)] = value;
    else if (!listed(name, text)) other[name] = text.trim();
  }
  return { options, other };
}

/**
 * The page's words for trlConfigPython's notes: the notes of section 9 and of `grpo-lab notebook`,
 * each a function of its parameters, from `t(key, params)` (so counts agree with their nouns).
 */
export const trlNotes = (t) => {
  const keys = {
    batch: 'train.real.batchNote',
    dynamic: 'train.real.dynamicNote',
    lag: 'train.real.lagNote',
    estimator: 'train.real.estimatorNote',
    task: 'train.real.taskNote',
    taskRewrite: 'train.real.taskNoteRewrite',
    engine: 'train.real.engineNote',
    untranslated: 'train.real.untranslated',
    trlDefault: 'train.real.trlDefault',
    unusedReward: 'train.real.unusedReward',
  };
  return Object.fromEntries(Object.entries(keys).map(([name, key]) => [name, (params = {}) => t(key, params)]));
};

/**
 * The toy config as TRL GRPOConfig arguments (copyable Python): one argument per field of the
 * core's table that has a TRL name, then a comment naming the fields TRL has no argument for.
 * Where TRL's default differs from the notebook's (the table's `trlDefault`), an argument's
 * comment names TRL's too. `notes`: comments in the reader's language, {key: text}; the Python
 * itself is language-neutral.
 */
export function trlConfigPython(config, notes = {}) {
  const fields = CONFIG_TABLE.fields.filter((f) => f.name !== 'profile');
  const args = [['output_dir', JSON.stringify('module-09-toy-grpo'), null]];
  const say = (name, params, english) => (notes[name] ? notes[name](params) : english);
  const trlDefault = (f, names) => (f.trlDefault ? `${names}; ${say('trlDefault', { value: f.trlDefault }, `TRL's default ${f.trlDefault}`)}` : names);
  // A list argument (TRL's reward_weights) is one table row per entry, named `name[i]`.
  const lists = new Map();
  for (const f of fields) {
    if (!f.trl) continue;
    const entry = /^(\w+)\[(\d+)\]$/.exec(f.trl);
    if (!entry) args.push([f.trl, pyValue(config[f.name], f.kind), trlDefault(f, f.name)]);
    else if (!lists.has(entry[1])) lists.set(entry[1], [f]);
    else lists.get(entry[1]).push(f);
  }
  for (const [name, entries] of lists) {
    // The overlong punishment is a reward function only while its weight is not 0.
    const used = entries.filter((f, i) => i < 2 || config[f.name] !== 0);
    const unused = entries.filter((f) => !used.includes(f)).map((f) => `${f.name} = 0: ${say('unusedReward', {}, 'not a reward function')}`);
    const names = `${used.map((f) => f.name).join(', ')}${unused.length ? ` (${unused.join('; ')})` : ''}`;
    args.push([name, `[${used.map((f) => pyValue(config[f.name], f.kind)).join(', ')}]`, trlDefault(entries[0], names)]);
  }
  // The toy's separate sampler (mismatched or lagging) stands for vLLM's: TRL corrects (and
  // measures) only with vLLM.
  const sampler = [['samplerMismatch', config.samplerMismatch], ['samplerLag', config.samplerLag]].filter(([, v]) => v > 0);
  if (sampler.length) args.push(['use_vllm', 'True', sampler.map(([name, v]) => `${name} = ${v}`).join(', ')]);
  const width = Math.max(...args.map(([name, value]) => name.length + value.length + 2));
  const lines = ['from trl import GRPOConfig', '', 'training_args = GRPOConfig('];
  for (const [name, value, source] of args) {
    const text = `${name}=${value},`;
    lines.push(`    ${source ? `${text.padEnd(width)}  # ${source}` : text}`);
  }
  lines.push(')');
  if (config.overlongWeight) lines.push(`# reward_funcs=[..., get_soft_overlong_punishment(max_completion_len=${config.overlongMaxCompletionLen}, soft_punish_cache=${config.softPunishCache})]  (trl.rewards)`);
  const untranslated = fields.filter((f) => !f.trl).map((f) => `${f.name}=${pyValue(config[f.name], f.kind)}`);
  lines.push(`# ${say('untranslated', {}, 'no GRPOConfig argument')}: ${untranslated.join(', ')}`);
  const completions = config.promptBatch * config.groupSize;
  if (notes.batch) lines.push(`# ${notes.batch({ prompts: config.promptBatch, group: config.groupSize, completions })}`);
  if (notes.dynamic && config.dynamicSampling) lines.push(`# ${notes.dynamic()}`);
  // TRL has no sampler lag: it is what an asynchronous trainer's late weight sync gives.
  if (notes.lag && config.samplerLag > 0) lines.push(`# ${notes.lag({ lag: config.samplerLag })}`);
  // TRL has no task: the task is the dataset and the reward functions given to GRPOTrainer.
  const taskNote = config.task === 'rewrite' ? notes.taskRewrite ?? notes.task : notes.task;
  if (taskNote && config.task && config.task !== 'arithmetic') lines.push(`# ${taskNote({ task: config.task })}`);
  // engine verl: the run's objective was verl's; this cell is TRL's nearest, the verl launch its own.
  if (notes.engine && config.engine === 'verl') lines.push(`# ${notes.engine()}`);
  // TRL's GRPOConfig has no advantage estimator: say what a non-default one corresponds to.
  if (notes.estimator && config.advantageEstimator && config.advantageEstimator !== 'grpo') {
    lines.push(`# ${notes.estimator({ estimator: config.advantageEstimator })}`);
  }
  return `${lines.join('\n')}\n`;
}

// --- time ---------------------------------------------------------------------------------------

/** "0.4 s", "12 s", "2 min 05 s"; `units` in the reader's language ("2 мин 05 с"). */
export function formatSeconds(ms, units = { s: 's', min: 'min' }) {
  if (!Number.isFinite(ms) || ms < 0) return '—';
  const s = ms / 1000;
  if (s < 10) return `${s.toFixed(1)} ${units.s}`;
  if (s < 60) return `${Math.round(s)} ${units.s}`;
  const m = Math.floor(s / 60);
  return `${m} ${units.min} ${String(Math.round(s - 60 * m)).padStart(2, '0')} ${units.s}`;
}

/** Time left from the mean time per update so far (null until one update is done). */
export function estimateRemaining(elapsedMs, done, total) {
  if (!done || done >= total) return done >= total ? 0 : null;
  return (elapsedMs / done) * (total - done);
}
