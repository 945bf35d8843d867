// Embedded pages report their height to the parent page in the two formats LMSs listen for:
//   {subject: 'lti.frameResize', height}                       Canvas, Sakai, Moodle LTI
//   H5P's resizer handshake (context: 'h5p'): we send hello; the parent's h5p-resizer.js
//   answers hello (or ready, which we answer with hello); we send prepareResize with our
//   heights, it answers resizePrepared, we send resize with scrollHeight (and height).
export function reportHeight(target) {
  if (window.parent === window) return () => {};
  let h5pFriendly = false;
  let last = -1;
  let frame = 0;

  // The root has padding and no margin; body has no margin: its box is the content's height.
  const height = () => Math.ceil(target.getBoundingClientRect().height);
  const post = (message) => window.parent.postMessage(message, '*');

  const send = (force = false) => {
    frame = 0;
    const value = height();
    if (!force && value === last) return;
    last = value;
    post({ subject: 'lti.frameResize', height: value });
    if (h5pFriendly) {
      post({ context: 'h5p', action: 'prepareResize', scrollHeight: value, clientHeight: window.innerHeight });
    }
  };
  const schedule = () => {
    if (!frame) frame = requestAnimationFrame(() => send());
  };

  window.addEventListener('message', (event) => {
    if (event.source !== window.parent) return;
    const data = event.data;
    if (!data || typeof data !== 'object' || data.context !== 'h5p') return;
    if (data.action === 'ready') {
      post({ context: 'h5p', action: 'hello' });
    } else if (data.action === 'hello') {
      h5pFriendly = true;
      document.body.style.overflow = 'hidden';
      send(true);
    } else if (data.action === 'resizePrepared') {
      const value = height();
      post({ context: 'h5p', action: 'resize', scrollHeight: value, height: value });
    } else if (data.action === 'resize') {
      send(true);
    }
  });

  const observer = new ResizeObserver(schedule);
  observer.observe(target);
  post({ context: 'h5p', action: 'hello' });
  send(true);
  return () => observer.disconnect();
}
