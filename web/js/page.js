// Boots the course page (all sections) and the embed page (one section): reads the state from
// the URL hash, renders the text of every section as soon as the language and the pre-rendered
// formulas are there, then loads the core and validates the URL state (a bad value falls back to
// its default with a visible note), and mounts each section's widget when the reader comes near
// it (Chart.js and the training modules load on demand); keeps the hash in step.
import { SECTIONS, sectionById } from './sections/index.js';
import { t, setLanguage, language, preferredLanguage, loadLanguage, LANGUAGES } from './i18n.js';
import { parseHash, formatHash, defaults, createStore, formatValue } from './state.js';
import { loadFormulas, rich } from './math.js';
import { loadChartJs } from './charts.js';
import { h } from './dom.js';
import { errorKey, errorText } from './core-errors.js';
import { reportHeight } from './resize.js';
import { applyHide, formatHide, parseHide } from './hide.js';

export const GLOBAL_SCHEMA = {
  lang: { kind: 'enum', options: LANGUAGES, default: 'en' },
};

export function fullSchema() {
  const schema = { ...GLOBAL_SCHEMA };
  for (const section of SECTIONS) Object.assign(schema, section.schema ?? {});
  return schema;
}

const SCHEMA = fullSchema();

/** Which section owns a state key (global keys: null). */
function ownerOf(key) {
  return SECTIONS.find((section) => section.schema && key in section.schema) ?? null;
}

/**
 * Runs each section's validation on URL-given values; a value the core rejects goes back to its
 * default with a note carrying the core's message. Returns the notes added.
 */
function validateWithCore(core, values, present) {
  const notes = [];
  const base = defaults(SCHEMA);
  for (const section of SECTIONS) {
    if (!section.validate || !section.schema) continue;
    const keys = Object.keys(section.schema).filter((key) => present.has(key));
    if (!keys.length) continue;
    for (let attempt = 0; attempt <= keys.length; attempt += 1) {
      let error = null;
      try {
        section.validate(core, values);
      } catch (caught) {
        error = caught;
      }
      if (!error) break;
      const message = errorText(error);
      const key = errorKey(error, section.params);
      const culprits = key && present.has(key) ? [key] : keys.filter((k) => present.has(k));
      if (!culprits.length) break;
      for (const culprit of culprits) {
        notes.push({
          key: culprit,
          value: formatValue(SCHEMA[culprit], values[culprit]),
          message,
          fallback: formatValue(SCHEMA[culprit], base[culprit]),
        });
        values[culprit] = base[culprit];
        present.delete(culprit);
      }
    }
  }
  return notes;
}

function noteText(note) {
  if (note.unknown) return t('url.unknown', { key: note.key });
  const reason = note.message ?? t(note.error[0], note.error[1]);
  return t('url.bad', { key: note.key, value: note.value, reason, fallback: note.fallback });
}

