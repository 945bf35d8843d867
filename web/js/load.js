// Loads a same-origin classic script once (Chart.js UMD, KaTeX): no inline code, CSP-friendly.
const pending = new Map();

export function loadScript(url) {
  const href = String(url);
  if (!pending.has(href)) {
    pending.set(
      href,
      new Promise((resolve, reject) => {
        const script = document.createElement('script');
        script.src = href;
        script.async = true;
        script.onload = () => resolve();
        script.onerror = () => {
          pending.delete(href);
          reject(new Error(`could not load ${href}`));
        };
        document.head.append(script);
      }),
    );
  }
  return pending.get(href);
}
