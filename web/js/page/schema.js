// Every state key of the course: the page's own (`lang`) and each section's; the one schema the
// course page, the embed page and the teacher page parse and write links with.
import { SECTIONS } from '../sections/index.js';
import { LANGUAGES } from '../i18n.js';

export const GLOBAL_SCHEMA = {
  lang: { kind: 'enum', options: LANGUAGES, default: 'en' },
};

export function fullSchema() {
  const schema = { ...GLOBAL_SCHEMA };
  for (const section of SECTIONS) Object.assign(schema, section.schema ?? {});
  return schema;
}
