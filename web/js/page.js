// Boots the course page (all sections) and the embed page (one section): reads the state from
// the URL hash, validates it (a bad value falls back to its default with a visible note),
// loads the core, Chart.js and the pre-rendered formulas, renders, and keeps the hash in step.
import { SECTIONS, sectionById } from './sections/index.js';
import { t, setLanguage, language, preferredLanguage, loadLanguage, LANGUAGES } from './i18n.js';
import { parseHash, formatHash, defaults, createStore, formatValue } from './state.js';
import { loadFormulas, rich } from './math.js';
import { loadChartJs } from './charts.js';
import { h } from './dom.js';
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
      const message = error.message ?? String(error);
      let key = error.field;
      if (!key) {
        const param = /^([A-Za-z_]+)/.exec(message)?.[1];
        key = section.params?.[param];
      }
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
  const needsCharts = wanted.some((section) => section.charts);
  let core = null;
  let coreError = null;
  const coreStarted = performance.now();
  const [coreResult] = await Promise.allSettled([
    import('../core/index.js').then(({ loadCore }) => loadCore()),
    loadLanguage(initial.values.lang).then(setLanguage),
    loadFormulas(),
    needsCharts ? loadChartJs().catch(() => null) : null,
  ]);
  if (coreResult.status === 'fulfilled') core = coreResult.value;
  else coreError = coreResult.reason;
  const coreInfo = { ms: Math.round(performance.now() - coreStarted), methods: core ? core.methods().length : 0 };

  let notes = [...initial.notes];
  if (core) notes.push(...validateWithCore(core, initial.values, initial.present));

  const store = createStore(SCHEMA, initial.values);
  let sectionId = initial.extra.section ?? null;
  let anchor = initial.extra.anchor ?? null;
  let mounted = [];

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

  const mountSection = (section, host) => {
    const element = h('section', {
      id: section.id,
      class: 'section',
      'aria-labelledby': `${section.id}-title`,
      dataset: { section: section.id },
    });
    element.append(h('h2', { id: `${section.id}-title`, tabindex: '-1' }, t(section.titleKey)));
    host.append(element);
    const body = h('div', { class: 'section-body' });
    element.append(body);
    expected.add(section.id);
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
    if (section.needsCore !== false && !core) {
      body.append(rich(t(section.bodyKey ?? `${section.id}.body`)));
      body.append(h('p', { class: 'callout callout-error', role: 'alert' }, t('page.coreFailed', { message: coreError?.message ?? '?' })));
      markRendered(section.id, element);
      return;
    }
    try {
      const instance = section.mount(body, ctx) ?? {};
      mounted.push(instance);
    } catch (error) {
      console.error(error);
      body.append(h('p', { class: 'callout callout-error', role: 'alert' }, t('common.sectionError', { message: error.message })));
      markRendered(section.id, element);
    }
    if (!embedded) element.append(sectionTools(section));
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
    if (!core) {
      main.append(h('p', { class: 'callout callout-error', role: 'alert' }, t('page.coreFailed', { message: coreError?.message ?? '?' })));
    }
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
    checkReady();
    writeHash();
    let target = null;
    if (focus) target = document.getElementById(focus);
    else if (activeKey?.startsWith('lang:')) target = root.querySelector(`[data-lang="${activeKey.slice(5)}"]`);
    else if (activeKey) target = root.querySelector(`[data-key="${CSS.escape(activeKey)}"]`);
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
    if (core) notes.push(...validateWithCore(core, next.values, next.present));
    if (embedded && next.extra.section) sectionId = next.extra.section;
    hide = 'hide' in next.extra ? parseHide(next.extra.hide) : defaultHide;
    if (embedded && sectionById(sectionId)?.charts) await loadChartJs().catch(() => null);
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
  return { store, core };
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
