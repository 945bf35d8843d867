// Writes tests/fixtures/verl-v0.7.0-ppo-trainer-paths.json: every dotted key path (leaf and
// intermediate) of verl v0.7.0's verl/trainer/config/_generated_ppo_trainer.yaml, the flattened
// config `python3 -m verl.trainer.main_ppo` reads, so that tests can check each Hydra override
// section 9 writes (web/js/training/verl-launch.js) against the file itself.
//
//   node tools/verl-paths.mjs GIT_DIR            read the yaml from a clone of volcengine/verl
//   node tools/verl-paths.mjs --yaml FILE        or from a copy of the file
//
// No YAML library is installed: this is an indentation-based reader sufficient for that file
// (block mappings of `key: value` / `key:` lines, quoted keys such as 'n', `- item` lists, a
// flow scalar continued on a more indented line). Any other line is an error, not a guess.
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export const VERL_TAG = 'v0.7.0';
export const VERL_COMMIT = 'f9c855f7cf04d603c9546bc01776c74806a879c1';
export const YAML_PATH = 'verl/trainer/config/_generated_ppo_trainer.yaml';

const KEY = /^(?:'([^']+)'|"([^"]+)"|([A-Za-z_][\w.-]*)):(?:\s+(.*))?$/;

/**
 * The file's key paths, in file order: {paths: ["a", "a.b", ...], leaves: {"a.b": "raw value"}}.
 * `leaves` holds each scalar key's value text as written (lists as "[...]" of their items).
 */
export function flattenYaml(text) {
  const paths = [];
  const leaves = {};
  const stack = []; // [{indent, path}] of the open mappings
  let last = null; // {indent, path, value} of the previous key line
  const lines = text.split('\n');
  for (const [i, raw] of lines.entries()) {
    const line = raw.replace(/\s+$/, '');
    if (line.trim() === '' || line.trim().startsWith('#')) continue;
    const indent = line.length - line.trimStart().length;
    const body = line.trimStart();
    if (body.startsWith('- ')) {
      // A list item of the last key (which opened no mapping: its value is the list).
      if (!last || last.value !== '' || indent < last.indent) throw new Error(`line ${i + 1}: a list item outside a list: ${raw}`);
      const item = body.slice(2).trim();
      leaves[last.path] = leaves[last.path] === '' ? `[${item}]` : `${leaves[last.path].slice(0, -1)}, ${item}]`;
      continue;
    }
    const match = KEY.exec(body);
    if (!match) {
      // A flow scalar continued on the next, more indented line.
      if (last && last.value !== '' && indent > last.indent) {
        leaves[last.path] = `${leaves[last.path]} ${body}`;
        continue;
      }
      throw new Error(`line ${i + 1}: not a key line: ${raw}`);
    }
    while (stack.length && stack[stack.length - 1].indent >= indent) stack.pop();
    const key = match[1] ?? match[2] ?? match[3];
    const path = stack.length ? `${stack[stack.length - 1].path}.${key}` : key;
    if (leaves[path] !== undefined || paths.includes(path)) throw new Error(`line ${i + 1}: ${path} twice`);
    paths.push(path);
    const value = (match[4] ?? '').trim();
    leaves[path] = value;
    last = { indent, path, value };
    if (value === '') stack.push({ indent, path }); // a mapping or a list follows
  }
  // Keys that opened a mapping are not leaves.
  for (const path of paths) if (paths.some((p) => p.startsWith(`${path}.`))) delete leaves[path];
  return { paths, leaves };
}

function main(argv) {
  let text;
  let source;
  if (argv[0] === '--yaml' && argv[1]) {
    text = readFileSync(argv[1], 'utf8');
    source = `a copy of ${YAML_PATH} (${argv[1]})`;
  } else if (argv[0]) {
    const commit = execFileSync('git', ['--git-dir', argv[0], 'rev-parse', `${VERL_TAG}^{commit}`], { encoding: 'utf8' }).trim();
    if (commit !== VERL_COMMIT) throw new Error(`${VERL_TAG} is ${commit} in ${argv[0]}, expected ${VERL_COMMIT}`);
    text = execFileSync('git', ['--git-dir', argv[0], 'show', `${VERL_TAG}:${YAML_PATH}`], { encoding: 'utf8', maxBuffer: 1 << 24 });
    source = `git show ${VERL_TAG}:${YAML_PATH} in a clone of github.com/volcengine/verl`;
  } else {
    console.error('usage: node tools/verl-paths.mjs GIT_DIR | --yaml FILE');
    return 2;
  }
  const { paths, leaves } = flattenYaml(text);
  const out = fileURLToPath(new URL('../tests/fixtures/verl-v0.7.0-ppo-trainer-paths.json', import.meta.url));
  const file = {
    header: {
      repository: 'github.com/volcengine/verl',
      tag: VERL_TAG,
      commit: VERL_COMMIT,
      file: YAML_PATH,
      readFrom: source,
      madeBy: 'node tools/verl-paths.mjs (an indentation-based flattener of that file; every key line is one path, leaf and intermediate)',
      lines: text.split('\n').length,
    },
    paths,
    leaves,
  };
  writeFileSync(out, `${JSON.stringify(file, null, 1)}\n`);
  console.log(`verl-paths: ${paths.length} paths (${Object.keys(leaves).length} leaves) from ${YAML_PATH} at ${VERL_TAG} -> ${out}`);
  return 0;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) process.exitCode = main(process.argv.slice(2));
