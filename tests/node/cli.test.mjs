// The `grpo-lab` command run as a user runs it (a child process over the real WASM core): every
// command's output and exit code, --help, bad flags and values, the files it writes.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadCore } from '../../web/core/index.js';
import { BIN, cli } from './run-cli.mjs';
import en from '../../web/js/i18n/en.js';
import ru from '../../web/js/i18n/ru.js';
import { SECTIONS } from '../../web/js/sections/index.js';
import { HISTORY_COLUMNS, METRIC_COLUMNS, METRIC_ROWS } from '../../web/js/training/run-format.js';
import { npRound } from '../../bin/lib/table.mjs';
import { progressBar } from '../../bin/lib/progress.mjs';
import { servedUrl } from './served-url.mjs';

const SMOKE_RUN = JSON.parse(readFileSync(new URL('../../web/data/smoke-run.json', import.meta.url), 'utf8'));
const core = await loadCore();
const dir = mkdtempSync(join(tmpdir(), 'grpo-lab-cli-'));
test.after(() => rmSync(dir, { recursive: true, force: true }));

const titleOf = (dict, number) => dict[SECTIONS.find((s) => s.number === number).titleKey];

test('--help: the command list, and each command its usage and flags (exit 0)', async () => {
  const main = await cli(['--help']);
  assert.equal(main.code, 0);
  for (const name of ['notebook', 'verify', 'train', 'serve']) assert.match(main.stdout, new RegExp(`^  ${name} `, 'm'));
  const flags = { notebook: ['--profile', '--seed', '--set', '--lang', '--json', '--csv', 'verl'], verify: ['--lang', '--json'], train: ['--config', '--set', '--seeds', '--out'], serve: ['--port'] };
  for (const [name, expected] of Object.entries(flags)) {
    const { code, stdout, stderr } = await cli([name, '--help']);
    assert.equal(code, 0, `${name} --help: ${stderr}`);
    assert.match(stdout, new RegExp(`^Usage: grpo-lab ${name} `));
    for (const flag of expected) assert.ok(stdout.includes(flag), `${name} --help names ${flag}`);
  }
  const none = await cli([]);
  assert.equal(none.code, 2);
  assert.match(none.stderr, /Usage: grpo-lab COMMAND/);
  assert.equal((await cli(['--version'])).stdout.trim(), JSON.parse(readFileSync(new URL('../../package.json', import.meta.url))).version);
});

test('verify: verdict, status, candidate and reason; exit 0 correct, 1 not correct, 2 bad input', async () => {
  const ok = await cli(['verify', 'Final: \\boxed{3/7}', '0.428571']);
  assert.equal(ok.code, 0);
  assert.match(ok.stdout, new RegExp(`^${en['verifier.verdict'].replace(/[()]/g, '\\$&')}: +1$`, 'm'));
  assert.match(ok.stdout, /^status: +correct$/m);
  assert.match(ok.stdout, /^extracted candidate: +3\/7$/m);
  assert.match(ok.stdout, /equals the reference 0\.428571/);

  const wrong = await cli(['verify', 'The reference number 42 is mentioned, but the answer is 41', '42']);
  assert.equal(wrong.code, 1);
  assert.match(wrong.stdout, /^status: +incorrect$/m);
  assert.match(wrong.stdout, /^extracted candidate: +41$/m);

  const none = await cli(['verify', '--lang', 'ru', 'No numerical answer', '5']);
  assert.equal(none.code, 1);
  assert.ok(none.stdout.includes(`${ru['verifier.status']}:`), none.stdout);
  assert.ok(none.stdout.includes(`${ru['verifier.status.no_answer']} (no_answer)`), none.stdout);

  const json = await cli(['verify', '--json', '--', '-3', '-3.0']);
  assert.equal(json.code, 0, json.stderr);
  assert.deepEqual(JSON.parse(json.stdout), core.checkNumericAnswer('-3', '-3.0'));

  const bad = await cli(['verify', '3', 'three']);
  assert.equal(bad.code, 2);
  assert.match(bad.stderr, /^grpo-lab verify: reference: must be one number/);
  assert.equal(bad.stdout, '');
  const missing = await cli(['verify', '3']);
  assert.equal(missing.code, 2);
  assert.match(missing.stderr, /missing REFERENCE/);
});

