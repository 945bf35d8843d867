// Keeps the reader's place: the page's own scroll anchoring while widgets mount and fill in (the
// training sections fetch their run, fonts arrive, charts size themselves), and the jump to a
// section. Browsers' scroll anchoring misses these cases here, and Safari has none.

/** The reader's section stays where they have it while the layout above it changes. */
export function keepReaderView(root) {
  if (typeof ResizeObserver !== 'function') return;
  let anchorView = null; // {element, top, y}: the section at the top of the viewport, where it was

  const rememberView = () => {
    anchorView = null;
    if (window.scrollY === 0) return;
    const element = [...root.querySelectorAll('main section.section')].filter((s) => s.getBoundingClientRect().top <= 16).pop();
    if (element) anchorView = { element, top: element.getBoundingClientRect().top, y: window.scrollY };
  };
  const keepView = () => {
    if (!anchorView?.element.isConnected) return;
    const { element, top, y } = anchorView;
    // Where the section would be had only the reader's scrolling moved it; the rest is layout.
    const expected = top - (window.scrollY - y);
    const now = element.getBoundingClientRect();
    // Scrolled away from it since (a jump to another section): it is no longer what they see.
    if (expected > 16 || expected + now.height <= 0) return;
    const shift = now.top - expected;
    if (Math.abs(shift) >= 1) window.scrollBy({ top: shift, behavior: 'instant' });
    anchorView = { element, top: element.getBoundingClientRect().top, y: window.scrollY };
  };

  let queued = false;
  window.addEventListener(
    'scroll',
    () => {
      if (queued) return;
      queued = true;
      requestAnimationFrame(() => {
        queued = false;
        // A widget may have grown since the last resize callback: settle that before the
        // section at the top is taken as the reader's new place.
        keepView();
        rememberView();
      });
    },
    { passive: true },
  );
  new ResizeObserver(keepView).observe(root);
}

/** Scrolls section `id` to the top of the viewport and moves the focus to its heading. */
export function scrollToSection(id, smooth = true) {
  const target = document.getElementById(id);
  if (!target) return;
  const heading = target.querySelector('h2') ?? target;
  const reduce = matchMedia('(prefers-reduced-motion: reduce)').matches;
  target.scrollIntoView({ block: 'start', behavior: smooth && !reduce ? 'smooth' : 'instant' });
  heading.focus({ preventScroll: true });
}
