// `npm run bench:outbox-pg`: the PostgreSQL outbox, measured against a
// throw-away cluster with fsync on (scripts/pg-cluster.mjs):
//
// 1. throughput: BENCH_JOBS (default 4,000) due jobs of /bin/true drained by
//    BENCH_DRAINERS (default 4) one-shot `drain-outbox` processes at once,
//    max_parallel_hooks 4 each; jobs/s from the first start to the last exit,
//    the CPU time per job of the drainers with their hooks and of PostgreSQL
//    (from /proc: on a shared machine jobs/s moves with the other work, the
//    CPU a job costs much less), and the same jobs run by a bash loop (the
//    spawn floor), and by BENCH_DRAINERS Node processes that only spawn them,
//    4 at a time each (Node's floor: what the drainers would do with no
//    outbox at all);
// 2. latency: one `drain-outbox --watch`, BENCH_SAMPLES (default 200) jobs
//    added one after the other (graphile_worker.add_job, as `fire` does);
//    add→start is from the commit of the add to the hook's first line
//    (`date +%s%N`, so it includes a shell's start). The same against the file
//    outbox's `drain-outbox --watch` (a job file renamed into pending/), for
//    comparison; its throughput is `npm run bench:drain`.
// BENCH_ROUNDS=N repeats the throughput run (median printed, default 3; 0 skips it).
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import pg from 'pg';
import { startCluster } from './pg-cluster.mjs';

const JOBS = Number(process.env.BENCH_JOBS ?? 4000);
const DRAINERS = Number(process.env.BENCH_DRAINERS ?? 4);
const SAMPLES = Number(process.env.BENCH_SAMPLES ?? 200);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const BIN = resolve('bin/chrys-hooks');
const HOST = 'bench-host';
const root = mkdtempSync(join(tmpdir(), 'chrys-bench-pg-'));
const work = join(root, 'work');
mkdirSync(work);
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const pct = (xs, p) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * p))];
const wallMs = () => performance.timeOrigin + performance.now();
const TICK_MS = 1000 / 100; // /proc's clock ticks (USER_HZ)
/** A process's CPU ticks (user + system) from /proc: its own, its waited-for children's, and its parent. */
const procTimes = (pid) => {
  const f = readFileSync(`/proc/${pid}/stat`, 'utf8').replace(/^.*\) /, '').split(' ').map(Number);
  return { own: f[11] + f[12], children: f[13] + f[14], ppid: f[1] };
};
/** CPU ms of this process's waited-for children: the drainers and, through them, their hooks. */
const childrenCpuMs = () => procTimes('self').children * TICK_MS;
/** CPU ms of the cluster: the postmaster, its live backends and the ones it reaped. */
function clusterCpuMs() {
  const postmaster = Number(readFileSync(join(cluster.dir, 'data', 'postmaster.pid'), 'utf8').split('\n')[0]);
  let ticks = 0;
  for (const pid of readdirSync('/proc').filter((p) => /^\d+$/.test(p))) {
    try {
      const t = procTimes(pid);
      if (Number(pid) === postmaster || t.ppid === postmaster) ticks += t.own + t.children;
    } catch {
      // gone meanwhile
    }
  }
  return ticks * TICK_MS;
}

const cluster = await startCluster({ durable: true });
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, () => {
    cluster.stop();
    rmSync(root, { recursive: true, force: true });
    process.exit(130);
  });
}
try {
  console.log(`PostgreSQL outbox, node ${process.version}, ${(await import('node:os')).cpus().length} CPUs, fsync on`);
  if (ROUNDS > 0) await throughput();
  await latency('postgres');
  await latency('files');
} finally {
  cluster.stop();
  rmSync(root, { recursive: true, force: true });
}

