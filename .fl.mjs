import { startServer } from './tests/browser/helpers.mjs';
import { coldLoad } from './tools/bench_page.mjs';
const server = await startServer();
const { weight } = await coldLoad(server.origin, { weigh: true });
console.log(weight.gzip, weight.requests);
for (const f of weight.files.sort((a, b) => a.url.localeCompare(b.url))) console.log(f.gzip, f.url);
await server.close();
process.exit(0);
