// `grpo-lab train`: one experiment (or one per seed) on the WASM core, written as the run file
// the page exports and imports (run-format.js runFile, checked by core.importRun).
import { readFileSync, writeFileSync } from 'node:fs';
import { METRIC_ROWS, runFile } from '../../web/js/training/run-format.js';
import { isNoneText } from '../../web/js/state.js';
import { UsageError, checkWritableFile } from './args.mjs';
import { progressBar } from './progress.mjs';

export const MAX_SEEDS = 100;

export default {
  name: 'train',
  summary: 'train the GRU policy with GRPO and write a run file the page imports',
  usage: 'grpo-lab train [--config FILE] [--set key=value ...] [--seeds N] --out run.json',
  help: `Runs the notebook's experiment (section 6) with your config and writes the run file the
course page exports and imports (format "grpo-lab-run", version 1, checkpoint included): open
the page, section 6, "Import a run". A progress bar goes to stderr when it is a terminal.

  --config FILE      a JSON object of config fields (docs/api.md, "Config fields"), e.g.
                     {"profile": "full", "lossType": "dr_grpo", "scaleRewards": "none"}
  --set key=value    one config field (repeatable; applied after --config), e.g.
                     --set updates=50 --set lossType=grpo --set dynamicSampling=true;
                     a None-able field takes none (TRL's None): --set delta=none
  --seeds N          run N seeds, from the config's seed up (default 1); writes one file
                     per seed, run.json -> run.seed9.json, run.seed10.json, ...
  --out FILE         where to write the run file (required)`,
  spec: {
    flags: {
      config: { kind: 'path', meta: 'FILE' },
      set: { kind: 'text', meta: 'key=value', repeat: true },
      seeds: { kind: 'int', min: 1, max: MAX_SEEDS, default: 1 },
      out: { kind: 'path', meta: 'FILE', required: true },
    },
  },
  async run({ flags }, { core, stdout, stderr }) {
    checkWritableFile('out', flags.out);
    const base = readOptions(core, flags);
    // Settings that train to no effect, or that TRL warns about: said, not refused (TRL trains them).
    for (const w of core.configWarnings(base)) stderr.write(`warning: ${w.message}\n`);
    const seeds = Array.from({ length: flags.seeds }, (_, i) => base.seed + i);
    const results = [];
    for (const [i, seed] of seeds.entries()) {
      const out = flags.seeds === 1 ? flags.out : seedPath(flags.out, seed);
      const config = core.experimentConfig({ ...base, seed });
      const label = flags.seeds === 1 ? '' : `seed ${seed} (${i + 1}/${seeds.length}) `;
      const bar = progressBar(stderr, config.updates, label);
      const result = core.runToyGrpoExperiment(config, (row) => bar.update(row.update));
      bar.finish(result.history.length);
      const file = runFile(result, { source: 'grpo-lab-train', status: 'finished' });
      core.importRun(file); // the page's own check: what it would refuse is never written
      writeFileSync(out, `${JSON.stringify(file)}\n`);
      results.push({ seed, out, result });
    }
    stdout.write(summary(results));
    return 0;
  },
};

/** run.json -> run.seed9.json (no extension: run -> run.seed9.json). */
export function seedPath(out, seed) {
  const dot = out.lastIndexOf('.');
  const slash = Math.max(out.lastIndexOf('/'), out.lastIndexOf('\\'));
  return dot > slash + 1 ? `${out.slice(0, dot)}.seed${seed}${out.slice(dot)}` : `${out}.seed${seed}.json`;
}

/**
 * "true"/"false" as booleans, numbers as numbers, none/None/null as null (TRL's None) for a
 * None-able field, anything else as text (the core checks it and names the field).
 */
function parseValue(text, nullable) {
  if (nullable && isNoneText(text)) return null;
  if (text === 'true' || text === 'false') return text === 'true';
  if (/^[+-]?(\d+\.?\d*|\.\d+)(e[+-]?\d+)?$/i.test(text)) return Number(text);
  return text;
}

/** The experiment's options: --config, then each --set, checked by the core with the flag named. */
function readOptions(core, flags) {
  const known = Object.keys(core.experimentConfig({}));
  const nullable = new Set(core.configSchema().fields.filter((f) => f.nullable).map((f) => f.name));
  let options = {};
  if (flags.config) {
    let text;
    try {
      text = readFileSync(flags.config, 'utf8');
    } catch (error) {
      throw new UsageError(`--config ${flags.config}: cannot read it (${error.code ?? error.message})`);
    }
    try {
      options = JSON.parse(text);
    } catch (error) {
      throw new UsageError(`--config ${flags.config}: not JSON (${error.message})`);
    }
    if (!options || typeof options !== 'object' || Array.isArray(options)) {
      throw new UsageError(`--config ${flags.config}: must be a JSON object of config fields`);
    }
    checked(core, options, `--config ${flags.config}`);
  }
  for (const pair of flags.set) {
    const eq = pair.indexOf('=');
    const key = eq > 0 ? pair.slice(0, eq) : '';
    if (!known.includes(key)) {
      throw new UsageError(`--set ${pair}: ${eq > 0 ? `unknown field "${key}"` : 'must be key=value'}; fields: ${known.join(', ')}`);
    }
    options = { ...options, [key]: parseValue(pair.slice(eq + 1), nullable.has(key)) };
    checked(core, options, `--set ${pair}`);
  }
  return checked(core, options, 'config');
}

function checked(core, options, where) {
  try {
    return core.experimentConfig(options);
  } catch (error) {
    if (error instanceof RangeError || error instanceof TypeError) throw new UsageError(`${where}: ${error.message}`);
    throw error;
  }
}

function summary(results) {
  const lines = results.map(({ seed, out, result }) => {
    const acc = METRIC_ROWS.map(({ key }) => result[key].accuracy.toFixed(3));
    return `wrote ${out}: seed ${seed}, ${result.config.lossType}, ${result.history.length} updates; accuracy train ${acc[0]} -> ${acc[1]}, held-out ${acc[2]} -> ${acc[3]}`;
  });
  if (results.length > 1) {
    const after = results.map((r) => r.result.afterTrain.accuracy);
    const mean = after.reduce((a, b) => a + b, 0) / after.length;
    const sd = Math.sqrt(after.reduce((a, b) => a + (b - mean) ** 2, 0) / (after.length - 1));
    lines.push(`after RL, train accuracy over ${results.length} seeds: mean ${mean.toFixed(3)}, sd ${sd.toFixed(3)}`);
  }
  return `${lines.join('\n')}\n`;
}
