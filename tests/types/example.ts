// A typed program over the whole public API (tests/node/types.test.mjs type-checks it with
// `tsc --noEmit --strict`; tests/node/package.test.mjs compiles and runs it from the installed package).
import { loadCore, loadReferenceCore } from 'grpo-lab';
import type { Checkpoint, ConfigWarning, GrpoCore, GrpoError, HistoryRow, ReferenceCore, RunResult } from 'grpo-lab';

/** The error fields a caller reads to say a message in its own language, beside the right input. */
export function describeError(error: unknown): string {
  const e = error as GrpoError;
  const where: string = e.field ?? '';
  const params: Record<string, unknown> = e.params ?? {};
  return `${e.name} ${e.code} ${where} ${Object.keys(params).join(',')}: ${e.message}`;
}

/** Sections 1-5: every reference function, typed in and out. */
export function reference(core: GrpoCore): number[] {
  const verdict: 0 | 1 = core.verifyNumericAnswer('\\boxed{3/7}', '0.428571');
  const check = core.checkNumericAnswer('\\boxed{3/7}', '0.428571');
  const status: 'correct' | 'incorrect' | 'no_answer' | 'invalid' | 'truncated' = check.status;
  const value: number | null = check.value;
  const pInfo: number = core.informativeGroupProbability(0.5, 8);
  const curve: number[] = core.informativeGroupCurve([0.1, 0.5], 8);
  const draws: number = core.expectedDrawsForInformativeGroups(100, 0.5, 8);
  const advantages: number[] = core.groupRelativeAdvantages([1, 1, 0, 0]);
  const centered: number[] = core.groupRelativeAdvantages([1, 0], false);
  const terms: number[] = core.clippedSurrogateTerms([1.35, 0.85], [0.87, -0.87], 0.2, 0.2);
  const active: boolean[] = core.clipActivity([1.35, 0.85], [0.87, -0.87], 0.2, 0.2);
  const original: number[][] = core.originalGrpoTokenWeights([1, 0, 1], [2, 5, 8]);
  const dr: number[][] = core.drGrpoTokenWeights([1, 0, 1], [2, 5, 8], 8);
  const dapo: number[][] = core.dapoTokenWeights([1, 0, 1], [2, 5, 8]);
  const contributions: number[] = core.responseContributions(dapo);
  const flat: number[] = core.flattenTokenWeights(original);
  const state = core.syntheticModeTraining({ betaEntropy: 0, learningRate: 0.18, steps: 9 });
  const modeLabel: string = state.modes[0].label;
  const mechanism = core.finiteEntropyMechanism({ betaEntropy: 0, learningRate: 0.18, steps: 9 });
  const predicted: number = mechanism.predictedChange[0] + mechanism.contributions[0][0];
  const entropy: number = core.categoricalEntropy(state.probabilities);
  const pass4: number = core.passAtKIndependent(state.successfulMass, 4);
  const unbiased: number = core.passAtKUnbiased(16, 4, 4);
  const solved: number = core.coverageConcentration({ successes: [4, 0, 1], samples: 4 }).solved;
  const passCurve: number[] = core.passAtKCurve({ successes: [2, 0], samples: 4 }).values;
  const rloo: number[] = core.estimateAdvantages([1, 0, 1, 1], 4, 'rloo');
  void status, value, modeLabel, predicted;
  return [verdict, pInfo, curve[0], draws, advantages[0], centered[0], terms[0], Number(active[0]), dr[0][0], contributions[0], flat[0], entropy, pass4, unbiased, solved, passCurve[0], rloo[0]];
}

