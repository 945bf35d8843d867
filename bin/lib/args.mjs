// Command-line flags of `grpo-lab`: parses `--name value` / `--name=value` against a small spec
// and turns every mistake into a UsageError that names the flag and its allowed values (exit 2).
import { accessSync, constants, statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';

/** A caller mistake on the command line: printed with the command's usage hint, exit code 2. */
export class UsageError extends Error {
  constructor(message) {
    super(message);
    this.name = 'UsageError';
    this.exitCode = 2;
  }
}

const shown = (value) => JSON.stringify(value);

/** Checks one flag's text against its spec ({kind: enum|int|path|text, options, min, max}). */
function readValue(name, spec, text) {
  if (spec.kind === 'enum') {
    if (!spec.options.includes(text)) {
      throw new UsageError(`--${name}: must be one of ${spec.options.join(', ')}, got ${shown(text)}`);
    }
    return text;
  }
  if (spec.kind === 'int') {
    const value = /^[+-]?\d+$/.test(text) ? Number(text) : NaN;
    if (!Number.isSafeInteger(value) || value < spec.min || value > spec.max) {
      throw new UsageError(`--${name}: must be an integer in [${spec.min}, ${spec.max}], got ${shown(text)}`);
    }
    return value;
  }
  if (text === '') throw new UsageError(`--${name}: must not be empty`);
  return text;
}

/**
 * Parses argv for one command. spec.flags: {name: {kind (enum|int|bool|path|text), options?, min?, max?, repeat?, default?}};
 * spec.positionals: names of the required positional arguments. Returns {help, flags, positionals}.
 * `--` ends the flags (a TEXT that starts with "--" can follow it).
 */
export function parseArgs(argv, spec) {
  const flags = {};
  for (const [name, flag] of Object.entries(spec.flags ?? {})) {
    flags[name] = flag.repeat ? [] : flag.kind === 'bool' ? Boolean(flag.default) : flag.default;
  }
  const positionals = [];
  let help = false;
  let onlyPositionals = false;
  for (let i = 0; i < argv.length; i += 1) {
    const arg = argv[i];
    if (onlyPositionals || !arg.startsWith('-') || arg === '-') {
      positionals.push(arg);
      continue;
    }
    if (arg === '--') {
      onlyPositionals = true;
      continue;
    }
    if (arg === '-h' || arg === '--help') {
      help = true;
      continue;
    }
    const match = /^--([a-z][a-z-]*)(?:=(.*))?$/s.exec(arg);
    const name = match?.[1];
    const flag = name ? spec.flags?.[name] : undefined;
    if (!flag) {
      const known = Object.keys(spec.flags ?? {}).map((n) => `--${n}`);
      throw new UsageError(`unknown flag ${arg}; allowed: ${[...known, '--help'].join(', ')}`);
    }
    let text = match[2];
    if (flag.kind === 'bool') {
      if (text !== undefined) throw new UsageError(`--${name}: takes no value, got ${shown(text)}`);
      flags[name] = true;
      continue;
    }
    if (text === undefined) {
      if (i + 1 >= argv.length) throw new UsageError(`--${name}: needs a value (${describe(flag)})`);
      i += 1;
      text = argv[i];
    }
    const value = readValue(name, flag, text);
    if (flag.repeat) flags[name].push(value);
    else flags[name] = value;
  }
  if (help) return { help, flags, positionals };
  const wanted = spec.positionals ?? [];
  if (positionals.length < wanted.length) {
    throw new UsageError(`missing ${wanted.slice(positionals.length).map((p) => p.toUpperCase()).join(' ')}`);
  }
  if (positionals.length > wanted.length) {
    throw new UsageError(`unexpected argument ${shown(positionals[wanted.length])}` + (wanted.length ? ` (takes ${wanted.map((p) => p.toUpperCase()).join(' ')})` : ' (takes no arguments)'));
  }
  for (const [name, flag] of Object.entries(spec.flags ?? {})) {
    if (flag.required && flags[name] === undefined) throw new UsageError(`--${name} is required (${describe(flag)})`);
  }
  return { help, flags, positionals };
}

/** "smoke|full", "integer in [0, 9]", "FILE": for usage lines and messages. */
export function describe(flag) {
  if (flag.kind === 'enum') return flag.options.join('|');
  if (flag.kind === 'int') return `integer in [${flag.min}, ${flag.max}]`;
  if (flag.kind === 'bool') return '';
  return flag.meta ?? 'TEXT';
}

/** Fails before any work when `file` (the value of --flag) cannot be written: its folder is missing or read-only, or it is a folder. */
export function checkWritableFile(flag, file) {
  const path = resolve(file);
  if (statSync(path, { throwIfNoEntry: false })?.isDirectory()) throw new UsageError(`--${flag} ${file}: is a folder, not a file`);
  try {
    accessSync(dirname(path), constants.W_OK);
  } catch (error) {
    throw new UsageError(`--${flag} ${file}: cannot write there (${error.code === 'ENOENT' ? 'no such folder' : error.code})`);
  }
}
