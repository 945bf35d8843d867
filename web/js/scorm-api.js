// The SCORM 1.2 runtime side of a SCO, free of the page: finding the LMS's `API` object the
// standard way (this window, then up the parents, then the opener's), and one connection that
// keeps cmi.core.lesson_status, cmi.core.exit, cmi.suspend_data and cmi.core.session_time as
// js/scorm.js needs them. Pure (windows and the API are passed in): tests/browser/lms-logic.test.mjs.

const MAX_DEPTH = 10; // ADL's sample walks at most 7 parents; LMS players nest a few frames

/** The SCORM 1.2 API object of the LMS, or null: `win`, its parents, then its opener's chain. */
export function findApi(win = window) {
  const search = (start) => {
    let current = start;
    for (let depth = 0; current && depth <= MAX_DEPTH; depth += 1) {
      try {
        if (current.API && typeof current.API.LMSInitialize === 'function') return current.API;
      } catch {
        // a window of another origin: its API is out of reach, keep climbing
      }
      let parent = null;
      try {
        parent = current.parent;
      } catch {
        parent = null;
      }
      if (!parent || parent === current) break;
      current = parent;
    }
    return null;
  };
  let api = search(win);
  for (const opener of [() => win.opener, () => win.top.opener]) {
    if (api) break;
    try {
      const other = opener();
      if (other && other !== win) api = search(other);
    } catch {
      // no opener, or one of another origin
    }
  }
  return api;
}

/** SCORM 1.2 CMITimespan (HHHH:MM:SS.SS) of `ms`. */
export function timespan(ms) {
  const centis = Math.max(0, Math.round(ms / 10));
  const hours = Math.min(9999, Math.floor(centis / 360000));
  const minutes = Math.floor(centis / 6000) % 60;
  const seconds = Math.floor(centis / 100) % 60;
  const pad = (value, width = 2) => String(value).padStart(width, '0');
  return `${pad(hours, 4)}:${pad(minutes)}:${pad(seconds)}.${pad(centis % 100)}`;
}

/** The page language for an LMS language preference ("ru", "ru-RU", "Russian"), or null. */
export function languageOf(preference) {
  const text = String(preference ?? '').trim().toLowerCase();
  if (/^(ru|rus|russian|русский)(?![a-zа-я])/.test(text)) return 'ru';
  if (/^(en|eng|english)(?![a-z])/.test(text)) return 'en';
  return null;
}

function parseSuspend(text) {
  try {
    const data = JSON.parse(text);
    return Array.isArray(data?.used) ? data.used.filter((id) => typeof id === 'string') : [];
  } catch {
    return [];
  }
}

/**
 * Connects to the LMS for the SCO holding `sections` (ids). Returns null without an LMS (or if
 * LMSInitialize fails); else {api, language, used: Set, markUsed(id), commit(), finish()}.
 */
export function connectScorm({ sections, win = window, now = () => Date.now() } = {}) {
  const api = findApi(win);
  if (!api) return null;
  const ok = (result) => result === true || result === 'true';
  const call = (name, ...args) => {
    try {
      return api[name](...args);
    } catch {
      return 'false';
    }
  };
  if (!ok(call('LMSInitialize', ''))) return null;
  const get = (element) => {
    const value = call('LMSGetValue', element);
    return typeof value === 'string' ? value : String(value ?? '');
  };
  const set = (element, value) => ok(call('LMSSetValue', element, String(value)));

  const started = now();
  const mode = get('cmi.core.lesson_mode'); // normal | browse | review
  const initialStatus = get('cmi.core.lesson_status');
  const readOnly = mode === 'review';
  let completed = initialStatus === 'completed' || initialStatus === 'passed';
  const used = new Set(parseSuspend(get('cmi.suspend_data')).filter((id) => sections.includes(id)));
  let finished = false;

  const commit = () => ok(call('LMSCommit', ''));
  const settle = () => {
    if (!completed && sections.every((id) => used.has(id))) {
      completed = true;
      set('cmi.core.lesson_status', 'completed');
    }
    set('cmi.core.exit', completed ? '' : 'suspend');
  };

  if (!readOnly) {
    if (!completed) set('cmi.core.lesson_status', mode === 'browse' ? 'browsed' : 'incomplete');
    settle();
    commit();
  }

  const markUsed = (id) => {
    if (finished || readOnly || !sections.includes(id) || used.has(id)) return;
    used.add(id);
    set('cmi.suspend_data', JSON.stringify({ v: 1, used: [...used] }));
    if (mode !== 'browse') settle();
    commit();
  };

  const finish = () => {
    if (finished) return;
    finished = true;
    if (!readOnly) {
      set('cmi.core.session_time', timespan(now() - started));
      commit();
    }
    call('LMSFinish', '');
  };

  return { api, language: languageOf(get('cmi.student_preference.language')), used, markUsed, commit, finish };
}
