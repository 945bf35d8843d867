// The two page shells, built from the text alone (no widget, no core): the course page (header
// with the language switch and "copy a link", the contents, the intro, every section) and the
// embed page (one section, or a list of them for an unknown id). Each section's shell holds its
// title, its explanation and a placeholder the mount queue fills with the live widget.
import { SECTIONS, sectionById } from '../sections/index.js';
import { t, language, LANGUAGES } from '../i18n.js';
import { rich } from '../math.js';
import { h } from '../dom.js';
import { embedSnippet } from '../embed-snippet.js';

/** The callout saying the core did not load (the text still explains every section). */
export function coreFailedNote(error) {
  return h('p', { class: 'callout callout-error', role: 'alert' }, t('page.coreFailed', { message: error?.message ?? '?' }));
}

/** One section's shell; returns {section, element, host} (host: where the widget goes). */
function sectionShell(section, { embedded, onReset }) {
  const element = h('section', {
    id: section.id,
    class: 'section',
    'aria-labelledby': `${section.id}-title`,
    dataset: { section: section.id },
  });
  element.append(h('h2', { id: `${section.id}-title`, tabindex: '-1' }, t(section.titleKey)));
  const body = h('div', { class: 'section-body' }, rich(t(section.bodyKey ?? `${section.id}.body`)));
  const host = h('div', { class: 'section-widget widget-pending' }, h('p', { class: 'widget-loading', text: t('page.widgetLoading') }));
  body.append(host);
  element.append(body);
  if (!embedded) element.append(sectionTools(section, onReset));
  return { section, element, host };
}

/** Under a section of the course page: reset it, and the snippet that embeds it. */
function sectionTools(section, onReset) {
  const src = new URL('embed.html', location.href);
  src.hash = `section=${section.id}&lang=${language()}`;
  const snippet = embedSnippet({ src: src.href, section, lang: language() });
  const reset = h('button', { type: 'button', class: 'button-quiet', text: t('page.reset') });
  reset.addEventListener('click', () => onReset(section));
  return h(
    'div',
    { class: 'section-tools' },
    section.schema && Object.keys(section.schema).length ? reset : null,
    h('details', { class: 'embed-snippet' }, h('summary', {}, t('page.embedLink')), h('pre', {}, h('code', { text: snippet }))),
  );
}

function languageSwitch(onLanguage) {
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
    button.addEventListener('click', () => onLanguage(code));
    group.append(button);
  }
  return group;
}

function copyLinkButton() {
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
  return [copy, copied];
}

export const WIDE_SCREEN = '(min-width: 1100px)';
const wideScreen = () => typeof matchMedia === 'function' && matchMedia(WIDE_SCREEN).matches;

/**
 * The course page into `root`. notes: the URL-notes callout or null; coreError: set when the
 * core failed; onLanguage(code), onReset(section): the reader's actions. Returns the sections'
 * shells in page order.
 */
export function renderPageShell(root, { notes, coreError, onLanguage, onReset }) {
  const skip = h('a', { class: 'skip-link', href: '#main', text: t('page.skip') });
  const header = h(
    'header',
    { class: 'page-header' },
    h(
      'div',
      { class: 'header-inner' },
      h('div', { class: 'titles' }, h('p', { class: 'kicker', text: t('page.kicker') }), h('h1', { text: t('page.title') })),
      h('div', { class: 'header-tools' }, languageSwitch(onLanguage), ...copyLinkButton()),
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
  if (notes) main.append(notes);
  main.append(h('div', { class: 'intro' }, rich(t('page.intro'))));
  if (coreError) main.append(coreFailedNote(coreError));
  const footer = h('footer', { class: 'page-footer' }, h('p', { text: t('page.footer') }));
  root.replaceChildren(skip, header, h('div', { class: 'layout' }, toc, main), footer);
  const shells = SECTIONS.map((section) => sectionShell(section, { embedded: false, onReset }));
  main.append(...shells.map((shell) => shell.element));
  return shells;
}

/**
 * The embed page into `root`: section `sectionId` alone with a link to the full course at
 * `fullHash`, or the list of sections for an unknown id. Returns the one shell, or none.
 */
export function renderEmbedShell(root, { sectionId, notes, fullHash }) {
  const section = sectionById(sectionId);
  const main = h('main', { id: 'main', class: 'embed-main' });
  if (notes) main.append(notes);
  root.replaceChildren(main);
  if (!section) {
    main.append(h('p', { class: 'callout callout-warn', role: 'status' }, t('embed.unknown', { id: sectionId ?? '' })));
    const list = h('ul', { class: 'embed-list' });
    for (const s of SECTIONS) {
      list.append(h('li', {}, h('a', { href: `embed.html#section=${s.id}&lang=${language()}`, text: t(s.titleKey) })));
    }
    main.append(h('h2', { text: t('embed.pick') }), list);
    return [];
  }
  const shell = sectionShell(section, { embedded: true });
  const full = new URL('index.html', location.href);
  full.hash = fullHash;
  main.append(
    shell.element,
    h('p', { class: 'embed-footer' }, h('a', { href: full.href, target: '_blank', rel: 'noopener', text: t('embed.openFull') })),
  );
  return [shell];
}
