// Which job engine the PostgreSQL outbox rides on: graphile-worker against
// pg-boss on this machine, each on its own throw-away cluster (fsync on).
// Measures add→start latency with an idle, listening worker (one job at a time),
// jobs/s through 4 concurrent handlers that do nothing, the bundle esbuild makes
// of each (it is loaded lazily, like dist/cold/*.cjs) and its cold require time.
// Usage: node scripts/bench-pg-engines.mjs [JOBS=5000] [SAMPLES=200]
import { execFileSync } from 'node:child_process';
import { mkdtempSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { build } from 'esbuild';
import { startCluster } from './pg-cluster.mjs';

const JOBS = Number(process.argv[2] ?? 5000);
const SAMPLES = Number(process.argv[3] ?? 200);
const pct = (xs, p) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))];
const ms = (x) => Number(x.toFixed(1));

async function bundleOf(name) {
  const out = join(mkdtempSync(join(tmpdir(), 'chrys-bundle-')), `${name}.cjs`);
  await build({ stdin: { contents: `module.exports = require(${JSON.stringify(name)});`, resolveDir: '.', loader: 'js' }, bundle: true, format: 'cjs', platform: 'node', target: 'node20', minifySyntax: true, legalComments: 'none', outfile: out, logLevel: 'error', external: ['pg-native'] });
  const loads = [];
  for (let i = 0; i < 7; i++) {
    const t = execFileSync(process.execPath, ['-e', `const t=process.hrtime.bigint();require(${JSON.stringify(out)});console.log(Number(process.hrtime.bigint()-t)/1e6)`], { encoding: 'utf8' });
    loads.push(Number(t));
  }
  return { bundle_kb: Math.round(statSync(out).size / 1024), cold_require_ms: ms(pct(loads, 50)) };
}

async function graphile(url) {
  const { run, makeWorkerUtils } = await import('graphile-worker');
  const utils = await makeWorkerUtils({ connectionString: url });
  await utils.migrate();
  let onStart = () => {};
  let left = 0;
  let allDone = () => {};
  const runner = await run({ connectionString: url, concurrency: 4, noHandleSignals: true, pollInterval: 2000, logger: quietGraphile(await import('graphile-worker')), taskList: { lat: async () => onStart(), thr: async () => { if (--left === 0) allDone(); } } });
  const lat = [];
  for (let i = 0; i < SAMPLES; i++) {
    const started = new Promise((r) => { onStart = r; });
    const t = performance.now();
    await utils.addJob('lat', { i });
    await started;
    lat.push(performance.now() - t);
  }
  await runner.stop();
  const specs = Array.from({ length: JOBS }, (_, i) => ({ identifier: 'thr', payload: { i } }));
  await utils.addJobs(specs);
  left = JOBS;
  const done = new Promise((r) => { allDone = r; });
  const t = performance.now();
  const runner2 = await run({ connectionString: url, concurrency: 4, noHandleSignals: true, logger: quietGraphile(await import('graphile-worker')), taskList: { thr: async () => { if (--left === 0) allDone(); } } });
  await done;
  const secs = (performance.now() - t) / 1000;
  await runner2.stop();
  // The same with its local queue (claims of 25) and batched completions.
  await utils.addJobs(specs);
  left = JOBS;
  const done3 = new Promise((r) => { allDone = r; });
  const t3 = performance.now();
  const runner3 = await run({ connectionString: url, concurrency: 4, noHandleSignals: true, logger: quietGraphile(await import('graphile-worker')), preset: { worker: { localQueue: { size: 25 }, completeJobBatchDelay: 0, failJobBatchDelay: 0 } }, taskList: { thr: async () => { if (--left === 0) allDone(); } } });
  await done3;
  const secs3 = (performance.now() - t3) / 1000;
  await runner3.stop();
  await utils.release();
  return { add_to_start_p50_ms: ms(pct(lat, 50)), add_to_start_p95_ms: ms(pct(lat, 95)), jobs_per_s: Math.round(JOBS / secs), jobs_per_s_batched_25: Math.round(JOBS / secs3) };
}

function quietGraphile({ Logger }) {
  return new Logger(() => () => {});
}

