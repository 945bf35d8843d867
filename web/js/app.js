// Entry point of the course page (index.html): every section, in notebook order.
import { boot } from './page.js';

boot({ mode: 'page' }).catch((error) => {
  console.error(error);
  const status = document.getElementById('boot-status');
  if (status) status.textContent = `GRPO Lab could not start: ${error.message}`;
});
