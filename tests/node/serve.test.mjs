// The static server (tools/serve.mjs) under hostile requests: malformed paths get 400, other
// methods 405, traversal 403, an unreadable file an error answer; every answer carries the
// security headers, and the server keeps answering. The package's host files carry the same CSP.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { request } from 'node:http';
import { connect } from 'node:net';
import { spawn } from 'node:child_process';
import { chmodSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { serve, securityHeaders, HEADERS_MS, IDLE_MS, SECURITY_HEADERS } from '../../tools/serve.mjs';
import { hostFiles } from '../../tools/package.mjs';

const root = mkdtempSync(join(tmpdir(), 'grpo-serve-'));
// Larger than the socket buffers: its answer is still being sent when the next request arrives.
const LARGE = Buffer.alloc(16e6);
for (let i = 0; i < LARGE.length; i++) LARGE[i] = i % 251;
let server;
let port;
let silent;
let trickle;

before(async () => {
  writeFileSync(join(root, 'index.html'), '<!doctype html><title>x</title>');
  writeFileSync(join(root, 'big.js'), `// ${'x'.repeat(4096)}\n`);
  writeFileSync(join(root, 'locked.bin'), 'secret');
  writeFileSync(join(root, 'large.bin'), LARGE);
  chmodSync(join(root, 'locked.bin'), 0o000);
  // A file that stat() calls regular but whose read fails (EIO), even for root.
  symlinkSync('/proc/self/mem', join(root, 'broken.bin'));
  server = await serve({ root, port: 0, host: '127.0.0.1' });
  port = server.address().port;
  // A socket that never sends a byte, and one that sends its headers a byte every 0.5 s
  // (slowloris), opened first: the other tests run while they wait to be closed.
  silent = raw('');
  trickle = raw('GET /index.html HTTP/1.1\r\nHost: x\r\nX-Slow: ', { drip: 500 });
});

after(async () => {
  server.closeAllConnections?.();
  await new Promise((resolve) => server.close(resolve));
  rmSync(root, { recursive: true, force: true });
});

/** A raw request (the path is sent as written, not normalised by a URL parser). */
function ask(method, path, headers = {}) {
  return new Promise((resolve) => {
    const req = request({ host: '127.0.0.1', port, method, path, headers }, (response) => {
      const chunks = [];
      response.on('data', (chunk) => chunks.push(chunk));
      response.on('end', () => resolve({ status: response.statusCode, headers: response.headers, body: Buffer.concat(chunks).toString() }));
      response.on('error', (error) => resolve({ status: response.statusCode, headers: response.headers, error }));
    });
    req.on('error', (error) => resolve({ status: 0, error }));
    req.setTimeout(5000, () => req.destroy(new Error('no answer in 5 s')));
    req.end();
  });
}

function assertSecurityHeaders(answer, what) {
  for (const [name, value] of Object.entries(SECURITY_HEADERS)) {
    assert.equal(answer.headers[name.toLowerCase()], value, `${what}: ${name}`);
  }
}

async function stillServes() {
  const answer = await ask('GET', '/index.html');
  assert.equal(answer.status, 200);
  assert.match(answer.body, /<title>x<\/title>/);
}

test('the CSP forbids <base> and form posts, on the pages and in the package host files', () => {
  const policy = SECURITY_HEADERS['Content-Security-Policy'];
  assert.match(policy, /(^|; )base-uri 'none'(;|$)/);
  assert.match(policy, /(^|; )form-action 'none'(;|$)/);
  const { headersFile, htaccess } = hostFiles('https://lms.example');
  const served = securityHeaders({ frameAncestors: 'https://lms.example' })['Content-Security-Policy'];
  assert.ok(headersFile.includes(`Content-Security-Policy: ${served}`), '_headers carries the served policy');
  assert.ok(htaccess.includes(`Header always set Content-Security-Policy "${served}"`), '.htaccess carries the served policy');
  // The pages' own <meta> policy is the served one without frame-ancestors (a <meta> cannot say it).
  const meta = policy.replace(/; frame-ancestors .*$/, '');
  for (const page of ['index.html', 'embed.html', 'teacher.html']) {
    const html = readFileSync(new URL(`../../web/${page}`, import.meta.url), 'utf8');
    assert.ok(html.includes(`<meta http-equiv="Content-Security-Policy" content="${meta}">`), `${page}: <meta> CSP`);
  }
});

test('malformed and escaping paths: 400 and 403 with the security headers', async () => {
  for (const path of ['/%E0%A4%A', '/%', '/index.html%00.js', '/%C0%AE%C0%AE/']) {
    const answer = await ask('GET', path);
    assert.equal(answer.status, 400, path);
    assertSecurityHeaders(answer, path);
    assert.equal(answer.headers['content-type'], 'text/plain; charset=utf-8');
  }
  // Encoded slashes climb out after decoding: 403. Encoded dots are resolved by the URL parser
  // first, so they stay inside the root: 404 there.
  for (const [path, status] of [['/..%2f..%2fetc%2fpasswd', 403], ['/a/..%2f..%2f..%2findex.html', 403], ['/%2e%2e/%2e%2e/etc/passwd', 404]]) {
    const answer = await ask('GET', path);
    assert.equal(answer.status, status, path);
    assertSecurityHeaders(answer, path);
  }
  const missing = await ask('GET', '/nothing-here.js');
  assert.equal(missing.status, 404);
  assertSecurityHeaders(missing, '404');
  await stillServes();
});

/**
 * Sends `bytes` on a raw socket (then, with `drip`, one more header byte every `drip` ms);
 * resolves with what came back and when the server closed it.
 */
function raw(bytes, { drip = 0 } = {}) {
  return new Promise((resolve) => {
    const started = Date.now();
    let timer = null;
    const socket = connect(port, '127.0.0.1', () => {
      socket.write(bytes);
      if (drip) timer = setInterval(() => socket.writable && socket.write('a'), drip);
    });
    const chunks = [];
    socket.on('data', (chunk) => chunks.push(chunk));
    socket.on('error', () => {});
    socket.on('close', () => {
      clearInterval(timer);
      resolve({ text: Buffer.concat(chunks).toString('latin1'), ms: Date.now() - started });
    });
  });
}

/** A raw answer's status and headers (lower-case names). */
function parsed(text) {
  const [head] = text.split('\r\n\r\n');
  const [line, ...fields] = head.split('\r\n');
  return { status: Number(line.split(' ')[1]), headers: Object.fromEntries(fields.map((f) => [f.slice(0, f.indexOf(':')).toLowerCase(), f.slice(f.indexOf(':') + 1).trim()])) };
}

test("requests Node's parser refuses (400, 431) get the security headers too", async () => {
  for (const [what, bytes, status] of [
    ['a broken request line', 'GARBAGE\r\n\r\n', 400],
    ['a bad header', 'GET / HTTP/1.1\r\nHost: x\r\nBad Header\r\n\r\n', 400],
    ['32 KiB of headers', `GET / HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(32 * 1024)}\r\n\r\n`, 431],
  ]) {
    const answer = parsed((await raw(bytes)).text);
    assert.equal(answer.status, status, what);
    assertSecurityHeaders(answer, what);
    assert.equal(answer.headers.connection, 'close', what);
  }
  await stillServes();
});

test('a broken request pipelined behind a large answer cuts the connection; the answer is not corrupted by a 400 inside it', async () => {
  const received = await new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1', () => socket.write('GET /large.bin HTTP/1.1\r\nHost: x\r\n\r\n'));
    const chunks = [];
    socket.on('data', (chunk) => {
      chunks.push(chunk);
      if (chunks.length > 1) return;
      // The answer has begun: stop reading a moment (it stays under way) and send a broken request.
      socket.pause();
      socket.write('GARBAGE\r\n\r\n');
      setTimeout(() => socket.resume(), 500);
    });
    socket.on('error', () => {});
    socket.on('close', () => resolve(Buffer.concat(chunks)));
  });
  const body = received.subarray(received.indexOf('\r\n\r\n') + 4);
  assert.ok(received.subarray(0, 20).toString('latin1').startsWith('HTTP/1.1 200'), 'the first answer');
  assert.equal(received.indexOf('HTTP/1.1 400'), -1, 'no 400 written into the answer under way');
  assert.ok(LARGE.subarray(0, body.length).equals(body.subarray(0, LARGE.length)), `the ${body.length} bytes received are the file's`);
  await stillServes();
});

