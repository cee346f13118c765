// `npm run stress:outbox-pg`: the PostgreSQL outbox under abuse, not a timed
// test. STRESS_DRAINERS (default 8; 2 of them `--watch`, the rest one-shot
// drains started again while jobs remain, as cron would) drain STRESS_JOBS
// (default 5,000) jobs per drainer; each job's hook appends "start N PID" and
// "end N PID" to one file. Once a quarter of the jobs ended, a watcher's
// process group is killed with -9 (its hooks lead groups of their own and run
// on) and a new watcher started; at half, the database restarts (pg_ctl
// restart, fast). At the end: no job without an end (none lost), no start of a
// job while another start of it has not ended (never twice at once), every
// job filed done; re-runs (at least once after a kill or a restart) are counted.
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import pg from 'pg';
import { startCluster } from './pg-cluster.mjs';

const DRAINERS = Number(process.env.STRESS_DRAINERS ?? 8);
const JOBS = Number(process.env.STRESS_JOBS ?? 5000) * DRAINERS;
/** STRESS_KILL=0 / STRESS_RESTART=0 leave out the kill -9 or the database restart. */
const KILL = process.env.STRESS_KILL !== '0';
const RESTART = process.env.STRESS_RESTART !== '0';
const BIN = resolve('bin/chrys-hooks');
const root = mkdtempSync(join(tmpdir(), 'chrys-stress-pg-'));
const log = join(root, 'runs');
const cluster = await startCluster({ durable: true });
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, () => {
    cluster.stop();
    rmSync(root, { recursive: true, force: true });
    process.exit(130);
  });
}
const t0 = Date.now();
const say = (m) => console.log(`${((Date.now() - t0) / 1000).toFixed(1).padStart(6)} s  ${m}`);
try {
  const dir = join(root, 'cfg');
  const work = join(root, 'work');
  mkdirSync(work);
  mkdirSync(join(dir, 'hooks'), { recursive: true });
  const hooksFile = join(dir, 'hooks', 'hooks.yaml');
  // The job's number reaches the hook through its payload file.
  const shell = `N=$(sed -n -e ''s/.*"n": *\\([0-9]*\\).*/\\1/p'' "$CHRYS_HOOK_PAYLOAD_FILE"); echo "start $N $$" >> ${log}; echo "end $N $$" >> ${log}`;
  writeFileSync(hooksFile, `settings:\n  max_parallel_hooks: 4\n  outbox_retry_age_seconds: 0\n  outbox_max_retries: 10\nhooks:\n  - id: h0\n    event: after_turn\n    run: { type: shell, shell: '${shell}' }\n    execution: { mode: async, delivery: durable }\n`);
  writeFileSync(join(dir, 'settings.yaml'), 'outbox:\n  backend: postgres\n  url_env: STRESS_URL\n  host_id: stress\n');
  const env = { ...process.env, STRESS_URL: cluster.url };
  // The schema, made by a drain of the empty outbox (outbox list and --dry-run only look).
  const r = spawnSync(process.execPath, [BIN, 'drain-outbox', '--config-dir', dir], { env, encoding: 'utf8' });
  if (r.status !== 0) throw new Error(r.stderr);
  const client = new pg.Client({ connectionString: cluster.url });
  await client.connect();
  const jobs = Array.from({ length: JOBS }, (_, n) => ({
    job_id: `s-${n}`, hook_id: 'h0', event: 'after_turn', payload: { event: 'after_turn', cwd: work, n }, created_at: new Date().toISOString(),
    hook_source: 'global', hook_source_path: hooksFile, state: 'pending', retries: 0, last_started_at: null, last_finished_at: null, exit_code: null, error: null, stderr_tail: null, origin_host: 'stress',
  }));
  for (let i = 0; i < jobs.length; i += 1000) {
    await client.query(
      `SELECT graphile_worker.add_jobs(array(SELECT ROW('chrys:host:stress', j, NULL, NULL, 100, j->>'job_id', NULL, NULL)::graphile_worker.job_spec FROM json_array_elements($1::json) j))`,
      [JSON.stringify(jobs.slice(i, i + 1000))],
    );
  }
  await client.end();
  say(`${JOBS} jobs queued; ${DRAINERS} drainers (2 --watch)`);

  const children = new Set();
  const start = (watch) => {
    const child = spawn(process.execPath, [BIN, 'drain-outbox', '--json', ...(watch ? ['--watch'] : []), '--config-dir', dir, '--cwd', work], { env, stdio: ['ignore', 'ignore', 'pipe'], detached: true });
    child.stderr.on('data', () => {});
    children.add(child);
    child.on('exit', () => children.delete(child));
    return child;
  };
  // One-shot drainers are started again while jobs remain (a cron would do the same); a database restart ends them with 69.
  let remaining = JOBS;
  const oneShot = async () => {
    while (remaining > 0) await new Promise((res) => start(false).once('exit', res));
  };
  const watchers = [start(true), start(true)];
  const loops = Array.from({ length: DRAINERS - 2 }, () => oneShot());
  const count = async () => {
    const c = new pg.Client({ connectionString: cluster.url });
    await c.connect();
    try {
      return (await c.query("SELECT count(*)::int AS n FROM graphile_worker.jobs WHERE task_identifier LIKE 'chrys:%'")).rows[0].n;
    } finally {
      await c.end();
    }
  };
  const ends = () => readFileSync(log, 'utf8').split('\n').filter((l) => l.startsWith('end ')).length;
  const waitFor = async (pred) => {
    while (!(await pred())) await new Promise((r) => setTimeout(r, 200)); // a script's poll of a file, not a test
  };
  await waitFor(() => { try { return ends() > JOBS / 4; } catch { return false; } });
  if (KILL) {
    const victim = watchers[0];
    process.kill(-victim.pid, 'SIGKILL');
    say(`kill -9 of a --watch drainer (group ${victim.pid}) after ${ends()} ends`);
    watchers[0] = start(true);
  }
  await waitFor(() => ends() > JOBS / 2);
  if (RESTART) {
    say(`pg_ctl restart after ${ends()} ends`);
    cluster.restart();
    say('database back');
  }
  await waitFor(async () => { try { remaining = await count(); } catch { return false; } return remaining === 0; });
  await Promise.all(loops);
  for (const w of watchers) w.kill('SIGTERM');
  await Promise.all([...children].map((c) => new Promise((r) => c.once('exit', r))));

  const lines = readFileSync(log, 'utf8').split('\n').filter(Boolean);
  const open = new Map();
  const ended = new Map();
  let overlaps = 0;
  for (const l of lines) {
    const [what, n] = l.split(' ');
    if (what === 'start') {
      if (open.get(n)) overlaps++;
      open.set(n, (open.get(n) ?? 0) + 1);
    } else {
      open.set(n, open.get(n) - 1);
      ended.set(n, (ended.get(n) ?? 0) + 1);
    }
  }
  const missing = jobs.filter((j) => !ended.has(String(j.payload.n))).length;
  const twice = [...ended.values()].filter((v) => v > 1).length;
  const c = new pg.Client({ connectionString: cluster.url });
  await c.connect();
  const filed = (await c.query('SELECT state, count(*)::int AS n FROM chrys_outbox.finished GROUP BY state ORDER BY state')).rows;
  const starts = (await c.query("SELECT (job->>'retries')::int AS starts, count(*)::int AS n FROM chrys_outbox.finished GROUP BY 1 ORDER BY 1")).rows;
  say(`starts counted per job: ${starts.map((r) => `${r.starts}: ${r.n}`).join(', ')}`);
  const failures = (await c.query("SELECT job->>'error' AS error, count(*)::int AS n FROM chrys_outbox.finished WHERE state = 'failed' GROUP BY 1")).rows;
  if (failures.length) say(`failed: ${failures.map((f) => `${f.error} ${f.n}`).join(', ')}`);
  const unfiled = (await c.query("SELECT n FROM generate_series(0, $1::int - 1) n WHERE NOT EXISTS (SELECT 1 FROM chrys_outbox.finished WHERE job_id = 's-' || n)", [JOBS])).rows.map((r) => r.n);
  if (unfiled.length) say(`not filed: ${unfiled.slice(0, 20).join(', ')}; their lines: ${lines.filter((l) => unfiled.includes(Number(l.split(' ')[1]))).join(' | ')}`);
  await c.end();
  say(`${lines.length / 2} runs of ${JOBS} jobs; lost ${missing}; ran more than once ${twice} (after the kill or the restart: at least once); two starts at once ${overlaps}; filed ${filed.map((f) => `${f.state} ${f.n}`).join(', ')}`);
  if (missing || overlaps || unfiled.length || failures.length) process.exitCode = 1;
} finally {
  cluster.stop();
  rmSync(root, { recursive: true, force: true });
}
