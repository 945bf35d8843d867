// `grpo-lab notebook`: every table of the notebook's sections 1-8 as the notebook displays it,
// then section 9's snapshot; --json FILE and --csv DIR write the same data.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { LANGUAGES } from '../../web/js/i18n.js';
import { schema as setup } from '../../web/js/sections/setup.js';
import { UsageError, checkWritableFile } from './args.mjs';
import { readOptions } from './config-options.mjs';
import { buildNotebook } from './notebook.mjs';
import { PRECOMPUTED } from '../../web/js/training/run-format.js';
import { progressBar } from './progress.mjs';
import { renderTable, tableCsv, tableJson } from './table.mjs';

export const NOTEBOOK_FORMAT = 'grpo-lab-notebook';

export default {
  name: 'notebook',
  summary: 'print every table of the notebook (sections 1-8) and the section 9 snapshot',
  usage: 'grpo-lab notebook [--profile smoke|full] [--seed N] [--set key=value ...] [--lang en|ru] [--json FILE] [--csv DIR]',
  help: `Runs the course notebook on the WASM core, as its cells do (section 6 trains the GRU
policy with GRPO, loss "dapo"), and prints each table the notebook displays: the same columns,
rounded where the notebook rounds (.round(4)), formatted as pandas prints them, under the
section titles and label constants of the chosen language. Section 9 prints the run's config
twice: as TRL GRPOConfig arguments and as a verl v0.7.0 launch (python3 -m verl.trainer.main_ppo
with Hydra overrides; a setting verl has no equivalent for is a comment line).

  --profile ${setup.profile.options.join('|')}  the notebook's PROFILE (default ${setup.profile.default}; full trains 300 updates)
  --seed N              the notebook's SEED, an integer in [${setup.seed.min}, ${setup.seed.max}] (default ${setup.seed.default})
  --set key=value       one config field of section 6's run (repeatable; as \`train --set\`),
                        e.g. --set lossType=dr_grpo --set scaleRewards=none --set beta=0.04;
                        a None-able field takes none (TRL's None): --set delta=none
  --lang en|ru          titles and labels from the page's dictionaries (default en)
  --json FILE           also write every table and printed line as JSON
  --csv DIR             also write one CSV per table (and section 9's TRL config as .py,
                        its verl launch as s9-verl_launch.sh)`,
  spec: {
    flags: {
      // Section 0's PROFILE and SEED, as the page's setup section defines them.
      profile: { kind: 'enum', options: setup.profile.options, default: setup.profile.default },
      seed: { kind: 'int', min: setup.seed.min, max: setup.seed.max, default: setup.seed.default },
      set: { kind: 'text', meta: 'key=value', repeat: true },
      lang: { kind: 'enum', options: LANGUAGES, default: 'en' },
      json: { kind: 'path', meta: 'FILE' },
      csv: { kind: 'path', meta: 'DIR' },
    },
  },
  async run({ flags }, { core, stdout, stderr }) {
    if (flags.json) checkWritableFile('json', flags.json);
    if (flags.csv) makeCsvDir(flags.csv);
    // The notebook's run (its PROFILE, SEED and loss "dapo"), then each --set.
    const config = readOptions(core, { set: flags.set }, { profile: flags.profile, seed: flags.seed, lossType: PRECOMPUTED.lossType });
    let bar = null;
    const notebook = await buildNotebook(core, {
      ...flags,
      config,
      onProgress: (row, total) => {
        bar ??= progressBar(stderr, total, 'section 6 ');
        bar.update(row.update);
      },
    });
    bar?.finish();
    stdout.write(renderNotebook(notebook));
    if (flags.json) writeFileSync(flags.json, `${JSON.stringify(notebookJson(notebook), null, 1)}\n`);
    if (flags.csv) writeCsvDir(notebook, flags.csv);
    return 0;
  },
};

/** The text of every section: its title, its tables, then what it prints. */
export function renderNotebook(notebook) {
  const parts = [];
  for (const s of notebook.sections) {
    parts.push(`${s.title}\n${'='.repeat(s.title.length)}\n`);
    for (const t of s.tables) parts.push(`${renderTable(t)}\n`);
    for (const line of s.printed) parts.push(`${line}\n`);
  }
  return `${parts.join('\n')}`;
}

export function notebookJson(notebook) {
  return {
    format: NOTEBOOK_FORMAT,
    version: 1,
    profile: notebook.profile,
    seed: notebook.seed,
    lang: notebook.lang,
    sections: notebook.sections.map(({ tables, ...s }) => ({ ...s, tables: tables.map(tableJson) })),
  };
}

/** The CSV file of a table: "s7-history.csv". */
export const csvName = (section, t) => `s${section.number}-${t.name}.csv`;

function makeCsvDir(dir) {
  try {
    mkdirSync(dir, { recursive: true });
  } catch (error) {
    throw new UsageError(`--csv ${dir}: cannot make that folder (${error.code})`);
  }
}

function writeCsvDir(notebook, dir) {
  for (const s of notebook.sections) {
    for (const t of s.tables) writeFileSync(join(dir, csvName(s, t)), tableCsv(t));
    if (s.trlConfig) writeFileSync(join(dir, `s${s.number}-trl_config.py`), s.trlConfig);
    if (s.verlLaunch) writeFileSync(join(dir, `s${s.number}-verl_launch.sh`), s.verlLaunch);
  }
}
