// Runs every test suite (Catch2 native, ASan+UBSan and WASM through ctest, fuzz, node:test over
// the WASM API, browser tests in Chromium, the engines tests in Firefox and WebKit, format check),
// prints each one's output, and ends with a summary: each suite's counts and time, then one line.
// Exits non-zero when any suite fails. Suite names as arguments pick some.
//
// Two lanes share the 2 cores: Chromium's files (two at a time), then the ASan + UBSan tests,
// fuzz (one build) and Firefox's, beside the native and WASM C++ suites, Node's, WebKit's and the
// landing test in Firefox and WebKit in turn (the lanes balanced by their measured times); then
// the timing files (they assert main-thread task lengths, Lighthouse scores or Stop within 1 s)
// run alone. Moving the landing files (landing, phone) from there into the lanes took a fresh
// clone from 1138 s to 1035 s (fresh26, 2026-12-06); the lanes are CPU-bound (vmstat: idle ~0 %),
// so only less computation shortens them. A suite with a
// `build` first runs `tools/build.sh <build>` in its lane, so a fresh clone compiles the native,
// sanitizer and WASM test builds while the browsers test the page (only the site is built before).
// A suite that ran beside another prints its output as one block when it ends.
// Tried and measured (2026-12-06, fresh clones): a third lane at SCHED_IDLE (`chrt --idle 0`)
// beside the timing files, which leave ~45 % of the CPU idle. With the Catch2 suites and Node's
// pure-computation files in it: 943 s instead of ~1006, but a phone landing missed its heading
// beside it (since fixed: the page's end had no room, css/main.css); made to end before them,
// 1234 s; beside them again (fresh21), 1098 s, its ~300 CPU-s starved until after the timing
// files. With ASan and fuzz alone in it (~100 CPU-s, fresh27): 1008 s against fresh26's 991, the
// lanes no shorter and the timing files 12 s slower beside it. Not used.
import { spawn } from 'node:child_process';
import { readdirSync } from 'node:fs';

// Browser files that measure time (task lengths, Lighthouse, Stop within 1 s or on the threaded
// core within 500 ms, the first load's tasks, the scratch task's smoke run under 10 s): alone,
// one file at a time, nothing else on the machine. The landing files (a heading that stays put
// for 3.5 s: landing, phone) run in the lanes since the page's end has room (css/main.css): they
// passed under npm run test:stress.
const TIMING = ['hostile', 'lighthouse', 'training-timing', 'threads-stop', 'compare-link', 'first-load', 'scratch-smoke'].map((name) => `tests/browser/${name}.test.mjs`);
const BROWSER = readdirSync('tests/browser').filter((f) => f.endsWith('.test.mjs')).map((f) => `tests/browser/${f}`);
// The engines, offline engines, deploy and step inspector tests in Firefox and in WebKit (MiniBrowser
// needs an X display: xvfb-run gives it one); their landing test is the suite browser-landing.
const ENGINE_FILES = ['engines', 'offline-engines', 'offline-updates', 'inspector'].map((name) => `tests/browser/${name}.test.mjs`);

const SUITES = [
  { name: 'format', lane: 'other', cmd: 'bash', args: ['tools/check-format.sh'] },
  { name: 'catch2-native', lane: 'other', build: 'native-tests', cmd: 'ctest', args: ['--test-dir', 'build/native', '--output-on-failure', '-j2'] },
  { name: 'catch2-wasm', lane: 'other', build: 'wasm-tests', cmd: 'ctest', args: ['--test-dir', 'build/wasm', '--output-on-failure', '-j2'] },
  { name: 'node-api', lane: 'other', cmd: 'node', args: ['--test', '--test-concurrency=2', 'tests/node/'] },
  { name: 'browser-webkit', lane: 'other', cmd: 'xvfb-run', args: ['-a', 'env', 'ENGINES=webkit', 'node', '--test', '--test-concurrency=1', ...ENGINE_FILES] },
  // Every other browser file in Chromium (the engines tests limited to it).
  { name: 'browser-chromium', lane: 'browser', cmd: 'env', args: ['ENGINES=chromium', 'node', '--test', '--test-concurrency=2', ...BROWSER.filter((f) => !TIMING.includes(f))] },
  // The Catch2 tests under ASan + UBSan, then the fuzzers: one build (build/fuzz), so one lane.
  { name: 'catch2-asan', lane: 'browser', build: 'asan', cmd: 'ctest', args: ['--test-dir', 'build/fuzz', '--output-on-failure', '-j2'] },
  // Each libFuzzer target over its seeds plus a fixed number of mutations (tools/fuzz.sh).
  { name: 'fuzz', lane: 'browser', build: 'fuzz', cmd: 'env', args: ['FUZZ_RUNS=5000', 'bash', 'tools/fuzz.sh'] },
  // Firefox last in this lane: CI's fresh clone measured the other lane at ~1210 s and this one at
  // ~845 s; Firefox's ~230 s here evens them.
  { name: 'browser-firefox', lane: 'browser', cmd: 'env', args: ['ENGINES=firefox', 'node', '--test', '--test-concurrency=1', ...ENGINE_FILES] },
  { name: 'browser-timing', lane: 'alone', cmd: 'env', args: ['ENGINES=chromium', 'node', '--test', '--test-concurrency=1', ...TIMING] },
  { name: 'browser-landing', lane: 'other', cmd: 'xvfb-run', args: ['-a', 'env', 'ENGINES=firefox,webkit', 'node', '--test', 'tests/browser/landing.test.mjs'] },
];

