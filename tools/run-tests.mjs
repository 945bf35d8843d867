// Runs every test suite in turn (Catch2 native, ASan+UBSan and WASM through ctest, node:test over
// the WASM API, browser tests in Chromium, the engines test in Firefox and WebKit, format check),
// prints each one's output, and ends with a summary: each suite's counts and time, then one line. Exits non-zero when any suite fails. Suite names as arguments pick some.
import { spawn } from 'node:child_process';

const SUITES = [
  { name: 'format', cmd: 'bash', args: ['tools/check-format.sh'] },
  { name: 'catch2-native', cmd: 'ctest', args: ['--test-dir', 'build/native', '--output-on-failure', '-j2'] },
  { name: 'catch2-asan', cmd: 'ctest', args: ['--test-dir', 'build/asan', '--output-on-failure', '-j2'] },
  // Each libFuzzer target over its seeds plus a fixed number of mutations (tools/fuzz.sh).
  { name: 'fuzz', cmd: 'env', args: ['FUZZ_RUNS=20000', 'bash', 'tools/fuzz.sh'] },
  { name: 'catch2-wasm', cmd: 'ctest', args: ['--test-dir', 'build/wasm', '--output-on-failure', '-j2'] },
  { name: 'node-api', cmd: 'node', args: ['--test', '--test-concurrency=2', 'tests/node/'] },
  // Every browser test in Chromium (the engines tests limited to it), then the engines, offline
  // engines and landing tests in Firefox and in WebKit (MiniBrowser needs an X display: xvfb-run
  // gives it one).
  { name: 'browser-chromium', cmd: 'env', args: ['ENGINES=chromium', 'node', '--test', '--test-concurrency=1', 'tests/browser/'] },
  { name: 'browser-firefox', cmd: 'env', args: ['ENGINES=firefox', 'node', '--test', '--test-concurrency=1', 'tests/browser/engines.test.mjs', 'tests/browser/offline-engines.test.mjs', 'tests/browser/landing.test.mjs'] },
  { name: 'browser-webkit', cmd: 'xvfb-run', args: ['-a', 'env', 'ENGINES=webkit', 'node', '--test', '--test-concurrency=1', 'tests/browser/engines.test.mjs', 'tests/browser/offline-engines.test.mjs', 'tests/browser/landing.test.mjs'] },
];

function run({ cmd, args }) {
  return new Promise((resolve) => {
    let output = '';
    const child = spawn(cmd, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    for (const stream of [child.stdout, child.stderr]) {
      stream.on('data', (chunk) => {
        output += chunk;
        process.stdout.write(chunk);
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
const results = [];
for (const suite of selected) {
  console.log(`\n=== ${suite.name}: ${suite.cmd} ${suite.args.join(' ')}`);
  const started = Date.now();
  const { code, output } = await run(suite);
  const seen = counts(output) ?? { passed: code === 0 ? 1 : 0, failed: code === 0 ? 0 : 1 };
  if (code !== 0 && seen.failed === 0) seen.failed = 1;  // a crash with no failing test is a failure
  results.push({ ...suite, ...seen, code, seconds: (Date.now() - started) / 1000 });
}

console.log('\n=== summary');
for (const r of results) {
  console.log(`${r.code === 0 ? 'ok  ' : 'FAIL'} ${r.name.padEnd(16)} ${String(r.passed).padStart(5)} passed ${String(r.failed).padStart(4)} failed  ${r.seconds.toFixed(1)} s`);
}
const passed = results.reduce((sum, r) => sum + r.passed, 0);
const failed = results.reduce((sum, r) => sum + r.failed, 0);
console.log(`tests: ${passed} passed, ${failed} failed`);
process.exit(results.every((r) => r.code === 0) ? 0 : 1);