test('a bad flag or value: exit 2 and a message naming the flag and its allowed values', async () => {
  const cases = [
    [['notebook', '--profile', 'medium'], /--profile: must be one of smoke, full, got "medium"/],
    [['notebook', '--lang=de'], /--lang: must be one of en, ru, got "de"/],
    [['notebook', '--seed', '1.5'], /--seed: must be an integer in \[0, 4294967295\], got "1.5"/],
    [['notebook', '--seed'], /--seed: needs a value/],
    [['notebook', '--frob'], /unknown flag --frob; allowed: --profile, --seed, --set, --lang, --json, --csv, --help/],
    [['notebook', 'extra'], /unexpected argument "extra"/],
    [['verify', '--json=yes', 'a', '1'], /--json: takes no value/],
    [['train', '--set', 'updates=5'], /--out is required/],
    [['train', '--out', join(dir, 'x.json'), '--seeds', '0'], /--seeds: must be an integer in \[1, 100\], got "0"/],
    [['train', '--out', join(dir, 'x.json'), '--set', 'groupSize=1'], /--set groupSize=1: groupSize: must be an integer in \[2, 64\], got 1/],
    [['train', '--out', join(dir, 'x.json'), '--set', 'lossType=ppo'], /--set lossType=ppo: lossType: .*grpo.*dapo/],
    [['train', '--out', join(dir, 'x.json'), '--set', 'groupsize=4'], /--set groupsize=4: unknown field "groupsize"; fields: .*groupSize/],
    [['train', '--out', join(dir, 'x.json'), '--config', join(dir, 'missing.json')], /--config .*missing\.json: cannot read it \(ENOENT\)/],
    [['train', '--out', join(dir, 'no-such-folder', 'run.json')], /--out .*run\.json: cannot write there \(no such folder\)/],
    [['notebook', '--json', dir], /--json .*: is a folder, not a file/],
    [['notebook', '--csv', '/dev/null/tables'], /--csv \/dev\/null\/tables: cannot make that folder \(ENOTDIR\)/],
    [['serve', '--port', '70000'], /--port: must be an integer in \[0, 65535\], got "70000"/],
    [['frobnicate'], /unknown command "frobnicate"; commands: notebook, verify, train, serve/],
  ];
  for (const [args, message] of cases) {
    const { code, stderr } = await cli(args);
    assert.equal(code, 2, `${args.join(' ')}: ${stderr}`);
    assert.match(stderr, message, args.join(' '));
  }
  writeFileSync(join(dir, 'bad.json'), '{"lossType": "dapo",');
  const notJson = await cli(['train', '--out', join(dir, 'x.json'), '--config', join(dir, 'bad.json')]);
  assert.equal(notJson.code, 2);
  assert.match(notJson.stderr, /--config .*bad\.json: not JSON/);
  writeFileSync(join(dir, 'range.json'), '{"epsHigh": 11}');
  const range = await cli(['train', '--out', join(dir, 'x.json'), '--config', join(dir, 'range.json')]);
  assert.equal(range.code, 2);
  assert.match(range.stderr, /--config .*range\.json: epsHigh: must be .*10/);
});

