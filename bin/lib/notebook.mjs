// The notebook's sections 1-9 as data: every table it displays and every line it prints, built
// from the page's own DOM-free logic (each section's compute() with its URL defaults, which are
// the notebook's values; run-format.js for sections 6-9) over the same core. Titles and label
// constants come from the web/js/i18n dictionaries of the chosen language.
import { SECTIONS } from '../../web/js/sections/index.js';
import { CASES } from '../../web/js/sections/verifier.js';
import * as groups from '../../web/js/sections/informative-groups.js';
import * as advantages from '../../web/js/sections/advantages.js';
import * as reductions from '../../web/js/sections/reductions.js';
import * as finite from '../../web/js/sections/finite-policy.js';
import {
  HISTORY_COLUMNS,
  METRIC_COLUMNS,
  METRIC_ROWS,
  PRECOMPUTED,
  SOFTWARE_SNAPSHOT,
  coverageRows,
  inspectionRequest,
  trlConfigPython,
  trlNotes,
} from '../../web/js/training/run-format.js';
import { verlLaunchScript } from '../../web/js/training/verl-launch.js';
import { loadLanguage, t } from '../../web/js/i18n.js';
import { pyRepr, table } from './table.mjs';

/** A section's URL defaults: the values the notebook uses. */
const defaults = (schema) => Object.fromEntries(Object.entries(schema).map(([key, spec]) => [key, spec.default]));

const ROUND = 4; // the notebook's .round(4)

function section(number, lang, tables, printed = []) {
  const spec = SECTIONS.find((s) => s.number === number);
  return { number, id: spec.id, title: t(spec.titleKey, {}, lang), tables, printed };
}

function verifierTable(core) {
  const rows = CASES.map(([text, reference, expected]) => [text, reference, core.verifyNumericAnswer(text, reference), expected]);
  return table('verifier_table', ['text', 'reference', { label: 'observed', kind: 'int' }, { label: 'expected', kind: 'int' }], rows);
}

function examplesTable(core) {
  const m = groups.compute(core, defaults(groups.schema));
  return table(
    'examples',
    ['p', `P_info, G=${m.tableG}`, `draws for ${groups.DRAWS_FOR} informative prompts`],
    m.examples.map((r) => [r.p, r.pinfo, r.draws]),
    { round: ROUND },
  );
}

function advantagesTable(core) {
  const m = advantages.compute(core, defaults(advantages.schema));
  const rows = m.rewards.map((r, i) => [r, m.centered[i], m.standardized[i], m.ratios[i], m.terms[i], m.active[i]]);
  return table('advantages', ['reward', 'centered', 'standardized', 'ratio', 'surrogate', 'clip_active'], rows);
}

function reductionsTable(core) {
  const m = reductions.compute(core, defaults(reductions.schema));
  const responses = m.rewards.map((_, i) => `response_${i + 1}`);
  const rows = m.rows.map((r) => [r.name, ...r.contributions, r.absSum]);
  return table('summary', ['reduction', ...responses, 'absolute_token_weight_sum'], rows, { round: ROUND });
}

function finiteTable(core) {
  const m = finite.compute(core, defaults(finite.schema));
  const picked = finite.NOTEBOOK_STEPS.map((step) => m.rows[step]);
  return table(
    'finite_table',
    [{ label: 'step', kind: 'int' }, 'expected_reward', 'entropy', `pass_at_${finite.PASS_K}`],
    picked.map((r) => [r.step, r.expectedReward, r.entropy, r.passAt4]),
    { index: { label: null, values: finite.NOTEBOOK_STEPS }, round: ROUND },
  );
}

function metricsTable(run, lang) {
  return table(
    'metrics',
    METRIC_COLUMNS.map((c) => c.label),
    METRIC_ROWS.map(({ key }) => METRIC_COLUMNS.map((c) => run[key][c.key])),
    { index: { label: null, values: METRIC_ROWS.map(({ label }) => t(label, {}, lang)) }, round: ROUND },
  );
}

function historyTable(run) {
  return table(
    'history',
    HISTORY_COLUMNS.map((c) => (c.key === 'update' ? { label: c.label, kind: 'int' } : c.label)),
    run.history.map((row) => HISTORY_COLUMNS.map((c) => row[c.key] ?? null)),
    { round: ROUND },
  );
}

function coverageTable(run) {
  const rows = coverageRows(run.beforeTrainByPrompt, run.afterTrainByPrompt);
  return table('coverage', ['before', 'after'], rows.map((r) => [r.before, r.after]), {
    index: { label: null, values: rows.map((r) => r.prompt) },
  });
}

function inspectionTable(core, run) {
  const request = inspectionRequest(run.config, 0);
  const result = core.collectRollouts(run.checkpoint, run.prompts, request.config, {
    seed: request.seed,
    generatorVersion: request.generatorVersion,
  });
  const group = result.groups[0];
  const rows = group.map((row) => [row.promptId, row.responseTokens.join(' '), row.reward, row.accuracy, row.status, row.length, row.terminated]);
  const columns = [{ label: 'prompt_id', kind: 'int' }, 'response', 'reward', 'accuracy', 'status', { label: 'length', kind: 'int' }, 'terminated'];
  const printed = pyRepr({ discarded_fraction: result.discardedFraction, generator_version: group[0]?.generatorVersion ?? request.generatorVersion });
  return { inspection: table('first_group', columns, rows), printed, request };
}

/** The snapshot section 9 prints, its skipped branch, and the run's config as TRL arguments and as a verl launch. */
function realModel(config, lang) {
  const snapshot = Object.fromEntries(SOFTWARE_SNAPSHOT);
  const notes = trlNotes((key, params) => t(key, params, lang));
  const trl = trlConfigPython(config, notes);
  const verl = verlLaunchScript(config, (key, params) => t(key, params, lang));
  return { snapshot, skipped: t('REAL_MODEL_SKIPPED', {}, lang), trl, verl, printed: [pyRepr(snapshot), t('REAL_MODEL_SKIPPED', {}, lang), trl.trimEnd(), verl.trimEnd()] };
}

/**
 * Runs the notebook: profile and seed as its PROFILE / SEED, the loss of its section 6 (the
 * precomputed run's, "dapo"), or `config` (a full config: `notebook --set`).
 * onProgress(row, total) once per update of the training run.
 */
export async function buildNotebook(core, { profile = PRECOMPUTED.profile, seed = PRECOMPUTED.seed, lang = 'en', config: given, onProgress } = {}) {
  await loadLanguage(lang);
  const config = given ?? core.experimentConfig({ profile, seed, lossType: PRECOMPUTED.lossType });
  const run = core.runToyGrpoExperiment(config, (row) => onProgress?.(row, config.updates));
  const { inspection, printed } = inspectionTable(core, run);
  const trl = realModel(run.config, lang);
  return {
    profile: config.profile,
    seed: config.seed,
    lang,
    sections: [
      section(1, lang, [verifierTable(core)]),
      section(2, lang, [examplesTable(core)]),
      section(3, lang, [advantagesTable(core)]),
      section(4, lang, [reductionsTable(core)]),
      section(5, lang, [finiteTable(core)]),
      { ...section(6, lang, [metricsTable(run, lang)], [pyRepr(run.config)]), config: run.config },
      section(7, lang, [historyTable(run)]),
      section(8, lang, [coverageTable(run), inspection], [printed]),
      { ...section(9, lang, [], trl.printed), snapshot: trl.snapshot, skipped: trl.skipped, trlConfig: trl.trl, verlLaunch: trl.verl },
    ],
  };
}
