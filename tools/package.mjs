// `npm run package` (after `bash tools/build.sh`): the LMS delivery kit, in dist/ (or --out DIR;
// --scorm-only: the SCORM packages alone, in DIR/scorm):
//
//   dist/site/                        the static site, ready for any static host (web/ as built,
//                                     plus _headers and .htaccess with the hosting guide's headers)
//   dist/site/downloads/              what the teacher page (teacher.html) offers for download:
//     grpo-lab-scorm12-en.zip         SCORM 1.2 package, English titles and default language
//     grpo-lab-scorm12-ru.zip         the same in Russian
//     single/<section>.html           one section in ONE file: page, core (WASM inlined), Chart.js,
//     single/index.html               KaTeX CSS and fonts, data; the whole course as one file
//     scorm-sections/grpo-lab-<section>-scorm12-<lang>.zip   one section as a SCORM package of its
//                                     own (its single file is the SCO), one activity per section
//   dist/scorm/, dist/single/         the same files, linked, for whoever looks in dist/ first
//
// The SCORM package holds the site's files, one launch page per SCO (sco-course.html: the whole
// module; sco-<section>.html: one section each), and imsmanifest.xml listing every file. Each
// launch page is the course or embed page plus js/scorm.js (the SCORM 1.2 adapter).
// The single files come from one esbuild bundle (tools/single-entry.js) with the core built by
// the CMake target grpo_core_single (-sSINGLE_FILE=1, build/wasm/single/), built here.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { copyFileSync, existsSync, linkSync, readFileSync } from 'node:fs';
import { mkdir, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { writeZip } from './zip.mjs';
import { securityHeaders } from './serve.mjs';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const WEB = join(ROOT, 'web');
const SINGLE_CORE = join(ROOT, 'build', 'wasm', 'single', 'grpo_core.js');
const LANGS = ['en', 'ru'];
// Files of web/ that are not part of the site (docs for developers; the glossary, read by tests).
const NOT_SITE = new Set(['README.md', 'js/i18n/glossary.js']);
// Files of the site that are not part of the SCORM package (instructor tools, host config).
const NOT_SCORM = new Set(['teacher.html', 'js/teacher.js', 'css/teacher.css', '_headers', '.htaccess']);
// Sections that show the training run: their single files carry the precomputed run.
const TRAINING = new Set(['rl-loop', 'updates', 'coverage', 'real-model']);
const DATA_FILES = ['data/smoke-run.json', 'data/smoke-checkpoint.json'];

const posix = (path) => path.split(sep).join('/');

async function listFiles(dir, base = dir) {
  const out = [];
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) out.push(...(await listFiles(path, base)));
    else if (entry.isFile()) out.push(posix(relative(base, path)));
  }
  return out.sort();
}

/** The files of web/ that the site serves (paths relative to web/, sorted). */
const listSiteFiles = async () => (await listFiles(WEB)).filter((file) => !NOT_SITE.has(file) && !file.startsWith('downloads/'));

export const escapeXml = (text) =>
  String(text).replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&apos;');
const escapeHtml = escapeXml;

function checkBuilt() {
  const needed = ['core/grpo_core.js', 'core/grpo_core.wasm', 'vendor/chart.min.js', 'vendor/formulas.js', 'vendor/katex/katex.min.css'];
  const missing = needed.filter((file) => !existsSync(join(WEB, file)));
  if (missing.length) throw new Error(`package: web/ is not built (missing ${missing.join(', ')}): run bash tools/build.sh first`);
}

/** Builds (or confirms up to date) the single-file core: CMake target grpo_core_single. */
function buildSingleCore(log) {
  const env = { ...process.env, NODE_PATH: '/usr/share/nodejs' };
  const dir = join(ROOT, 'build', 'wasm');
  const run = (args) => execFileSync('cmake', args, { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'inherit'] });
  if (!existsSync(join(dir, 'CMakeCache.txt'))) run(['--preset', 'wasm']);
  // A build folder configured before the target existed: configure again (seconds).
  const makefile = join(dir, 'Makefile');
  if (!existsSync(makefile) || !readFileSync(makefile, 'utf8').includes('grpo_core_single')) run(['-S', ROOT, '-B', dir]);
  const started = Date.now();
  run(['--build', dir, '--target', 'grpo_core_single', '-j', String(process.env.JOBS ?? 2)]);
  log(`package: core with inlined WebAssembly (build/wasm/single/grpo_core.js) ready in ${((Date.now() - started) / 1000).toFixed(1)} s`);
}

