// The run controls shared by sections 6-8 (section 6 always, 7 and 8 when embedded alone):
// Run/Resume, Pause, Step, Stop, Reset; a progress bar with updates done, elapsed time and time
// left; what is on display; divergence and errors as alerts; and a role="status" region that
// announces progress at a modest rate (phase changes, every quarter of the run). Docked (the
// course page's bar at the bottom of the screen, run-dock.js): Run/Pause/Step/Stop and the
// progress only; section 6's bar stays the one that announces, so nothing is said twice.
import { h } from '../dom.js';
import { errorText } from '../core-errors.js';
import * as training from './controller.js';
import { estimateRemaining, formatSeconds } from './run-format.js';

const ANNOUNCE_GAP_MS = 2000;

/**
 * getConfig(): the validated config to run, or throws (the form shows the message beside its
 * field; the bar shows it too and starts nothing).
 */
export function runBar(ctx, { getConfig, compact = false, docked = false }) {
  const { t } = ctx;
  const button = (action, label, title) =>
    h('button', { type: 'button', class: `button-run button-${action}`, dataset: { action }, title, text: label });
  const runButton = button('run', t('train.run'), t('train.runTitle'));
  const pauseButton = button('pause', t('train.pause'), t('train.pauseTitle'));
  const stepButton = button('step', t('train.step'), t('train.stepTitle'));
  const stopButton = button('stop', t('train.stop'), t('train.stopTitle'));
  const resetButton = button('reset', t('train.reset'), t('train.resetTitle'));
  // Seconds and minutes in the reader's language (с, мин).
  const units = secondUnits(t);
  const progress = h('progress', { class: 'run-progress', max: 1, value: 0, 'aria-label': t('train.progressLabel') });
  const progressText = h('p', { class: 'run-progress-text', dataset: { testid: docked ? 'dock-progress-text' : 'progress-text' } });
  const source = h('p', { class: 'run-source' });
  const refused = h('p', { class: 'field-error run-refused', role: 'alert', hidden: true });
  const alert = h('div', { class: 'run-alert', role: docked ? null : 'alert' });
  const live = h('p', { class: 'visually-hidden', role: 'status', 'aria-live': 'polite', dataset: { testid: 'run-status' } });
  const root = docked
    ? h(
        'div',
        { class: 'run-dock-bar' },
        h('div', { class: 'run-buttons' }, runButton, pauseButton, stepButton, stopButton),
        h('div', { class: 'run-progress-row' }, progress, progressText),
        refused,
        alert,
      )
    : h(
        'div',
        { class: `run-bar${compact ? ' run-bar-compact' : ''}`, role: 'group', 'aria-label': t('train.controls') },
        h('div', { class: 'run-buttons' }, runButton, pauseButton, stepButton, stopButton, resetButton),
        refused,
        h('div', { class: 'run-progress-row' }, progress, progressText),
        source,
        alert,
        live,
      );

  const tryConfig = () => {
    try {
      const config = getConfig();
      refused.hidden = true;
      refused.textContent = '';
      return config;
    } catch (error) {
      refused.hidden = false;
      refused.textContent = t('train.refused', { message: errorText(error) });
      return null;
    }
  };

  runButton.addEventListener('click', () => {
    const s = training.getState();
    if (s.phase === 'paused') {
      training.resume();
      return;
    }
    if (training.isBusy(s.phase)) return;
    const config = tryConfig();
    if (config) training.start(config, { autorun: true });
  });
  pauseButton.addEventListener('click', () => training.pause());
  stepButton.addEventListener('click', () => {
    const s = training.getState();
    if (s.phase === 'paused') {
      training.step();
      return;
    }
    if (training.isBusy(s.phase)) return;
    const config = tryConfig();
    if (config) training.start(config, { autorun: false });
  });
  stopButton.addEventListener('click', () => training.stop());
  resetButton.addEventListener('click', () => {
    refused.hidden = true;
    training.reset();
  });

  let lastPhase = null;
  let lastQuarter = -1;
  let lastAnnounced = 0;
  let lastKey = null;
  let ticker = 0;
  let shownSource = null;

  const announce = (text, force = false) => {
    const now = performance.now();
    if (!force && now - lastAnnounced < ANNOUNCE_GAP_MS) return;
    lastAnnounced = now;
    live.textContent = text;
  };

  const describeSource = (s) => {
    const c = s.config;
    if (s.phase === 'loading') return t('train.source.loading');
    if (s.phase === 'empty') return t('train.source.empty', { error: s.precomputedError ?? '?' });
    if (!c) return '';
    const params = { profile: c.profile, seed: c.seed, lossType: c.lossType, verlLossMode: c.verlLossMode, updates: c.updates, file: s.fileName ?? '' };
    // With engine verl the loss is verl's loss mode: TRL's lossType did not train it.
    const verl = c.engine === 'verl' && s.source !== 'precomputed' ? 'Verl' : '';
    return t(`train.source.${s.source}${verl}`, params);
  };

  const timeText = (s) => {
    const done = s.history.length;
    const total = s.updatesTotal || s.config?.updates || 0;
    const parts = [t('train.progress', { done, total })];
    if (training.isLive(s.phase)) {
      const elapsed = training.elapsedMs(s);
      parts.push(t('train.elapsed', { time: formatSeconds(elapsed, units) }));
      if (s.phase === 'starting') parts.push(t('train.warmup'));
      else if (s.phase === 'stopping') parts.push(t('train.measuring'));
      else {
        const activeForUpdates = Math.max(0, elapsed - (s.createMs ?? 0));
        const left = estimateRemaining(activeForUpdates, done, total);
        if (left !== null) parts.push(t('train.eta', { time: formatSeconds(left, units) }));
      }
    } else if (s.runMs !== null && s.source === 'live') {
      parts.push(t('train.took', { time: formatSeconds(s.runMs, units) }));
    }
    return parts.join(' · ');
  };

  // Every write below is skipped when the value is unchanged: this runs several times a second
  // while training, and an unchanged DOM costs no style or layout work.
  const setData = (name, value) => {
    if (value === null || value === undefined) delete root.dataset[name];
    else if (root.dataset[name] !== String(value)) root.dataset[name] = String(value);
  };
  const setText = (node, text) => {
    if (node.textContent !== text) node.textContent = text;
  };
  const setProp = (node, name, value) => {
    if (node[name] !== value) node[name] = value;
  };

  const update = (s) => {
    const phase = s.phase;
    const busy = training.isBusy(phase);
    const done = s.history.length;
    const total = s.updatesTotal || s.config?.updates || 0;
    setData('phase', phase);
    setData('runKey', s.runKey);
    setData('source', s.source ?? '');
    setData('updatesDone', done);
    setData('updatesTotal', total);
    setData('runMs', s.runMs === null || s.runMs === undefined ? null : Math.round(s.runMs));
    // For the curious (DevTools) and the memory test: what the worker's C++ core still holds.
    setData('liveHandles', s.coreStats?.liveHandles);
    setData('wasmHeapBytes', s.coreStats?.heapBytes);

    setText(runButton, phase === 'paused' ? t('train.resume') : t('train.run'));
    setProp(runButton, 'disabled', busy);
    setProp(pauseButton, 'disabled', !(phase === 'running' || phase === 'starting'));
    setProp(stepButton, 'disabled', busy);
    setProp(stopButton, 'disabled', !(busy || phase === 'paused') || phase === 'stopping');
    setProp(resetButton, 'disabled', s.source === 'precomputed' || (s.source === null && phase !== 'error'));
    setProp(progress, 'max', Math.max(1, total));
    setProp(progress, 'value', Math.min(done, total));
    setText(progressText, timeText(s));
    const sourceText = describeSource(s);
    if (sourceText !== shownSource) {
      shownSource = sourceText;
      source.replaceChildren(ctx.rich(sourceText, { block: false }));
    }

    let alertText = '';
    if (phase === 'diverged') {
      alertText = t('train.diverged', { update: s.divergence?.update ?? done, fields: (s.divergence?.fields ?? []).join(', ') });
    } else if (phase === 'error') {
      alertText = t('train.error', { message: s.error ? errorText(s.error) : '?' });
    }
    setProp(alert, 'className', alertText ? 'run-alert callout callout-error' : 'run-alert');
    setText(alert, alertText);

    // Announcements: every phase change, and each quarter of the run while it trains.
    if (s.runKey !== lastKey) {
      lastKey = s.runKey;
      lastQuarter = -1;
    }
    if (phase !== lastPhase) {
      const first = lastPhase === null;
      lastPhase = phase;
      if (!first || training.isLive(phase)) {
        const text = announcement(t, s, done, total);
        if (text) announce(text, true);
      }
    } else if (phase === 'running' && total > 0) {
      const quarter = Math.floor((4 * done) / total);
      if (quarter > lastQuarter && quarter > 0 && quarter < 4) {
        lastQuarter = quarter;
        announce(t('train.announce.progress', { percent: quarter * 25, done, total }));
      }
    }

    // Keep the clock moving while busy, even when no update arrives (warm-up, final measurement).
    if (busy && !ticker) {
      ticker = setInterval(() => setText(progressText, timeText(training.getState())), 250);
    } else if (!busy && ticker) {
      clearInterval(ticker);
      ticker = 0;
    }
  };

  const unsubscribe = training.subscribe(update);
  update(training.getState());

  return {
    el: root,
    update,
    destroy() {
      unsubscribe();
      clearInterval(ticker);
    },
  };
}

const secondUnits = (t) => ({ s: t('train.unit.s'), min: t('train.unit.min') });

function announcement(t, s, done, total) {
  switch (s.phase) {
    case 'starting':
      return t('train.announce.started', { total });
    case 'paused':
      return t('train.announce.paused', { done, total });
    case 'running':
      return done > 0 ? t('train.announce.resumed', { done, total }) : null;
    case 'finished':
      return t('train.announce.finished', {
        total,
        time: formatSeconds(s.runMs, secondUnits(t)),
        before: s.result?.beforeTrain?.accuracy?.toFixed(3) ?? '—',
        after: s.result?.afterTrain?.accuracy?.toFixed(3) ?? '—',
      });
    case 'stopped':
      return t('train.announce.stopped', { done, total });
    case 'diverged':
      return t('train.announce.diverged', { update: s.divergence?.update ?? done });
    case 'error':
      return t('train.error', { message: s.error ? errorText(s.error) : '?' });
    case 'precomputed':
    case 'imported':
      return t('train.announce.showing');
    default:
      return null;
  }
}
