// Static server for the course page (web/): correct MIME types (application/wasm), no caching
// surprises, same security headers the hosting guide recommends (docs/hosting.md; the package's
// _headers and .htaccess are written from securityHeaders() too), errors included. Listens on
// 127.0.0.1 unless HOST says otherwise; PORT overrides 8080;
// FRAME_ANCESTORS lists the origins allowed to frame the pages (default *), e.g.
// FRAME_ANCESTORS="https://moodle.example.edu https://example.instructure.com" npm start
import { createServer } from 'node:http';
import { open, stat } from 'node:fs/promises';
import { pipeline } from 'node:stream';
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
    // Cross-origin isolation: a top-level page gets SharedArrayBuffer, and web/core/index.js the
    // threaded core (grpo_core_mt). The pages load nothing from another origin, so COEP blocks
    // nothing; in an LMS iframe the page stays single-threaded unless the LMS page is isolated
    // too (docs/hosting.md). A single-file page has one core inlined and no threads.
    ...(singleFile ? {} : { 'Cross-Origin-Opener-Policy': 'same-origin', 'Cross-Origin-Embedder-Policy': 'require-corp' }),
    // 'wasm-unsafe-eval' lets the page compile its own WebAssembly; no inline scripts anywhere.
    'Content-Security-Policy': singleFile
      ? `frame-ancestors ${ancestors}`
      : "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; style-src 'self' 'unsafe-inline'; " +
        "img-src 'self' data: blob:; font-src 'self'; worker-src 'self' blob:; connect-src 'self'; " +
        `base-uri 'none'; form-action 'none'; frame-ancestors ${ancestors}`,
  };
}

export const SECURITY_HEADERS = securityHeaders();

/** Single-file pages live under downloads/single/ in the packaged site (tools/package.mjs). */
export const isSingleFilePath = (pathname) => /^\/downloads\/single\//.test(pathname);

// Text and WebAssembly go out gzip-compressed when the browser accepts it, as every static host
// does (the guide's hosts compress by themselves); kept per file until the file changes.
const COMPRESSIBLE = new Set(['.html', '.js', '.mjs', '.css', '.json', '.wasm', '.svg', '.md', '.csv', '.xml']);
const compressed = new Map();
async function gzipped(path, info, file) {
  const hit = compressed.get(path);
  if (hit && hit.mtimeMs === info.mtimeMs && hit.size === info.size) return hit.body;
  const body = gzipSync(await file.readFile(), { level: 6 });
  compressed.set(path, { mtimeMs: info.mtimeMs, size: info.size, body });
  return body;
}

/** A short plain-text answer (errors included) with the same security headers as a file. */
function reply(response, status, text, { security = SECURITY_HEADERS, extra = {} } = {}) {
  if (response.headersSent) {
    response.destroy();
    return;
  }
  response.writeHead(status, {
    'Content-Type': 'text/plain; charset=utf-8',
    'Content-Length': Buffer.byteLength(text),
    'Cache-Control': 'no-cache',
    ...security,
    ...extra,
  });
  response.end(text);
}

/** The file path a request names under `base`, or {status} when it names none we may serve. */
function resolvePath(base, requestUrl) {
  let pathname;
  try {
    pathname = decodeURIComponent(new URL(requestUrl, 'http://localhost').pathname);
  } catch {
    return { status: 400 }; // "%E0%A4%A", a lone "%": not a path
  }
  if (pathname.includes('\0')) return { status: 400 };
  const path = normalize(join(base, pathname));
  if (path !== base && !path.startsWith(base + sep)) return { status: 403 };
  return { path, pathname };
}

const STATUS_TEXT = { 400: 'bad request', 403: 'forbidden', 404: 'not found', 405: 'method not allowed', 408: 'request timeout', 431: 'request header fields too large', 500: 'server error' };

/**
 * How long a connection may stay silent (no byte in or out) before it is closed, and how long a
 * request may take to send its headers (docs/limits.md): a socket that never sends a byte is
 * closed after IDLE_MS, not kept for Node's 60-90 s.
 */
export const IDLE_MS = 5000;
export const HEADERS_MS = 5000;

