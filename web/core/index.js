// GRPO Lab's public JS API: loads the WASM core once and exposes plain-value functions
// (SPEC "The public JS API"). The only importer of the generated grpo_core.js.
import createGrpoCore from './grpo_core.js';

const isNode = typeof process !== 'undefined' && Boolean(process.versions?.node);

// Functions whose arguments are positional, mapped to the named JSON arguments of the core.
const POSITIONAL = {
  verifyNumericAnswer: ['text', 'reference'],
  checkNumericAnswer: ['text', 'reference'],
  informativeGroupProbability: ['p', 'groupSize'],
  informativeGroupCurve: ['ps', 'groupSize'],
  expectedDrawsForInformativeGroups: ['n', 'p', 'groupSize'],
  groupRelativeAdvantages: ['rewards', 'scale'],
  estimateAdvantages: ['rewards', 'groupSize', 'advantageEstimator'],
  clippedSurrogateTerms: ['ratios', 'advantages', 'epsLow', 'epsHigh'],
  clipActivity: ['ratios', 'advantages', 'epsLow', 'epsHigh'],
  originalGrpoTokenWeights: ['rewards', 'lengths'],
  drGrpoTokenWeights: ['rewards', 'lengths', 'fixedLength'],
  dapoTokenWeights: ['rewards', 'lengths'],
  responseContributions: ['tokenWeights'],
  flattenTokenWeights: ['tokenWeights'],
  categoricalEntropy: ['probabilities'],
  passAtKIndependent: ['p', 'k'],
  passAtKUnbiased: ['n', 'c', 'k'],
};

// Functions that take one options object.
const WITH_OPTIONS = ['syntheticModeTraining', 'arithmeticPrompts', 'grpoObjective', 'experimentConfig'];

// JSON has no NaN/Infinity: they travel as {"$number": "..."} both ways.
function encodeSpecial(_key, value) {
  return typeof value === 'number' && !Number.isFinite(value) ? { $number: String(value) } : value;
}
function decodeSpecial(_key, value) {
  if (value && typeof value === 'object' && !Array.isArray(value)) {
    const keys = Object.keys(value);
    if (keys.length === 1 && keys[0] === '$number') return Number(value.$number);
  }
  return value;
}

const ERROR_TYPES = { RangeError, TypeError };

// The core refuses arguments longer than this (api.h kMaxArgumentBytes, docs/limits.md); checked
// here too, before the text is copied into WASM memory (a JS string's length in UTF-16 units never
// exceeds its UTF-8 byte count, so a longer string is surely over the limit).
const MAX_ARGUMENT_BYTES = 64 * 1024 * 1024;

function requireOptions(name, options) {
  if (options === undefined) return {};
  if (options === null || typeof options !== 'object' || Array.isArray(options)) {
    throw new TypeError(`${name}: options must be an object`);
  }
  return options;
}

