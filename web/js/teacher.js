// The instructor page (teacher.html): pick a section (or the whole course) and its language, set
// preset values in the live widget itself (the preview below is the real embed page; whatever is
// set there goes into its link), tick what to hide, and copy the link and the iframe snippet.
// The hide flags ride in the link's hash like the rest of the state (js/hide.js). Where the page
// was published by `npm run package`, it also offers the SCORM packages and the single files.
import { SECTIONS } from './sections/index.js';
import { loadLanguage, t as translate, LANGUAGES } from './i18n.js';
import { HIDE_PARTS, formatHide, parseHide } from './hide.js';
import { formatValue } from './state.js';
import { h } from './dom.js';

// The page's own strings (the widget strings stay in js/i18n/).
const STRINGS = {
  en: {
    docTitle: 'GRPO Lab: links for instructors',
    title: 'GRPO Lab for instructors: links and snippets',
    intro:
      'Pick a section and a language, set the values your students should start from in the widget itself, choose what to hide, then copy the link or the iframe snippet into your course. Nothing is stored anywhere: everything is in the link.',
    uiLanguage: 'Language of this page',
    step1: '1. What to show',
    section: 'Section',
    course: 'The whole course (sections 0–9)',
    widgetLanguage: 'Language of the widget',
    step2: '2. Set the starting values',
    step2Hint:
      'This is the widget as your students will get it. Every value you change here goes into the link (only changed values; the rest keeps its defaults).',
    studentView: 'Show it as students will see it (apply the hiding below)',
    reset: 'Back to the defaults',
    step3: '3. What to hide',
    parts: 'Parts of the section',
    controls: 'Single controls',
    noControls: 'This section has no controls.',
    'part.title': 'Section title',
    'part.text': 'Explanation and formulas',
    'part.controls': 'All settings (students see your values only)',
    'part.notice': '“What to notice” box',
    'part.footer': 'Link to the full course',
    step4: '4. Copy into your course',
    url: 'Link',
    snippet: 'iframe snippet (HTML)',
    height: 'Frame height in pixels',
    heightHint: 'Measured from the preview. Canvas and Moodle LTI pages resize the frame themselves; elsewhere this height is kept.',
    copy: 'Copy',
    copied: 'Copied.',
    selected: 'Selected: press Ctrl+C (⌘C) to copy.',
    open: 'Open the link in a new tab',
    where: 'Where to paste it',
    moodle:
      'Moodle: in a Page or Label, switch the editor to HTML source and paste the snippet; or add a URL resource with the link and Display “Embed”.',
    canvas: 'Canvas: in a Page, open the HTML editor (</>) and paste the snippet.',
    edx: 'Open edX: Unit → Add component → Advanced → Raw HTML, paste the snippet (the height stays fixed).',
    downloads: 'Downloads',
    scorm: 'SCORM 1.2 package, whole module and one SCO per section ({lang}): for a Moodle SCORM activity or a Canvas SCORM import',
    single: 'This section as a single HTML file (no server needed; for file areas that serve .wasm wrongly)',
    scormSection: 'This section alone as a SCORM 1.2 package ({lang}): one activity per section',
    singleCourse: 'The whole course as a single HTML file',
    frameTitle: 'GRPO Lab: {title}',
    previewTitle: 'Preview of the widget',
  },
  ru: {
    docTitle: 'GRPO Lab: ссылки для преподавателя',
    title: 'GRPO Lab для преподавателя: ссылки и фрагменты',
    intro:
      'Выберите раздел и язык, задайте в самом виджете значения, с которых начнут студенты, отметьте, что скрыть, и скопируйте ссылку или фрагмент iframe в свой курс. Ничего нигде не хранится: всё записано в ссылке.',
    uiLanguage: 'Язык этой страницы',
    step1: '1. Что показать',
    section: 'Раздел',
    course: 'Весь курс (разделы 0–9)',
    widgetLanguage: 'Язык виджета',
    step2: '2. Задайте начальные значения',
    step2Hint:
      'Так виджет увидят студенты. Каждое значение, которое вы здесь измените, попадёт в ссылку (только изменённые; остальные останутся по умолчанию).',
    studentView: 'Показать так, как увидят студенты (со скрытием ниже)',
    reset: 'Вернуть значения по умолчанию',
    step3: '3. Что скрыть',
    parts: 'Части раздела',
    controls: 'Отдельные элементы управления',
    noControls: 'В этом разделе нет элементов управления.',
    'part.title': 'Заголовок раздела',
    'part.text': 'Объяснение и формулы',
    'part.controls': 'Все настройки (студенты видят только ваши значения)',
    'part.notice': 'Блок «На что обратить внимание»',
    'part.footer': 'Ссылка на полный курс',
    step4: '4. Скопируйте в свой курс',
    url: 'Ссылка',
    snippet: 'Фрагмент iframe (HTML)',
    height: 'Высота фрейма в пикселях',
    heightHint: 'Измерена по предпросмотру. Страницы Canvas и Moodle LTI меняют высоту фрейма сами; в остальных местах останется эта.',
    copy: 'Копировать',
    copied: 'Скопировано.',
    selected: 'Выделено: нажмите Ctrl+C (⌘C), чтобы скопировать.',
    open: 'Открыть ссылку в новой вкладке',
    where: 'Куда вставить',
    moodle:
      'Moodle: в ресурсе «Страница» или «Пояснение» переключите редактор в режим HTML и вставьте фрагмент; или добавьте ресурс «Гиперссылка» с этой ссылкой и отображением «Встроить».',
    canvas: 'Canvas: на странице откройте HTML-редактор (</>) и вставьте фрагмент.',
    edx: 'Open edX: Unit → Add component → Advanced → Raw HTML, вставьте фрагмент (высота останется фиксированной).',
    downloads: 'Загрузки',
    scorm: 'Пакет SCORM 1.2: весь модуль и по SCO на раздел ({lang}), для элемента SCORM в Moodle или импорта SCORM в Canvas',
    single: 'Этот раздел одним HTML-файлом (сервер не нужен; для файловых хранилищ, которые неверно отдают .wasm)',
    scormSection: 'Только этот раздел, пакетом SCORM 1.2 ({lang}): по элементу курса на раздел',
    singleCourse: 'Весь курс одним HTML-файлом',
    frameTitle: 'GRPO Lab: {title}',
    previewTitle: 'Предпросмотр виджета',
  },
};

