// Entry point of the embed page (embed.html#section=<id>&lang=<en|ru>): one section alone,
// reporting its height to the parent page (LTI and H5P formats, see resize.js).
import { boot } from './page.js';
import { startOffline } from './offline.js';

boot({ mode: 'embed' }).catch((error) => {
  console.error(error);
  const status = document.getElementById('boot-status');
  if (status) status.textContent = `GRPO Lab could not start: ${error.message}`;
});
// A copy for use with no network (web/sw.js), where one can work; see js/offline.js.
startOffline();