function makeCore(raw) {
  let liveHandles = 0;
  const invoke = (method, args) => {
    let json;
    try {
      json = JSON.stringify(args, encodeSpecial);
    } catch (error) {
      throw new TypeError(`${method}: arguments cannot be serialised (${error.message})`);
    }
    if (json.length > MAX_ARGUMENT_BYTES) {
      throw new RangeError(`arguments: must be at most ${MAX_ARGUMENT_BYTES} bytes of JSON (64 MiB), ` +
        `got at least ${json.length}`);
    }
    const envelope = JSON.parse(raw._call(method, json), decodeSpecial);
    if (envelope.error) {
      const Type = ERROR_TYPES[envelope.error.type] ?? Error;
      throw new Type(envelope.error.message);
    }
    return envelope.ok;
  };

  const core = {
    /** Names of every method the WASM core answers. */
    methods: () => JSON.parse(raw._methods()),
    /** Bytes of WASM linear memory (grows, never shrinks). */
    heapBytes: () => raw.HEAP8?.length ?? raw.wasmMemory?.buffer.byteLength ?? 0,
    /** Stepwise experiments and other C++ objects held by this core and not yet disposed. */
    liveHandles: () => liveHandles,
    /** Low-level access for tests and tools: call any core method with named arguments. */
    call: invoke,
    /** The training config's field table (names, kinds, ranges, defaults, TRL names): docs/api.md. */
    configSchema: () => invoke('configSchema', {}),
  };
  for (const [name, params] of Object.entries(POSITIONAL)) {
    core[name] = (...values) => {
      const args = {};
      params.forEach((param, i) => {
        if (values[i] !== undefined) args[param] = values[i];
      });
      return invoke(name, args);
    };
  }
  for (const name of WITH_OPTIONS) {
    core[name] = (options) => invoke(name, requireOptions(name, options));
  }

  /**
   * A stepwise GRPO run (sections 6-8): the policy is warmed up and measured on creation;
   * step(n) runs up to n updates and returns their history rows; finish() measures after RL and
   * returns the full result (callable at any point, e.g. after Stop); dispose() frees it.
   */
  core.createExperiment = (options) => {
    const info = invoke('experimentCreate', requireOptions('createExperiment', options));
    liveHandles += 1;
    let handle = info.handle;
    let done = false;
    const live = () => {
      if (handle === null) throw new Error('experiment: already disposed');
      return handle;
    };
    return {
      info,
      get done() {
        return done;
      },
      step(count = 1) {
        const result = invoke('experimentStep', { handle: live(), count });
        done = result.done;
        return result.rows;
      },
      finish: () => invoke('experimentFinish', { handle: live() }),
      dispose() {
        if (handle === null) return;
        invoke('experimentDispose', { handle });
        handle = null;
        liveHandles -= 1;
      },
    };
  };

  /** The notebook's run_toy_grpo_experiment: runs to the end, calling onProgress(row) per update. */
  core.runToyGrpoExperiment = (options, onProgress) => {
    const experiment = core.createExperiment(options);
    try {
      while (!experiment.done) {
        for (const row of experiment.step(1)) onProgress?.(row);
      }
      return experiment.finish();
    } finally {
      experiment.dispose();
    }
  };

  /** Groups of fresh responses from a checkpoint's policy (notebook section 8). */
  core.collectRollouts = (checkpoint, prompts, config = {}, { seed, generatorVersion } = {}) =>
    invoke('collectRollouts', { checkpoint, prompts, config, seed, generatorVersion });

  /** Per-token log-probs of token-id sequences (token 0 is context); gradients of their sum. */
  core.teacherForcedLogProbs = (checkpoint, sequences, { gradients = false } = {}) =>
    invoke('teacherForcedLogProbs', { checkpoint, sequences, gradients });

  /**
   * Validates a saved run (the object runToyGrpoExperiment / finish() return, format
   * "grpo-lab-run" version 1, e.g. read back from a file) and returns it normalized, to show it
   * again without retraining. Throws an Error naming the first bad field ("run.history[3].kl: ...").
   */
  core.importRun = (run) => invoke('importRun', { run });

  return core;
}

let cached = null;

/**
 * Loads the WASM core once and returns the API object (later calls return the same one).
 * options.wasmBinary: the .wasm bytes, if the caller already has them (Node reads the file
 * next to this module by itself; browsers fetch it from the same folder).
 */
export function loadCore(options = {}) {
  if (!cached) {
    cached = instantiate(options).catch((error) => {
      cached = null;
      throw error;
    });
  }
  return cached;
}

async function instantiate(options) {
  const moduleOptions = {};
  if (options.wasmBinary) {
    moduleOptions.wasmBinary = options.wasmBinary;
  } else if (isNode) {
    const { readFile } = await import('node:fs/promises');
    moduleOptions.wasmBinary = await readFile(new URL('./grpo_core.wasm', import.meta.url));
  }
  const raw = await createGrpoCore(moduleOptions);
  return makeCore(raw);
}