/** A config dir whose one durable hook runs `run`, on a fresh database. */
function configDir(name, run, backend = 'postgres') {
  const dir = join(root, name);
  const hooksFile = join(dir, 'hooks', 'hooks.yaml');
  mkdirSync(join(dir, 'hooks'), { recursive: true });
  writeFileSync(hooksFile, `settings:\n  max_parallel_hooks: 4\n  outbox_retry_age_seconds: 0\nhooks:\n  - id: h0\n    event: after_turn\n    run: ${run}\n    execution: { mode: async, delivery: durable }\n`);
  if (backend === 'postgres') writeFileSync(join(dir, 'settings.yaml'), `outbox:\n  backend: postgres\n  url_env: BENCH_OUTBOX_URL\n  host_id: ${HOST}\n`);
  const url = cluster.newDatabase();
  const env = { ...process.env, BENCH_OUTBOX_URL: url };
  // The schema, made by a drain of the empty outbox (outbox list and --dry-run only look).
  const r = spawnSync(process.execPath, [BIN, 'drain-outbox', '--config-dir', dir, '--cwd', work], { env, encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`drain-outbox: ${r.stderr}`);
  const job = (i) => ({
    job_id: `job-${String(i).padStart(6, '0')}`, hook_id: 'h0', event: 'after_turn', payload: { event: 'after_turn', cwd: work, n: i },
    created_at: new Date().toISOString(), hook_source: 'global', hook_source_path: hooksFile, state: 'pending', retries: 0,
    last_started_at: null, last_finished_at: null, exit_code: null, error: null, stderr_tail: null, origin_host: HOST, origin_workspace: work,
  });
  return { dir, url, env, job };
}

async function addJobs(client, jobs) {
  await client.query(
    `SELECT graphile_worker.add_job($1::text, j, max_attempts => 100, job_key => j->>'job_id') FROM json_array_elements($2::json) j`,
    [`chrys:host:${HOST}`, JSON.stringify(jobs)],
  );
}

async function throughput() {
  const rates = [];
  const loops = [];
  const nodeLoops = [];
  const drainCpu = [];
  const pgCpu = [];
  for (let round = 0; round < ROUNDS; round++) {
    const c = configDir(`t${round}`, '{ type: command, argv: [/bin/true] }');
    const client = new pg.Client({ connectionString: c.url });
    await client.connect();
    await addJobs(client, Array.from({ length: JOBS }, (_, i) => c.job(i)));
    const cpu0 = [childrenCpuMs(), clusterCpuMs()];
    const start = process.hrtime.bigint();
    const outs = await Promise.all(Array.from({ length: DRAINERS }, () => new Promise((res, rej) => {
      const child = spawn(process.execPath, [BIN, 'drain-outbox', '--json', '--config-dir', c.dir, '--cwd', work], { env: c.env, stdio: ['ignore', 'pipe', 'pipe'] });
      let out = '';
      let err = '';
      child.stdout.on('data', (d) => (out += d));
      child.stderr.on('data', (d) => (err += d));
      child.on('exit', (code) => (code === 0 ? res(JSON.parse(out)) : rej(new Error(`drain-outbox exit ${code}: ${err}`))));
    })));
    const s = Number(process.hrtime.bigint() - start) / 1e9;
    drainCpu.push((childrenCpuMs() - cpu0[0]) / JOBS);
    pgCpu.push((clusterCpuMs() - cpu0[1]) / JOBS);
    const done = outs.reduce((n, o) => n + o.done, 0);
    const left = (await client.query("SELECT count(*)::int AS n FROM graphile_worker.jobs WHERE task_identifier LIKE 'chrys:%'")).rows[0].n;
    const filed = (await client.query("SELECT count(*)::int AS n FROM chrys_outbox.finished WHERE state = 'done'")).rows[0].n;
    await client.end();
    if (done !== JOBS || filed !== JOBS || left !== 0) throw new Error(`round ${round}: ${done} done by the drainers, ${filed} filed done, ${left} left of ${JOBS}`);
    rates.push(JOBS / s);
    const t = process.hrtime.bigint();
    spawnSync('bash', ['-c', `for i in $(seq ${JOBS}); do /bin/true; done`]);
    loops.push(JOBS / (Number(process.hrtime.bigint() - t) / 1e9));
    nodeLoops.push(await nodeSpawnLoop());
    console.log(`  round ${round + 1}: ${JOBS} jobs in ${s.toFixed(2)} s, per drainer ${outs.map((o) => o.done).join('/')}; CPU per job ${drainCpu.at(-1).toFixed(2)} ms drainers and hooks, ${pgCpu.at(-1).toFixed(2)} ms PostgreSQL`);
    rmSync(c.dir, { recursive: true, force: true });
  }
  console.log(`throughput: ${DRAINERS} drainers × max_parallel_hooks 4, ${JOBS} /bin/true jobs: median ${median(rates).toFixed(0)} jobs/s (rounds ${rates.map((r) => r.toFixed(0)).join(', ')}); CPU per job ${median(drainCpu).toFixed(2)} ms drainers and hooks, ${median(pgCpu).toFixed(2)} ms PostgreSQL; bash loop ${median(loops).toFixed(0)}/s; Node spawning them alone ${median(nodeLoops).toFixed(0)}/s`);
}

/** Jobs/s of DRAINERS Node processes that spawn JOBS /bin/true between them, 4 at a time each, with pipes, as a drain does. */
async function nodeSpawnLoop() {
  const each = Math.ceil(JOBS / DRAINERS);
  const script = `const { spawn } = require('node:child_process'); let left = ${each};
    const one = () => new Promise((r) => { const c = spawn('/bin/true', [], { stdio: 'pipe', detached: true }); c.stdin.on('error', () => {}); c.stdin.end('{}'); c.on('close', r); });
    Promise.all([1, 2, 3, 4].map(async () => { while (left-- > 0) await one(); }));`;
  const t = process.hrtime.bigint();
  await Promise.all(Array.from({ length: DRAINERS }, () => new Promise((res, rej) => spawn(process.execPath, ['-e', script], { stdio: 'inherit' }).on('exit', (code) => (code === 0 ? res() : rej(new Error(`spawn loop exit ${code}`)))))));
  return (each * DRAINERS) / (Number(process.hrtime.bigint() - t) / 1e9);
}

async function latency(backend) {
  const starts = join(root, `starts-${backend}`);
  const c = configDir(`latency-${backend}`, `{ type: shell, shell: 'date +%s%N >> ${starts}' }`, backend);
  const pending = join(c.dir, 'hooks', 'outbox', 'pending');
  mkdirSync(pending, { recursive: true });
  const watcher = spawn(process.execPath, [BIN, 'drain-outbox', '--watch', '--json', '--config-dir', c.dir, '--cwd', work], { env: c.env, stdio: ['ignore', 'ignore', 'pipe'] });
  await new Promise((res, rej) => {
    let err = '';
    watcher.stderr.on('data', (d) => {
      err += d;
      if (err.includes('"watching"')) res();
    });
    watcher.on('exit', (code) => rej(new Error(`watcher exit ${code}: ${err}`)));
  });
  const client = new pg.Client({ connectionString: c.url });
  await client.connect();
  const add = async (job) => {
    if (backend === 'postgres') return addJobs(client, [job]);
    const tmp = join(c.dir, 'tmp.json');
    writeFileSync(tmp, JSON.stringify({ ...job, created_at: new Date(Date.now() - 3600_000).toISOString() }));
    renameSync(tmp, join(pending, `${job.job_id}.json`));
  };
  const lines = () => (existsSync(starts) ? readFileSync(starts, 'utf8').split('\n').filter(Boolean) : []);
  const ms = [];
  for (let i = 0; i < SAMPLES; i++) {
    await add(c.job(i));
    const added = wallMs();
    // A bench, not a test: polling the file is the measurement's own cost (1 ms steps, never counted: the hook writes its time).
    while (lines().length <= i) await new Promise((r) => setTimeout(r, 1));
    ms.push(Number(BigInt(lines()[i]) / 1000n) / 1000 - added);
  }
  await client.end();
  watcher.kill('SIGTERM');
  await new Promise((r) => watcher.once('exit', r));
  console.log(`add→start with drain-outbox --watch on ${backend === 'postgres' ? 'PostgreSQL' : 'the file outbox'}, ${SAMPLES} jobs one at a time: p50 ${pct(ms, 0.5).toFixed(1)} ms, p95 ${pct(ms, 0.95).toFixed(1)} ms, p99 ${pct(ms, 0.99).toFixed(1)} ms, max ${Math.max(...ms).toFixed(1)} ms`);
}