async function pgboss(url, { listen }) {
  const { default: PgBoss } = await import('pg-boss');
  const pg = (await import('pg')).default;
  const boss = new PgBoss({ connectionString: url, max: 6, supervise: false, schedule: false });
  boss.on('error', () => {});
  await boss.start();
  await boss.createQueue('lat');
  await boss.createQueue('thr');
  const lat = [];
  if (!listen) {
    // pg-boss polls; 0.5 s is its floor.
    let onStart = () => {};
    await boss.work('lat', { pollingIntervalSeconds: 0.5 }, async () => onStart());
    for (let i = 0; i < Math.min(SAMPLES, 40); i++) {
      const started = new Promise((r) => { onStart = r; });
      const t = performance.now();
      await boss.send('lat', { i });
      await started;
      lat.push(performance.now() - t);
    }
    await boss.offWork('lat');
  } else {
    // pg-boss fetch() woken by our own NOTIFY: what a watcher on pg-boss would do.
    const listener = new pg.Client(url);
    await listener.connect();
    await listener.query('LISTEN chrys_bench');
    let onStart = () => {};
    listener.on('notification', () => void (async () => {
      const jobs = await boss.fetch('lat', { batchSize: 4 });
      for (const j of jobs) { onStart(); await boss.complete('lat', j.id); }
    })());
    const notifier = new pg.Client(url);
    await notifier.connect();
    for (let i = 0; i < SAMPLES; i++) {
      const started = new Promise((r) => { onStart = r; });
      const t = performance.now();
      await boss.send('lat', { i });
      await notifier.query("SELECT pg_notify('chrys_bench', '')");
      await started;
      lat.push(performance.now() - t);
    }
    await listener.end();
    await notifier.end();
  }
  const out = { add_to_start_p50_ms: ms(pct(lat, 50)), add_to_start_p95_ms: ms(pct(lat, 95)) };
  if (listen) {
    for (let i = 0; i < JOBS; i += 1000) await boss.insert(Array.from({ length: Math.min(1000, JOBS - i) }, (_, k) => ({ name: 'thr', data: { i: i + k } })));
    const t = performance.now();
    // 4 concurrent fetch/complete loops, as 4 handlers.
    await Promise.all(Array.from({ length: 4 }, async () => {
      for (;;) {
        const jobs = await boss.fetch('thr', { batchSize: 1 });
        if (jobs.length === 0) return;
        await boss.complete('thr', jobs[0].id);
      }
    }));
    out.jobs_per_s = Math.round(JOBS / ((performance.now() - t) / 1000));
    // The same with claims and completions in batches of 25, as a drain takes them.
    for (let i = 0; i < JOBS; i += 1000) await boss.insert(Array.from({ length: Math.min(1000, JOBS - i) }, (_, k) => ({ name: 'thr', data: { i: i + k } })));
    const t2 = performance.now();
    await Promise.all(Array.from({ length: 4 }, async () => {
      for (;;) {
        const jobs = await boss.fetch('thr', { batchSize: 25 });
        if (jobs.length === 0) return;
        await boss.complete('thr', jobs.map((j) => j.id));
      }
    }));
    out.jobs_per_s_batched_25 = Math.round(JOBS / ((performance.now() - t2) / 1000));
  }
  await boss.stop({ graceful: false, wait: true });
  return out;
}

const results = {};
for (const [name, fn] of [['graphile-worker', (u) => graphile(u)], ['pg-boss (work(), polling)', (u) => pgboss(u, { listen: false })], ['pg-boss (fetch() on NOTIFY)', (u) => pgboss(u, { listen: true })]]) {
  const cluster = await startCluster({ durable: true });
  try {
    results[name] = await fn(cluster.url);
  } finally {
    cluster.stop();
  }
}
Object.assign(results['graphile-worker'], await bundleOf('graphile-worker'));
Object.assign(results['pg-boss (fetch() on NOTIFY)'], await bundleOf('pg-boss'));
Object.assign(results['pg-boss (fetch() on NOTIFY)'], {});
const pgOnly = await bundleOf('pg');
console.log(JSON.stringify({ node: process.version, cpus: (await import('node:os')).cpus().length, jobs: JOBS, samples: SAMPLES, results, pg_driver_alone: pgOnly }, null, 2));
