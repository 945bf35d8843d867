// Static server for the course page (web/): correct MIME types (application/wasm), no caching
// surprises, same security headers the hosting guide recommends (docs/hosting.md; the package's
// _headers and .htaccess are written from securityHeaders() too). PORT overrides 8080;
// FRAME_ANCESTORS lists the origins allowed to frame the pages (default *), e.g.
// FRAME_ANCESTORS="https://moodle.example.edu https://example.instructure.com" npm start
import { createServer } from 'node:http';
import { createReadStream } from 'node:fs';
import { readFile, stat } from 'node:fs/promises';
import { gzipSync } from 'node:zlib';
import { extname, join, normalize, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

const MIME = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.wasm': 'application/wasm',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.woff2': 'font/woff2',
  '.woff': 'font/woff',
  '.ttf': 'font/ttf',
  '.md': 'text/markdown; charset=utf-8',
  '.csv': 'text/csv; charset=utf-8',
  '.zip': 'application/zip',
  '.xml': 'application/xml; charset=utf-8',
};

/**
 * The headers of the hosting guide. `frameAncestors`: who may frame the pages ('*' or a
 * space-separated list of origins). `singleFile`: the headers of a single-file page (its own
 * <meta> policy allows its inline scripts by hash; the header only says who may frame it).
 * No X-Frame-Options: frame-ancestors replaces it, and DENY/SAMEORIGIN would block every LMS.
 */
export function securityHeaders({ frameAncestors = process.env.FRAME_ANCESTORS || '*', singleFile = false } = {}) {
  const ancestors = String(frameAncestors).trim() || '*';
  return {
    'X-Content-Type-Options': 'nosniff',
    'Referrer-Policy': 'no-referrer',
    // 'wasm-unsafe-eval' lets the page compile its own WebAssembly; no inline scripts anywhere.
    'Content-Security-Policy': singleFile
      ? `frame-ancestors ${ancestors}`
      : "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; style-src 'self' 'unsafe-inline'; " +
        "img-src 'self' data: blob:; font-src 'self'; worker-src 'self' blob:; connect-src 'self'; " +
        `frame-ancestors ${ancestors}`,
  };
}

export const SECURITY_HEADERS = securityHeaders();

/** Single-file pages live under downloads/single/ in the packaged site (tools/package.mjs). */
export const isSingleFilePath = (pathname) => /^\/downloads\/single\//.test(pathname);

// Text and WebAssembly go out gzip-compressed when the browser accepts it, as every static host
// does (the guide's hosts compress by themselves); kept per file until the file changes.
const COMPRESSIBLE = new Set(['.html', '.js', '.mjs', '.css', '.json', '.wasm', '.svg', '.md', '.csv', '.xml']);
const compressed = new Map();
async function gzipped(path, info) {
  const hit = compressed.get(path);
  if (hit && hit.mtimeMs === info.mtimeMs && hit.size === info.size) return hit.body;
  const body = gzipSync(await readFile(path), { level: 6 });
  compressed.set(path, { mtimeMs: info.mtimeMs, size: info.size, body });
  return body;
}

/** Starts a static server over `root`; resolves with the http.Server once listening. */
export function serve({ root, port = 8080, host = '127.0.0.1', headers } = {}) {
  const base = resolve(root);
  const server = createServer(async (request, response) => {
    try {
      const url = new URL(request.url, 'http://localhost');
      let path = normalize(join(base, decodeURIComponent(url.pathname)));
      if (path !== base && !path.startsWith(base + sep)) {
        response.writeHead(403).end('forbidden');
        return;
      }
      let info = await stat(path).catch(() => null);
      if (info?.isDirectory()) {
        path = join(path, 'index.html');
        info = await stat(path).catch(() => null);
      }
      if (!info?.isFile()) {
        response.writeHead(404, { 'Content-Type': 'text/plain; charset=utf-8' }).end('not found');
        return;
      }
      const compressible = COMPRESSIBLE.has(extname(path)) && info.size > 1024;
      const body = compressible && /\bgzip\b/.test(request.headers['accept-encoding'] ?? '') ? await gzipped(path, info) : null;
      response.writeHead(200, {
        'Content-Type': MIME[extname(path)] ?? 'application/octet-stream',
        'Content-Length': body ? body.length : info.size,
        'Cache-Control': 'no-cache',
        ...(compressible ? { Vary: 'Accept-Encoding' } : {}),
        ...(body ? { 'Content-Encoding': 'gzip' } : {}),
        ...(headers ?? (isSingleFilePath(url.pathname) ? securityHeaders({ singleFile: true }) : SECURITY_HEADERS)),
      });
      if (request.method === 'HEAD') response.end();
      else if (body) response.end(body);
      else createReadStream(path).pipe(response);
    } catch (error) {
      response.writeHead(500).end(String(error));
    }
  });
  return new Promise((resolveListen, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolveListen(server));
  });
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const port = Number(process.env.PORT ?? 8080);
  const root = fileURLToPath(new URL('../web', import.meta.url));
  const host = process.env.HOST ?? '0.0.0.0';
  await serve({ root, port, host });
  console.log(`GRPO Lab: serving ${root} at http://localhost:${port}/ (Ctrl+C to stop)`);
}