async function loadCourse() {
  const { SECTIONS } = await import(pathToFileURL(join(WEB, 'js', 'sections', 'index.js')).href);
  const dictionaries = {};
  for (const lang of LANGS) {
    dictionaries[lang] = (await import(pathToFileURL(join(WEB, 'js', 'i18n', `${lang}.js`)).href)).default;
  }
  const sections = SECTIONS.map((section) => ({
    id: section.id,
    number: section.number,
    charts: Boolean(section.charts),
    title: Object.fromEntries(LANGS.map((lang) => [lang, dictionaries[lang][section.titleKey]])),
  }));
  const course = {
    title: Object.fromEntries(LANGS.map((lang) => [lang, dictionaries[lang]['page.docTitle']])),
    long: Object.fromEntries(LANGS.map((lang) => [lang, dictionaries[lang]['page.title']])),
  };
  return { sections, course };
}

// --- the static site ------------------------------------------------------------------------------

/** Host configuration files with the hosting guide's headers (tools/serve.mjs sends the same). */
export function hostFiles(frameAncestors) {
  const page = securityHeaders({ frameAncestors });
  const single = securityHeaders({ frameAncestors, singleFile: true });
  const block = (headers) => Object.entries(headers).map(([name, value]) => `  ${name}: ${value}`).join('\n');
  const { 'Content-Security-Policy': pagePolicy, ...common } = page;
  // The policy goes on the pages only (with and without .html: some hosts drop the extension);
  // the single-file pages carry their own, and take frame-ancestors from here.
  const pages = ['/', '/index.html', '/index', '/embed.html', '/embed', '/teacher.html', '/teacher'];
  const headersFile = [
    '# Netlify / Cloudflare Pages headers for GRPO Lab (docs/hosting.md). Edit frame-ancestors to',
    '# list the origins of your LMS, e.g. https://moodle.example.edu https://example.instructure.com',
    '/*',
    block(common),
    '/core/*.wasm',
    '  Content-Type: application/wasm',
    ...pages.flatMap((path) => [path, block({ 'Content-Security-Policy': pagePolicy })]),
    '/downloads/single/*',
    block({ 'Content-Security-Policy': single['Content-Security-Policy'] }),
    '',
  ].join('\n');
  const apache = (headers) =>
    Object.entries(headers)
      .map(([name, value]) => `  Header always set ${name} "${value.replace(/"/g, '\\"')}"`)
      .join('\n');
  const htaccess = [
    '# Apache: the headers of docs/hosting.md for GRPO Lab (needs mod_headers and mod_mime).',
    '# Edit frame-ancestors to list the origins of your LMS.',
    'AddType application/wasm .wasm',
    'AddType text/javascript .js .mjs',
    'AddType application/json .json',
    '<IfModule mod_headers.c>',
    '  Header always unset X-Frame-Options',
    apache(common),
    '  <FilesMatch "\\.html$">',
    `  ${apache({ 'Content-Security-Policy': pagePolicy })}`,
    '  </FilesMatch>',
    '</IfModule>',
    '',
  ].join('\n');
  // The single-file pages carry their own policy (<meta>, inline scripts by hash).
  const singleHtaccess = ['<IfModule mod_headers.c>', apache({ 'Content-Security-Policy': single['Content-Security-Policy'] }), '</IfModule>', ''].join('\n');
  return { headersFile, htaccess, singleHtaccess };
}

// --- single-file pages ----------------------------------------------------------------------------

/** Makes script text safe inside <script>...</script>. */
function inlineScript(text) {
  return text.replace(/<\/(script)/gi, '<\\/$1').replace(/<!--/g, '<\\!--');
}

const sha256 = (text) => `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`;

