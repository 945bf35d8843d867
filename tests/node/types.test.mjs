// The TypeScript types of the public API (web/core/index.d.ts): a typed example that calls every
// method passes `tsc --noEmit --strict`, a mistyped call fails it, and every method the running
// core has (raw and wrapped) is declared.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { loadCore } from '../../web/core/index.js';

const run = promisify(execFile);
const root = fileURLToPath(new URL('../..', import.meta.url));
const TSC = join(root, 'node_modules/.bin/tsc');
const DTS = readFileSync(join(root, 'web/core/index.d.ts'), 'utf8');
const PACKAGE = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
const STRICT = ['--noEmit', '--strict', '--target', 'es2022', '--lib', 'es2022', '--module', 'nodenext', '--moduleResolution', 'nodenext', '--types', ''];

/** Runs tsc; resolves {code, output} (tsc prints its errors on stdout). */
async function tsc(args) {
  try {
    const { stdout, stderr } = await run(TSC, args, { cwd: root, timeout: 120000 });
    return { code: 0, output: stdout + stderr };
  } catch (error) {
    return { code: error.code ?? 1, output: `${error.stdout ?? ''}${error.stderr ?? ''}` };
  }
}

/** Member names of `export interface NAME [extends BASE] { ... }` in the .d.ts (two-space
 * indented members), with those of the interfaces it extends. */
function members(name) {
  const head = DTS.match(new RegExp(`export interface ${name}(?: extends (\\w+))? \\{`));
  assert.ok(head, `index.d.ts declares ${name}`);
  const body = DTS.slice(head.index, DTS.indexOf('\n}\n', head.index));
  const own = [...body.matchAll(/^ {2}(?:readonly )?(\w+)[?]?[(<:]/gm)].map((m) => m[1]);
  return new Set([...own, ...(head[1] ? members(head[1]) : [])]);
}

test('package.json points at the types, for the package and its "." export', () => {
  assert.equal(PACKAGE.types, './web/core/index.d.ts');
  assert.equal(PACKAGE.exports['.'].types, './web/core/index.d.ts');
  assert.equal(PACKAGE.exports['.'].default, './web/core/index.js');
});

test('the typed example that calls every method passes tsc --noEmit --strict (TypeScript 7)', async () => {
  const version = await tsc(['--version']);
  assert.match(version.output, /^Version 7\./);
  const { code, output } = await tsc(['-p', 'tests/types/tsconfig.json', '--noEmit', '--strict']);
  assert.equal(code, 0, output);
  // The example really calls every wrapped method (so the check covers each signature).
  const example = readFileSync(join(root, 'tests/types/example.ts'), 'utf8');
  for (const name of members('GrpoCore')) assert.match(example, new RegExp(`core\\.${name}\\b`), `example calls core.${name}`);
});

test('a mistyped call fails the check, naming the line and the types', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'grpo-lab-types-'));
  try {
    const file = join(dir, 'wrong.ts');
    const api = JSON.stringify(join(root, 'web/core/index.js'));
    writeFileSync(
      file,
      `import { loadCore } from ${api};\n` +
        'const core = await loadCore();\n' +
        "const p: string = core.informativeGroupProbability(0.5, 8);\n" +
        "core.experimentConfig({ lossType: 'ppo' });\n" +
        'export { p };\n',
    );
    const { code, output } = await tsc([...STRICT, file]);
    assert.notEqual(code, 0);
    assert.match(output, /wrong\.ts\(3,7\): error TS2322: Type 'number' is not assignable to type 'string'/);
    assert.match(output, /wrong\.ts\(4,\d+\): error TS2322: Type '"ppo"' is not assignable to type 'LossType/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('every method the core answers, and every property of the API object, is declared', async () => {
  const core = await loadCore();
  const raw = members('CoreMethods');
  const missingRaw = core.methods().filter((name) => !raw.has(name));
  assert.deepEqual(missingRaw, [], `core.methods() names methods index.d.ts (CoreMethods) does not declare: ${missingRaw.join(', ')}`);
  const api = members('GrpoCore');
  const missingApi = Object.keys(core).filter((name) => !api.has(name));
  assert.deepEqual(missingApi, [], `the API object has methods index.d.ts (GrpoCore) does not declare: ${missingApi.join(', ')}`);
  // Each declared raw method's result type is what call() returns: spot-check two.
  assert.deepEqual(Object.keys(core.call('version', {})).sort(), ['core', 'scalar']);
  assert.deepEqual(Object.keys(core.call('memoryStats', {})), ['heapInUse']);
});

test('the config type has every field of the config table, and grpoObjective\'s result type every key', async () => {
  const core = await loadCore();
  const declared = members('ExperimentConfig');
  const fields = core.configSchema().fields.map((f) => f.name);
  assert.deepEqual(fields.filter((name) => !declared.has(name)), [], 'config fields index.d.ts (ExperimentConfig) does not declare');
  assert.deepEqual([...declared].filter((name) => !fields.includes(name)), [], 'declared config members the table does not have');
  const r = core.grpoObjective({ rewardsPerFunc: [[1, 0], [0, 1]], groupSize: 2, logProbs: [[-1], [-2]] });
  for (const [name, keys] of [['GrpoObjective', Object.keys(r)], ['GrpoObjectiveResolved', Object.keys(r.config)], ['GrpoObjectiveMetrics', Object.keys(r.metrics)]]) {
    const has = members(name);
    assert.deepEqual(keys.filter((key) => !has.has(key)), [], `${name} lacks keys grpoObjective returns`);
  }
});
