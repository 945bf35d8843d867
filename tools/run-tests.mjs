// Runs every test suite (Catch2 native, ASan+UBSan and WASM through ctest, fuzz, node:test over
// the WASM API, browser tests in Chromium, the engines tests in Firefox and WebKit, format check),
// prints each one's output, and ends with a summary: each suite's counts, time and CPU time, then
// one line.
// Exits non-zero when any suite fails. Suite names as arguments pick some.
//
// Two runners share the 2 cores, each taking the next suite (longest first) as its last ends:
// Chromium's files (two at a time), Node's, WebKit's, Firefox's, the ASan + UBSan tests then fuzz
// (one build), the WASM and native Catch2 suites, the landing test in Firefox and WebKit. Then the
// timing files (they assert main-thread task lengths, Lighthouse scores or Stop within 1 s) run
// alone. Until 2026-12-07 two fixed lanes held these; they ended up to ~100 s apart once the WASM
// suite shrank. Moving the landing files (landing, phone) out of the alone part took a fresh clone
// from 1138 s to 1035 s (fresh26, 2026-12-06); the runners are CPU-bound (vmstat: idle ~0 %), so
// only less computation shortens them. A suite with a `build` first runs `tools/build.sh <build>`,
// so a fresh clone compiles the native, sanitizer and WASM test builds while the browsers test the
// page (only the site is built before).
// Tried and measured (2026-12-06, fresh clones): a third lane at SCHED_IDLE (`chrt --idle 0`)
// beside the timing files, which leave ~45 % of the CPU idle. With the Catch2 suites and Node's
// pure-computation files in it: 943 s instead of ~1006, but a phone landing missed its heading
// beside it (since fixed: the page's end had no room, css/main.css); made to end before them,
// 1234 s; beside them again (fresh21), 1098 s, its ~300 CPU-s starved until after the timing
// files. With ASan and fuzz alone in it (~100 CPU-s, fresh27): 1008 s against fresh26's 991, the
// lanes no shorter and the timing files 12 s slower beside it. Not used.
import { spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';

/** CPU seconds the whole machine has been busy (/proc/stat: all but idle and iowait), or null. */
function machineBusySeconds() {
  try {
    const [, ...ticks] = readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/).map(Number);
    return (ticks.reduce((a, b) => a + b, 0) - ticks[3] - ticks[4]) / 100; // USER_HZ is 100 on Linux
  } catch {
    return null;
  }
}

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

// Chromium's headless build (Debian's chromium-headless-shell, the one Playwright itself runs
// headless): the same Blink and V8 without the browser's UI services. Its page loads cost ~40 %
// less CPU than the full browser's under --headless (2026-12-07: 5 launches with a whole course
// page each, 14.4 CPU-s against 24.2; the full browser's main thread and autofill's form parsing
// were the difference). The timing files keep the full browser, the one a reader runs.
const HEADLESS_SHELL = process.env.CHROMIUM_HEADLESS_PATH ?? '/usr/bin/chromium-headless-shell';