test('notebook (smoke, seed 9, en): every section titled, tables as the notebook displays them, --json and --csv the same data', async () => {
  const json = join(dir, 'notebook.json');
  const csvDir = join(dir, 'csv');
  const { code, stdout, stderr } = await cli(['notebook', '--json', json, '--csv', csvDir]);
  assert.equal(code, 0, stderr);
  assert.equal(stderr, '', 'no progress bar when stderr is not a terminal');
  for (let n = 1; n <= 9; n += 1) assert.ok(stdout.includes(`${titleOf(en, n)}\n`), `section ${n} title`);
  // Section 1: the five cases, observed = expected; section 2 rounded to 4 decimals as pandas shows them.
  assert.match(stdout, /^0 +Final: \\\\boxed\{3\/7\} +0\.428571 +1 +1$/m);
  assert.match(stdout, /^ +p +P_info, G=8 +draws for 100 informative prompts$/m);
  assert.match(stdout, /^2 +0\.50 +0\.9922 +100\.7874$/m);
  // Section 3 is not rounded in the notebook: pandas' 6 decimals.
  assert.match(stdout, /^0 +1\.0 +0\.5 +0\.865875 +1\.35 +1\.039051 +True$/m);
  assert.match(stdout, /^1 +dr_grpo +0\.0278 +-0\.1389 +0\.1111 +0\.2778$/m);
  assert.match(stdout, /^60 +60 +0\.8801 +0\.9623 +0\.9998$/m);
  // Section 6: the label constants head the rows; the numbers are the precomputed smoke run's, rounded.
  for (const { label, key } of METRIC_ROWS) {
    const cells = METRIC_COLUMNS.map((c) => npRound(SMOKE_RUN[key][c.key]).toFixed(4).replace(/^-(0\.0+)$/, '$1'));
    assert.match(stdout, new RegExp(`^${en[label]} +${cells.join(' +')}$`, 'm'), label);
  }
  assert.match(stdout, new RegExp(`'lossType': 'dapo'.*'updates': ${SMOKE_RUN.config.updates}`));
  assert.ok(stdout.includes(en.REAL_MODEL_SKIPPED));
  assert.match(stdout, new RegExp(`max_steps=${SMOKE_RUN.config.updates}, +# updates`));
  assert.match(stdout, /\{'discarded_fraction': [\d.]+, 'generator_version': 'notebook-inspection'\}/);

  const data = JSON.parse(readFileSync(json, 'utf8'));
  assert.equal(data.format, 'grpo-lab-notebook');
  assert.deepEqual(data.sections.map((s) => s.number), [1, 2, 3, 4, 5, 6, 7, 8, 9]);
  assert.deepEqual(data.sections.map((s) => s.title), data.sections.map((s) => titleOf(en, s.number)));
  const tables = Object.fromEntries(data.sections.flatMap((s) => s.tables.map((t) => [`s${s.number}-${t.name}`, t])));
  assert.deepEqual(Object.keys(tables), ['s1-verifier_table', 's2-examples', 's3-advantages', 's4-summary', 's5-finite_table', 's6-metrics', 's7-history', 's8-coverage', 's8-first_group']);
  const history = tables['s7-history'];
  assert.deepEqual(history.columns, HISTORY_COLUMNS.map((c) => c.label));
  assert.equal(history.data.length, SMOKE_RUN.history.length);
  // A column the run does not have (sampling/* without a separate sampler) is null, empty in the CSV.
  assert.deepEqual(history.data[41], HISTORY_COLUMNS.map((c) => (c.key in SMOKE_RUN.history[41] ? npRound(SMOKE_RUN.history[41][c.key]) : null)));
  assert.deepEqual(tables['s6-metrics'].index, METRIC_ROWS.map((r) => en[r.label]));
  assert.deepEqual(data.sections[5].config, SMOKE_RUN.config);
  assert.match(data.sections[8].trlConfig, /^from trl import GRPOConfig/);
  // Section 9 also prints the run as a verl v0.7.0 launch.
  assert.match(data.sections[8].verlLaunch, /^python3 -m verl\.trainer\.main_ppo "\$\{overrides\[@\]\}" "\$@"$/m);
  assert.ok(stdout.includes(data.sections[8].verlLaunch.trimEnd()), 'the verl launch is printed');
  assert.match(stdout, /^ {4}actor_rollout_ref\.actor\.loss_agg_mode=token-mean +# lossType$/m);

  // CSV: one file per table, the same values.
  assert.deepEqual(readdirSync(csvDir).sort(), [...Object.keys(tables).map((n) => `${n}.csv`), 's9-trl_config.py', 's9-verl_launch.sh'].sort());
  const csvLines = readFileSync(join(csvDir, 's7-history.csv'), 'utf8').trim().split('\n');
  assert.equal(csvLines[0], HISTORY_COLUMNS.map((c) => c.label).join(','));
  assert.deepEqual(csvLines[42].split(',').map((v) => (v === '' ? null : Number(v))), history.data[41]);
  const metricsCsv = readFileSync(join(csvDir, 's6-metrics.csv'), 'utf8').split('\n');
  assert.equal(metricsCsv[0], `,${METRIC_COLUMNS.map((c) => c.label).join(',')}`);
  assert.ok(metricsCsv[1].startsWith(`"${en.BEFORE_TRAIN}",`), metricsCsv[1]);
});

test('notebook --lang ru: the Russian titles and label constants, the same numbers', async () => {
  const { code, stdout, stderr } = await cli(['notebook', '--lang', 'ru', '--seed', '9']);
  assert.equal(code, 0, stderr);
  for (let n = 1; n <= 9; n += 1) assert.ok(stdout.includes(`${titleOf(ru, n)}\n`), `section ${n} title`);
  for (const { label } of METRIC_ROWS) assert.match(stdout, new RegExp(`^${ru[label]} +\\d`, 'm'), label);
  assert.ok(stdout.includes(ru.REAL_MODEL_SKIPPED));
  assert.match(stdout, /^2 +0\.50 +0\.9922 +100\.7874$/m);
});

test('notebook --set: section 6 trains the changed config, and section 9 writes it for TRL and verl; a bad --set is a usage error', async () => {
  const { code, stdout, stderr } = await cli(['notebook', '--set', 'updates=3', '--set', 'lossType=dr_grpo', '--set', 'beta=0.04', '--set', 'seed=4', '--lang', 'ru']);
  assert.equal(code, 0, stderr);
  assert.match(stdout, /'lossType': 'dr_grpo'.*'seed': 4.*'updates': 3/s);
  assert.match(stdout, /loss_type="dr_grpo",/);
  assert.match(stdout, /^ {4}actor_rollout_ref\.actor\.loss_agg_mode=seq-mean-token-sum-norm +# lossType$/m);
  assert.match(stdout, /^ {4}actor_rollout_ref\.actor\.kl_loss_coef=0\.04 +# beta$/m);
  assert.match(stdout, /^ {4}trainer\.total_training_steps=3 +# updates$/m);
  assert.match(stdout, /^# maskTruncated=True: в verl v0\.7\.0 нет аналога — /m);
  for (const [args, message] of [
    [['notebook', '--set', 'frob=1'], /--set frob=1: unknown field "frob"/],
    [['notebook', '--set', 'beta=-1'], /--set beta=-1: beta/],
  ]) {
    const bad = await cli(args);
    assert.equal(bad.code, 2, args.join(' '));
    assert.match(bad.stderr, message);
  }
});

test('train: writes the run file the page imports, byte-for-byte the API run; --seeds N one file per seed', async () => {
  const out = join(dir, 'run.json');
  writeFileSync(join(dir, 'config.json'), JSON.stringify({ lossType: 'dr_grpo', scaleRewards: 'none', updates: 50 }));
  const { code, stdout, stderr } = await cli(['train', '--config', join(dir, 'config.json'), '--set', 'updates=6', '--set', 'seed=4', '--out', out]);
  assert.equal(code, 0, stderr);
  assert.equal(stderr, '', 'silent when stderr is not a terminal');
  assert.match(stdout, /^wrote .*run\.json: seed 4, dr_grpo, 6 updates; accuracy train \d\.\d{3} -> \d\.\d{3}/);
  const file = JSON.parse(readFileSync(out, 'utf8'));
  assert.equal(file.format, 'grpo-lab-run');
  assert.equal(file.version, 1);
  assert.equal(file.source, 'grpo-lab-train');
  assert.ok(file.checkpoint, 'the checkpoint travels with the run');
  core.importRun(file);
  const api = core.runToyGrpoExperiment({ profile: 'smoke', lossType: 'dr_grpo', scaleRewards: 'none', updates: 6, seed: 4 });
  assert.equal(JSON.stringify(file.history), JSON.stringify(api.history));
  assert.deepEqual(file.config, api.config);

  const many = await cli(['train', '--set', 'updates=3', '--seeds', '2', '--out', join(dir, 'multi.json')]);
  assert.equal(many.code, 0, many.stderr);
  assert.match(many.stdout, /over 2 seeds: mean \d\.\d{3}, sd \d\.\d{3}/);
  const seeds = ['multi.seed9.json', 'multi.seed10.json'].map((name) => JSON.parse(readFileSync(join(dir, name), 'utf8')));
  assert.deepEqual(seeds.map((r) => r.config.seed), [9, 10]);
  assert.notEqual(JSON.stringify(seeds[0].history), JSON.stringify(seeds[1].history));
});

test('the progress bar draws on a terminal only, and ends at the total', () => {
  const writes = [];
  const tty = { isTTY: true, write: (text) => writes.push(text) };
  const bar = progressBar(tty, 5, 'seed 9 ');
  for (let i = 1; i <= 5; i += 1) bar.update(i);
  bar.finish();
  const last = writes.at(-2);
  assert.match(last, /^\rseed 9 \[#{28}\] 5\/5 updates · \d+\.\d s/);
  assert.equal(writes.at(-1), '\n');
  const quiet = [];
  const pipe = progressBar({ isTTY: false, write: (text) => quiet.push(text) }, 5);
  pipe.update(3);
  pipe.finish();
  assert.deepEqual(quiet, []);
});

test('train under a real terminal (script(1) gives it a pty): the bar redraws in place on stderr', async (t) => {
  if (!existsSync('/usr/bin/script')) return t.skip('script(1) is not installed');
  const out = join(dir, 'tty.json');
  const command = [process.execPath, BIN, 'train', '--set', 'updates=3', '--out', out].map((a) => `'${a}'`).join(' ');
  const { stdout } = await new Promise((resolve, reject) => {
    const child = spawn('/usr/bin/script', ['-qec', command, '/dev/null'], { stdio: ['ignore', 'pipe', 'pipe'], timeout: 120000 });
    let text = '';
    child.stdout.on('data', (chunk) => (text += chunk));
    child.on('error', reject);
    child.on('close', (code) => (code === 0 ? resolve({ stdout: text }) : reject(new Error(`exit ${code}: ${text}`))));
  });
  assert.match(stdout, /\r\[#{28}\] 3\/3 updates · \d/);
  assert.match(stdout, /wrote .*tty\.json: seed 9, dapo, 3 updates/);
  assert.equal(JSON.parse(readFileSync(out, 'utf8')).history.length, 3);
});

test('serve: the course page over http, index.html and the .wasm with their content types', async () => {
  const child = spawn(process.execPath, [BIN, 'serve', '--port', '0'], { stdio: ['ignore', 'pipe', 'pipe'] });
  try {
    const url = await servedUrl(child);
    const page = await fetch(url);
    assert.equal(page.status, 200);
    assert.equal(page.headers.get('content-type'), 'text/html; charset=utf-8');
    assert.match(await page.text(), /<html/);
    const wasm = await fetch(new URL('core/grpo_core.wasm', url));
    assert.equal(wasm.headers.get('content-type'), 'application/wasm');
    assert.ok(WebAssembly.validate(new Uint8Array(await wasm.arrayBuffer())));
  } finally {
    child.kill();
  }
});
