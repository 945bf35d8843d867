// `npm run bench`: runs the same C++ bench program natively and as WASM under Node, the JS API
// measurements in Node, and the page measurements in Chromium; prints one side-by-side table
// and writes every figure to build/bench/results.json as {name, variant, value, unit} rows.
// Names of parts as arguments (PARTS below) run only those.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const rows = [];

// The parts, in the order they run; `npm run bench -- native wasm page` runs only those (their
// rows in one table), none runs all. The lessons and gallery parts train hundreds of runs each;
// issue 28's rows are native, wasm, threads and page.
const PROGRAMS = [
  ['native', 'native', `${root}build/native/grpo_bench`, []],
  ['wasm', 'wasm-node', 'node', ['--no-experimental-fetch', `${root}build/wasm/grpo_bench.js`]],
  // One run on 1 and 2 threads in WASM: the -pthread twin of the bench (Node's worker_threads).
  ['threads', 'wasm-node-mt', 'node', ['--no-experimental-fetch', `${root}build/wasm/grpo_bench_mt.js`, 'threads']],
];
const FILES = [
  ['api', 'bench_api.mjs', 'benchApi'], ['page', 'bench_page.mjs', 'benchPage'],
  ['page-training', 'bench_page_training.mjs', 'benchPageTraining'], ['page-seeds', 'bench_page_seeds.mjs', 'benchPageSeeds'],
  ['lighthouse', 'bench_lighthouse.mjs', 'benchLighthouse'], ['hostile', 'bench_hostile.mjs', 'benchHostile'],
  ['lessons', 'lesson-seeds.mjs', 'benchLessons'], ['gallery', 'lesson-gallery.mjs', 'benchGallery'],
  ['link-budget', 'bench_link_budget.mjs', 'benchLinkBudget'], ['inspector', 'bench_inspector.mjs', 'benchInspector'],
];
const PARTS = [...PROGRAMS, ...FILES].map(([part]) => part);
const wanted = process.argv.slice(2);
const unknown = wanted.filter((part) => !PARTS.includes(part));
if (unknown.length) {
  console.error(`bench: unknown part ${unknown.join(', ')}; the parts: ${PARTS.join(', ')} (none: all)`);
  process.exit(2);
}
const runs = (part) => !wanted.length || wanted.includes(part);

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

for (const [part, variant, command, args] of PROGRAMS) {
  // The threaded twin, when built (build.sh wasm builds it beside the single-thread one).
  if (!runs(part) || (part === 'threads' && !existsSync(args[1]))) continue;
  console.error(`bench: ${part} (${variant}) ...`);
  runBenchProgram(variant, command, args);
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
for (const [part, file, fn] of FILES) {
  if (runs(part) && existsSync(`${root}tools/${file}`)) {
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