// Node's parser answers a request it cannot read (bad syntax: 400, headers over 16 KiB: 431) by
// itself, with no headers; this answer carries the security headers too, then closes. Not while
// an answer to an earlier request on the socket is under way (a pipelined request after it was
// broken): that answer's body would carry this one inside it, so the socket is cut instead, as
// Node's own handler does (`_httpMessage`, the answer in flight, has no public name).
function parserError(error, socket, security) {
  if (!socket.writable || error.code === 'ECONNRESET' || socket._httpMessage?.headersSent) {
    socket.destroy();
    return;
  }
  const status = error.code === 'HPE_HEADER_OVERFLOW' ? 431 : error.code === 'ERR_HTTP_REQUEST_TIMEOUT' ? 408 : 400;
  const text = STATUS_TEXT[status];
  const headers = { 'Content-Type': 'text/plain; charset=utf-8', 'Content-Length': Buffer.byteLength(text), 'Cache-Control': 'no-cache', Connection: 'close', ...security };
  const head = Object.entries(headers).map(([name, value]) => `${name}: ${value}\r\n`).join('');
  socket.end(`HTTP/1.1 ${status} ${text}\r\n${head}\r\n${text}`);
}

/** Starts a static server over `root`; resolves with the http.Server once listening. */
export function serve({ root, port = 8080, host = '127.0.0.1', headers } = {}) {
  const base = resolve(root);
  const security = headers ?? SECURITY_HEADERS;
  const fail = (response, status, extra) => reply(response, status, STATUS_TEXT[status], { security, extra });
  const server = createServer({ headersTimeout: HEADERS_MS, requestTimeout: 30000, connectionsCheckingInterval: 1000 }, async (request, response) => {
    let file = null;
    try {
      if (request.method !== 'GET' && request.method !== 'HEAD') {
        fail(response, 405, { Allow: 'GET, HEAD' });
        return;
      }
      const target = resolvePath(base, request.url);
      if (target.status) {
        fail(response, target.status);
        return;
      }
      let { path } = target;
      let info = await stat(path).catch(() => null);
      if (info?.isDirectory()) {
        path = join(path, 'index.html');
        info = await stat(path).catch(() => null);
      }
      if (!info?.isFile()) {
        fail(response, 404);
        return;
      }
      // Opened before any header goes out: an unreadable file is an error answer, not a crash.
      file = await open(path, 'r').catch((error) => ({ error }));
      if (file.error) {
        const status = file.error.code === 'EACCES' || file.error.code === 'EPERM' ? 403 : 500;
        file = null;
        fail(response, status);
        return;
      }
      const compressible = COMPRESSIBLE.has(extname(path)) && info.size > 1024;
      const body = compressible && /\bgzip\b/.test(request.headers['accept-encoding'] ?? '') ? await gzipped(path, info, file) : null;
      response.writeHead(200, {
        'Content-Type': MIME[extname(path)] ?? 'application/octet-stream',
        'Content-Length': body ? body.length : info.size,
        'Cache-Control': 'no-cache',
        ...(compressible ? { Vary: 'Accept-Encoding' } : {}),
        ...(body ? { 'Content-Encoding': 'gzip' } : {}),
        ...(headers ?? (isSingleFilePath(target.pathname) ? securityHeaders({ singleFile: true }) : SECURITY_HEADERS)),
      });
      if (request.method === 'HEAD' || body) {
        response.end(body ?? undefined);
        return;
      }
      const stream = file.createReadStream({ autoClose: true });
      file = null; // the stream closes it
      // A read that fails half-way (I/O error, file shrunk) ends this response, not the server.
      pipeline(stream, response, () => {});
    } catch (error) {
      fail(response, 500);
      if (process.env.DEBUG_SERVE) console.error(error);
    } finally {
      file?.close().catch(() => {});
    }
  });
  server.on('clientError', (error, socket) => parserError(error, socket, security));
  // A socket silent for IDLE_MS is destroyed (no 'timeout' listener: Node destroys it).
  server.timeout = IDLE_MS;
  return new Promise((resolveListen, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolveListen(server));
  });
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const port = Number(process.env.PORT ?? 8080);
  const root = fileURLToPath(new URL('../web', import.meta.url));
  // Only this machine unless told otherwise (HOST=0.0.0.0 serves the whole network).
  const host = process.env.HOST || '127.0.0.1';
  const server = await serve({ root, port, host });
  const shown = host.includes(':') ? `[${host}]` : host;
  const where = host === '0.0.0.0' || host === '::' ? ` (every network interface, HOST=${host})` : '';
  console.log(`GRPO Lab: serving ${root} at http://${shown}:${server.address().port}/${where} (Ctrl+C to stop)`);
}
