// GRPO Lab's public JS API: loads the WASM core once and exposes plain-value functions
// (SPEC "The public JS API"). The only importer of the generated grpo_core.js and
// grpo_core_reference.js.

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
const WITH_OPTIONS = ['syntheticModeTraining', 'finiteEntropyMechanism', 'arithmeticPrompts', 'grpoObjective', 'tokenTermCurve', 'lossNormalizer', 'softOverlongPunishment', 'experimentConfig', 'configWarnings', 'coverageConcentration', 'passAtKCurve', 'verlAdvantages', 'verlAggLoss', 'verlPolicyLoss', 'verlKlPenalty', 'grpoCounterfactual'];

// What a build with a subset of the methods (the reference build) keeps besides the functions
// named after a method it answers.
const NOT_A_METHOD = new Set(['methods', 'heapBytes', 'call']);

// JSON has no NaN/Infinity: they travel as {"$number": "..."} both ways. A string holding a lone
// surrogate cannot become UTF-8 for the core: it stops serialisation, and wellFormedError() names it.
const LONE_SURROGATE = Symbol('lone surrogate');
const isWellFormed = String.prototype.isWellFormed
  ? (text) => text.isWellFormed()
  : (text) => !/[\ud800-\udbff](?![\udc00-\udfff])|(?:^|[^\ud800-\udbff])[\udc00-\udfff]/.test(text);
function encodeSpecial(_key, value) {
  if (typeof value === 'string' && !isWellFormed(value)) throw LONE_SURROGATE;
  return typeof value === 'number' && !Number.isFinite(value) ? { $number: String(value) } : value;
}

/** The first string under `args` with a lone surrogate, as a TypeError naming its path. */
function wellFormedError(method, args) {
  const stack = [[args, '']];
  while (stack.length) {
    const [value, path] = stack.pop();
    if (typeof value === 'string' && !isWellFormed(value)) {
      const chars = [...value]; // code points; a lone surrogate stays one unit on its own
      const at = chars.findIndex((ch) => ch.length === 1 && ch >= '\ud800' && ch <= '\udfff');
      const unit = chars[at].charCodeAt(0).toString(16).toUpperCase();
      return new TypeError(`${path || method}: must be a well-formed string, got a lone surrogate U+${unit} at character ${at}`);
    }
    if (value && typeof value === 'object') {
      const entries = Array.isArray(value) ? value.map((item, i) => [`${path}[${i}]`, item]) : Object.entries(value).map(([key, item]) => [path ? `${path}.${key}` : key, item]);
      for (let i = entries.length - 1; i >= 0; i -= 1) stack.push([entries[i][1], entries[i][0]]);
    }
  }
  return new TypeError(`${method}: arguments hold a string that is not well-formed UTF-16`);
}
function decodeSpecial(_key, value) {
  if (value && typeof value === 'object' && !Array.isArray(value)) {
    const keys = Object.keys(value);
    if (keys.length === 1 && keys[0] === '$number') return Number(value.$number);
  }
  return value;
}

const ERROR_TYPES = { RangeError, TypeError };

/**
 * The JS error for a core error envelope {type, code, field, params, message}: a RangeError or
 * TypeError with the English message, plus .code (a name from core.messageCodes()), .field (the
 * argument at fault, e.g. 'epsHigh' or 'rewards[1]'; '' when none) and .params (named values),
 * so a page can say it in its reader's language and place it beside the right input.
 */
function coreError({ type, code = 'invalid', field = '', params = {}, message }) {
  const Type = ERROR_TYPES[type] ?? Error;
  return Object.assign(new Type(message), { code, field, params });
}

// The core refuses arguments longer than this (api.h kMaxArgumentBytes, docs/limits.md); checked
// here too, before the text is copied into WASM memory (a JS string's length in UTF-16 units never
// exceeds its UTF-8 byte count, so a longer string is surely over the limit).
const MAX_ARGUMENT_BYTES = 64 * 1024 * 1024;

function requireOptions(name, options) {
  if (options === undefined) return {};
  if (options === null || typeof options !== 'object' || Array.isArray(options)) {
    throw coreError({ type: 'TypeError', code: 'not_an_object', field: 'options', params: { got: Array.isArray(options) ? 'an array' : String(options) }, message: `${name}: options must be an object` });
  }
  return options;
}

