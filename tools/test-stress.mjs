// The no-flake check (issue 28): the browser suites, 3 runs in a row, under a busy loop on every
// core that this script starts and stops itself. Exits 1 when any run fails.
//   node tools/test-stress.mjs [runs] [suite ...]   (npm run test:stress; default 3 runs, the browser suites)
import { spawn } from 'node:child_process';
import { availableParallelism } from 'node:os';

const [runsArg, ...suiteArgs] = process.argv.slice(2);
const RUNS = Number(runsArg ?? 3);
const SUITES = suiteArgs.length ? suiteArgs : ['browser-chromium', 'browser-firefox', 'browser-webkit', 'browser-timing', 'browser-landing'];

const busy = Array.from({ length: availableParallelism() }, () => spawn(process.execPath, ['-e', 'for (;;) {}'], { stdio: 'ignore' }));
const stopBusy = () => busy.forEach((child) => child.kill('SIGKILL'));
process.on('exit', stopBusy);
process.on('SIGINT', () => process.exit(130));

const outcomes = [];
for (let run = 1; run <= RUNS; run++) {
  const started = Date.now();
  const code = await new Promise((resolve) => {
    const child = spawn(process.execPath, ['tools/run-tests.mjs', ...SUITES], { stdio: 'inherit' });
    child.on('close', resolve);
  });
  outcomes.push({ run, code, seconds: (Date.now() - started) / 1000 });
  console.log(`\n=== stress run ${run}/${RUNS} under ${busy.length} busy loops: ${code === 0 ? 'ok' : 'FAIL'} in ${outcomes.at(-1).seconds.toFixed(0)} s`);
}
stopBusy();
console.log('\n=== stress summary');
for (const o of outcomes) console.log(`${o.code === 0 ? 'ok  ' : 'FAIL'} run ${o.run}  ${o.seconds.toFixed(0)} s`);
process.exit(outcomes.every((o) => o.code === 0) ? 0 : 1);
