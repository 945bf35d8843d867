// `npm run bench`: runs the same C++ bench program natively and as WASM under Node, the JS API
// measurements in Node, and the page measurements in Chromium; prints one side-by-side table
// and writes every figure to build/bench/results.json as {name, variant, value, unit} rows.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const rows = [];

// The machine is shared: each program's rows come with the 1-minute load average (as `uptime`
// prints it) before and after it ran, so a slow figure can be read against the load it met.
function runBenchProgram(variant, command, args) {
  const before = loadavg()[0];
  const output = execFileSync(command, args, { cwd: root, encoding: 'utf8', maxBuffer: 1 << 26 });
  const measured = JSON.parse(output.trim().split('\n').pop());
  for (const row of measured) rows.push({ ...row, variant });
  rows.push({ name: 'load-average-1min-before', value: before, unit: 'load', variant });
  rows.push({ name: 'load-average-1min-after', value: loadavg()[0], unit: 'load', variant });
}

console.error('bench: native C++ ...');
runBenchProgram('native', `${root}build/native/grpo_bench`, []);
console.error('bench: WASM under Node ...');
runBenchProgram('wasm-node', 'node', ['--no-experimental-fetch', `${root}build/wasm/grpo_bench.js`]);
// One run on 1 and 2 threads in WASM: the -pthread twin of the bench (Node's worker_threads).
if (existsSync(`${root}build/wasm/grpo_bench_mt.js`)) {
  console.error('bench: WASM threads under Node ...');
  runBenchProgram('wasm-node-mt', 'node', ['--no-experimental-fetch', `${root}build/wasm/grpo_bench_mt.js`, 'threads']);
}
// Issue 28's targets, shown beside the rows they judge.
const TARGETS = [
  [/^fwd-bwd-over-peak_/, '>= 0.8 of the same build\'s GEMM peak (issue 28)'],
  [/^update-over-peak_/, 'ratio to the same build\'s GEMM peak'],
  [/threads-speedup/, 'up to 2x (2 cores)'],
  [/threads-same-bytes/, '1: same bytes'],
];
for (const row of rows) row.reference ??= TARGETS.find(([pattern]) => pattern.test(row.name))?.[1];

// Whole-profile timings through the public JS API (Node) and the page (Chromium), when present.
for (const [file, fn] of [['bench_api.mjs', 'benchApi'], ['bench_page.mjs', 'benchPage'],
  ['bench_page_training.mjs', 'benchPageTraining'], ['bench_page_seeds.mjs', 'benchPageSeeds'],
  ['bench_lighthouse.mjs', 'benchLighthouse'], ['bench_hostile.mjs', 'benchHostile'],
  ['lesson-seeds.mjs', 'benchLessons'], ['lesson-gallery.mjs', 'benchGallery'], ['bench_link_budget.mjs', 'benchLinkBudget'],
  ['bench_inspector.mjs', 'benchInspector']]) {
  if (existsSync(`${root}tools/${file}`)) {
    console.error(`bench: ${file} ...`);
    const module = await import(`./${file}`);
    rows.push(...(await module[fn]()));
  }
}

// The table: one line per measurement name, one column per variant, plus WASM/native.
const variants = [...new Set(rows.map((r) => r.variant))];
const names = [...new Set(rows.map((r) => r.name))];
const format = (v) => (v === undefined ? '-' : Math.abs(v) >= 1000 ? v.toFixed(0) : v.toPrecision(4));
const header = ['measurement', ...variants, 'unit', 'wasm/native', 'target'];
const lines = names.map((name) => {
  const of = (variant) => rows.find((r) => r.name === name && r.variant === variant);
  const unit = rows.find((r) => r.name === name).unit;
  const native = of('native')?.value;
  const wasm = of('wasm-node')?.value;
  let ratio = '-';
  if (native && wasm) {
    // For rates (per second) a higher number is better: report the slowdown either way.
    const higherIsBetter = /\/s$/.test(unit) || /per_s/.test(name);
    ratio = `${(higherIsBetter ? native / wasm : wasm / native).toFixed(2)}x`;
  }
  const target = rows.find((r) => r.name === name && r.reference)?.reference ?? '';
  return [name, ...variants.map((v) => format(of(v)?.value)), unit, ratio, target];
});
const widths = header.map((h, i) => Math.max(h.length, ...lines.map((l) => String(l[i]).length)));
const print = (cells) => console.log(cells.map((c, i) => String(c).padEnd(widths[i])).join('  '));
print(header);
print(widths.map((w) => '-'.repeat(w)));
lines.forEach(print);

mkdirSync(`${root}build/bench`, { recursive: true });
writeFileSync(`${root}build/bench/results.json`, `${JSON.stringify(rows, null, 2)}\n`);
console.log(`\nwrote ${rows.length} rows to build/bench/results.json`);