// Longest first (fresh26's times): two runners take the next suite as each one ends (runTwo).
const SUITES = [
  // Every other browser file in Chromium (the engines tests limited to it).
  { name: 'browser-chromium', cmd: 'env', args: ['ENGINES=chromium', `CHROMIUM_PATH=${HEADLESS_SHELL}`, 'node', '--test', '--test-concurrency=2', ...BROWSER.filter((f) => !TIMING.includes(f))] },
  { name: 'node-api', cmd: 'node', args: ['--test', '--test-concurrency=2', 'tests/node/'] },
  { name: 'browser-webkit', cmd: 'xvfb-run', args: ['-a', 'env', 'ENGINES=webkit', 'node', '--test', '--test-concurrency=1', ...ENGINE_FILES] },
  { name: 'browser-firefox', cmd: 'env', args: ['ENGINES=firefox', 'node', '--test', '--test-concurrency=1', ...ENGINE_FILES] },
  // The Catch2 tests under ASan + UBSan, then the fuzzers: one build (build/fuzz), one at a time.
  { name: 'catch2-asan', build: 'asan', cmd: 'ctest', args: ['--test-dir', 'build/fuzz', '--output-on-failure', '-j2'] },
  // Each libFuzzer target over its seeds plus a fixed number of mutations (tools/fuzz.sh).
  { name: 'fuzz', after: 'catch2-asan', build: 'fuzz', cmd: 'env', args: ['FUZZ_RUNS=5000', 'bash', 'tools/fuzz.sh'] },
  // All the cases in one Node process (CMakeLists.txt, label whole); -V shows Catch2's counts.
  { name: 'catch2-wasm', build: 'wasm-tests', cmd: 'ctest', args: ['--test-dir', 'build/wasm', '-L', 'whole', '-V'], counts: 'catch2' },
  { name: 'catch2-native', build: 'native-tests', cmd: 'ctest', args: ['--test-dir', 'build/native', '--output-on-failure', '-j2'] },
  { name: 'browser-landing', cmd: 'xvfb-run', args: ['-a', 'env', 'ENGINES=firefox,webkit', 'node', '--test', 'tests/browser/landing.test.mjs'] },
  { name: 'format', cmd: 'bash', args: ['tools/check-format.sh'] },
  { name: 'browser-timing', alone: true, cmd: 'env', args: ['ENGINES=chromium', 'node', '--test', '--test-concurrency=1', ...TIMING] },
];

// Each command runs under bash, whose `times` then writes on fd 3 the CPU time of the command
// and of every process reaped along its chain of parents: the summary's cpu column. It leaves out
// what a browser's helper processes spend when they are reaped elsewhere (Chromium's renderers):
// fresh47's column summed to 1552 s while the machine was busy 3280 CPU-s (vmstat). The last
// line also gives the machine's own count (/proc/stat), which misses nothing.
const TIMED = '"$@" 3>&-; rc=$?; times >&3; exit $rc';

/** CPU seconds of the children in bash's `times` output (its second line: user, then system). */
function childCpuSeconds(times) {
  const line = times.trim().split('\n')[1] ?? '';
  const seconds = [...line.matchAll(/(\d+)m([\d.]+)s/g)].map(([, m, s]) => 60 * Number(m) + Number(s));
  return seconds.length === 2 ? seconds[0] + seconds[1] : null;
}

function run({ cmd, args }, stream) {
  return new Promise((resolve) => {
    let output = '';
    let times = '';
    const child = spawn('bash', ['-c', TIMED, 'timed', cmd, ...args], { stdio: ['ignore', 'pipe', 'pipe', 'pipe'] });
    for (const pipe of [child.stdout, child.stderr]) {
      pipe.on('data', (chunk) => {
        output += chunk;
        if (stream) process.stdout.write(chunk);
      });
    }
    child.stdio[3].on('data', (chunk) => (times += chunk));
    child.on('close', (code) => resolve({ code, output, cpuSeconds: childCpuSeconds(times) }));
    child.on('error', (error) => resolve({ code: 1, output: String(error), cpuSeconds: null }));
  });
}

