// `grpo-lab serve`: the course page over http (tools/serve.mjs: MIME types, security headers).
import { fileURLToPath } from 'node:url';
import { serve } from '../../tools/serve.mjs';
import { UsageError } from './args.mjs';

export const WEB_ROOT = fileURLToPath(new URL('../../web', import.meta.url));

export default {
  name: 'serve',
  summary: 'serve the course page at http://localhost:8080/',
  usage: 'grpo-lab serve [--port N] [--host ADDRESS]',
  help: `Serves the course page (web/) with the headers the hosting guide recommends
(application/wasm, a CSP, no caching surprises). Ctrl+C stops it.

  --port N          the port, an integer in [0, 65535] (default 8080; 0 picks a free one)
  --host ADDRESS    the address to listen on (default 127.0.0.1; 0.0.0.0 for every interface)`,
  needsCore: false,
  spec: {
    flags: {
      port: { kind: 'int', min: 0, max: 65535, default: 8080 },
      host: { kind: 'text', meta: 'ADDRESS', default: '127.0.0.1' },
    },
  },
  async run({ flags }, { stdout }) {
    const server = await serve({ root: WEB_ROOT, port: flags.port, host: flags.host }).catch((error) => {
      if (error.code === 'EADDRINUSE') throw new UsageError(`--port ${flags.port}: already in use on ${flags.host} (--port 0 picks a free one)`);
      if (error.code === 'EADDRNOTAVAIL' || error.code === 'ENOTFOUND') throw new UsageError(`--host ${flags.host}: not an address of this machine`);
      throw error;
    });
    const { port } = server.address();
    const shown = flags.host === '0.0.0.0' ? 'localhost' : flags.host;
    stdout.write(`GRPO Lab: serving ${WEB_ROOT} at http://${shown}:${port}/ (Ctrl+C to stop)\n`);
    return new Promise(() => {}); // runs until the process is stopped
  },
};
