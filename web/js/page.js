// Boots the course page (all sections) and the embed page (one section): reads the state from
// the URL hash, renders the text of every section as soon as the language and the pre-rendered
// formulas are there, then loads the core and validates the URL state (a bad value falls back to
// its default with a visible note), and mounts each section's widget when the reader comes near
// it; keeps the hash in step. The parts live in js/page/: url-notes (what the link got wrong),
// mount-queue (widgets on approach), view-keeper (the reader's place), shells (the page's text),
// ready (when everything is drawn), schema (every state key).
import { SECTIONS, sectionById } from './sections/index.js';
import { t, setLanguage, language, preferredLanguage, loadLanguage, LANGUAGES, warmIntl } from './i18n.js';
import { parseHash, formatHash, defaults, createStore } from './state.js';
import { loadFormulas, rich } from './math.js';
import { reportHeight } from './resize.js';
import { applyHide, formatHide, parseHide } from './hide.js';
import { createUrlNotes, validateWithCore } from './page/url-notes.js';
import { createReadiness } from './page/ready.js';
import { createMountQueue } from './page/mount-queue.js';
import { keepReaderView, scrollToSection, viewMoved } from './page/view-keeper.js';
import { coreFailedNote, renderEmbedShell, renderPageShell, WIDE_SCREEN } from './page/shells.js';
import { fullSchema } from './page/schema.js';

export { GLOBAL_SCHEMA, fullSchema } from './page/schema.js';

const SCHEMA = fullSchema();
const parseLink = (hash) => parseHash(hash, SCHEMA, { passThrough: ['section', 'hide'] });

/**
 * The core's reference build (sections 0-5's methods and the config check: a fraction of the full
 * module's bytes), loaded once; `ready` settles when it is in (or failed), after `onLoaded(core)`.
 * Sections 6-9 load the full core with their widgets (sections/training-sections.js); `full`
 * (an embed page of one of them) loads only the full one.
 */
function loadCoreOnce(full, onLoaded, onFailed) {
  const state = { core: null, coreError: null, info: { ms: 0, methods: 0 } };
  const started = performance.now();
  state.ready = import('../core/index.js')
    .then(({ loadCore, loadReferenceCore }) => (full ? loadCore() : loadReferenceCore()))
    .then(
      (core) => {
        state.core = core;
        state.info.methods = core.methods().length;
        onLoaded(core);
      },
      (error) => {
        state.coreError = error;
        onFailed(error);
      },
    )
    .finally(() => {
      state.info.ms = Math.round(performance.now() - started);
    });
  return state;
}