async function bundleSingle() {
  const esbuild = await import('esbuild');
  const virtualUrls = {
    name: 'grpo-single-file',
    setup(build) {
      build.onResolve({ filter: /^\.\/grpo_core\.js$/ }, (args) =>
        args.importer === join(WEB, 'core', 'index.js') ? { path: SINGLE_CORE } : undefined,
      );
      // One core per page: the reference and threaded builds' loaders export no module, and
      // loadReferenceCore() and loadCore() give the full core (web/core/index.js).
      build.onResolve({ filter: /^\.\/grpo_core_(reference|mt)\.js$/ }, (args) =>
        args.importer === join(WEB, 'core', 'index.js') ? { path: args.path.slice(2), namespace: 'grpo-no-reference-build' } : undefined,
      );
      build.onLoad({ filter: /.*/, namespace: 'grpo-no-reference-build' }, () => ({ contents: 'export default null;', loader: 'js' }));
      build.onLoad({ filter: /\.m?js$/ }, async (args) => {
        const rel = args.path === SINGLE_CORE ? 'core/grpo_core.js' : posix(relative(WEB, args.path));
        if (rel.startsWith('..')) return undefined;
        const text = await readFile(args.path, 'utf8');
        return { contents: text.replaceAll('import.meta.url', JSON.stringify(`grpo:/${rel}`)), loader: 'js' };
      });
    },
  };
  const result = await esbuild.build({
    entryPoints: [join(ROOT, 'tools', 'single-entry.js')],
    bundle: true,
    format: 'iife',
    platform: 'browser',
    target: 'es2022',
    minify: true,
    write: false,
    external: ['node:*'],
    legalComments: 'eof',
    logLevel: 'error',
    plugins: [virtualUrls],
  });
  return inlineScript(result.outputFiles[0].text);
}

async function inlineCss() {
  let katex = await readFile(join(WEB, 'vendor', 'katex', 'katex.min.css'), 'utf8');
  const fonts = new Map();
  for (const match of katex.matchAll(/url\((fonts\/[^)]+\.woff2)\)/g)) fonts.set(match[1], null);
  for (const font of fonts.keys()) {
    const bytes = await readFile(join(WEB, 'vendor', 'katex', font));
    katex = katex.replaceAll(`url(${font})`, `url(data:font/woff2;base64,${bytes.toString('base64')})`);
  }
  const own = [];
  for (const file of ['main.css', 'training.css']) {
    if (existsSync(join(WEB, 'css', file))) own.push(await readFile(join(WEB, 'css', file), 'utf8'));
  }
  return `${own.join('\n')}\n${katex}`.replace(/<\/(style)/gi, '<\\/$1');
}

function singlePage({ lang, title, section, css, chart, bundle, data, icon, scorm = false }) {
  const scripts = [chart, bundle].filter(Boolean);
  const csp = [
    "default-src 'none'",
    `script-src ${scripts.map(sha256).join(' ')} 'wasm-unsafe-eval'`,
    "style-src 'unsafe-inline'",
    'img-src data: blob:',
    'font-src data:',
    'worker-src blob:',
    // The core reads its own inlined WebAssembly through fetch('data:...'); nothing else.
    'connect-src data:',
    "base-uri 'none'",
    "form-action 'none'",
  ].join('; ');
  let attributes = section
    ? ` class="embedded" data-section="${section}" data-hide="footer" data-single-file=""`
    : ' data-single-file=""';
  if (scorm) attributes += ` data-lang="${lang}" data-scorm="1.2"`;
  const files = data
    .map(({ name, text }) => `<script type="application/json" data-file="${name}">${text.replace(/<\//g, '<\\/')}</script>`)
    .join('\n');
  return `<!doctype html>
<html lang="${lang}"${attributes}>
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="${csp}">
<meta name="description" content="GRPO Lab, single-file page: everything (page, WebAssembly core, charts, fonts) is inside this one file; it needs no server and no network.">
<title>${escapeHtml(title)}</title>
<link rel="icon" href="${icon}">
<style>${css}</style>
</head>
<body>
<div id="app"${section ? ' class="embed-root"' : ''}><p id="boot-status" class="boot-status" role="status">Loading GRPO Lab… / Загрузка GRPO Lab…</p></div>
<noscript><p class="boot-status">GRPO Lab needs JavaScript and WebAssembly. / Для GRPO Lab нужны JavaScript и WebAssembly.</p></noscript>
${files}
${chart ? `<script>${chart}</script>\n` : ''}<script id="grpo-bundle">${bundle}</script>
</body>
</html>
`;
}

