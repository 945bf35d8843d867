// `grpo-lab train`: one experiment (or one per seed) on the WASM core, written as the run file
// the page exports and imports (run-format.js runFile, checked by core.importRun).
import { writeFileSync } from 'node:fs';
import { METRIC_ROWS, runFile } from '../../web/js/training/run-format.js';
import { checkWritableFile } from './args.mjs';
import { readOptions } from './config-options.mjs';
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
