// Entry point of the course page (index.html): every section, in notebook order.
import { boot } from './page.js';
import { startOffline } from './offline.js';

boot({ mode: 'page' }).catch((error) => {
  console.error(error);
  const status = document.getElementById('boot-status');
  if (status) status.textContent = `GRPO Lab could not start: ${error.message}`;
});
// A copy for use with no network (web/sw.js), where one can work; see js/offline.js.
startOffline();