export async function boot({ mode = 'page' } = {}) {
  const embedded = mode === 'embed';
  const root = document.getElementById('app');
  const started = performance.now();

  // <html data-section data-lang data-hide>: defaults of a packaged page (tools/package.mjs).
  const html = document.documentElement;
  const initial = parseLink(location.hash);
  if (!initial.present.has('lang')) {
    initial.values.lang = LANGUAGES.includes(html.dataset.lang) ? html.dataset.lang : preferredLanguage();
  }
  if (initial.extra.section === undefined && html.dataset.section) initial.extra.section = html.dataset.section;
  const defaultHide = parseHide(html.dataset.hide);
  let hide = 'hide' in initial.extra ? parseHide(initial.extra.hide) : defaultHide;
  let sectionId = initial.extra.section ?? null;

  // Text first: the language and the build-time formulas are all the page's text needs, so it
  // shows while the core (WebAssembly), Chart.js and the widgets' modules are still on the way.
  // Meanwhile, in a task of its own, the browser's number data (warmIntl).
  setTimeout(() => warmIntl(initial.values.lang), 0);
  await Promise.all([loadLanguage(initial.values.lang).then(setLanguage), loadFormulas()]);

  const store = createStore(SCHEMA, initial.values);
  const notes = createUrlNotes(root);
  notes.set(initial.notes);

  const writeHash = () => {
    const values = store.all();
    let hash;
    if (embedded) {
      const section = sectionById(sectionId);
      const keys = ['lang', ...(section?.embedKeys ?? Object.keys(section?.schema ?? {}))];
      hash = formatHash(values, SCHEMA, keys, sectionId ? [`section=${encodeURIComponent(sectionId)}`] : []);
    } else {
      hash = formatHash(values, SCHEMA);
    }
    if (hide.length) hash = [hash, `hide=${formatHide(hide)}`].filter(Boolean).join('&');
    if (location.hash.slice(1) === hash) return;
    history.replaceState(null, '', `#${hash}`);
    // The link changed without a hashchange: the teacher page's preview listens for this.
    window.dispatchEvent(new CustomEvent('grpo:state', { detail: { hash } }));
  };

  // The core, then the URL values only the core can check (a rejected one falls back to its
  // default with a note); every widget waits for this.
  const core = loadCoreOnce(
    embedded && Boolean(sectionById(sectionId)?.load),
    (loaded) => {
      const values = store.all();
      const fixed = validateWithCore(loaded, SCHEMA, values, initial.present);
      if (!fixed.length) return;
      notes.add(fixed);
      store.replace(values);
      writeHash();
      notes.show();
    },
    (error) => {
      if (!embedded) root.querySelector('main .intro')?.after(coreFailedNote(error));
    },
  );

  const readiness = createReadiness(started);
  const resetSection = (section, focus) => {
    store.set(defaults(section.schema ?? {}), 'reset');
    render({ focus });
  };
  const queue = createMountQueue({
    embedded,
    coreReady: core.ready,
    coreState: () => core,
    readiness,
    contextFor: (section, element, onDestroy) => ({
      core: core.core,
      coreInfo: core.info,
      embedded,
      t,
      rich,
      lang: language(),
      get: (key) => store.get(key),
      values: () => store.all(),
      commit: (patch) => store.set(patch, section.id),
      // Another section changed one of `keys`: fn(changedKeys, source). Ends with the widget.
      subscribe: (keys, fn) => onDestroy(store.subscribe(keys, fn)),
      setLanguage: (code) => store.set({ lang: code }, 'language'),
      rendered: () => readiness.rendered(section.id, element),
      resetSection: () => resetSection(section),
    }),
  });

  const render = ({ focus } = {}) => {
    const active = document.activeElement;
    const activeKey = active?.dataset?.key ?? (active?.dataset?.lang ? `lang:${active.dataset.lang}` : null);
    const top = active?.getBoundingClientRect?.().top;
    queue.reset();
    readiness.reset();
    applyHide(hide);
    setLanguage(store.get('lang'));
    const embeddedSection = embedded && sectionById(sectionId);
    document.title = embeddedSection ? `${t(embeddedSection.titleKey)} · GRPO Lab` : t('page.docTitle');
    readiness.during(() => {
      const shells = embedded
        ? renderEmbedShell(root, { sectionId, notes: notes.box(), fullHash: formatHash(store.all(), SCHEMA) })
        : renderPageShell(root, {
            notes: notes.box(),
            coreError: core.coreError,
            onLanguage: (code) => store.set({ lang: code }, 'language'),
            onReset: (section) => resetSection(section, `${section.id}-title`),
          });
      for (const { section, element, host } of shells) queue.add(section, element, host);
    });
    // The text of every section is on the page (js/scorm.js watches the new section elements).
    if (!html.dataset.shell) performance.mark('grpo:shell');
    html.dataset.shell = 'true';
    window.dispatchEvent(new CustomEvent('grpo:shell'));
    readiness.check();
    writeHash();
    let target = null;
    if (focus) target = document.getElementById(focus);
    else if (activeKey?.startsWith('lang:')) target = root.querySelector(`[data-lang="${activeKey.slice(5)}"]`);
    else if (activeKey) {
      const find = () => root.querySelector(`[data-key="${CSS.escape(activeKey)}"]`);
      target = find();
      // A field of a widget still loading: focus it once its section is mounted.
      if (!target) queue.focusWhenMounted(find, top);
    }
    queue.pump();
    if (target) {
      target.focus({ preventScroll: true });
      if (Number.isFinite(top) && !focus) window.scrollBy(0, target.getBoundingClientRect().top - top);
      else target.scrollIntoView({ block: 'start' });
      viewMoved();
    }
  };

  store.subscribe(async (changed, source) => {
    // A section committed new values: the learner ran its widget (js/scorm.js listens).
    if (sectionById(source)) window.dispatchEvent(new CustomEvent('grpo:section-used', { detail: { section: source, keys: changed } }));
    if (changed.includes('lang') || source === 'language') {
      await loadLanguage(store.get('lang'));
      render();
    } else writeHash();
  });

  window.addEventListener('hashchange', async () => {
    const next = parseLink(location.hash);
    if (next.extra.anchor && next.present.size === 0 && !next.notes.length) {
      // A plain "#verifier" from a link: scroll there, keep the state.
      scrollToSection(next.extra.anchor);
      writeHash();
      return;
    }
    if (!next.present.has('lang')) next.values.lang = store.get('lang');
    notes.set(next.notes);
    await core.ready;
    if (core.core) notes.add(validateWithCore(core.core, SCHEMA, next.values, next.present));
    if (embedded && next.extra.section) sectionId = next.extra.section;
    hide = 'hide' in next.extra ? parseHide(next.extra.hide) : defaultHide;
    await loadLanguage(next.values.lang);
    store.replace(next.values);
    render();
    // A link with values and a section ("#lang=ru&updates") lands on that section, as at load.
    const anchor = next.extra.anchor;
    if (anchor && document.getElementById(anchor)) scrollToSection(anchor, false);
  });

  // In-page links ("#advantages" in a text or the contents) scroll without touching the state.
  root.addEventListener('click', (event) => {
    const link = event.target.closest?.('a[href^="#"]');
    if (!link) return;
    const id = link.getAttribute('href').slice(1);
    if (!document.getElementById(id)) return;
    event.preventDefault();
    scrollToSection(id);
  });

  if (!embedded) {
    keepReaderView(root);
    if (typeof matchMedia === 'function') {
      matchMedia(WIDE_SCREEN).addEventListener('change', (event) => {
        const details = root.querySelector('.toc-details');
        if (details) details.open = event.matches;
      });
    }
  }

  render();
  document.getElementById('boot-status')?.remove();
  const anchor = initial.extra.anchor;
  if (anchor && document.getElementById(anchor)) scrollToSection(anchor, false);
  if (embedded) reportHeight(root);
  return { store, core: core.ready.then(() => core.core) };
}