export async function boot({ mode = 'page' } = {}) {
  const embedded = mode === 'embed';
  const root = document.getElementById('app');
  const started = performance.now();

  // <html data-section data-lang data-hide>: defaults of a packaged page (tools/package.mjs).
  const html = document.documentElement;
  const initial = parseHash(location.hash, SCHEMA, { passThrough: ['section', 'hide'] });
  if (!initial.present.has('lang')) {
    initial.values.lang = LANGUAGES.includes(html.dataset.lang) ? html.dataset.lang : preferredLanguage();
  }
  if (initial.extra.section === undefined && html.dataset.section) initial.extra.section = html.dataset.section;
  const defaultHide = parseHide(html.dataset.hide);
  let hide = 'hide' in initial.extra ? parseHide(initial.extra.hide) : defaultHide;
  const status = document.getElementById('boot-status');

  const wanted = embedded ? [sectionById(initial.extra.section)].filter(Boolean) : SECTIONS;

  // Text first: the language and the build-time formulas are all the page's text needs, so it
  // shows while the core (WebAssembly), Chart.js and the widgets' modules are still on the way.
  await Promise.all([loadLanguage(initial.values.lang).then(setLanguage), loadFormulas()]);

  let core = null;
  let coreError = null;
  const coreInfo = { ms: 0, methods: 0 };
  let notes = [...initial.notes];
  const store = createStore(SCHEMA, initial.values);
  let sectionId = initial.extra.section ?? null;
  let anchor = initial.extra.anchor ?? null;
  let mounted = [];

  // The core, then the URL values only the core can check (a rejected one falls back to its
  // default with a note); every widget waits for this.
  const coreStarted = performance.now();
  const coreReady = import('../core/index.js')
    .then(({ loadCore }) => loadCore())
    .then(
      (loaded) => {
        core = loaded;
        coreInfo.methods = core.methods().length;
        const values = store.all();
        const fixed = validateWithCore(core, values, initial.present);
        if (fixed.length) {
          notes.push(...fixed);
          store.replace(values);
          writeHash();
          showNotes();
        }
      },
      (error) => {
        coreError = error;
        if (!embedded) root.querySelector('main .intro')?.after(coreFailedNote());
      },
    )
    .finally(() => {
      coreInfo.ms = Math.round(performance.now() - coreStarted);
    });

  const coreFailedNote = () =>
    h('p', { class: 'callout callout-error', role: 'alert' }, t('page.coreFailed', { message: coreError?.message ?? '?' }));

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
    if (location.hash.slice(1) !== hash) history.replaceState(null, '', `#${hash}`);
  };

  const destroyAll = () => {
    for (const item of mounted) item.destroy?.();
    mounted = [];
  };

  const rendered = new Set();
  const expected = new Set();
  let rendering = false;
  const checkReady = () => {
    if (rendering || document.documentElement.dataset.ready) return;
    if (![...expected].every((x) => rendered.has(x))) return;
    document.documentElement.dataset.ready = 'true';
    performance.mark('grpo:ready');
    window.dispatchEvent(new CustomEvent('grpo:ready', { detail: { ms: performance.now() - started } }));
  };
  const markRendered = (id, element) => {
    if (rendered.has(id)) return;
    rendered.add(id);
    element.dataset.rendered = 'true';
    performance.mark(`grpo:rendered:${id}`);
    requestAnimationFrame(() => requestAnimationFrame(() => performance.mark(`grpo:painted:${id}`)));
    checkReady();
  };

  // --- widgets: mounted when the reader comes near them, one section per task -------------------
  // `approached` outlives a re-render (a language switch): sections met once are mounted again at
  // once, in the same task when everything they need is loaded, so the page keeps its place.
  const approached = new Set(embedded || typeof IntersectionObserver !== 'function' ? wanted.map((s) => s.id) : []);
  const widgets = new Map(); // section id -> loaded widget module (sections 6-9 load on demand)
  let chartsLoaded = false;
  let waiting = []; // {section, element, host} of this render, not mounted yet, in page order
  let generation = 0;
  let pumping = false;
  let restoreFocus = null;

  const loadWidget = async (section) => {
    if (!widgets.has(section.id)) widgets.set(section.id, section.load ? (await section.load()).default : section);
    if (section.charts && !chartsLoaded) {
      await loadChartJs().catch(() => null);
      chartsLoaded = true;
    }
  };
  const loadedNow = (section) => (core || coreError) && widgets.has(section.id) && (!section.charts || chartsLoaded);

  const pump = async () => {
    if (pumping) return;
    pumping = true;
    try {
      for (;;) {
        const item = waiting.find((entry) => approached.has(entry.section.id));
        if (!item) break;
        const gen = generation;
        await coreReady;
        try {
          await loadWidget(item.section);
        } catch (error) {
          widgets.set(item.section.id, {
            mount() {
              throw error;
            },
          });
        }
        if (gen === generation && waiting.includes(item)) mountWidget(item);
        // One section per task: the browser paints and answers input in between.
        await new Promise((resolve) => setTimeout(resolve, 0));
      }
    } finally {
      pumping = false;
    }
  };

  const approach = (id) => {
    if (approached.has(id)) return;
    approached.add(id);
    pump();
  };
  const observer =
    typeof IntersectionObserver === 'function' && !embedded
      ? new IntersectionObserver(
          (entries) => entries.filter((e) => e.isIntersecting).forEach((e) => approach(e.target.dataset.section)),
          { rootMargin: '100% 0px 100% 0px' },
        )
      : null;

  // Our own scroll anchoring: while widgets mount and fill in (the training sections fetch their
  // run, fonts arrive), the section at the top of the viewport stays where the reader has it.
  // Browsers' scroll anchoring misses these cases here, and Safari has none.
  let anchorView = null; // {element, top, y}: the section at the top of the viewport, where it was
  const rememberView = () => {
    anchorView = null;
    if (embedded || window.scrollY === 0) return;
    const element = [...root.querySelectorAll('main section.section')].filter((s) => s.getBoundingClientRect().top <= 16).pop();
    if (element) anchorView = { element, top: element.getBoundingClientRect().top, y: window.scrollY };
  };
  const keepView = () => {
    if (!anchorView?.element.isConnected) return;
    const { element, top, y } = anchorView;
    // Where the section would be had only the reader's scrolling moved it; the rest is layout.
    const expected = top - (window.scrollY - y);
    const now = element.getBoundingClientRect();
    // Scrolled away from it since (a jump to another section): it is no longer what they see.
    if (expected > 16 || expected + now.height <= 0) return;
    const shift = now.top - expected;
    if (Math.abs(shift) >= 1) window.scrollBy({ top: shift, behavior: 'instant' });
    anchorView = { element, top: element.getBoundingClientRect().top, y: window.scrollY };
  };
  if (!embedded && typeof ResizeObserver === 'function') {
    let queued = false;
    window.addEventListener(
      'scroll',
      () => {
        if (queued) return;
        queued = true;
        requestAnimationFrame(() => {
          queued = false;
          // A widget may have grown since the last resize callback: settle that before the
          // section at the top is taken as the reader's new place.
          keepView();
          rememberView();
        });
      },
      { passive: true },
    );
    new ResizeObserver(keepView).observe(root);
  }

  const mountWidget = (item) => {
    const { section, element, host } = item;
    waiting = waiting.filter((entry) => entry !== item);
    observer?.unobserve(element);
    host.classList.remove('widget-pending');
    host.replaceChildren();
    const ctx = {
      core,
      coreInfo,
      embedded,
      t,
      rich,
      lang: language(),
      get: (key) => store.get(key),
      values: () => store.all(),
      commit: (patch) => store.set(patch, section.id),
      setLanguage: (code) => store.set({ lang: code }, 'language'),
      rendered: () => markRendered(section.id, element),
      resetSection: () => {
        const base = defaults(section.schema ?? {});
        store.set(base, 'reset');
        render();
      },
    };
    const failed = (message) => {
      host.append(h('p', { class: 'callout callout-error', role: 'alert' }, message));
      markRendered(section.id, element);
    };
    if (section.needsCore !== false && !core) {
      failed(t('page.coreFailed', { message: coreError?.message ?? '?' }));
    } else {
      try {
        mounted.push(widgets.get(section.id).mount(host, ctx) ?? {});
      } catch (error) {
        console.error(error);
        failed(t('common.sectionError', { message: error.message }));
      }
    }
    if (restoreFocus && element.contains(restoreFocus.find())) {
      const target = restoreFocus.find();
      const { top } = restoreFocus;
      restoreFocus = null;
      target.focus({ preventScroll: true });
      if (Number.isFinite(top)) window.scrollBy({ top: target.getBoundingClientRect().top - top, behavior: 'instant' });
    }
  };

  const mountSection = (section, host) => {
    const element = h('section', {
      id: section.id,
      class: 'section',
      'aria-labelledby': `${section.id}-title`,
      dataset: { section: section.id },
    });
    element.append(h('h2', { id: `${section.id}-title`, tabindex: '-1' }, t(section.titleKey)));
    host.append(element);
    const body = h('div', { class: 'section-body' }, rich(t(section.bodyKey ?? `${section.id}.body`)));
    const widget = h('div', { class: 'section-widget widget-pending' }, h('p', { class: 'widget-loading', text: t('page.widgetLoading') }));
    body.append(widget);
    element.append(body);
    if (!embedded) element.append(sectionTools(section));
    expected.add(section.id);
    if (embedded) approached.add(section.id);
    const item = { section, element, host: widget };
    if (approached.has(section.id) && loadedNow(section)) mountWidget(item);
    else {
      waiting.push(item);
      observer?.observe(element);
    }
  };

  const sectionTools = (section) => {
    const base = new URL('embed.html', location.href);
    base.hash = `section=${section.id}&lang=${language()}`;
    const snippet = `<iframe src="${base.href}" title="${t(section.titleKey).replace(/"/g, '&quot;')}" width="100%" height="640" style="border:0;max-width:100%" loading="lazy"></iframe>`;
    const reset = h('button', { type: 'button', class: 'button-quiet', text: t('page.reset') });
    reset.addEventListener('click', () => {
      store.set(defaults(section.schema ?? {}), 'reset');
      render({ focus: `${section.id}-title` });
    });
    return h(
      'div',
      { class: 'section-tools' },
      section.schema && Object.keys(section.schema).length ? reset : null,
      h('details', { class: 'embed-snippet' }, h('summary', {}, t('page.embedLink')), h('pre', {}, h('code', { text: snippet }))),
    );
  };

  // The URL notes at the top of the page; shown again when the core's checks add some.
  const showNotes = () => {
    root.querySelector('.url-notes')?.remove();
    const box = notesBox();
    if (box) root.querySelector('main')?.prepend(box);
  };

  const notesBox = () => {
    if (!notes.length) return null;
    const dismiss = h('button', { type: 'button', class: 'button-quiet', text: t('url.dismiss') });
    const box = h(
      'div',
      { class: 'callout callout-warn url-notes', role: 'status' },
      h('p', {}, h('strong', { text: t('url.noteTitle') })),
      h('ul', {}, notes.map((note) => h('li', { text: noteText(note) }))),
      dismiss,
    );
    dismiss.addEventListener('click', () => {
      notes = [];
      box.remove();
    });
    return box;
  };

  const languageSwitch = () => {
    const group = h('div', { class: 'lang-switch', role: 'group', 'aria-label': t('page.language') });
    for (const code of LANGUAGES) {
      const button = h(
        'button',
        {
          type: 'button',
          lang: code,
          'aria-pressed': code === language() ? 'true' : 'false',
          dataset: { lang: code },
          title: t(`lang.${code}`),
        },
        code.toUpperCase(),
        h('span', { class: 'visually-hidden', text: ` ${t(`lang.${code}`)}` }),
      );
      button.addEventListener('click', () => store.set({ lang: code }, 'language'));
      group.append(button);
    }
    return group;
  };

  const renderPage = () => {
    const skip = h('a', { class: 'skip-link', href: '#main', text: t('page.skip') });
    const copy = h('button', { type: 'button', class: 'button-quiet copy-link', text: t('page.copyLink') });
    const copied = h('span', { class: 'copy-status', role: 'status' });
    copy.addEventListener('click', async () => {
      try {
        await navigator.clipboard.writeText(location.href);
        copied.textContent = t('page.copied');
      } catch {
        copied.textContent = t('page.copyFailed');
      }
    });
    const header = h(
      'header',
      { class: 'page-header' },
      h(
        'div',
        { class: 'header-inner' },
        h('div', { class: 'titles' }, h('p', { class: 'kicker', text: t('page.kicker') }), h('h1', { text: t('page.title') })),
        h('div', { class: 'header-tools' }, languageSwitch(), copy, copied),
      ),
    );
    const tocList = h('ol', { class: 'toc-list' });
    for (const section of SECTIONS) {
      tocList.append(h('li', {}, h('a', { href: `#${section.id}`, dataset: { target: section.id }, text: t(section.titleKey) })));
    }
    const toc = h(
      'nav',
      { class: 'toc', 'aria-label': t('page.toc') },
      h('details', { class: 'toc-details', open: wideScreen() }, h('summary', { text: t('page.toc') }), tocList),
    );
    const main = h('main', { id: 'main', tabindex: '-1' });
    const notice = notesBox();
    if (notice) main.append(notice);
    main.append(h('div', { class: 'intro' }, rich(t('page.intro'))));
    if (coreError) main.append(coreFailedNote());
    const footer = h('footer', { class: 'page-footer' }, h('p', { text: t('page.footer') }));
    root.replaceChildren(skip, header, h('div', { class: 'layout' }, toc, main), footer);
    for (const section of SECTIONS) mountSection(section, main);
  };

  const renderEmbed = () => {
    const section = sectionById(sectionId);
    const main = h('main', { id: 'main', class: 'embed-main' });
    const notice = notesBox();
    if (notice) main.append(notice);
    if (!section) {
      main.append(h('p', { class: 'callout callout-warn', role: 'status' }, t('embed.unknown', { id: sectionId ?? '' })));
      const list = h('ul', { class: 'embed-list' });
      for (const s of SECTIONS) {
        list.append(h('li', {}, h('a', { href: `embed.html#section=${s.id}&lang=${language()}`, text: t(s.titleKey) })));
      }
      main.append(h('h2', { text: t('embed.pick') }), list);
      root.replaceChildren(main);
      return;
    }
    root.replaceChildren(main);
    mountSection(section, main);
    const full = new URL('index.html', location.href);
    full.hash = formatHash(store.all(), SCHEMA);
    main.append(
      h('p', { class: 'embed-footer' }, h('a', { href: full.href, target: '_blank', rel: 'noopener', text: t('embed.openFull') })),
    );
  };

  const render = ({ focus } = {}) => {
    const active = document.activeElement;
    const activeKey = active?.dataset?.key ?? (active?.dataset?.lang ? `lang:${active.dataset.lang}` : null);
    const top = active?.getBoundingClientRect?.().top;
    generation += 1;
    waiting = [];
    restoreFocus = null;
    observer?.disconnect();
    destroyAll();
    rendered.clear();
    expected.clear();
    delete document.documentElement.dataset.ready;
    applyHide(hide);
    setLanguage(store.get('lang'));
    document.title = embedded && sectionById(sectionId) ? `${t(sectionById(sectionId).titleKey)} · GRPO Lab` : t('page.docTitle');
    rendering = true;
    if (embedded) renderEmbed();
    else renderPage();
    rendering = false;
    // The text of every section is on the page (js/scorm.js watches the new section elements).
    if (!document.documentElement.dataset.shell) performance.mark('grpo:shell');
    document.documentElement.dataset.shell = 'true';
    window.dispatchEvent(new CustomEvent('grpo:shell'));
    checkReady();
    writeHash();
    let target = null;
    if (focus) target = document.getElementById(focus);
    else if (activeKey?.startsWith('lang:')) target = root.querySelector(`[data-lang="${activeKey.slice(5)}"]`);
    else if (activeKey) {
      const find = () => root.querySelector(`[data-key="${CSS.escape(activeKey)}"]`);
      target = find();
      // A field of a widget still loading: focus it once its section is mounted.
      if (!target) restoreFocus = { find, top };
    }
    pump();
    if (target) {
      target.focus({ preventScroll: true });
      if (Number.isFinite(top) && !focus) window.scrollBy(0, target.getBoundingClientRect().top - top);
      else target.scrollIntoView({ block: 'start' });
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
    const next = parseHash(location.hash, SCHEMA, { passThrough: ['section', 'hide'] });
    if (next.extra.anchor && next.present.size === 0 && !next.notes.length) {
      // A plain "#verifier" from a link: scroll there, keep the state.
      scrollToSection(next.extra.anchor);
      writeHash();
      return;
    }
    if (!next.present.has('lang')) next.values.lang = store.get('lang');
    notes = [...next.notes];
    await coreReady;
    if (core) notes.push(...validateWithCore(core, next.values, next.present));
    if (embedded && next.extra.section) sectionId = next.extra.section;
    hide = 'hide' in next.extra ? parseHide(next.extra.hide) : defaultHide;
    await loadLanguage(next.values.lang);
    store.replace(next.values);
    render();
  });

  root.addEventListener('click', (event) => {
    const link = event.target.closest?.('a[href^="#"]');
    if (!link) return;
    const id = link.getAttribute('href').slice(1);
    if (!document.getElementById(id)) return;
    event.preventDefault();
    scrollToSection(id);
  });

  if (!embedded && typeof matchMedia === 'function') {
    matchMedia('(min-width: 1100px)').addEventListener('change', (event) => {
      const details = root.querySelector('.toc-details');
      if (details) details.open = event.matches;
    });
  }

  render();
  if (status) status.remove();
  if (anchor && document.getElementById(anchor)) scrollToSection(anchor, false);
  anchor = null;
  if (embedded) reportHeight(root);
  return { store, core: coreReady.then(() => core) };
}

function wideScreen() {
  return typeof matchMedia === 'function' && matchMedia('(min-width: 1100px)').matches;
}

function scrollToSection(id, smooth = true) {
  const target = document.getElementById(id);
  if (!target) return;
  const heading = target.querySelector('h2') ?? target;
  const reduce = matchMedia('(prefers-reduced-motion: reduce)').matches;
  target.scrollIntoView({ block: 'start', behavior: smooth && !reduce ? 'smooth' : 'instant' });
  heading.focus({ preventScroll: true });
}
