// Measures where each section's link lands: opens index.html#<section> (or embed.html#section=..)
// in a fresh tab at each width, watches the section's heading for 3.5 s while the widgets mount
// and fill in, and prints a table of its final top and its worst top after the first second.
//   node tools/measure_links.mjs [--engine chromium|firefox|webkit] [--widths 390,768,1280] [--embed]
// WebKit (MiniBrowser) needs a display: run it under `xvfb-run -a`.
import { spawn } from 'node:child_process';
import { startServer } from '../tests/browser/helpers.mjs';
import { watchHeading } from '../tests/browser/phone-measure.mjs';

const IDS = ['setup', 'verifier', 'informative-groups', 'advantages', 'reductions', 'finite-policy', 'rl-loop', 'updates', 'coverage', 'real-model'];
const arg = (name, fallback) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1] : fallback;
};
const engine = arg('engine', 'chromium');
const widths = arg('widths', '390,768,1280').split(',').map(Number);
const embed = process.argv.includes('--embed');
const WATCH_MS = 3500;
const SETTLE_MS = 1000;

/** A measuring function applied to its arguments, as source an engine evaluates in the page. */
const call = (fn, args) => `(${fn})(...${JSON.stringify(args)})`;

/** {open(url, width) -> {measure(fn, ...args), close()}, close()} for one engine. */
async function driver(name) {
  if (name === 'chromium') {
    const { chromium } = await import('playwright-core');
    const { CHROMIUM_ARGS } = await import('../tests/browser/helpers.mjs');
    const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', headless: true, args: CHROMIUM_ARGS });
    return {
      async open(url, width) {
        const phone = width < 600;
        const context = await browser.newContext({ viewport: { width, height: 844 }, isMobile: phone, hasTouch: phone, deviceScaleFactor: phone ? 3 : 1 });
        const page = await context.newPage();
        await page.goto(url);
        return { measure: (fn, ...args) => page.evaluate(call(fn, args)), close: () => context.close() };
      },
      close: () => browser.close(),
    };
  }
  if (name === 'firefox') {
    const puppeteer = (await import('puppeteer-core')).default;
    const browser = await puppeteer.launch({ browser: 'firefox', executablePath: '/usr/bin/firefox-esr', headless: true });
    return {
      async open(url, width) {
        const page = await browser.newPage();
        await page.setViewport({ width, height: 844, hasTouch: width < 600, isMobile: false });
        await page.goto(url);
        return { measure: (fn, ...args) => page.evaluate(call(fn, args)), close: () => page.close() };
      },
      close: () => browser.close(),
    };
  }
  if (name === 'webkit') {
    const { Builder } = await import('selenium-webdriver');
    const port = 4400 + Math.floor(Math.random() * 500);
    const server = spawn('/usr/bin/WebKitWebDriver', [`--port=${port}`], { stdio: 'ignore' });
    await new Promise((resolve) => setTimeout(resolve, 800));
    const binary = '/usr/lib/x86_64-linux-gnu/webkit2gtk-4.1/MiniBrowser';
    const start = () =>
      new Builder()
        .usingServer(`http://127.0.0.1:${port}`)
        .withCapabilities({ browserName: 'MiniBrowser', 'webkitgtk:browserOptions': { binary, args: ['--automation'] } })
        .build();
    return {
      async open(url, width) {
        const web = await start();
        await web.manage().window().setRect({ width, height: 844 });
        // The viewport is the window minus its chrome: size the window so the page gets `width`.
        const inner = await web.executeScript('return window.innerWidth');
        if (inner !== width) await web.manage().window().setRect({ width: width + (width - inner), height: 844 });
        await web.get(url);
        return {
          measure: (fn, ...args) =>
            web.executeAsyncScript(`const done = arguments[arguments.length - 1]; Promise.resolve(${call(fn, args)}).then(done);`),
          close: () => web.quit(),
        };
      },
      close: async () => server.kill(),
    };
  }
  throw new Error(`--engine: one of chromium, firefox, webkit (got ${name})`);
}

const site = await startServer();
const browser = await driver(engine);
const rows = [];
try {
  for (const id of IDS) {
    const row = { id };
    for (const width of widths) {
      const url = embed ? `${site.origin}/embed.html#section=${id}&lang=en` : `${site.origin}/index.html#${id}`;
      const tab = await browser.open(url, width);
      const { last, worst } = await tab.measure(watchHeading, id, WATCH_MS, SETTLE_MS);
      row[width] = `${last} (${worst})`;
      await tab.close();
    }
    rows.push(row);
    console.error(JSON.stringify(row));
  }
} finally {
  await browser.close();
  await site.close();
}
console.log(`| ${embed ? 'embed link' : 'link'} (${engine}) | ${widths.map((w) => `${w} px`).join(' | ')} |`);
console.log(`|---|${widths.map(() => '---').join('|')}|`);
for (const row of rows) console.log(`| #${row.id} | ${widths.map((w) => row[w]).join(' | ')} |`);
