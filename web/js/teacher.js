// The instructor page (teacher.html): pick a section (or the whole course) and its language, set
// preset values in the live widget itself (the preview below is the real embed page; whatever is
// set there goes into its link), tick what to hide, and copy the link and the iframe snippet.
// The hide flags ride in the link's hash like the rest of the state (js/hide.js). Where the page
// was published by `npm run package`, it also offers the SCORM packages and the single files.
// Its strings are in js/i18n/ (teacher.*), its links are written with js/state.js.
import { SECTIONS } from './sections/index.js';
import { loadLanguage, setLanguage, preferredLanguage, t, LANGUAGES } from './i18n.js';
import { HIDE_PARTS, formatHide, parseHide } from './hide.js';
import { formatHash, formatValue, parseHash } from './state.js';
import { fullSchema, GLOBAL_SCHEMA } from './page/schema.js';
import { DEFAULT_EMBED_HEIGHT, embedSnippet } from './embed-snippet.js';
import { h } from './dom.js';

const SCHEMA = fullSchema();
const html = document.documentElement;
const linked = parseHash(location.hash, GLOBAL_SCHEMA);
const ui = linked.present.has('lang') ? linked.values.lang : preferredLanguage();
const s = (key, params = {}) => t(`teacher.${key}`, params);
const languageName = (code) => t(`lang.${code}`);

const state = {
  section: SECTIONS[1]?.id ?? 'course',
  lang: ui,
  values: {}, // the preview's state values that differ from their defaults (no section, lang, hide)
  hide: [],
  studentView: false,
  height: null,
};

/** The state values of a preview's hash that differ from their defaults (what the link keeps). */
function changedValues(hash) {
  const { values, present } = parseHash(hash, SCHEMA, { passThrough: ['section', 'hide'] });
  const changed = {};
  for (const key of present) {
    if (key === 'lang') continue;
    const spec = SCHEMA[key];
    if (spec.default === null || spec.default === undefined || formatValue(spec, values[key]) !== formatValue(spec, spec.default)) changed[key] = values[key];
  }
  return changed;
}

function pageName() {
  return state.section === 'course' ? 'index.html' : 'embed.html';
}

function linkHash({ withHide = true } = {}) {
  const section = state.section === 'course' ? [] : [`section=${encodeURIComponent(state.section)}`];
  const values = { ...state.values, lang: state.lang };
  const hash = formatHash(values, SCHEMA, ['lang', ...Object.keys(state.values)], section);
  return withHide && state.hide.length ? `${hash}&hide=${formatHide(state.hide)}` : hash;
}

function linkUrl() {
  const url = new URL(pageName(), location.href);
  url.hash = linkHash();
  return url.href;
}

function snippet() {
  const section = SECTIONS.find((x) => x.id === state.section) ?? null;
  return embedSnippet({ src: linkUrl(), section, lang: state.lang, height: state.height ?? DEFAULT_EMBED_HEIGHT });
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
  setLanguage(ui);
  document.title = s('docTitle');
  const root = document.getElementById('app');

  // --- header and step 1 ---------------------------------------------------------------------
  const uiSelect = h('select', { id: 'teacher-ui-lang' }, LANGUAGES.map((code) => h('option', { value: code, text: languageName(code) })));
  uiSelect.value = ui;
  uiSelect.addEventListener('change', () => {
    location.hash = formatHash({ lang: uiSelect.value }, GLOBAL_SCHEMA);
    location.reload();
  });
  const sectionSelect = h(
    'select',
    { id: 'teacher-section' },
    SECTIONS.map((section) => h('option', { value: section.id, text: t(section.titleKey) })),
    h('option', { value: 'course', text: s('course') }),
  );
  sectionSelect.value = state.section;
  const langSelect = h('select', { id: 'teacher-lang' }, LANGUAGES.map((code) => h('option', { value: code, text: languageName(code) })));
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
    if (document.activeElement !== heightField) heightField.value = String(state.height ?? DEFAULT_EMBED_HEIGHT);
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

  // The preview writes its state to its own hash and says so (`grpo:state`); it says `grpo:ready`
  // after every render (a language switch, a reset). Same origin: listen on its window.
  let knownControls = '';
  const watchPreview = () => {
    let win = null;
    try {
      win = frame.contentWindow;
      if (!win?.document) return;
    } catch {
      return;
    }
    const read = () => {
      if (win.document.documentElement.dataset.ready !== 'true') return;
      html.dataset.ready = 'true';
      state.values = changedValues(win.location.hash);
      outputs();
      drawControls(win.document);
    };
    win.addEventListener('grpo:ready', read);
    win.addEventListener('grpo:state', read);
    read();
  };
  frame.addEventListener('load', watchPreview);

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
    state.values = {};
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
    state.values = {};
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
      h('li', {}, h('a', { href: `${base}grpo-lab-scorm12-${code}.zip`, download: true, text: `grpo-lab-scorm12-${code}.zip` }), ' — ', s('scorm', { lang: languageName(code) })),
    );
    const single = state.section === 'course' ? 'index' : state.section;
    if (state.section !== 'course') {
      const name = `grpo-lab-${state.section}-scorm12-${state.lang}.zip`;
      items.push(h('li', {}, h('a', { href: `${base}scorm-sections/${name}`, download: true, text: name }), ' — ', s('scormSection', { lang: languageName(state.lang) })));
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
