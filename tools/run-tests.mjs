// Runs every test suite (Catch2 native, ASan+UBSan and WASM through ctest, fuzz, node:test over
// the WASM API, browser tests in Chromium, the engines tests in Firefox and WebKit, format check),
// prints each one's output, and ends with a summary: each suite's counts and time, then one line.
// Exits non-zero when any suite fails. Suite names as arguments pick some.
//
// Lanes share the 2 cores, then the timing files run alone:
// - browser: fuzz, then Chromium's files (two at a time);
// - other: Node's files, then WebKit's, then Firefox's. (A third lane for WebKit, beside the
//   others from the start, made every lane slower: WebKit's suite is computation too, ~260
//   CPU-seconds alone, and the whole run went from ~940 to ~1040 s.)
// - idle: the Catch2 suites (native, WASM, ASan + UBSan) and Node's files of pure computation
//   (lessons, verdicts, losses): no clock or timeout in any check, run from the start at the
//   scheduler's idle class (SCHED_IDLE). They take only the cycles no other process wants (the
//   lanes' waits), and finish before the timing files start: beside them, even at the idle class,
//   phone.test's #real-model landed 27 px off its heading once (the view keeper under load);
// - alone, after the three lanes: the timing files (main-thread task lengths, Lighthouse, Stop
//   within 1 s), one at a time.
// A suite with a `build` first runs `tools/build.sh <build>` in its lane, so a fresh clone compiles
// the native, sanitizer and WASM test builds while the browsers test the page (only the site is
// built before). A suite that ran beside another prints its output as one block when it ends.
import { spawn, spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';

// Browser files that measure time (task lengths, Lighthouse, Stop within 1 s, a heading that
// stays put after 3.5 s, the first load's tasks, the scratch task's smoke run under 10 s): alone,
// one file at a time, nothing else on the machine.
const TIMING = ['hostile', 'lighthouse', 'training-timing', 'compare-link', 'landing', 'phone', 'first-load', 'scratch-smoke'].map((name) => `tests/browser/${name}.test.mjs`);
const BROWSER = readdirSync('tests/browser').filter((f) => f.endsWith('.test.mjs')).map((f) => `tests/browser/${f}`);
// The engines, offline engines, deploy and step inspector tests in Firefox and in WebKit (MiniBrowser
// needs an X display: xvfb-run gives it one); their landing test runs alone, as a timing file.
const ENGINE_FILES = ['engines', 'offline-engines', 'offline-updates', 'inspector'].map((name) => `tests/browser/${name}.test.mjs`);

// Node files of pure computation (many runs; no clock or timeout in any check): the idle lane's. The rest of tests/node (clocks, CLIs, servers) is node-api's.
const NODE_IDLE = ['verdicts-matrix', 'lessons', 'trl-losses', 'pass-at-k-history', 'lesson-gallery', 'stale-sampler', 'trl-none', 'memory']
  .map((name) => `tests/node/${name}.test.mjs`);
const NODE = readdirSync('tests/node').filter((f) => f.endsWith('.test.mjs')).map((f) => `tests/node/${f}`);

const SUITES = [
  { name: 'format', lane: 'other', cmd: 'bash', args: ['tools/check-format.sh'] },
  { name: 'catch2-native', lane: 'idle', build: 'native-tests', cmd: 'ctest', args: ['--test-dir', 'build/native', '--output-on-failure', '-j2'] },
  { name: 'node-compute', lane: 'idle', cmd: 'node', args: ['--test', '--test-concurrency=2', ...NODE_IDLE] },
  { name: 'catch2-wasm', lane: 'idle', build: 'wasm-tests', cmd: 'ctest', args: ['--test-dir', 'build/wasm', '--output-on-failure', '-j2'] },
  // The Catch2 tests under ASan + UBSan, after the fuzzers: one build (build/fuzz), never two at once.
  { name: 'catch2-asan', lane: 'idle', after: 'fuzz', build: 'asan', cmd: 'ctest', args: ['--test-dir', 'build/fuzz', '--output-on-failure', '-j2'] },
  { name: 'node-api', lane: 'other', cmd: 'node', args: ['--test', '--test-concurrency=2', ...NODE.filter((f) => !NODE_IDLE.includes(f))] },
  { name: 'browser-webkit', lane: 'other', cmd: 'xvfb-run', args: ['-a', 'env', 'ENGINES=webkit', 'node', '--test', '--test-concurrency=1', ...ENGINE_FILES] },
  { name: 'browser-firefox', lane: 'other', cmd: 'env', args: ['ENGINES=firefox', 'node', '--test', '--test-concurrency=1', ...ENGINE_FILES] },
  // Each libFuzzer target over its seeds plus a fixed number of mutations (tools/fuzz.sh): first in
  // its lane, as its build (build/fuzz) is also the ASan suite's, which waits for it. Not in the
  // idle lane: libFuzzer's -timeout is wall-clock time.
  { name: 'fuzz', lane: 'browser', build: 'fuzz', cmd: 'env', args: ['FUZZ_RUNS=5000', 'bash', 'tools/fuzz.sh'] },
  // Every other browser file in Chromium (the engines tests limited to it).
  { name: 'browser-chromium', lane: 'browser', cmd: 'env', args: ['ENGINES=chromium', 'node', '--test', '--test-concurrency=2', ...BROWSER.filter((f) => !TIMING.includes(f))] },
  { name: 'browser-timing', lane: 'alone', cmd: 'env', args: ['ENGINES=chromium', 'node', '--test', '--test-concurrency=1', ...TIMING] },
  { name: 'browser-landing', lane: 'alone', cmd: 'xvfb-run', args: ['-a', 'env', 'ENGINES=firefox,webkit', 'node', '--test', 'tests/browser/landing.test.mjs'] },
];

// The idle lane's command prefix: SCHED_IDLE where the system allows it (chrt, util-linux), else
// the lowest nice level.
const IDLE = spawnSync('chrt', ['--idle', '0', 'true']).status === 0 ? ['chrt', '--idle', '0'] : ['nice', '-n', '19'];

function run({ cmd, args, lane }, stream) {
  return new Promise((resolve) => {
    let output = '';
    const [file, ...rest] = lane === 'idle' ? [...IDLE, cmd, ...args] : [cmd, ...args];
    const child = spawn(file, rest, { stdio: ['ignore', 'pipe', 'pipe'] });
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
    const build = await run({ cmd: 'bash', args: ['tools/build.sh', suite.build], lane: suite.lane }, false);
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

// Each selected suite's end, for a suite that waits for another (`after`; one not selected is done).
const ends = new Map(selected.map((suite) => {
  let resolve;
  return [suite.name, { promise: new Promise((r) => (resolve = r)), resolve: () => resolve() }];
}));

async function runLane(lane, stream) {
  for (const suite of selected.filter((s) => s.lane === lane)) {
    await ends.get(suite.after)?.promise;
    await runSuite(suite, stream);
    ends.get(suite.name).resolve();
  }
}

const started = Date.now();
// The first lane with a selected suite streams; the others' suites print as blocks as each ends.
const lanes = ['browser', 'other', 'idle'].filter((lane) => selected.some((s) => s.lane === lane));
const idle = runLane('idle', lanes[0] === 'idle');
await Promise.all(lanes.filter((lane) => lane !== 'idle').map((lane) => runLane(lane, lane === lanes[0])));
await idle;
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