test('methods other than GET and HEAD: 405 with Allow', async () => {
  for (const method of ['POST', 'PUT', 'DELETE', 'OPTIONS', 'PATCH', 'PROPFIND']) {
    const answer = await ask(method, '/index.html');
    assert.equal(answer.status, 405, method);
    assert.equal(answer.headers.allow, 'GET, HEAD');
    assertSecurityHeaders(answer, method);
  }
  const head = await ask('HEAD', '/big.js', { 'accept-encoding': 'gzip' });
  assert.equal(head.status, 200);
  assert.equal(head.body, '');
  assertSecurityHeaders(head, 'HEAD');
  const gzip = await ask('GET', '/big.js', { 'accept-encoding': 'gzip' });
  assert.equal(gzip.headers['content-encoding'], 'gzip');
  assertSecurityHeaders(gzip, 'gzip');
});

test('an unreadable file is an error answer; the server keeps serving', async () => {
  const broken = await ask('GET', '/broken.bin');
  // The read fails after the headers went out: the response is cut, the process lives on.
  assert.ok(broken.error || broken.status >= 400 || broken.body === '', `got ${broken.status}`);
  await stillServes();
  const locked = await ask('GET', '/locked.bin');
  if (process.getuid?.() === 0) assert.equal(locked.status, 200); // root reads any mode
  else {
    assert.equal(locked.status, 403);
    assertSecurityHeaders(locked, 'unreadable');
  }
  await stillServes();
});