async function buildSingleFiles({ sections, course }, outDir, log) {
  const started = Date.now();
  const [bundle, css, chartText, iconBytes] = await Promise.all([
    bundleSingle(),
    inlineCss(),
    readFile(join(WEB, 'vendor', 'chart.min.js'), 'utf8'),
    readFile(join(WEB, 'favicon.svg')),
  ]);
  const chart = inlineScript(chartText);
  const icon = `data:image/svg+xml;base64,${iconBytes.toString('base64')}`;
  const data = [];
  for (const name of DATA_FILES) {
    if (existsSync(join(WEB, name))) data.push({ name, text: (await readFile(join(WEB, name), 'utf8')).trim() });
  }
  await mkdir(outDir, { recursive: true });
  const written = [];
  const write = async (name, html) => {
    await writeFile(join(outDir, name), html);
    written.push({ name, bytes: Buffer.byteLength(html) });
  };
  // One section's single file: Chart.js only where it draws, the run data only for 6-9.
  const sectionPage = (section, lang, extra = {}) =>
    singlePage({
      lang,
      title: `${section.title[lang]} · GRPO Lab`,
      section: section.id,
      css,
      chart: section.charts ? chart : null,
      bundle,
      data: TRAINING.has(section.id) ? data : [],
      icon,
      ...extra,
    });
  for (const section of sections) await write(`${section.id}.html`, sectionPage(section, 'en'));
  await write('index.html', singlePage({ lang: 'en', title: course.title.en, section: null, css, chart, bundle, data, icon }));
  // One SCORM 1.2 zip per section and language: the section's single file as the only SCO.
  const scormDir = join(outDir, '..', 'scorm-sections');
  await mkdir(scormDir, { recursive: true });
  const sectionZips = [];
  for (const section of sections) {
    for (const lang of LANGS) {
      const title = section.title[lang];
      const page = sectionPage(section, lang, { scorm: true });
      const sco = { id: section.id, href: 'index.html', title };
      const zip = writeZip([
        { name: 'imsmanifest.xml', data: manifest({ lang, course, scos: [sco], shared: [], title, identifier: `grpo-lab-module-9-${section.id}-${lang}` }) },
        { name: 'index.html', data: page },
      ]);
      const name = `grpo-lab-${section.id}-scorm12-${lang}.zip`;
      await writeFile(join(scormDir, name), zip);
      sectionZips.push({ name, bytes: zip.length });
    }
  }
  log(`package: ${sectionZips.length} one-section SCORM zips (single-file SCO, up to ${(Math.max(...sectionZips.map((z) => z.bytes)) / 1e6).toFixed(1)} MB)`);
  written.sectionZips = sectionZips;
  const largest = Math.max(...written.map((w) => w.bytes));
  log(`package: ${written.length} single-file pages (largest ${(largest / 1e6).toFixed(1)} MB) in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  return written;
}

// --- SCORM 1.2 ------------------------------------------------------------------------------------

/** A launch page: the course or embed page, marked as a SCO, with the SCORM adapter first. */
export function launchPage(html, { lang, title, section }) {
  let out = html.replace(/<html\b[^>]*>/, (tag) => {
    const base = tag.replace(/\s+lang="[^"]*"/, '').replace(/>$/, '');
    return `${base} lang="${lang}" data-lang="${lang}" data-scorm="1.2"${section ? ` data-section="${section}"` : ''}>`;
  });
  out = out.replace(/<title>[^<]*<\/title>/, `<title>${escapeHtml(title)}</title>`);
  const entry = /<script type="module" src="js\/(app|embed)\.js"><\/script>/;
  if (!entry.test(out)) throw new Error('package: the page has no <script type="module" src="js/app.js|embed.js">');
  out = out.replace(entry, (tag) => `<script type="module" src="js/scorm.js"></script>\n  ${tag}`);
  out = out.replace(
    /(\s*)<link rel="modulepreload" href="js\/page\.js">/,
    (tag, space) => `${space}<link rel="modulepreload" href="js/scorm.js">${space}<link rel="modulepreload" href="js/scorm-api.js">${tag}`,
  );
  return out;
}

/** imsmanifest.xml (SCORM 1.2, IMS CP 1.1.2): one SCO per launch page, shared files as an asset. */
export function manifest({ lang, course, scos, shared, title = course.long[lang], identifier = `grpo-lab-module-9-${lang}` }) {
  const item = (sco, indent) =>
    `${indent}<item identifier="item-${sco.id}" identifierref="res-${sco.id}" isvisible="true">\n` +
    `${indent}  <title>${escapeXml(sco.title)}</title>\n` +
    `${indent}</item>`;
  const [whole, ...sections] = scos;
  const perSection = { en: 'Sections one by one', ru: 'Разделы по отдельности' }[lang];
  const group = sections.length
    ? `\n      <item identifier="item-sections" isvisible="true">\n        <title>${escapeXml(perSection)}</title>\n` +
      `${sections.map((sco) => item(sco, '        ')).join('\n')}\n      </item>`
    : '';
  const assets = shared.length
    ? `\n    <resource identifier="res-shared" type="webcontent" adlcp:scormtype="asset">\n` +
      `${shared.map((file) => `      <file href="${escapeXml(file)}"/>`).join('\n')}\n    </resource>`
    : '';
  return `<?xml version="1.0" encoding="UTF-8"?>
<manifest identifier="${identifier}" version="1.0"
  xmlns="http://www.imsproject.org/xsd/imscp_rootv1p1p2"
  xmlns:adlcp="http://www.adlnet.org/xsd/adlcp_rootv1p2">
  <metadata>
    <schema>ADL SCORM</schema>
    <schemaversion>1.2</schemaversion>
  </metadata>
  <organizations default="grpo-lab">
    <organization identifier="grpo-lab">
      <title>${escapeXml(title)}</title>
${item(whole, '      ')}${group}
    </organization>
  </organizations>
  <resources>
${scos
  .map(
    (sco) => `    <resource identifier="res-${sco.id}" type="webcontent" adlcp:scormtype="sco" href="${escapeXml(sco.href)}">
      <file href="${escapeXml(sco.href)}"/>${shared.length ? '\n      <dependency identifierref="res-shared"/>' : ''}
    </resource>`,
  )
  .join('\n')}${assets}
  </resources>
</manifest>
`;
}

async function buildScorm({ sections, course }, siteFiles, outDir, log) {
  const shared = siteFiles.filter((file) => !NOT_SCORM.has(file) && !file.startsWith('downloads/'));
  const contents = new Map();
  for (const file of shared) contents.set(file, await readFile(join(WEB, file)));
  const indexHtml = contents.get('index.html').toString('utf8');
  const embedHtml = contents.get('embed.html').toString('utf8');
  await mkdir(outDir, { recursive: true });
  const zips = [];
  for (const lang of LANGS) {
    const scos = [
      { id: 'course', href: 'sco-course.html', title: course.title[lang], html: launchPage(indexHtml, { lang, title: course.title[lang] }) },
      ...sections.map((section) => ({
        id: section.id,
        href: `sco-${section.id}.html`,
        title: section.title[lang],
        html: launchPage(embedHtml, { lang, title: `${section.title[lang]} · GRPO Lab`, section: section.id }),
      })),
    ];
    const entries = [
      { name: 'imsmanifest.xml', data: manifest({ lang, course, scos, shared }) },
      ...scos.map((sco) => ({ name: sco.href, data: sco.html })),
      ...shared.map((file) => ({ name: file, data: contents.get(file) })),
    ];
    const zip = writeZip(entries);
    const name = `grpo-lab-scorm12-${lang}.zip`;
    await writeFile(join(outDir, name), zip);
    zips.push({ name, bytes: zip.length, files: entries.length });
  }
  log(`package: SCORM 1.2 packages ${zips.map((z) => `${z.name} (${z.files} files, ${(z.bytes / 1e6).toFixed(1)} MB)`).join(', ')}`);
  return zips;
}

// --- all of it ------------------------------------------------------------------------------------

function link(from, to) {
  try {
    linkSync(from, to);
  } catch {
    copyFileSync(from, to);
  }
}

/**
 * Writes the whole kit under `out`. Options: buildCore (false: use build/wasm/single as it is),
 * frameAncestors (baked into _headers/.htaccess; default $FRAME_ANCESTORS or *).
 */
export async function buildPackage({ out = join(ROOT, 'dist'), log = console.log, buildCore = true, frameAncestors } = {}) {
  checkBuilt();
  if (buildCore) buildSingleCore(log);
  if (!existsSync(SINGLE_CORE)) throw new Error('package: build/wasm/single/grpo_core.js is missing');
  const info = await loadCourse();
  await rm(out, { recursive: true, force: true });
  const site = join(out, 'site');
  const siteFiles = await listSiteFiles();
  for (const file of siteFiles) {
    await mkdir(dirname(join(site, file)), { recursive: true });
    copyFileSync(join(WEB, file), join(site, file));
  }
  // The teacher page offers the downloads only where they exist (here, not in web/).
  const teacher = join(site, 'teacher.html');
  if (existsSync(teacher)) {
    const html = await readFile(teacher, 'utf8');
    await writeFile(teacher, html.replace(/<html\b([^>]*)>/, '<html$1 data-downloads="downloads/">'));
  }
  const { headersFile, htaccess, singleHtaccess } = hostFiles(frameAncestors ?? (process.env.FRAME_ANCESTORS || '*'));
  await writeFile(join(site, '_headers'), headersFile);
  await writeFile(join(site, '.htaccess'), htaccess);

  const downloads = join(site, 'downloads');
  const singles = await buildSingleFiles(info, join(downloads, 'single'), log);
  await writeFile(join(downloads, 'scorm-sections', '.htaccess'), singleHtaccess);
  await writeFile(join(downloads, 'single', '.htaccess'), singleHtaccess);
  const zips = await buildScorm(info, siteFiles, downloads, log);

  await mkdir(join(out, 'scorm'), { recursive: true });
  await mkdir(join(out, 'single'), { recursive: true });
  for (const zip of zips) link(join(downloads, zip.name), join(out, 'scorm', zip.name));
  for (const single of singles) link(join(downloads, 'single', single.name), join(out, 'single', single.name));
  await mkdir(join(out, 'scorm', 'sections'), { recursive: true });
  for (const zip of singles.sectionZips) link(join(downloads, 'scorm-sections', zip.name), join(out, 'scorm', 'sections', zip.name));
  await writeFile(
    join(out, 'README.txt'),
    [
      'GRPO Lab: the LMS delivery kit (npm run package). How to use each part: docs/hosting.md.',
      '',
      'site/     the static site: upload its contents to any static host (HTTPS); _headers and .htaccess',
      '          carry the recommended headers. site/teacher.html builds links and iframe snippets.',
      'scorm/    SCORM 1.2 packages (English, Russian): upload one as a SCORM activity (Moodle) or',
      '          SCORM package (Canvas, Open edX with a SCORM block). One SCO for the whole module,',
      '          one per section. scorm/sections/: one zip per section (a single-file SCO), to place',
      '          each section as an activity of its own.',
      'single/   one HTML file per section (index.html: the whole course), with everything inside:',
      '          for LMS file areas that serve .wasm wrongly, or to open straight from the disk.',
      '',
    ].join('\n'),
  );
  log(`package: done -> ${posix(relative(ROOT, out)) || out}/ (site, scorm, single)`);
  return { out, site, singles, zips };
}

/**
 * The course's SCORM 1.2 packages alone, in `out`/scorm (`--scorm-only`): without the single
 * files and their core, which the kit's other parts need (the engines tests load only these).
 */
export async function buildScormPackages({ out = join(ROOT, 'dist'), log = console.log } = {}) {
  checkBuilt();
  const info = await loadCourse();
  const siteFiles = await listSiteFiles();
  await rm(out, { recursive: true, force: true });
  await mkdir(join(out, 'scorm'), { recursive: true });
  return buildScorm(info, siteFiles, join(out, 'scorm'), log);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const args = process.argv.slice(2);
  const at = args.indexOf('--out');
  const out = at >= 0 ? args[at + 1] : undefined;
  try {
    if (args.includes('--scorm-only')) await buildScormPackages({ out: out ? resolve(out) : undefined });
    else await buildPackage({ out: out ? resolve(out) : undefined, buildCore: !args.includes('--no-core-build') });
    process.exit(0); // the section modules keep a MessageChannel open
  } catch (error) {
    console.error(error.message ?? error);
    process.exit(1);
  }
}
