// The step inspector's side of the training worker (docs/inspector.md): it keeps the live run's
// record of updates (experiment.keepInspection), replays any other run from its config to the
// update asked for (the precomputed run, an import, a run of the library, or a live run's update
// the record no longer holds), checks the replay against the run's saved history, and answers the
// page with a view it can draw at once. Counterfactuals run here, on the batch it holds.
//
// In:  {type: 'inspect', requestId, runId?, config, update, history?, klCovRatio?, clipCovRatio?}
//      {type: 'counterfactual', requestId, key, step, change}
// Out: {type: 'inspect-progress', requestId, done, total}  while a replay runs
//      {type: 'inspect', requestId, result}                 result: the view (its steps without their batches)
//      {type: 'counterfactual', requestId, result}

/** The history columns a replay must reproduce bit for bit (its evaluations are skipped). */
export const REPLAY_CHECKED = ['loss', 'gradNorm', 'kl', 'clipFractionLow', 'clipFractionHigh', 'ratioMin', 'ratioMean', 'ratioMax', 'meanReward', 'meanLength', 'entropy'];

// Updates replayed between two yields: the worker answers other messages (a Stop) in between.
const REPLAY_CHUNK = 5;

/** The first replayed row whose checked columns differ from the saved history's, or null. */
export function replayMismatch(rows, history) {
  if (!Array.isArray(history)) return null;
  for (const row of rows) {
    const saved = history[row.update - 1];
    if (!saved) continue;
    for (const field of REPLAY_CHECKED) {
      if (!(field in saved) || !(field in row)) continue;
      if (!Object.is(saved[field], row[field])) return { update: row.update, field, saved: saved[field], replayed: row[field] };
    }
  }
  return null;
}

function mismatchError({ update, field, saved, replayed }) {
  const message = `update: the replay of update ${update} gives ${field} ${replayed}, the saved run ${saved}: this run was not trained by this version of the core, so its updates cannot be recomputed`;
  return Object.assign(new RangeError(message), { code: 'replay_mismatch', field: 'update', params: { update, column: field, saved, replayed } });
}

const tick = () => new Promise((resolve) => {
  const channel = new MessageChannel();
  channel.port1.onmessage = () => {
    channel.port1.close();
    resolve();
  };
  channel.port2.postMessage(null);
});

/** The page's part of a view: every step without its batch (the worker keeps those). */
function slim(view) {
  return { ...view, steps: view.steps.map(({ objective: _objective, applied: _applied, ...step }) => step) };
}

export function inspectorService(core, post) {
  let live = null; // {runId, record}: the live run's record
  let replay = null; // {key, experiment, record}
  const batches = new Map(); // view key -> steps' grpoObjective arguments (the last few views)

  const remember = (key, view) => {
    batches.delete(key);
    batches.set(key, view.steps.map((step) => step.objective ?? null));
    while (batches.size > 4) batches.delete(batches.keys().next().value);
  };

  function disposeReplay() {
    if (!replay) return;
    replay.record.dispose();
    replay.experiment.dispose();
    replay = null;
  }

  /** Keeps the record of a new live run (and frees the last one's). */
  function keepLive(runId, experiment) {
    live?.record.dispose();
    live = { runId, record: experiment.keepInspection() };
  }

  function disposeLive() {
    live?.record.dispose();
    live = null;
  }

  const kept = (record, update) => {
    const stats = record.stats();
    return update >= stats.firstKept && update <= stats.lastKept && stats.firstKept > 0;
  };

  async function replayTo(message) {
    const { config, update, requestId, history } = message;
    const key = JSON.stringify(config);
    if (replay && (replay.key !== key || (replay.done >= update && !kept(replay.record, update)))) disposeReplay();
    if (!replay) {
      const experiment = core.createExperiment(config);
      replay = { key, experiment, record: experiment.keepInspection(), done: 0 };
    }
    const total = update;
    while (replay.done < update) {
      const to = Math.min(update, replay.done + REPLAY_CHUNK);
      const rows = replay.experiment.replay(to);
      replay.done = to;
      const wrong = replayMismatch(rows, history);
      if (wrong) {
        disposeReplay();
        throw mismatchError(wrong);
      }
      post({ type: 'inspect-progress', requestId, done: to, total });
      if (replay.done < update) {
        const mine = replay;
        await tick();
        if (replay !== mine) throw new Error('update: the replay was replaced by another request');
      }
    }
    return replay.record;
  }

  async function inspect(message) {
    const { runId, update, klCovRatio, clipCovRatio } = message;
    const record = live && runId !== undefined && runId === live.runId && kept(live.record, update) ? live.record : await replayTo(message);
    const view = record.view(update, { klCovRatio, clipCovRatio });
    const key = `${record === live?.record ? `live:${runId}` : `replay:${replay.key}`}#${update}`;
    remember(key, view);
    return { ...slim(view), key, replayed: record !== live?.record };
  }

  function counterfactual({ key, step, change }) {
    const batch = batches.get(key)?.[step];
    if (!batch) throw Object.assign(new Error(`key: the inspected update ${key} is no longer held; open it again`), { code: 'not_held', field: 'key', params: {} });
    const result = core.grpoCounterfactual({ batch, change });
    // The page has the original's tokens (the view's): it gets the counterfactual's and the changes.
    const { original, counterfactual: other, ...rest } = result;
    return { ...rest, original: { loss: original.loss, gradNorm: original.gradNorm }, counterfactual: other };
  }

  return {
    keepLive,
    disposeLive,
    /** Frees everything (the worker's reset). */
    reset() {
      disposeLive();
      disposeReplay();
      batches.clear();
    },
    /** Handles 'inspect' and 'counterfactual'; returns false for other messages. */
    handles: (type) => type === 'inspect' || type === 'counterfactual',
    async handle(message) {
      try {
        const result = message.type === 'inspect' ? await inspect(message) : counterfactual(message);
        post({ type: message.type, requestId: message.requestId, result });
      } catch (error) {
        const { code, field, params } = error ?? {};
        post({ type: 'error', requestId: message.requestId, name: error?.name ?? 'Error', message: error?.message ?? String(error), code, field, params });
      }
    },
  };
}