const LANGUAGE_NAMES = { en: 'English', ru: 'Русский' };
const DEFAULT_HEIGHT = 900;
const POLL_MS = 250;

const html = document.documentElement;
let ui = new URLSearchParams(location.hash.slice(1)).get('lang');
if (!LANGUAGES.includes(ui)) ui = navigator.languages?.some((l) => /^ru\b/i.test(l)) ? 'ru' : 'en';
const s = (key, params = {}) => (STRINGS[ui][key] ?? STRINGS.en[key] ?? key).replace(/\{(\w+)\}/g, (_, name) => params[name] ?? '');

const state = {
  section: SECTIONS[1]?.id ?? 'course',
  lang: ui,
  values: '', // the preview's own hash (state keys), without section, lang and hide
  hide: [],
  studentView: false,
  height: null,
};

function sectionTitle(id, lang) {
  const section = SECTIONS.find((x) => x.id === id);
  return section ? translate(section.titleKey, {}, lang) : translate('page.docTitle', {}, lang);
}

// Every state key's default, in its URL form: the link keeps only the values that differ.
const DEFAULTS = {};
for (const section of SECTIONS) {
  for (const [key, spec] of Object.entries(section.schema ?? {})) {
    if (spec.default !== null && spec.default !== undefined) DEFAULTS[key] = formatValue(spec, spec.default);
  }
}