// Counts from Catch2 ("All tests passed (A assertions in N test cases)" / "test cases: N | P
// passed | F failed"), ctest ("N tests failed out of M") or node:test ("# pass N" / "# fail N").
function counts(raw, kind) {
  const output = raw.replace(/\x1b\[[0-9;]*m/g, ''); // Catch2 colours its summary even into a pipe
  if (kind === 'catch2') {
    const passedAll = output.match(/All tests passed \(\d+ assertions? in (\d+) test cases?\)/);
    if (passedAll) return { passed: Number(passedAll[1]), failed: 0 };
    const some = output.match(/test cases:\s*\d+\s*\|\s*(\d+) passed\s*\|\s*(\d+) failed/);
    if (some) return { passed: Number(some[1]), failed: Number(some[2]) };
    const none = output.match(/test cases:\s*\d+\s*\|\s*(\d+) failed/);
    if (none) return { passed: 0, failed: Number(none[1]) };
  }
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
  let buildCpu = null;
  if (suite.build) {
    const build = await run({ cmd: 'bash', args: ['tools/build.sh', suite.build] }, false);
    if (build.code !== 0) {
      process.stdout.write(`${title}\n${build.output}\nbuild ${suite.build} failed (exit ${build.code})\n`);
      results.set(suite.name, { ...suite, passed: 0, failed: 1, code: build.code, buildSeconds: (Date.now() - built) / 1000, buildCpu: build.cpuSeconds, seconds: 0 });
      return;
    }
    buildCpu = build.cpuSeconds;
  }
  const started = Date.now();
  const { code, output, cpuSeconds } = await run(suite, stream);
  if (!stream) process.stdout.write(`${title}\n${output}`);
  const seen = counts(output, suite.counts) ?? { passed: code === 0 ? 1 : 0, failed: code === 0 ? 0 : 1 };
  if (code !== 0 && seen.failed === 0) seen.failed = 1; // a crash with no failing test is a failure
  results.set(suite.name, { ...suite, ...seen, code, buildSeconds: (started - built) / 1000, seconds: (Date.now() - started) / 1000, cpuSeconds, buildCpu });
}

/**
 * Runs `suites` on two runners: each takes the first suite not yet taken whose `after` has ended,
 * so neither waits while the other has a long queue (fixed lanes ended up to ~100 s apart). The
 * first runner streams its output; the second prints each suite whole when it ends.
 */
async function runTwo(suites) {
  const waiting = [...suites];
  const ended = new Set(SUITES.filter((s) => !suites.includes(s)).map((s) => s.name)); // not run here: no wait
  const wakers = [];
  const next = () => waiting.findIndex((s) => !s.after || ended.has(s.after));
  async function runner(stream) {
    while (waiting.length) {
      const i = next();
      if (i < 0) {
        await new Promise((resolve) => wakers.push(resolve)); // only a suite's `after` is left: wait for it
        continue;
      }
      const [suite] = waiting.splice(i, 1);
      await runSuite(suite, stream);
      ended.add(suite.name);
      wakers.splice(0).forEach((wake) => wake());
    }
  }
  await Promise.all([runner(true), runner(false)]);
}

const started = Date.now();
const busyAtStart = machineBusySeconds();
await runTwo(selected.filter((s) => !s.alone));
for (const suite of selected.filter((s) => s.alone)) await runSuite(suite, true);

console.log('\n=== summary');
const ordered = selected.map((suite) => results.get(suite.name));
for (const r of ordered) {
  const buildCpu = r.buildCpu == null ? '' : `, cpu ${r.buildCpu.toFixed(0)} s`;
  const build = r.build ? `  (build ${r.build} ${r.buildSeconds.toFixed(1)} s${buildCpu})` : '';
  const cpu = r.cpuSeconds == null ? '' : `  cpu ${r.cpuSeconds.toFixed(0)} s`;
  console.log(`${r.code === 0 ? 'ok  ' : 'FAIL'} ${r.name.padEnd(16)} ${String(r.passed).padStart(5)} passed ${String(r.failed).padStart(4)} failed  ${r.seconds.toFixed(1)} s${cpu}${build}`);
}
const passed = ordered.reduce((sum, r) => sum + r.passed, 0);
const failed = ordered.reduce((sum, r) => sum + r.failed, 0);
const cpuTotal = ordered.reduce((sum, r) => sum + (r.cpuSeconds ?? 0) + (r.buildCpu ?? 0), 0);
const busy = busyAtStart === null ? null : machineBusySeconds() - busyAtStart;
const machine = busy === null ? '' : `; the machine busy ${busy.toFixed(0)} CPU-s`;
console.log(`tests: ${passed} passed, ${failed} failed, ${((Date.now() - started) / 1000).toFixed(1)} s (cpu ${cpuTotal.toFixed(0)} s in the suites and their builds${machine})`);
process.exit(ordered.every((r) => r.code === 0) ? 0 : 1);
