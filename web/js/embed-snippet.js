// The iframe snippet an instructor pastes into a course page, in one place for the course page's
// "Embed this section" box and the teacher page.
import { t } from './i18n.js';

/** The frame height when nothing measured the content (LTI and H5P hosts resize it anyway). */
export const DEFAULT_EMBED_HEIGHT = 900;

const escapeAttribute = (text) => String(text).replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');

/** The frame's accessible name: "GRPO Lab: <section title>" (the whole course: the page title). */
export function embedTitle(section, lang) {
  const title = section ? t(section.titleKey, {}, lang).replace(/^\d+\.\s*/, '') : t('page.docTitle', {}, lang);
  return t('embed.frameTitle', { title }, lang);
}

/** `<iframe>` HTML for the page at `src`; `section` (or null: the course) names the frame. */
export function embedSnippet({ src, section, lang, height = DEFAULT_EMBED_HEIGHT }) {
  return `<iframe src="${escapeAttribute(src)}" title="${escapeAttribute(embedTitle(section, lang))}" width="100%" height="${height}" loading="lazy" style="border:0;max-width:100%"></iframe>`;
}
