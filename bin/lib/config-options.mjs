// The experiment's config from the command line, one reader for `grpo-lab train` and
// `grpo-lab notebook`: --config FILE (train) and --set key=value (both), checked by the core.
import { readFileSync } from 'node:fs';
import { isNoneText } from '../../web/js/state.js';
import { UsageError } from './args.mjs';

/**
 * "true"/"false" as booleans, numbers as numbers, none/None/null as null (TRL's None) for a
 * None-able field, anything else as text (the core checks it and names the field).
 */
function parseValue(text, nullable) {
  if (nullable && isNoneText(text)) return null;
  if (text === 'true' || text === 'false') return text === 'true';
  if (/^[+-]?(\d+\.?\d*|\.\d+)(e[+-]?\d+)?$/i.test(text)) return Number(text);
  return text;
}

/**
 * The experiment's options: `base`, then --config, then each --set (`train` and `notebook`),
 * checked by the core with the flag named. Returns the full config.
 */
export function readOptions(core, flags, base = {}) {
  const known = Object.keys(core.experimentConfig({}));
  const nullable = new Set(core.configSchema().fields.filter((f) => f.nullable).map((f) => f.name));
  let options = { ...base };
  if (flags.config) {
    let text;
    try {
      text = readFileSync(flags.config, 'utf8');
    } catch (error) {
      throw new UsageError(`--config ${flags.config}: cannot read it (${error.code ?? error.message})`);
    }
    let parsed;
    try {
      parsed = JSON.parse(text);
    } catch (error) {
      throw new UsageError(`--config ${flags.config}: not JSON (${error.message})`);
    }
    if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) {
      throw new UsageError(`--config ${flags.config}: must be a JSON object of config fields`);
    }
    options = { ...base, ...parsed };
    checked(core, options, `--config ${flags.config}`);
  }
  for (const pair of flags.set ?? []) {
    const eq = pair.indexOf('=');
    const key = eq > 0 ? pair.slice(0, eq) : '';
    if (!known.includes(key)) {
      throw new UsageError(`--set ${pair}: ${eq > 0 ? `unknown field "${key}"` : 'must be key=value'}; fields: ${known.join(', ')}`);
    }
    options = { ...options, [key]: parseValue(pair.slice(eq + 1), nullable.has(key)) };
    checked(core, options, `--set ${pair}`);
  }
  return checked(core, options, 'config');
}

function checked(core, options, where) {
  try {
    return core.experimentConfig(options);
  } catch (error) {
    if (error instanceof RangeError || error instanceof TypeError) throw new UsageError(`${where}: ${error.message}`);
    throw error;
  }
}
