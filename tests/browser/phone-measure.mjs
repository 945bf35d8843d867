// What the phone test and tools/measure_links.mjs measure, as plain functions over the page: each
// is passed whole to the engine's evaluate (Playwright, Puppeteer over BiDi, Selenium's
// executeScript), so the same numbers come from Chromium, Firefox and WebKit. No imports, no
// closures: they use only their arguments and the DOM.

/** Where section `id`'s heading is, in px from the top of the viewport (0 is right); null if absent. */
export function headingTop(id) {
  const section = document.getElementById(id);
  if (!section) return null;
  const heading = section.querySelector('h2') ?? section;
  return Math.round(heading.getBoundingClientRect().top);
}

/**
 * Watches section `id`'s heading for `ms` milliseconds while the widgets mount and fill in, as the
 * reader sees it: sampled where a frame is final, in a ResizeObserver callback that runs after the
 * page's own (the page re-takes its place in its callback, before the frame is painted; a sample
 * in requestAnimationFrame would see the layout between a mount and that correction). Resolves
 * with {last, worst, samples}: worst is the largest |top| seen after the first `settleMs`, the
 * last one included.
 * frameSelector: watch the page inside that same-origin iframe instead (the teacher page's
 * preview), its top measured from the iframe's own viewport, once the frame shows section `id`;
 * an array of selectors is a frame inside a frame.
 */
export function watchHeading(id, ms, settleMs, frameSelector = null) {
  const path = frameSelector === null ? [] : [].concat(frameSelector);
  const view = () => path.reduce((win, selector) => win?.document.querySelector(selector)?.contentWindow, window);
  const top = () => {
    const section = view()?.document.getElementById(id);
    const heading = section && (section.querySelector('h2') ?? section);
    return heading ? Math.round(heading.getBoundingClientRect().top) : null;
  };
  const shellUp = () => {
    if (!path.length) {
      return document.documentElement.dataset.shell === 'true'
        ? Promise.resolve()
        : new Promise((resolve) => window.addEventListener('grpo:shell', resolve, { once: true }));
    }
    // A frame's document is replaced when it navigates: poll until it holds the section's shell.
    return new Promise((resolve) => {
      const poll = () => {
        const doc = view()?.document;
        if (doc?.documentElement.dataset.shell === 'true' && doc.getElementById(id)) resolve();
        else setTimeout(poll, 20);
      };
      poll();
    });
  };
  return shellUp().then(
    () =>
      new Promise((resolve) => {
        // Created after the page's observer (js/page.js makes its own before the first render).
        const win = view();
        const started = performance.now();
        let worst = 0;
        let samples = 0;
        const sample = () => {
          const value = top();
          samples += 1;
          if (value !== null && performance.now() - started >= settleMs && Math.abs(value) > Math.abs(worst)) worst = value;
        };
        const observer = new win.ResizeObserver(sample);
        observer.observe(win.document.getElementById('app') ?? win.document.body);
        setTimeout(() => {
          observer.disconnect();
          // The place it ended at, read where a frame is final too: in the first callback of a new
          // observer, after the page's own (a read in requestAnimationFrame could land between a
          // slice that grows a section above and the page's correction: under load, section 7
          // still fills in 3.5 s after the shell). It counts too: worst is never better than last.
          const final = new win.ResizeObserver(() => {
            final.disconnect();
            const last = top();
            if (last !== null && Math.abs(last) > Math.abs(worst)) worst = last;
            resolve({ last, worst, samples });
          });
          final.observe(win.document.getElementById('app') ?? win.document.body);
        }, ms);
      }),
  );
}

/**
 * The teacher page previews section `id` (picked in its section list, as an instructor does) once
 * the page and its first preview are up (data-ready). frameSelector: the teacher page is in that
 * iframe.
 */
