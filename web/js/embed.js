// Entry point of the embed page (embed.html#section=<id>&lang=<en|ru>): one section alone,
// reporting its height to the parent page (LTI and H5P formats, see resize.js).
import { boot } from './page.js';
import { startOffline } from './offline.js';

// Every module linked and ran: from here on, boot() reports a failure itself (js/boot-guard.js).
document.documentElement.dataset.bootStarted = 'true';
boot({ mode: 'embed' }).then(
  () => window.dispatchEvent(new Event('grpo:booted')),
  (error) => {
    console.error(error);
    const status = document.getElementById('boot-status');
    if (status) status.textContent = `GRPO Lab could not start: ${error.message}`;
    // The guard says it in the reader's language and gives the way out (the network, Reload).
    window.dispatchEvent(new CustomEvent('grpo:boot-failed', { detail: error }));
  },
);
// A copy for use with no network (web/sw.js), where one can work; see js/offline.js.
startOffline();
