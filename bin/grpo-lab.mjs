#!/usr/bin/env node
// The `grpo-lab` command: the course's core without a browser (notebook, verify, train, serve).
// Exit codes: 0 success (verify: correct), 1 failure (verify: not correct), 2 bad input.
import { readFileSync } from 'node:fs';
import { loadCore } from '../web/core/index.js';
import { UsageError, parseArgs } from './lib/args.mjs';
import notebook from './lib/cmd-notebook.mjs';
import verify from './lib/cmd-verify.mjs';
import train from './lib/cmd-train.mjs';
import serve from './lib/cmd-serve.mjs';

const COMMANDS = [notebook, verify, train, serve];
const { version } = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));

function mainHelp() {
  const width = Math.max(...COMMANDS.map((c) => c.name.length));
  return `grpo-lab ${version}: GRPO Lab's WebAssembly core on the command line

Usage: grpo-lab COMMAND [flags]   (grpo-lab COMMAND --help for its flags)

Commands:
${COMMANDS.map((c) => `  ${c.name.padEnd(width)}  ${c.summary}`).join('\n')}

  --version  print the version
  --help     print this help
`;
}

/** Runs one command line; returns the exit code (streams injectable for tests). */
export async function main(argv, { stdout = process.stdout, stderr = process.stderr } = {}) {
  const [name, ...rest] = argv;
  if (name === undefined || name === '--help' || name === '-h' || name === 'help') {
    (name === undefined ? stderr : stdout).write(mainHelp());
    return name === undefined ? 2 : 0;
  }
  if (name === '--version' || name === '-v') {
    stdout.write(`${version}\n`);
    return 0;
  }
  const command = COMMANDS.find((c) => c.name === name);
  if (!command) {
    stderr.write(`grpo-lab: unknown command "${name}"; commands: ${COMMANDS.map((c) => c.name).join(', ')}\nRun "grpo-lab --help" for usage.\n`);
    return 2;
  }
  try {
    const parsed = parseArgs(rest, command.spec);
    if (parsed.help) {
      stdout.write(`Usage: ${command.usage}\n\n${command.help}\n`);
      return 0;
    }
    const core = command.needsCore === false ? null : await loadCore();
    return await command.run(parsed, { core, stdout, stderr });
  } catch (error) {
    const input = error instanceof UsageError || error instanceof RangeError || error instanceof TypeError;
    stderr.write(`grpo-lab ${name}: ${error.message}\n`);
    if (error instanceof UsageError) stderr.write(`Usage: ${command.usage}\nRun "grpo-lab ${name} --help" for details.\n`);
    return input ? 2 : 1;
  }
}

process.exitCode = await main(process.argv.slice(2));