function run({ cmd, args }, stream) {
  return new Promise((resolve) => {
    let output = '';
    const child = spawn(cmd, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    for (const pipe of [child.stdout, child.stderr]) {
      pipe.on('data', (chunk) => {
        output += chunk;
        if (stream) process.stdout.write(chunk);
      });
    }
    child.on('close', (code) => resolve({ code, output }));
    child.on('error', (error) => resolve({ code: 1, output: String(error) }));
  });
}

// Counts from ctest ("N tests failed out of M") or node:test ("# pass N" / "# fail N").
function counts(output) {
  const ctest = output.match(/(\d+) tests failed out of (\d+)/);
  if (ctest) return { passed: Number(ctest[2]) - Number(ctest[1]), failed: Number(ctest[1]) };
  const pass = output.match(/^# pass (\d+)/m);
  const fail = output.match(/^# fail (\d+)/m);
  if (pass) return { passed: Number(pass[1]), failed: Number(fail?.[1] ?? 0) };
  return null;
}

const wanted = process.argv.slice(2);
const selected = wanted.length ? SUITES.filter((s) => wanted.includes(s.name)) : SUITES;
const results = new Map();

async function runSuite(suite, stream) {
  const title = `\n=== ${suite.name}: ${suite.cmd} ${suite.args.join(' ')}`;
  if (stream) console.log(title);
  const built = Date.now();
  if (suite.build) {
    const build = await run({ cmd: 'bash', args: ['tools/build.sh', suite.build] }, false);
    if (build.code !== 0) {
      process.stdout.write(`${title}\n${build.output}\nbuild ${suite.build} failed (exit ${build.code})\n`);
      results.set(suite.name, { ...suite, passed: 0, failed: 1, code: build.code, buildSeconds: (Date.now() - built) / 1000, seconds: 0 });
      return;
    }
  }
  const started = Date.now();
  const { code, output } = await run(suite, stream);
  if (!stream) process.stdout.write(`${title}\n${output}`);
  const seen = counts(output) ?? { passed: code === 0 ? 1 : 0, failed: code === 0 ? 0 : 1 };
  if (code !== 0 && seen.failed === 0) seen.failed = 1; // a crash with no failing test is a failure
  results.set(suite.name, { ...suite, ...seen, code, buildSeconds: (started - built) / 1000, seconds: (Date.now() - started) / 1000 });
}

async function runLane(lane, stream) {
  for (const suite of selected.filter((s) => s.lane === lane)) await runSuite(suite, stream);
}

const started = Date.now();
// The browser lane streams; the other lane's suites print as whole blocks when each one ends.
await Promise.all([runLane('browser', true), runLane('other', !selected.some((s) => s.lane === 'browser'))]);
await runLane('alone', true);

console.log('\n=== summary');
const ordered = selected.map((suite) => results.get(suite.name));
for (const r of ordered) {
  const build = r.build ? `  (build ${r.build} ${r.buildSeconds.toFixed(1)} s)` : '';
  console.log(`${r.code === 0 ? 'ok  ' : 'FAIL'} ${r.name.padEnd(16)} ${String(r.passed).padStart(5)} passed ${String(r.failed).padStart(4)} failed  ${r.seconds.toFixed(1)} s${build}`);
}
const passed = ordered.reduce((sum, r) => sum + r.passed, 0);
const failed = ordered.reduce((sum, r) => sum + r.failed, 0);
console.log(`tests: ${passed} passed, ${failed} failed, ${((Date.now() - started) / 1000).toFixed(1)} s`);
process.exit(ordered.every((r) => r.code === 0) ? 0 : 1);