export function previewSection(id, frameSelector = null) {
  const doc = frameSelector ? document.querySelector(frameSelector)?.contentDocument : document;
  const select = doc?.getElementById('teacher-section');
  if (!select || doc.documentElement.dataset.ready !== 'true') return false;
  if (select.value !== id) {
    select.value = id;
    select.dispatchEvent(new Event('change', { bubbles: true }));
  }
  return select.value === id;
}

/**
 * The layout faults of section `id` at the current width: page-wide horizontal overflow, text
 * boxes (labels, buttons, headings, legends, table cells, hints) that overlap each other,
 * touch targets under 24x24 px (WCAG 2.2 SC 2.5.8, inline links in text excepted), and
 * elements wider than the viewport that do not scroll inside their own box.
 */
export function layoutFaults(id) {
  const section = document.getElementById(id);
  const faults = { overflow: document.documentElement.scrollWidth - document.documentElement.clientWidth, overlaps: [], smallTargets: [], wide: [] };
  if (!section) return faults;
  const visible = (el) => {
    // Inside a closed <details> (its summary aside): laid out by some engines, never shown.
    const closed = el.closest('details:not([open])');
    if (closed && !el.closest('summary')) return false;
    if (el.checkVisibility && !el.checkVisibility({ contentVisibilityAuto: true, visibilityProperty: true, opacityProperty: true })) return false;
    const style = getComputedStyle(el);
    if (style.visibility === 'hidden' || style.display === 'none') return false;
    const rect = el.getBoundingClientRect();
    if (rect.width < 1 || rect.height < 1) return false;
    // Clipped away by a scrolling ancestor (a wide table's hidden columns): not on screen.
    for (let p = el.parentElement; p && p !== section; p = p.parentElement) {
      const ps = getComputedStyle(p);
      if (/(auto|scroll|hidden)/.test(ps.overflowX + ps.overflowY)) {
        const box = p.getBoundingClientRect();
        if (rect.right <= box.left || rect.left >= box.right || rect.bottom <= box.top || rect.top >= box.bottom) return false;
      }
    }
    return !el.closest('.visually-hidden, [hidden]');
  };
  const name = (el) => {
    const cls = typeof el.className === 'string' && el.className ? `.${el.className.trim().split(/\s+/).join('.')}` : '';
    const key = el.dataset?.key ? `[data-key="${el.dataset.key}"]` : '';
    return `${el.tagName.toLowerCase()}${cls}${key} «${(el.textContent || el.value || '').trim().slice(0, 30)}»`;
  };
  // Text boxes: the boxes of the text nodes themselves (a Range), so a block's padding is not text.
  const textBoxes = [];
  const selector = 'label, button, h2, h3, h4, legend, summary, th, td, .hint, .field-error, .range-value, p, li, figcaption, caption, output';
  for (const el of section.querySelectorAll(selector)) {
    if (!visible(el) || el.querySelector(selector)) continue; // innermost text holders only
    // The text the reader sees: text nodes outside visually hidden helpers (clipped to 1 px).
    const rects = [];
    const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      if (!node.textContent.trim() || node.parentElement.closest('.visually-hidden')) continue;
      const range = document.createRange();
      range.selectNodeContents(node);
      rects.push(...[...range.getClientRects()].filter((r) => r.width >= 1 && r.height >= 1));
    }
    if (!rects.length) continue;
    const box = rects.reduce(
      (a, r) => ({ left: Math.min(a.left, r.left), top: Math.min(a.top, r.top), right: Math.max(a.right, r.right), bottom: Math.max(a.bottom, r.bottom) }),
      { left: Infinity, top: Infinity, right: -Infinity, bottom: -Infinity },
    );
    textBoxes.push({ el, box });
  }
  for (let i = 0; i < textBoxes.length; i += 1) {
    for (let j = i + 1; j < textBoxes.length; j += 1) {
      const a = textBoxes[i].box;
      const b = textBoxes[j].box;
      const x = Math.min(a.right, b.right) - Math.max(a.left, b.left);
      const y = Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top);
      if (x > 2 && y > 2 && !textBoxes[i].el.contains(textBoxes[j].el) && !textBoxes[j].el.contains(textBoxes[i].el)) {
        faults.overlaps.push(`${name(textBoxes[i].el)} x ${name(textBoxes[j].el)}`);
      }
    }
  }
  const targets = 'button, select, input:not([type="hidden"]):not(.visually-hidden), summary, label.button-quiet, [role="button"], a:not(p a):not(li a):not(td a)';
  for (const el of section.querySelectorAll(targets)) {
    if (!visible(el)) continue;
    const rect = el.getBoundingClientRect();
    if (rect.width < 24 - 0.5 || rect.height < 24 - 0.5) faults.smallTargets.push(`${name(el)} ${Math.round(rect.width)}x${Math.round(rect.height)}`);
  }
  const viewport = document.documentElement.clientWidth;
  for (const el of section.querySelectorAll('*')) {
    const rect = el.getBoundingClientRect();
    if (rect.right <= viewport + 1 || !visible(el)) continue;
    let clipped = false;
    for (let p = el.parentElement; p && p !== document.body; p = p.parentElement) {
      const ps = getComputedStyle(p);
      if (/(auto|scroll|hidden|clip)/.test(ps.overflowX) && p.getBoundingClientRect().right <= viewport + 1) {
        clipped = true;
        break;
      }
    }
    if (!clipped) faults.wide.push(`${name(el)} right ${Math.round(rect.right)}`);
  }
  faults.wide = faults.wide.slice(0, 10);
  return faults;
}

