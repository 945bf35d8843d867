// Room at the end of the course page (css/main.css, the last section's min-height), in real
// headless Chromium at 390 x 844: with the reader at section 10's heading before its widget
// mounted, a section above that measures the page 300 px shorter in the middle of a render does
// not make the browser clamp the scroll. A clamp there is a move the view keeper reads as the
// reader's: it put #real-model's heading 27-52 px off (phone.test in CI; 2 of 200 phone loads of
// every section link under a 2-core busy loop, none of 160 with the room).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { PHONE, openPage, useServerAndBrowser } from './helpers.mjs';

const env = useServerAndBrowser({ viewport: PHONE });

test('section 10 before its widget: a render measuring the page 300 px shorter leaves the scroll where it is', async () => {
  const { page, problems } = await openPage(env.browser.context, env.server.origin);
  try {
    await page.goto(`${env.server.origin}/index.html#real-model`);
    await page.waitForSelector('section#coverage[data-rendered="true"]', { timeout: 30000 });
    const moved = await page.evaluate(() => {
      // Section 10 as it is before its widget mounts: its heading and nothing else.
      document.head.append(Object.assign(document.createElement('style'), { textContent: '#real-model > :not(h2) { display: none !important; }' }));
      const box = Object.assign(document.createElement('div'), { style: 'height: 300px' });
      document.getElementById('coverage').append(box);
      document.querySelector('#real-model h2').scrollIntoView({ block: 'start', behavior: 'instant' });
      const y = window.scrollY;
      box.style.height = '0px';
      void document.documentElement.scrollHeight; // the render measures the page at its shortest
      const clampedBy = y - window.scrollY;
      box.remove();
      return clampedBy;
    });
    assert.equal(moved, 0, `the browser clamped the scroll by ${moved} px`);
    assert.deepEqual(problems.page, []);
  } finally {
    await page.close();
  }
});
