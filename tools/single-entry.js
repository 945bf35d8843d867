// Entry of the single-file pages that tools/package.mjs writes: esbuild bundles this file, the
// whole page (web/js) and the core with its WebAssembly inlined (build/wasm/single) into ONE
// classic script, inlined in each page. Every `import.meta.url` of web/ becomes a virtual
// "grpo:/<path>" address at bundle time; below, in the page, fetch() answers those addresses
// from the JSON files inlined in the page, and new Worker() starts the training worker from
// this same script (a blob URL). Nothing is requested from any server after the page itself.
const VIRTUAL = 'grpo:/';

if (typeof document === 'undefined') {
  // In the training worker (started below from this very script).
  import('../web/js/training/worker.js');
} else {
  installShims();
  const html = document.documentElement;
  // A single-file SCO (tools/package.mjs, per-section SCORM zips): the SCORM adapter starts first,
  // as on the multi-file launch pages (it may set the language before the page boots).
  const adapter = html.dataset.scorm ? import('../web/js/scorm.js') : Promise.resolve();
  adapter.then(() => (html.dataset.section ? import('../web/js/embed.js') : import('../web/js/app.js')));
}

function installShims() {
  const files = new Map();
  for (const node of document.querySelectorAll('script[type="application/json"][data-file]')) {
    files.set(node.dataset.file, node.textContent);
  }
  const realFetch = globalThis.fetch.bind(globalThis);
  globalThis.fetch = function fetch(input, init) {
    const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input?.url ?? String(input);
    if (!url.startsWith(VIRTUAL)) return realFetch(input, init);
    const path = url.slice(VIRTUAL.length).split(/[?#]/)[0];
    if (!files.has(path)) {
      return Promise.resolve(new Response(`${path} is not part of this single-file page`, { status: 404, statusText: 'Not Found' }));
    }
    return Promise.resolve(new Response(files.get(path), { status: 200, headers: { 'Content-Type': 'application/json' } }));
  };

  const RealWorker = globalThis.Worker;
  let workerUrl = null;
  const SingleFileWorker = function Worker(url, options = {}) {
    if (!String(url).startsWith(VIRTUAL)) return new RealWorker(url, options);
    if (!workerUrl) {
      const source = document.getElementById('grpo-bundle').textContent;
      workerUrl = URL.createObjectURL(new Blob([source], { type: 'text/javascript' }));
    }
    return new RealWorker(workerUrl, { name: options.name });
  };
  SingleFileWorker.prototype = RealWorker.prototype;
  globalThis.Worker = SingleFileWorker;
}