function makeCore(raw, { subset = false } = {}) {
  const invoke = (method, args) => {
    if (args === null || typeof args !== 'object' || Array.isArray(args)) {
      throw new TypeError(`${method}: arguments must be an object of named arguments, e.g. call('${method}', {}), got ${args === null ? 'null' : Array.isArray(args) ? 'an array' : typeof args}`);
    }
    let json;
    try {
      json = JSON.stringify(args, encodeSpecial);
    } catch (error) {
      if (error === LONE_SURROGATE) throw wellFormedError(method, args);
      throw coreError({ type: 'TypeError', code: 'internal', params: { detail: error.message }, message: `${method}: arguments cannot be serialised (${error.message})` });
    }
    if (json.length > MAX_ARGUMENT_BYTES) {
      throw coreError({
        type: 'RangeError',
        code: 'arguments_too_large',
        field: 'arguments',
        params: { max: MAX_ARGUMENT_BYTES, got: json.length },
        message: `arguments: must be at most ${MAX_ARGUMENT_BYTES} bytes of JSON (64 MiB), got at least ${json.length}`,
      });
    }
    const envelope = JSON.parse(raw._call(method, json), decodeSpecial);
    if (envelope.error) throw coreError(envelope.error);
    return envelope.ok;
  };

  const core = {
    /** Names of every method the WASM core answers. */
    methods: () => JSON.parse(raw._methods()),
    /** Bytes of WASM linear memory (grows, never shrinks). */
    heapBytes: () => raw.HEAP8?.length ?? raw.wasmMemory?.buffer.byteLength ?? 0,
    /** Stepwise experiments held by the C++ core and not yet disposed (asked of the core itself). */
    liveHandles: () => invoke('liveExperiments', {}),
    /** Step-inspector records (experiment.keepInspection) held by the core and not yet disposed. */
    liveInspections: () => invoke('liveInspections', {}),
    /** Every error code the core may set on error.code, each with its parameter names. */
    messageCodes: () => invoke('messageCodes', {}),
    /** Low-level access for tests and tools: call any core method with named arguments. */
    call: invoke,
    /**
     * Lets another thread stop this core's long calls: flag is an Int32Array (over a
     * SharedArrayBuffer, shared with that thread); while flag[0] is non-zero, a running warm-up,
     * step or finish throws an Error with code 'interrupted' within one time step of its
     * policy pass, and the experiment it ran answers nothing but dispose(). null: never.
     */
    interruptOn(flag) {
      if (flag !== null && !(flag instanceof Int32Array)) throw new TypeError('interruptOn: flag must be an Int32Array or null');
      raw.grpoInterruptFlag = flag;
    },
    /** The training config's field table (names, kinds, ranges, defaults, TRL names): docs/api.md. */
    configSchema: () => invoke('configSchema', {}),
    /** Every warning code configWarnings may give, each with its parameter names. */
    warningCodes: () => invoke('warningCodes', {}),
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

  // A core handle (an experiment, an inspection record) dropped without dispose() is freed when
  // the garbage collector takes its object, so it does not hold one of the core's slots until the
  // page reloads. One registry per dispose method.
  const registries = {};
  const registryFor = (method, key) =>
    typeof FinalizationRegistry === 'function'
      ? (registries[method] ??= new FinalizationRegistry((value) => {
        try {
          invoke(method, { [key]: value });
        } catch {
          // the core is gone: nothing to free
        }
      }))
      : null;

  /** The handle `value` of the core's, freed by `method` ({[key]: value}): {live(), own(object), dispose()}. */
  const ownedHandle = (what, value, method, key) => {
    const registry = registryFor(method, key);
    const token = {};
    return {
      live() {
        if (value === null) throw new Error(`${what}: already disposed`);
        return value;
      },
      own(object) {
        registry?.register(object, value, token);
        return object;
      },
      dispose() {
        if (value === null) return;
        registry?.unregister(token);
        invoke(method, { [key]: value });
        value = null;
      },
    };
  };

  /**
   * The step inspector's record of an experiment's updates (docs/inspector.md): view(update)
   * gives every token's term of every optimizer step of that update as the trainer applied it;
   * it outlives the experiment until dispose().
   */
  const inspectionRecord = (kept) => {
    const { live, own, dispose } = ownedHandle('inspection record', kept.record, 'inspectionDispose', 'record');
    return own({
      ...kept,
      view: (update, { klCovRatio, clipCovRatio } = {}) => invoke('inspectionView', { record: live(), update, klCovRatio, clipCovRatio }),
      stats: () => invoke('inspectionStats', { record: live() }),
      dispose,
    });
  };

  /**
   * A stepwise GRPO run (sections 6-8): the policy is warmed up and measured on creation;
   * step(n) runs up to n updates and returns their history rows; finish() measures after RL and
   * returns the full result (callable at any point, e.g. after Stop); dispose() frees it.
   */
  core.createExperiment = (options) => {
    const info = invoke('experimentCreate', requireOptions('createExperiment', options));
    const { live, own, dispose } = ownedHandle('experiment', info.handle, 'experimentDispose', 'handle');
    let done = false;
    return own({
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
      /** Keeps the step inspector's record of the updates from now on ({maxBytes, applied}). */
      keepInspection: (options) => inspectionRecord(invoke('experimentKeepInspection', { ...requireOptions('keepInspection', options), handle: live() })),
      /** Runs updates up to `to` without their evaluations (a replay); returns their rows. */
      replay(to) {
        const result = invoke('experimentReplay', { handle: live(), to });
        done = result.updatesDone >= info.config.updates;
        return result.rows;
      },
      dispose,
    });
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

  /**
   * One update of a run, recomputed: replays `config` to `update` (no evaluations) keeping the
   * inspector's record, and returns {view, rows} (the view of inspectionView, the replayed rows).
   */
  core.inspectUpdate = (config, update, options = {}) => {
    const experiment = core.createExperiment(config);
    let record = null;
    try {
      record = experiment.keepInspection({ maxBytes: requireOptions('inspectUpdate', options).maxBytes });
      const last = experiment.info.config.updates;
      if (!(Number.isInteger(update) && update >= 1 && update <= last)) {
        throw coreError({ type: 'RangeError', code: 'integer_range', field: 'update', params: { min: 1, max: last, got: typeof update === 'number' ? update : String(update) }, message: `update: must be an integer in [1, ${last}], got ${update}` });
      }
      const rows = experiment.replay(update);
      return { view: record.view(update, options), rows };
    } finally {
      record?.dispose();
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

  // A build with a subset of the methods (the reference build, loadReferenceCore) offers `methods`,
  // `heapBytes`, `call` and the functions named after a method it answers; nothing of the rest
  // (createExperiment, inspectUpdate, ...), whose methods it has not. The full build keeps all.
  if (subset) {
    const answered = new Set(core.methods());
    for (const name of Object.keys(core)) if (!NOT_A_METHOD.has(name) && !answered.has(name)) delete core[name];
  }
  return core;
}

// --- loading ---------------------------------------------------------------------------------
// The module's builds (CMake targets): `full` answers every method; `reference` answers sections
// 1-5's methods and experimentConfig, in well under half the bytes, for a page's first load.
// `threaded` is `full` built with -pthread (grpo_core_mt: shared memory, a Web Worker per thread),
// whose training passes split across 2 threads with the same bytes as on one; a browser may
// use it only where the page is cross-origin isolated (COOP + COEP headers, docs/hosting.md).
const BUILDS = {
  full: { module: () => import('./grpo_core.js'), wasm: 'grpo_core.wasm', subset: false },
  threaded: { module: () => import('./grpo_core_mt.js'), wasm: 'grpo_core_mt.wasm', subset: false },
  reference: { module: () => import('./grpo_core_reference.js'), wasm: 'grpo_core_reference.wasm', subset: true },
};

let cached = null;
let cachedReference = null;

// The threaded build is ready only once its thread workers have loaded; a browser that never
// starts them (seen once in Firefox's suite under load: a worker's loadCore() waited 240 s) must
// not hold the page's runs: past this, the single-thread build is loaded instead (same bytes).
const THREADED_LOAD_MS = 10000;
const withDeadline = (promise, ms) =>
  Promise.race([promise, new Promise((_, reject) => setTimeout(() => reject(new Error(`the threaded core did not start within ${ms} ms`)), ms))]);

// A page's own thread (a window) keeps one core thread unless asked: there the core answers small
// calls, and a waiting main thread spins (browsers forbid Atomics.wait on it). A worker, where the
// runs train (js/training/worker.js), takes the threads unless told otherwise, on a machine of at
// least THREADED_MIN_CORES: on 2 cores the pool's second thread meets the page's own and every
// other process, and each of a run's thousands of sections waits for a descheduled thread (a
// scratch-task run in Firefox took over 300 s at load 10, against ~20 s on one thread).
const inWindow = typeof window !== 'undefined' && typeof document !== 'undefined';
export const THREADED_MIN_CORES = 4;

/**
 * Whether loadCore(options) takes the threaded build: in a browser worker that is cross-origin
 * isolated (SharedArrayBuffer available) on a machine of at least THREADED_MIN_CORES logical
 * cores, unless options.threads is false; with options.threads true on fewer cores and in an
 * isolated page's own thread too; never when the caller brings its own bytes (options.wasmBinary:
 * those of grpo_core.wasm). Node keeps the single-thread build (the threaded one is built for the
 * web; the bench runs its Node twin).
 */
export function threadedCoreAvailable(options = {}) {
  const wanted = options.threads ?? (!inWindow && (globalThis.navigator?.hardwareConcurrency ?? 1) >= THREADED_MIN_CORES);
  return !isNode && wanted === true && !options.wasmBinary && globalThis.crossOriginIsolated === true && typeof SharedArrayBuffer === 'function';
}

/**
 * Loads the WASM core once and returns the API object (later calls return the same one).
 * options.wasmBinary: the .wasm bytes, if the caller already has them (Node reads the file
 * next to this module by itself; browsers fetch it from the same folder). options.threads: the
 * threaded build where it can run (threadedCoreAvailable: by default in an isolated worker, not in
 * a page's own thread); false keeps one thread, true asks for threads in a page's thread too.
 * A threaded build that fails to load falls back to the single-thread one; both give the same
 * bytes.
 */
export function loadCore(options = {}) {
  if (!cached) {
    const single = () => instantiate(BUILDS.full, options);
    const first = threadedCoreAvailable(options) ? withDeadline(instantiate(BUILDS.threaded, options), THREADED_LOAD_MS).catch(single) : single();
    cached = first.catch((error) => {
      cached = null;
      throw error;
    });
  }
  return cached;
}

/**
 * Loads the reference build once (grpo_core_reference.wasm; options.wasmBinary: its bytes) and
 * returns its API object: the functions of sections 1-5 (the verifier, informative groups,
 * advantages and clipping, token weights and tokenTermCurve/lossNormalizer, the finite policy,
 * pass@k), experimentConfig and messageCodes, the same results as loadCore()'s. Where loadCore()
 * was called first, or the page inlines one core (tools/package.mjs's single files), it is the
 * full core. Later calls return the same object.
 */
export function loadReferenceCore(options = {}) {
  if (!cachedReference) {
    cachedReference = (cached ?? instantiate(BUILDS.reference, options)).catch((error) => {
      cachedReference = null;
      throw error;
    });
  }
  return cachedReference;
}

async function instantiate(build, options) {
  const { default: createModule } = await build.module();
  // A bundle with the full build only (single files): the other builds' loaders export null.
  if (!createModule) return build === BUILDS.threaded ? instantiate(BUILDS.full, options) : loadCore(options);
  const moduleOptions = {};
  if (options.wasmBinary) {
    moduleOptions.wasmBinary = options.wasmBinary;
  } else if (isNode) {
    const { readFile } = await import('node:fs/promises');
    moduleOptions.wasmBinary = await readFile(new URL(`./${build.wasm}`, import.meta.url));
  }
  const raw = await createModule(moduleOptions);
  return makeCore(raw, { subset: build.subset });
}