/** Chart text of section `id`: the smallest font Chart.js draws in each chart (px), and legends. */
export function chartText(id) {
  const out = [];
  const section = document.getElementById(id);
  if (!section || !window.Chart) return out;
  for (const canvas of section.querySelectorAll('canvas')) {
    const chart = window.Chart.getChart(canvas);
    if (!chart) continue;
    const sizes = [];
    for (const scale of Object.values(chart.scales)) {
      if (scale.options.display === false) continue;
      sizes.push(scale.options.ticks?.font?.size ?? chart.options.font?.size ?? window.Chart.defaults.font.size);
      if (scale.options.title?.display) sizes.push(scale.options.title.font?.size ?? window.Chart.defaults.font.size);
    }
    const legend = chart.legend;
    if (legend?.options?.display) sizes.push(legend.options.labels?.font?.size ?? window.Chart.defaults.font.size);
    // The legend must not reach into the plot area.
    const overlapsPlot = Boolean(legend?.options?.display && chart.chartArea && legend.top < chart.chartArea.bottom && legend.bottom > chart.chartArea.top && legend.left < chart.chartArea.right && legend.right > chart.chartArea.left);
    // A label too long for the chart's width is not wrapped by Chart.js: it runs off the canvas.
    const legendCut = legend?.options?.display ? (legend.legendHitBoxes ?? []).map((box, i) => ({ box, text: legend.legendItems?.[i]?.text })).filter(({ box }) => box.left < -1 || box.left + box.width > chart.width + 1).map(({ text }) => text) : [];
    out.push({ minFont: Math.min(...sizes), legendOverlapsPlot: overlapsPlot, legendCut, width: canvas.clientWidth, height: canvas.clientHeight });
  }
  return out;
}

/**
 * Replaces this (same-origin) document by one iframe of `width` x `height` px at the top left that
 * opens `url`: a viewport narrower than the engine's window can be (MiniBrowser's window is never
 * narrower than its toolbar). The page inside lays out, scrolls to its fragment and keeps its place
 * in the iframe's own viewport, as in a window of that size. Returns the iframe's selector.
 */
export function narrowFrame(url, width, height) {
  const frame = document.createElement('iframe');
  frame.id = 'narrow-view';
  frame.src = url;
  frame.style.cssText = `position: fixed; left: 0; top: 0; border: 0; width: ${width}px; height: ${height}px;`;
  document.body.replaceChildren(frame);
  return '#narrow-view';
}
