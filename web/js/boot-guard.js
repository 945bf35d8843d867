// The way out of a page that cannot start (a classic script, run before the page's modules): when
// the entry module fails to load, link ("does not provide an export named ...") or run, or boot()
// rejects, the "Loading GRPO Lab…" line says so instead of staying. Under the service worker the
// page first leaves it (unregister, delete its caches) and reloads from the network, once per tab:
// a cached build that does not start is never the reader's only copy. If the host's build fails
// too, the line says why, with a Reload that saves the host's build of that moment and starts it:
// the next deploy is one click away. Its sentences are here, in both languages, because the
// dictionaries are modules of the build that failed.
(function bootGuard() {
  var RETRY_KEY = 'grpo-lab-boot-retry';
  var CACHE_PREFIX = 'grpo-lab-'; // tools/service-worker.mjs CACHE_ID
  var script = document.currentScript;
  var scope = new URL('..', script ? script.src : location.href).href;
  var WORKER_WAIT_MS = 30000; // at most this long for a fresh copy before reloading without it
  var TEXT = {
    en: {
      network: 'This saved copy of GRPO Lab could not start ({message}). Loading it from the network…',
      failed: 'GRPO Lab could not start: {message}',
      reload: 'Reload',
      loading: 'Loading GRPO Lab…',
    },
    ru: {
      network: 'Сохранённая копия GRPO Lab не запустилась ({message}). Загружаем её из сети…',
      failed: 'GRPO Lab не удалось запустить: {message}',
      reload: 'Перезагрузить',
      loading: 'Загрузка GRPO Lab…',
    },
  };
  var hashLang = /(?:^#|&)lang=(en|ru)(?:&|$)/.exec(location.hash);
  var lang = hashLang ? hashLang[1] : /^ru\b/i.test(navigator.language || '') ? 'ru' : 'en';
  var handled = false;

  function storage(fn) {
    try {
      return fn(window.sessionStorage);
    } catch (error) {
      return null; // storage off (a sandboxed frame): no retry memory, the message still shows
    }
  }
  function say(key, message) {
    var status = document.getElementById('boot-status');
    if (!status) return null;
    status.setAttribute('role', 'alert');
    status.textContent = TEXT[lang][key].replace('{message}', String(message).slice(0, 300));
    return status;
  }
  /** Leaves this site's service worker and its caches; the next load comes from the network. */
  function leaveWorker() {
    var sw = navigator.serviceWorker;
    var registrations = sw ? sw.getRegistrations() : Promise.resolve([]);
    return registrations
      .then(function (list) {
        return Promise.all(list.filter(function (r) { return r.scope === scope; }).map(function (r) { return r.unregister(); }));
      })
      .then(function () {
        return typeof caches === 'undefined' ? [] : caches.keys();
      })
      .then(function (names) {
        return Promise.all(names.filter(function (n) { return n.indexOf(CACHE_PREFIX) === 0; }).map(function (n) { return caches.delete(n); }));
      })
      .catch(function () {});
  }
  /** May this page keep an offline copy? (js/offline.js says why not where it may not.) */
  function workerAllowed() {
    var html = document.documentElement;
    var packaged = 'singleFile' in html.dataset || 'scorm' in html.dataset;
    return location.protocol !== 'file:' && !packaged && window.top === window && 'serviceWorker' in navigator && window.isSecureContext && typeof caches !== 'undefined';
  }
  /**
   * Saves the host's current build as the offline copy and waits until it serves this page (or
   * its install gives up), so that the reload comes from it. WebKit gives a reload the modules it
   * preloaded for the page before without asking the host (with or without a worker): from the
   * network, a fixed deploy could meet the broken one's modules again; a copy's pages preload
   * nothing (sw.js strips it), so from the copy it cannot.
   */
  function saveCurrentBuild() {
    if (!workerAllowed()) return Promise.resolve();
    var sw = navigator.serviceWorker;
    return sw
      .register(new URL('sw.js', scope).href, { scope: scope })
      .then(function (registration) {
        return new Promise(function (resolve) {
          var worker = registration.installing || registration.waiting;
          if (sw.controller || !worker) return resolve();
          var timer = setTimeout(resolve, WORKER_WAIT_MS);
          var done = function () {
            clearTimeout(timer);
            resolve();
          };
          sw.addEventListener('controllerchange', done);
          worker.addEventListener('statechange', function () {
            if (worker.state === 'redundant') done();
          });
        });
      })
      .catch(function () {}); // no sw.js, or refused: the reload comes from the network
  }
  function failed(message) {
    if (handled || document.documentElement.dataset.booted === 'true') return;
    handled = true;
    document.documentElement.dataset.bootFailed = 'true';
    var controlled = Boolean(navigator.serviceWorker && navigator.serviceWorker.controller);
    if (controlled && !storage(function (s) { return s.getItem(RETRY_KEY); })) {
      storage(function (s) { s.setItem(RETRY_KEY, '1'); });
      document.documentElement.dataset.bootFailed = 'network';
      say('network', message);
      leaveWorker().then(function () { location.reload(); });
      return;
    }
    var status = say('failed', message);
    if (!status) return;
    var button = document.createElement('button');
    button.type = 'button';
    button.dataset.action = 'reload-after-failure';
    button.textContent = TEXT[lang].reload;
    button.addEventListener('click', function () {
      button.disabled = true;
      storage(function (s) { s.removeItem(RETRY_KEY); });
      status.textContent = TEXT[lang].loading;
      leaveWorker()
        .then(saveCurrentBuild)
        .then(function () { location.reload(); });
    });
    status.append(' ', button);
  }

  // A module that could not be fetched fires 'error' on its <script>; one that could not link or
  // threw while it ran is an uncaught error. Either, before the entry module has started, is the
  // page failing to start (after that, boot() reports its own failure).
  window.addEventListener(
    'error',
    function (event) {
      if (document.documentElement.dataset.bootStarted === 'true') return;
      var target = event.target;
      if (target && target.tagName === 'SCRIPT') failed('could not load ' + (target.getAttribute('src') || 'a script'));
      else if (event instanceof ErrorEvent) failed(event.message || 'an error');
    },
    true,
  );
  window.addEventListener('grpo:boot-failed', function (event) {
    failed(event.detail && event.detail.message ? event.detail.message : String(event.detail));
  });
  window.addEventListener('grpo:booted', function () {
    document.documentElement.dataset.booted = 'true';
    storage(function (s) { s.removeItem(RETRY_KEY); });
  });
})();
