// The import graph of the site's JS modules, read from their source: which modules load only on
// demand (reached only through the lazy `load` imports of sections 6-9), for page.test's check that
// every other module the page loads is preloaded from its HTML. Derived, not listed: a module a
// branch adds under a training widget is on demand without anyone naming it.
import { existsSync, readFileSync } from 'node:fs';
import { join, posix } from 'node:path';

// `import x from '...'`, `export {x} from '...'`, `import '...'`: loaded with the importer.
const STATIC = /(?:^|[\s;}])(?:import|export)\s+(?:[\w*{}\s,$]+?\s+from\s+)?['"]([^'"]+)['"]/g;
// `import('...')` and `new URL('....js', import.meta.url)` (a worker's module): loaded when run.
const DYNAMIC = /\bimport\(\s*['"]([^'"]+)['"]\s*\)|\bnew URL\(\s*['"]([^'"]+\.m?js)['"]\s*,\s*import\.meta\.url\s*\)/g;

const withoutComments = (text) => text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/^\s*\/\/.*$/gm, '');

/**
 * The graph of the modules under `webRoot` reached from `entries` (site paths such as
 * '/js/app.js'): a Map from each module's site path to {static: [paths], dynamic: [paths]}.
 * Only relative specifiers are followed ('node:fs' and the like are not site files).
 */
export function moduleGraph(webRoot, entries) {
  const graph = new Map();
  const pending = [...entries];
  while (pending.length) {
    const path = pending.pop();
    if (graph.has(path)) continue;
    const file = join(webRoot, path);
    const text = existsSync(file) ? withoutComments(readFileSync(file, 'utf8')) : '';
    const resolve = (specifier) => posix.normalize(posix.join(posix.dirname(path), specifier));
    const relative = (matches) => [...matches].map((m) => m[1] ?? m[2]).filter((s) => s.startsWith('./') || s.startsWith('../')).map(resolve);
    const node = { static: relative(text.matchAll(STATIC)), dynamic: relative(text.matchAll(DYNAMIC)) };
    graph.set(path, node);
    pending.push(...node.static, ...node.dynamic);
  }
  return graph;
}

/** Every module reached from `roots`, following each module's imports that `follow(path, node)` gives. */
function reach(roots, follow) {
  const seen = new Set();
  const pending = [...roots];
  while (pending.length) {
    const path = pending.pop();
    if (seen.has(path)) continue;
    seen.add(path);
    pending.push(...follow(path));
  }
  return seen;
}

/**
 * The modules reached only through the dynamic imports of `lazyModules` (the `load` functions of
 * sections 6-9, section 0's Run): everything those imports reach, minus what the entries reach
 * without them.
 */
export function onDemandModules(webRoot, { entries, lazyModules }) {
  const graph = moduleGraph(webRoot, entries);
  const edges = (path, { lazy }) => {
    const node = graph.get(path) ?? { static: [], dynamic: [] };
    return lazyModules.includes(path) && !lazy ? node.static : [...node.static, ...node.dynamic];
  };
  const eager = reach(entries, (path) => edges(path, { lazy: false }));
  const lazy = reach(
    lazyModules.flatMap((path) => graph.get(path)?.dynamic ?? []),
    (path) => edges(path, { lazy: true }),
  );
  return [...lazy].filter((path) => !eager.has(path)).sort();
}
