// The npm package as a user gets it: `npm pack`, then `npm install ./grpo-lab-*.tgz --offline` into
// an empty folder; there it is imported from an ES module and from TypeScript, runs a smoke
// experiment, answers `npx grpo-lab verify`, and serves the course page.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile, spawn } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { loadCore } from '../../web/core/index.js';
import { servedUrl } from './served-url.mjs';

const exec = promisify(execFile);
const root = fileURLToPath(new URL('../..', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'grpo-lab-package-'));
const app = join(dir, 'app');
test.after(() => rmSync(dir, { recursive: true, force: true }));

/** Runs a command; resolves {code, stdout, stderr} whatever its exit code. */
async function sh(cmd, args, options = {}) {
  try {
    const { stdout, stderr } = await exec(cmd, args, { timeout: 180000, maxBuffer: 64 << 20, ...options });
    return { code: 0, stdout, stderr };
  } catch (error) {
    return { code: error.code ?? 1, stdout: error.stdout ?? '', stderr: error.stderr ?? String(error) };
  }
}

const SMOKE = { profile: 'smoke', seed: 9, updates: 3 };
let tarball = null;

test('npm pack: the built WASM, the JS API, the types, the CLI and the course page; no runtime dependencies', async () => {
  const packed = await sh('npm', ['pack', '--json', '--pack-destination', dir], { cwd: root });
  assert.equal(packed.code, 0, packed.stderr);
  const [info] = JSON.parse(packed.stdout);
  tarball = join(dir, info.filename);
  assert.match(info.filename, /^grpo-lab-\d+\.\d+\.\d+\.tgz$/);
  const files = new Set(info.files.map((f) => f.path));
  for (const path of [
    'package.json', 'README.md', 'bin/grpo-lab.mjs', 'web/core/index.js', 'web/core/index.d.ts', 'web/core/grpo_core.js',
    'web/core/grpo_core.wasm', 'web/core/grpo_core_reference.js', 'web/core/grpo_core_reference.wasm', 'web/index.html', 'web/embed.html', 'web/js/page.js', 'web/js/training/worker.js',
    'web/vendor/chart.min.js', 'web/data/smoke-run.json', 'tools/serve.mjs', 'docs/api.md',
  ]) {
    assert.ok(files.has(path), `the tarball holds ${path}`);
  }
  for (const path of files) assert.doesNotMatch(path, /^(cpp|tests|fuzz|build|node_modules)\//, `${path} stays out of the package`);
  const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
  assert.equal(manifest.private, undefined);
  assert.deepEqual(Object.keys(manifest.dependencies ?? {}), [], 'no runtime dependencies');
  // Three builds of the core are most of it (single-thread, threaded, reference: ~0.9 MB gzip);
  // the bound catches a stray folder (build/, test-results/: tens of MB), not a task's few kB
  // (2.00 MB with the rewrite task, 2026-12-06).
  assert.ok(info.size < 2.2e6, `tarball ${info.size} bytes`);
});

test('npm install ./grpo-lab-*.tgz --offline into an empty folder; an ES module imports it and trains', async () => {
  assert.ok(tarball, 'packed');
  mkdirSync(app);
  writeFileSync(join(app, 'package.json'), JSON.stringify({ name: 'app', version: '1.0.0', private: true, type: 'module' }));
  copyFileSync(tarball, join(app, 'grpo-lab.tgz'));
  const installed = await sh('npm', ['install', './grpo-lab.tgz', '--offline', '--no-audit', '--no-fund'], { cwd: app });
  assert.equal(installed.code, 0, installed.stderr);
  assert.ok(existsSync(join(app, 'node_modules/grpo-lab/web/core/grpo_core.wasm')));
  assert.ok(existsSync(join(app, 'node_modules/.bin/grpo-lab')));

  writeFileSync(
    join(app, 'smoke.mjs'),
    "import { loadCore } from 'grpo-lab';\n" +
      'const core = await loadCore();\n' +
      `const run = core.runToyGrpoExperiment(${JSON.stringify(SMOKE)});\n` +
      "process.stdout.write(JSON.stringify({ p: core.informativeGroupProbability(0.5, 8), format: run.format, history: run.history }));\n",
  );
  const { code, stdout, stderr } = await sh(process.execPath, ['smoke.mjs'], { cwd: app });
  assert.equal(code, 0, stderr);
  const out = JSON.parse(stdout);
  assert.equal(out.p, 0.9921875);
  assert.equal(out.format, 'grpo-lab-run');
  // The installed package computes the same bytes as the repository's core.
  const here = (await loadCore()).runToyGrpoExperiment(SMOKE);
  assert.equal(JSON.stringify(out.history), JSON.stringify(here.history));
});

test('TypeScript imports grpo-lab from the installed package: tsc --strict, then the compiled example runs', async () => {
  assert.ok(existsSync(join(app, 'node_modules/grpo-lab')), 'installed');
  copyFileSync(join(root, 'tests/types/example.ts'), join(app, 'example.ts'));
  writeFileSync(
    join(app, 'tsconfig.json'),
    JSON.stringify({
      compilerOptions: { strict: true, target: 'es2022', lib: ['es2022'], module: 'nodenext', moduleResolution: 'nodenext', types: [], outDir: 'out' },
      files: ['example.ts'],
    }),
  );
  const compiled = await sh(join(root, 'node_modules/.bin/tsc'), ['-p', 'tsconfig.json'], { cwd: app });
  assert.equal(compiled.code, 0, compiled.stdout + compiled.stderr);
  const { code, stdout, stderr } = await sh(process.execPath, ['--input-type=module', '-e', "const m = await import('./out/example.js'); process.stdout.write(JSON.stringify(await m.main()));"], { cwd: app });
  assert.equal(code, 0, stderr);
  const result = JSON.parse(stdout);
  assert.equal(result.reference[0], 1, 'verifyNumericAnswer');
  assert.equal(result.reference[1], 0.9921875, 'informativeGroupProbability');
  assert.deepEqual(result.firstLoad, { pInfo: 0.9921875, seed: 9, trainer: false }, 'loadReferenceCore(): the reference build');
  assert.equal(result.updates, 3);
  assert.ok(result.methods.includes('grpoObjective'));
  assert.match(result.error, /^RangeError .*p: must be/);
});

test('npx grpo-lab verify answers in the installed folder (exit 0 correct, 1 not)', async () => {
  const ok = await sh('npx', ['--offline', 'grpo-lab', 'verify', 'Final: \\boxed{3/7}', '0.428571'], { cwd: app });
  assert.equal(ok.code, 0, ok.stderr);
  assert.match(ok.stdout, /^status: +correct$/m);
  const wrong = await sh('npx', ['--offline', 'grpo-lab', 'verify', 'the answer is 41', '42'], { cwd: app });
  assert.equal(wrong.code, 1);
  assert.match(wrong.stdout, /^status: +incorrect$/m);
});

test('the installed grpo-lab serves the course page: index.html, a module, the .wasm, their content types', async () => {
  const child = spawn(join(app, 'node_modules/.bin/grpo-lab'), ['serve', '--port', '0'], { cwd: app, stdio: ['ignore', 'pipe', 'pipe'] });
  try {
    const url = await servedUrl(child);
    const expected = {
      'index.html': 'text/html; charset=utf-8',
      'js/page.js': 'text/javascript; charset=utf-8',
      'core/grpo_core.wasm': 'application/wasm',
      'data/smoke-run.json': 'application/json; charset=utf-8',
    };
    for (const [path, type] of Object.entries(expected)) {
      const response = await fetch(new URL(path, url));
      assert.equal(response.status, 200, path);
      assert.equal(response.headers.get('content-type'), type, path);
      const body = new Uint8Array(await response.arrayBuffer());
      assert.deepEqual(body, new Uint8Array(readFileSync(join(app, 'node_modules/grpo-lab/web', path))), `${path} is the packaged file`);
    }
  } finally {
    child.kill();
  }
});
