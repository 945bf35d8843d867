// A comparison link's plan, before anything trains: every run it names (each seed of each batch)
// read by the core's config reader, the one check the trainer applies (a seed past 2^32 - 1 or
// 400 prompts of 155 are refused here, not after a run has trained); which runs the library
// already holds; and the work of the others, an estimate of their training seconds against
// LINK_BUDGET_SECONDS. The panel asks before training any of it (docs/limits.md, "A comparison
// in the link").
import { seedList } from './seed-batch.js';
import { formatNumber } from '../i18n.js';

/** A link trains at most this many estimated seconds (one core of the build machine) without a warning. */
export const LINK_BUDGET_SECONDS = 300;

// One run's work, in multiply-adds of the GRU policy: tokens through it times the cost of a
// token, H (3E + 3H + V) (three gates over input and state, the output layer). Tokens: the warm-up
// (teacher demonstrations over every prompt, forward and backward), each update (the group
// sampled, its old log-probs, the reference's when beta > 0, each epoch forward and backward, the
// per-update evaluation), the before/after evaluations with the reference's log-probs.
const VOCAB = 16; // the arithmetic vocabulary (cpp/rl/arithmetic_task.cpp)
const PROMPT = 4; // "a+b=": every prompt is 4 tokens
const DEMO = 4; // a teacher's answer: up to 3 characters and <eos>
const DEMOS_PER_PROMPT = 4; // Experiment::warm_up

/** The multiply-adds of one run of `config` (a config as core.experimentConfig returns it). */
export function runWork(c) {
  const perToken = c.hidden * (3 * c.embed + 3 * c.hidden + VOCAB);
  const prompts = c.trainPrompts + c.heldoutPrompts;
  const length = PROMPT + c.maxNewTokens;
  const warmup = c.warmupSteps * prompts * DEMOS_PER_PROMPT * (PROMPT + DEMO) * 3;
  const group = c.promptBatch * c.groupSize * length;
  // entropyMechanism: the probe set (held-out prompts, else train, with one demonstration each)
  // forward and backward before the update, forward after it.
  const probe = c.entropyMechanism ? (c.heldoutPrompts || c.trainPrompts) * (PROMPT + DEMO) * 4 : 0;
  const update = group * (2 + (c.beta > 0 ? 1 : 0) + 3 * c.updateEpochs) + c.trainPrompts * c.evalSamples * length + probe;
  // passAtKEvery: every N updates one more evaluation of every prompt, without the reference.
  const logged = c.passAtKEvery > 0 ? Math.floor(c.updates / c.passAtKEvery) : 0;
  const evaluations = (2 * 2 + logged) * prompts * c.finalEvalSamples * length;
  return (warmup + c.updates * update + evaluations) * perToken;
}

/**
 * Seconds per multiply-add on one core of the build machine (WebAssembly, as the page's workers
 * run it): measured 15-36 ps on an idle machine, the smoke run's small matrices the slowest
 * (`node tools/bench_link_budget.mjs`, rows `link-estimate-*` of `npm run bench`, measured /
 * estimated). 35 ps: the smoke run's estimate is about right, larger runs' up to 2.3 times high.
 */
export const SECONDS_PER_UNIT = 35e-12;

/** The estimated training seconds of one run of `config` on one core of the build machine. */
export const runSeconds = (config) => runWork(config) * SECONDS_PER_UNIT;

/**
 * The plan of a parsed link (parseComparisonLink's items) against the library's entries; resolves
 * to {items: [{config, n, seeds, configs}], todo: [{config, seeds}], runs, toTrain, seconds,
 * overBudget}. Every run's config is core.experimentConfig's (its error rejects: the core's code
 * names the field); `stored(config)` says whether the library holds that run complete. `between`
 * is awaited between two items: the page yields there, so a link at the limits (12 batches of
 * 16, 192 configs read) is read in 12 short tasks rather than one of 150 ms under load.
 */
export async function linkPlan(core, parsed, stored, { between = null } = {}) {
  const items = [];
  for (const { options, n } of parsed) {
    if (between && items.length) await between();
    const config = core.experimentConfig(options);
    const seeds = seedList(config.seed, n);
    // Each seed of the batch is a run of its own: read like the first (the seed's range included).
    const configs = seeds.map((seed, i) => (i === 0 ? config : core.experimentConfig({ ...options, seed })));
    items.push({ config, n, seeds, configs });
  }
  const todo = [];
  const seen = new Set();
  for (const item of items) {
    const missing = item.configs.filter((config) => {
      const key = JSON.stringify(config);
      if (stored(config) || seen.has(key)) return false;
      seen.add(key);
      return true;
    });
    if (missing.length) todo.push({ config: item.config, seeds: missing.map((c) => c.seed), configs: missing });
  }
  const seconds = todo.reduce((sum, job) => sum + job.configs.reduce((s, c) => s + runSeconds(c), 0), 0);
  return {
    items,
    todo,
    runs: items.reduce((sum, item) => sum + item.n, 0),
    toTrain: todo.reduce((sum, job) => sum + job.seeds.length, 0),
    seconds,
    overBudget: seconds > LINK_BUDGET_SECONDS,
  };
}

/** `seconds` of work in the reader's language, in the largest unit that reads well: "40 seconds", "3 hours", "900 years". */
export function formatWork(seconds, lang = 'en') {
  const [unit, size] = [['year', 365 * 86400], ['day', 86400], ['hour', 3600], ['minute', 60], ['second', 1]].find(([, s]) => seconds >= 1.5 * s) ?? ['second', 1];
  const value = seconds / size;
  return formatNumber(value, { style: 'unit', unit, unitDisplay: 'long', maximumFractionDigits: value < 10 ? 1 : 0 }, lang);
}
