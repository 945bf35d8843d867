// Keeps the reader's place: the page's own scroll anchoring while widgets mount and fill in (the
// training sections fetch their run, fonts arrive, charts size themselves), and the jump to a
// section. The browser's scroll anchoring is off (css/main.css `overflow-anchor`): it missed these
// cases, Safari has none, and two mechanisms moving the view read to each other as the reader.
//
// The anchor is the section at the top of the viewport, where it is. Two callbacks keep it:
// - the scroll handler (in requestAnimationFrame, so before this frame's layout): the reader
//   moved; a widget may also have grown since the last resize callback, which is settled first;
// - the ResizeObserver callback (after layout, before paint): only the layout moved, and the
//   section goes back to where it was (see keepAfterLayout).

let keeper = null; // the page's one keeper, for the page's own scrolls (viewMoved, scrollToSection)

/** The reader's section stays where they have it while the layout above it changes. */
export function keepReaderView(root) {
  if (typeof ResizeObserver !== 'function') return;
  let anchorView = null; // {element, top, y}: the section at the top of the viewport, where it was
  let jumpUntil = 0; // while a smooth jump runs, the reader is not choosing a new place

  const sectionAtTop = () => [...root.querySelectorAll('main section.section')].filter((s) => s.getBoundingClientRect().top <= 16).pop();
  const remember = (element = sectionAtTop()) => {
    anchorView = element && window.scrollY > 0 ? { element, top: element.getBoundingClientRect().top, y: window.scrollY } : null;
  };
  const shiftBy = (shift) => {
    if (Math.abs(shift) >= 1) window.scrollBy({ top: shift, behavior: 'instant' });
    anchorView = { ...anchorView, top: anchorView.element.getBoundingClientRect().top, y: window.scrollY };
  };
  // After the reader scrolled: where the section would be had only their scrolling moved it.
  const keepAfterScroll = () => {
    if (!anchorView?.element.isConnected) return;
    const { element, top, y } = anchorView;
    const expected = top - (window.scrollY - y);
    const now = element.getBoundingClientRect();
    // Scrolled away from it since (a jump to another section): it is no longer what they see.
    if (expected > 16 || expected + now.height <= 0) return;
    anchorView.top = expected;
    shiftBy(now.top - expected);
  };
  // After a layout change: the section goes back to where it was, whatever scrollY did since
  // (the reader's scrolls were handled earlier in this frame; what is left is the browser's own:
  // clamping the scroll when the page got shorter, or its jump to the URL's fragment at load).
  const keepAfterLayout = () => {
    if (!anchorView?.element.isConnected) return;
    shiftBy(anchorView.element.getBoundingClientRect().top - anchorView.top);
  };

  let queued = false;
  window.addEventListener(
    'scroll',
    () => {
      if (queued) return;
      queued = true;
      requestAnimationFrame(() => {
        queued = false;
        if (performance.now() < jumpUntil) return; // a smooth jump is on its way to the anchor
        // Not the reader's scrolls: Firefox scrolling to the URL's fragment again at load, and a
        // scroll up that ends at the very bottom (the page got shorter and the browser clamped
        // the scroll; WebKit tells this by a scroll event before the resize callback).
        const bottom = document.documentElement.scrollHeight - window.innerHeight;
        const clamped = anchorView && window.scrollY < anchorView.y && window.scrollY >= bottom - 1;
        if (clamped || performance.now() < loadScrollUntil) keepAfterLayout();
        else keepAfterScroll();
        loadScrollUntil = 0;
        remember();
      });
    },
    { passive: true },
  );
  let loadScrollUntil = 0;
  if (document.readyState !== 'complete') {
    window.addEventListener('load', () => (loadScrollUntil = performance.now() + 300), { once: true });
  }
  window.addEventListener('scrollend', () => {
    if (!jumpUntil) return;
    jumpUntil = 0;
    remember();
  });
  new ResizeObserver(keepAfterLayout).observe(root);

  keeper = {
    moved: () => remember(),
    jumpTo(section, heading, smooth) {
      heading.scrollIntoView({ block: 'start', behavior: smooth ? 'smooth' : 'instant' });
      // The target is the anchor from now on; a smooth jump is left to run its course.
      remember(section);
      if (smooth) jumpUntil = performance.now() + 1500;
    },
  };
}

/** The page scrolled the view itself (a focus kept in place): that is the reader's place now. */
export function viewMoved() {
  keeper?.moved();
}

/** Scrolls section `id`'s heading to the top of the viewport and moves the focus to it. */
export function scrollToSection(id, smooth = true) {
  const target = document.getElementById(id);
  if (!target) return;
  const heading = target.querySelector('h2') ?? target;
  const animate = smooth && !matchMedia('(prefers-reduced-motion: reduce)').matches;
  if (keeper) keeper.jumpTo(target, heading, animate);
  else heading.scrollIntoView({ block: 'start', behavior: animate ? 'smooth' : 'instant' });
  heading.focus({ preventScroll: true });
}