function decode(text) {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

/** The state part of the preview's hash: the changed values (no section, lang, hide). */
function stateOf(hash) {
  const params = hash
    .replace(/^#/, '')
    .split('&')
    .filter((part) => {
      if (!part || /^(section|lang|hide)(=|$)/.test(part)) return false;
      const eq = part.indexOf('=');
      const key = decode(part.slice(0, eq));
      return eq < 0 || DEFAULTS[key] !== decode(part.slice(eq + 1));
    });
  return params.join('&');
}

function pageName() {
  return state.section === 'course' ? 'index.html' : 'embed.html';
}

function linkHash({ withHide = true } = {}) {
  const parts = [];
  if (state.section !== 'course') parts.push(`section=${encodeURIComponent(state.section)}`);
  parts.push(`lang=${state.lang}`);
  if (state.values) parts.push(state.values);
  if (withHide && state.hide.length) parts.push(`hide=${formatHide(state.hide)}`);
  return parts.join('&');
}

function linkUrl() {
  const url = new URL(pageName(), location.href);
  url.hash = linkHash();
  return url.href;
}

const escapeAttribute = (text) => String(text).replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');

function snippet() {
  const title = s('frameTitle', { title: sectionTitle(state.section, state.lang).replace(/^\d+\.\s*/, '') });
  const height = state.height ?? DEFAULT_HEIGHT;
  return `<iframe src="${escapeAttribute(linkUrl())}" title="${escapeAttribute(title)}" width="100%" height="${height}" loading="lazy" style="border:0;max-width:100%"></iframe>`;
}

async function copy(text, status, field) {
  try {
    await navigator.clipboard.writeText(text);
    status.textContent = s('copied');
  } catch {
    field.focus();
    field.select();
    status.textContent = s('selected');
  }
}

async function main() {
  await Promise.all(LANGUAGES.map(loadLanguage));
  document.title = s('docTitle');
  html.lang = ui;
  const root = document.getElementById('app');

  // --- header and step 1 ---------------------------------------------------------------------
  const uiSelect = h('select', { id: 'teacher-ui-lang' }, LANGUAGES.map((code) => h('option', { value: code, text: LANGUAGE_NAMES[code] })));
  uiSelect.value = ui;
  uiSelect.addEventListener('change', () => {
    location.hash = `lang=${uiSelect.value}`;
    location.reload();
  });
  const sectionSelect = h(
    'select',
    { id: 'teacher-section' },
    SECTIONS.map((section) => h('option', { value: section.id, text: translate(section.titleKey, {}, ui) })),
    h('option', { value: 'course', text: s('course') }),
  );
  sectionSelect.value = state.section;
  const langSelect = h('select', { id: 'teacher-lang' }, LANGUAGES.map((code) => h('option', { value: code, text: LANGUAGE_NAMES[code] })));
  langSelect.value = state.lang;

  // --- step 2: the live preview --------------------------------------------------------------
  const frame = h('iframe', { class: 'teacher-preview', title: s('previewTitle') });
  const studentView = h('input', { type: 'checkbox', id: 'teacher-student-view' });
  const reset = h('button', { type: 'button', class: 'button-quiet', text: s('reset') });

  // --- step 3: hide flags ----------------------------------------------------------------------
  const partChecks = Object.keys(HIDE_PARTS).map((part) => {
    const input = h('input', { type: 'checkbox', dataset: { hide: part } });
    return h('label', {}, input, s(`part.${part}`));
  });
  const controlChecks = h('div', { class: 'teacher-checks', id: 'teacher-controls' });

  // --- step 4: outputs -------------------------------------------------------------------------
  const urlField = h('input', { type: 'text', id: 'teacher-url', class: 'teacher-output', readonly: true });
  const snippetField = h('textarea', { id: 'teacher-snippet', rows: 4, readonly: true, spellcheck: 'false' });
  const heightField = h('input', { type: 'number', id: 'teacher-height', min: 100, max: 20000, step: 10, 'aria-describedby': 'teacher-height-hint' });
  const urlStatus = h('span', { class: 'copy-status', role: 'status' });
  const snippetStatus = h('span', { class: 'copy-status', role: 'status' });
  const copyUrl = h('button', { type: 'button', class: 'button-quiet', text: s('copy') });
  const copySnippet = h('button', { type: 'button', class: 'button-quiet', text: s('copy') });
  const openLink = h('a', { href: '#', target: '_blank', rel: 'noopener', text: s('open') });
  copyUrl.addEventListener('click', () => copy(urlField.value, urlStatus, urlField));
  copySnippet.addEventListener('click', () => copy(snippetField.value, snippetStatus, snippetField));

  const downloads = h('div', { id: 'teacher-downloads' });

  root.replaceChildren(
    h(
      'main',
      { class: 'teacher', id: 'main' },
      h('header', {}, h('h1', { text: s('title') }), h('div', {}, h('label', { for: 'teacher-ui-lang', text: s('uiLanguage') }), uiSelect)),
      h('p', { text: s('intro') }),
      h('h2', { text: s('step1') }),
      h(
        'div',
        { class: 'teacher-grid' },
        h('div', {}, h('label', { for: 'teacher-section', text: s('section') }), sectionSelect),
        h('div', {}, h('label', { for: 'teacher-lang', text: s('widgetLanguage') }), langSelect),
      ),
      h('h2', { text: s('step2') }),
      h('p', { class: 'teacher-hint', text: s('step2Hint') }),
      h('div', { class: 'teacher-copy-row' }, h('label', { class: 'teacher-checks' }, studentView, s('studentView')), reset),
      h('div', { class: 'teacher-preview-wrap' }, frame),
      h('h2', { text: s('step3') }),
      h('fieldset', {}, h('legend', { text: s('parts') }), h('div', { class: 'teacher-checks' }, partChecks)),
      h('fieldset', {}, h('legend', { text: s('controls') }), controlChecks),
      h('h2', { text: s('step4') }),
      h('label', { for: 'teacher-url', text: s('url') }),
      urlField,
      h('div', { class: 'teacher-copy-row' }, copyUrl, urlStatus, openLink),
      h('label', { for: 'teacher-snippet', text: s('snippet') }),
      snippetField,
      h('div', { class: 'teacher-copy-row' }, copySnippet, snippetStatus),
      h('label', { for: 'teacher-height', text: s('height') }),
      heightField,
      h('p', { class: 'teacher-hint', id: 'teacher-height-hint', text: s('heightHint') }),
      h('h2', { text: s('where') }),
      h('ul', { class: 'teacher-where' }, h('li', { text: s('moodle') }), h('li', { text: s('canvas') }), h('li', { text: s('edx') })),
      downloads,
    ),
  );

  // --- behaviour -----------------------------------------------------------------------------
  const outputs = () => {
    urlField.value = linkUrl();
    snippetField.value = snippet();
    openLink.href = urlField.value;
    if (document.activeElement !== heightField) heightField.value = String(state.height ?? DEFAULT_HEIGHT);
    drawDownloads();
  };

  const previewHash = () => linkHash({ withHide: state.studentView });
  const loadPreview = () => {
    const url = new URL(pageName(), location.href);
    url.hash = previewHash();
    state.height = null;
    frame.src = url.href;
  };
  // A change of language or view: through the preview's hash when it is up (keeps its values).
  const updatePreview = () => {
    try {
      const win = frame.contentWindow;
      if (win.document.documentElement.dataset.ready === 'true' && win.location.pathname.endsWith(`/${pageName()}`)) {
        win.location.hash = previewHash();
        return;
      }
    } catch {
      // not loaded yet
    }
    loadPreview();
  };

  // The preview writes its state to its own hash (history.replaceState): read it back.
  let lastSeen = '';
  let knownControls = '';
  const poll = () => {
    let doc = null;
    try {
      doc = frame.contentDocument;
    } catch {
      doc = null;
    }
    if (doc?.documentElement?.dataset.ready === 'true') {
      html.dataset.ready = 'true';
      const hash = frame.contentWindow.location.hash;
      if (hash !== lastSeen) {
        lastSeen = hash;
        state.values = stateOf(hash);
        outputs();
      }
      drawControls(doc);
    }
  };
  setInterval(poll, POLL_MS);
  frame.addEventListener('load', () => setTimeout(poll, 0));

  function drawControls(doc) {
    const found = [];
    for (const input of doc.querySelectorAll('.section-body [data-key]')) {
      const key = input.dataset.key;
      if (key === 'lang' || found.some((f) => f.key === key)) continue;
      const label = doc.querySelector(`label[for="${CSS.escape(input.id)}"]`)?.textContent?.trim() || key;
      found.push({ key, label });
    }
    const signature = JSON.stringify(found);
    if (signature === knownControls) return;
    knownControls = signature;
    if (state.studentView && !found.length && controlChecks.childElementCount) return; // hidden, not gone
    controlChecks.replaceChildren(
      ...(found.length
        ? found.map(({ key, label }) => {
            const input = h('input', { type: 'checkbox', dataset: { hide: key }, checked: state.hide.includes(key) });
            return h('label', {}, input, `${label} (`, h('code', { text: key }), ')');
          })
        : [h('p', { class: 'teacher-hint', text: s('noControls') })]),
    );
  }

  root.addEventListener('change', (event) => {
    const flag = event.target?.dataset?.hide;
    if (!flag) return;
    const flags = new Set(state.hide);
    if (event.target.checked) flags.add(flag);
    else flags.delete(flag);
    // Parts first, in their order, then controls: a stable link.
    state.hide = parseHide([...Object.keys(HIDE_PARTS).filter((p) => flags.has(p)), ...[...flags].filter((f) => !(f in HIDE_PARTS))].join(','));
    outputs();
    if (state.studentView) updatePreview();
  });

  sectionSelect.addEventListener('change', () => {
    state.section = sectionSelect.value;
    state.values = '';
    state.hide = state.hide.filter((flag) => flag in HIDE_PARTS);
    knownControls = '';
    controlChecks.replaceChildren();
    loadPreview();
    outputs();
  });
  langSelect.addEventListener('change', () => {
    state.lang = langSelect.value;
    updatePreview();
    outputs();
  });
  studentView.addEventListener('change', () => {
    state.studentView = studentView.checked;
    updatePreview();
  });
  reset.addEventListener('click', () => {
    state.values = '';
    loadPreview();
    outputs();
  });
  heightField.addEventListener('input', () => {
    const value = Number(heightField.value);
    if (Number.isInteger(value) && value >= 100 && value <= 20000) {
      state.height = value;
      snippetField.value = snippet();
    }
  });

  // The embed page reports its height (lti.frameResize): size the preview, suggest the height.
  window.addEventListener('message', (event) => {
    if (event.source !== frame.contentWindow || event.data?.subject !== 'lti.frameResize') return;
    const height = Math.ceil(Number(event.data.height));
    if (!Number.isFinite(height) || height <= 0) return;
    frame.style.height = `${height}px`;
    state.height = Math.ceil((height + 8) / 10) * 10;
    outputs();
  });

  function drawDownloads() {
    const base = html.dataset.downloads;
    if (!base) return;
    const items = LANGUAGES.map((code) =>
      h('li', {}, h('a', { href: `${base}grpo-lab-scorm12-${code}.zip`, download: true, text: `grpo-lab-scorm12-${code}.zip` }), ' — ', s('scorm', { lang: LANGUAGE_NAMES[code] })),
    );
    const single = state.section === 'course' ? 'index' : state.section;
    if (state.section !== 'course') {
      const name = `grpo-lab-${state.section}-scorm12-${state.lang}.zip`;
      items.push(h('li', {}, h('a', { href: `${base}scorm-sections/${name}`, download: true, text: name }), ' — ', s('scormSection', { lang: LANGUAGE_NAMES[state.lang] })));
    }
    items.push(
      h('li', {}, h('a', { href: `${base}single/${single}.html`, download: `grpo-lab-${single}.html`, text: `grpo-lab-${single}.html` }), ' — ', s(state.section === 'course' ? 'singleCourse' : 'single')),
    );
    downloads.replaceChildren(h('h2', { text: s('downloads') }), h('ul', {}, items));
  }

  loadPreview();
  outputs();
}

main().catch((error) => {
  console.error(error);
  const status = document.getElementById('boot-status');
  if (status) status.textContent = `GRPO Lab could not start: ${error.message}`;
});
