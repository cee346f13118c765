// `npm run bench:drain`: drain-outbox throughput, 1,000 due durable jobs of
// /bin/true, paired in each round with a bash loop of 1,000 /bin/true (the
// floor), for max_parallel_hooks 1 and 4. Prints the medians and the ratio.
// BENCH_ROUNDS=N sets the rounds (default 5); BENCH_JOBS=N the job count;
// BENCH_PARALLEL=4 measures one max_parallel_hooks only.
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const JOBS = Number(process.env.BENCH_JOBS ?? 1000);
const BIN = resolve('bin/chrys-hooks');
const root = mkdtempSync(join(tmpdir(), 'chrys-bench-drain-'));
const work = join(root, 'work');
mkdirSync(work);
const seconds = (fn) => {
  const start = process.hrtime.bigint();
  fn();
  return Number(process.hrtime.bigint() - start) / 1e9;
};
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

function outbox(parallel, round) {
  const dir = join(root, `p${parallel}-r${round}`);
  const hooksFile = join(dir, 'hooks', 'hooks.yaml');
  const pending = join(dir, 'hooks', 'outbox', 'pending');
  mkdirSync(pending, { recursive: true });
  writeFileSync(hooksFile, `settings:\n  max_parallel_hooks: ${parallel}\n  outbox_retry_age_seconds: 0\nhooks:\n  - id: h0\n    event: before_tool_call\n    run: { type: command, argv: [/bin/true] }\n    execution: { mode: async, delivery: durable }\n`);
  const old = new Date(Date.now() - 3600_000).toISOString();
  for (let i = 0; i < JOBS; i++) {
    const id = `job-${String(i).padStart(5, '0')}`;
    writeFileSync(join(pending, `${id}.json`), JSON.stringify({
      job_id: id, hook_id: 'h0', event: 'before_tool_call', payload: { event: 'before_tool_call', cwd: work }, created_at: old,
      hook_source: 'global', hook_source_path: hooksFile, state: 'pending', retries: 0,
      last_started_at: null, last_finished_at: null, exit_code: null, error: null, stderr_tail: null,
    }));
  }
  return dir;
}

console.log(`drain-outbox, ${JOBS} due jobs of /bin/true, ${ROUNDS} rounds, node ${process.version}`);
for (const parallel of process.env.BENCH_PARALLEL ? [Number(process.env.BENCH_PARALLEL)] : [1, 4]) {
  const drains = [];
  const loops = [];
  for (let round = 0; round < ROUNDS; round++) {
    const dir = outbox(parallel, round);
    loops.push(seconds(() => spawnSync('bash', ['-c', `for i in $(seq ${JOBS}); do /bin/true; done`])));
    let r;
    drains.push(seconds(() => (r = spawnSync(process.execPath, [BIN, 'drain-outbox', '--json', '--config-dir', dir, '--cwd', work], { encoding: 'utf8', maxBuffer: 1 << 28 }))));
    const done = JSON.parse(r.stdout).done;
    if (done !== JOBS) throw new Error(`drain ran ${done} of ${JOBS} jobs: ${r.stderr}`);
    rmSync(dir, { recursive: true, force: true });
  }
  const d = median(drains);
  const b = median(loops);
  console.log(`  max_parallel_hooks ${parallel}: ${(JOBS / d).toFixed(0)} jobs/s (median ${d.toFixed(2)} s); bash loop ${(JOBS / b).toFixed(0)}/s (${b.toFixed(2)} s); ${(d / b).toFixed(2)}x the loop`);
}
rmSync(root, { recursive: true, force: true });