test('npm start listens on 127.0.0.1 unless HOST says otherwise, and says where', async () => {
  const script = new URL('../../tools/serve.mjs', import.meta.url).pathname;
  const child = spawn(process.execPath, [script], { env: { ...process.env, PORT: '0', HOST: '' }, stdio: ['ignore', 'pipe', 'inherit'] });
  try {
    const line = await new Promise((resolve, reject) => {
      let text = '';
      child.stdout.on('data', (chunk) => {
        text += chunk;
        if (text.includes('\n')) resolve(text);
      });
      child.once('exit', (code) => reject(new Error(`exited with ${code}`)));
      setTimeout(() => reject(new Error('no log line in 10 s')), 10000);
    });
    const match = /at http:\/\/127\.0\.0\.1:(\d+)\//.exec(line);
    assert.ok(match, line);
    assert.equal(Number.isInteger(Number(match[1])) && Number(match[1]) > 0, true);
  } finally {
    child.kill();
  }
});

test(`a socket that never sends a byte is closed after IDLE_MS (${IDLE_MS} ms, docs/limits.md)`, async () => {
  const { ms } = await silent;
  assert.ok(ms >= IDLE_MS - 100 && ms < IDLE_MS + 2000, `closed after ${ms} ms`);
  const limits = readFileSync(new URL('../../docs/limits.md', import.meta.url), 'utf8');
  assert.ok(limits.includes(`${IDLE_MS / 1000} s`), 'docs/limits.md states the idle timeout');
  await stillServes();
});

test(`headers sent a byte at a time are cut off after HEADERS_MS (${HEADERS_MS} ms): 408 with the security headers`, async () => {
  const { text, ms } = await trickle;
  // The server checks the headers' deadline every second.
  assert.ok(ms >= HEADERS_MS - 100 && ms < HEADERS_MS + 2500, `closed after ${ms} ms`);
  const answer = parsed(text);
  assert.equal(answer.status, 408);
  assertSecurityHeaders(answer, '408');
  assert.equal(answer.headers.connection, 'close');
  const limits = readFileSync(new URL('../../docs/limits.md', import.meta.url), 'utf8');
  assert.ok(limits.includes(`${HEADERS_MS / 1000} s (\`HEADERS_MS\``), 'docs/limits.md states the headers deadline');
  await stillServes();
});
