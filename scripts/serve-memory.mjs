// `npm run bench:serve-memory`: the RSS of one `serve --stdio` process over
// SERVE_REQUESTS (default 1,000,000) no-match requests against 50 hooks of
// other events, sampled every tenth of the run. Prints the curve and writes
// bench/results/serve-memory.json.
import { readFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { envelope, makeFixtures } from './bench/fixtures.mjs';
import { Server } from './bench/serve.mjs';

const TOTAL = Number(process.env.SERVE_REQUESTS ?? 1_000_000);
const BATCH = 10_000;
const root = mkdtempSync(join(tmpdir(), 'chrys-serve-memory-'));
const f = makeFixtures(root);
const server = new Server(resolve('bin/chrys-hooks'), ['--config-dir', f.other50, '--cwd', f.work]);
const request = JSON.stringify({ envelope: JSON.parse(envelope) });
const rssMiB = () => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${server.child.pid}/status`, 'utf8'))[1]) / 1024;

const curve = [];
const start = Date.now();
for (let done = 0; done < TOTAL; ) {
  await server.eventsPerSecond(request, BATCH);
  done += BATCH;
  if (done === BATCH || done % (TOTAL / 10) === 0) {
    curve.push({ requests: done, rss_mib: Number(rssMiB().toFixed(1)), seconds: (Date.now() - start) / 1000 });
    console.log(`${String(done).padStart(9)} requests  RSS ${curve.at(-1).rss_mib.toFixed(1)} MiB  (${curve.at(-1).seconds.toFixed(0)} s)`);
  }
}
await server.close();
mkdirSync('bench/results', { recursive: true });
writeFileSync('bench/results/serve-memory.json', JSON.stringify({ date: new Date().toISOString(), node: process.version, requests: TOTAL, curve }, null, 2) + '\n');
rmSync(root, { recursive: true, force: true });