/** Sections 6-8: config, prompts, a stepwise run, rollouts, log-probs, the objective, run import. */
export function training(core: GrpoCore): RunResult {
  const schema = core.configSchema;
  void schema; // declared for the config table (cfg); not called: older cores lack it
  const config = core.experimentConfig({ profile: 'smoke', updates: 3, lossType: 'dr_grpo', scaleRewards: 'none' });
  const updates: number = config.updates;
  const warned: ConfigWarning[] = core.configWarnings({ maxNewTokens: 1 });
  const warningCodes = core.warningCodes;
  void warningCodes; // declared for the warnings' texts; not called, as configSchema
  const prompts = core.arithmeticPrompts({ seed: 1, trainSize: 4, heldoutSize: 2 });
  const split: 'train' | 'heldout' = prompts[0].split;
  const experiment = core.createExperiment({ ...config, updates: 2 });
  const record = experiment.keepInspection({ maxBytes: 1 << 20 });
  const rows: HistoryRow[] = experiment.step(1);
  // The step inspector (docs/inspector.md): one update's tokens, a counterfactual on its batch.
  const inspected = record.view(1, { klCovRatio: 0.02 });
  const weight: number = inspected.steps[0].terms[0].weight[0];
  const kept: number = record.stats().bytes;
  const counterfactual = core.grpoCounterfactual({ batch: inspected.steps[0].objective, change: { lossType: 'cispo', delta: null } });
  const changed: number = counterfactual.tokensChanged;
  record.dispose();
  const replayed = core.inspectUpdate(config, 1, { maxBytes: 1 << 20 });
  const replayedRows: HistoryRow[] = replayed.rows;
  void weight, kept, changed, replayedRows;
  const done: boolean = experiment.done;
  const stopped: RunResult = experiment.finish();
  experiment.dispose();
  const seen: number[] = [];
  const run = core.runToyGrpoExperiment(config, (row) => seen.push(row.update));
  const checkpoint: Checkpoint | undefined = run.checkpoint;
  if (!checkpoint) throw new Error('a finished run carries its checkpoint');
  const rollouts = core.collectRollouts(checkpoint, run.prompts, { groupSize: 4, promptBatch: 2 }, { seed: 786, generatorVersion: 'example' });
  const response: string = rollouts.groups[0][0].responseText;
  const tf = core.teacherForcedLogProbs(checkpoint, [prompts[0].tokens], { gradients: true });
  const logProb: number = tf.logProbs[0][0];
  const objective = core.grpoObjective({ rewards: [1, 0], groupSize: 2, logProbs: [[-1, -2], [-1]], lossType: 'grpo' });
  const loss: number = objective.loss;
  const gdpo = core.grpoObjective({ rewardsPerFunc: [[1, 1], [0, 1]], rewardWeights: [1, 0.1], multiObjectiveAggregation: 'normalize_then_sum', groupSize: 2, logProbs: [[-1], [-2]] });
  const aggregated: number[] = gdpo.rewards;
  const overlong: number[] = core.softOverlongPunishment({ lengths: [2, 3, 5], maxCompletionLen: 4, softPunishCache: 2 });
  const curve: number[] = core.tokenTermCurve({ lossType: 'sapo', ratios: [0.5, 1.5], advantages: [1, -1], view: 'weight' });
  const normalizer: number = core.lossNormalizer({ lossType: 'dr_grpo', completions: 4, length: 3, totalTokens: 10, maxCompletionLength: 8 });
  const imported: RunResult = core.importRun(JSON.parse(JSON.stringify(run)));
  const verlAdv: number[][] = core.verlAdvantages({ estimator: 'grpo', tokenLevelRewards: [[0, 1], [0, 0]], responseMask: [[1, 1], [1, 0]], index: ['a', 'a'] }).advantages;
  const verlAgg: number = core.verlAggLoss({ lossMat: [[1, 2]], lossMask: [[1, 1]], lossAggMode: 'seq-mean-token-sum-norm', lossScaleFactor: null }).loss;
  const verlPg = core.verlPolicyLoss({ lossMode: 'vanilla', oldLogProb: [[-1]], logProb: [[-1]], advantages: [[1]], responseMask: [[1]], config: { clipRatioC: 3, clipRatioLow: null } });
  const clipfrac: number | undefined = verlPg.metrics['actor/pg_clipfrac'];
  const verlKl: number[][] = core.verlKlPenalty({ logProb: [[-1]], refLogProb: [[-2]], klPenalty: 'low_var_kl' }).gradLogProb;
  void verlAdv, verlAgg, clipfrac, verlKl;
  void updates, warned, split, rows, done, stopped, response, logProb, loss, aggregated, overlong, curve, normalizer;
  return imported;
}

/** The low-level side: method names, memory, handles, error codes, call(). */
export function lowLevel(core: GrpoCore): string[] {
  const names: string[] = core.methods();
  const bytes: number = core.heapBytes();
  const handles: number = core.liveHandles();
  const records: number = core.liveInspections();
  void records;
  core.interruptOn(null); // a shared Int32Array lets another thread stop long calls
  core.interruptOn(new Int32Array(new SharedArrayBuffer(4)));
  core.interruptOn(null);
  const codes = core.messageCodes;
  void codes; // declared for the error codes (err); not called: older cores lack it
  const version: string = core.call('version', {}).core;
  const p: number = core.call('informativeGroupProbability', { p: 0.5, groupSize: 8 });
  void bytes, handles, p;
  return [...names, version];
}

/** A page's first load: the reference build answers sections 1-5 and the config check. */
export async function firstLoad(): Promise<{ pInfo: number; seed: number; trainer: boolean }> {
  const core: ReferenceCore = await loadReferenceCore();
  const pInfo: number = core.informativeGroupProbability(0.5, 8);
  const seed: number = core.experimentConfig({ profile: 'smoke' }).seed;
  return { pInfo, seed, trainer: core.methods().includes('experimentCreate') };
}

/** Calls the types refuse (each line must be an error, or tsc fails); never run. */
export function refused(core: GrpoCore, reference: ReferenceCore): void {
  // @ts-expect-error the reference build has no trainer
  reference.createExperiment({ profile: 'smoke' });
  // @ts-expect-error the reference is text, not a number
  core.verifyNumericAnswer('3', 3);
  // @ts-expect-error syntheticModeTraining needs its three options
  core.syntheticModeTraining({ steps: 3 });
  // @ts-expect-error lossType is one of grpo, bnpo, dr_grpo, dapo
  core.experimentConfig({ lossType: 'ppo' });
  // @ts-expect-error verl v0.7.0 raises for the '+' variants
  core.verlKlPenalty({ logProb: [[-1]], refLogProb: [[-2]], klPenalty: 'k3+' });
  // @ts-expect-error call() knows each method's arguments
  core.call('informativeGroupProbability', { p: 0.5 });
}

/** What the package test runs after compiling this file. */
export async function main(): Promise<{ firstLoad: { pInfo: number; seed: number; trainer: boolean }; reference: number[]; updates: number; methods: string[]; error: string }> {
  const first = await firstLoad(); // before loadCore(): afterwards the reference is the full core
  const core = await loadCore();
  let error = '';
  try {
    core.informativeGroupProbability(2, 8);
  } catch (e) {
    error = describeError(e);
  }
  const run = training(core);
  return { firstLoad: first, reference: reference(core), updates: run.history.length, methods: lowLevel(core), error };
}
