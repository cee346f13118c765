// `npm run bench`: start-up and per-hook cost of `fire`, the cost of durable
// delivery, `validate` of a 1,000-hook file (medians over interleaved runs,
// against `node -e 0` measured in the same run), and drain-outbox throughput.
// BENCH_RUNS=N changes the number of runs per case (default 30).
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const RUNS = Number(process.env.BENCH_RUNS ?? 30);
const BIN = resolve('bin/chrys-hooks');
const root = mkdtempSync(join(tmpdir(), 'chrys-bench-'));
const envelope = JSON.stringify({ event: 'before_tool_call', tool: { name: 'edit_file', args: { path: 'src/a.ts' } } });

function configWith(name, hookCount, execution = '{ mode: blocking }', settings = '') {
  const dir = join(root, name);
  mkdirSync(join(dir, 'hooks'), { recursive: true });
  if (hookCount > 0) {
    const hooks = Array.from({ length: hookCount }, (_, i) =>
      `  - id: h${i}\n    event: before_tool_call\n    match: { tool_name: edit_file }\n    run: { type: command, argv: [/bin/true] }\n    execution: ${execution}\n`).join('');
    writeFileSync(join(dir, 'hooks', 'hooks.yaml'), `${settings}hooks:\n${hooks}`);
  }
  return dir;
}

const bigFile = join(root, 'h1000.yaml');
writeFileSync(bigFile, 'hooks:\n' + Array.from({ length: 1000 }, (_, i) =>
  `  - id: h${i}\n    event: before_tool_call\n    match:\n      tool_name: t${i}\n      args:\n        path: { regex: '\\.env$' }\n    run:\n      type: command\n      argv: [/bin/true]\n    execution:\n      mode: blocking\n      timeout_seconds: 5\n`).join(''));

const work = join(root, 'work');
mkdirSync(work);
const fireIn = (configDir) => [process.execPath, [BIN, 'fire', '--config-dir', configDir, '--cwd', work], envelope];
const cases = {
  'node -e 0 (baseline)': [process.execPath, ['-e', '0'], ''],
  'fire, no hooks files': fireIn(configWith('none', 0)),
  'fire, 1 blocking hook (/bin/true)': fireIn(configWith('one', 1)),
  'fire, 10 blocking hooks (/bin/true)': fireIn(configWith('ten', 10)),
  'node spawning /bin/true 10 times': [process.execPath, ['-e', "const {spawnSync}=require('child_process');for(let i=0;i<10;i++)spawnSync('/bin/true')"], ''],
  'validate, 1,000-hook file': [process.execPath, [BIN, 'validate', bigFile], ''],
};
// Measured in a second round, each run after the previous run's worker has exited,
// so background workers do not load the machine while another case is timed.
const asyncCases = {
  'fire, 1 async hook, best_effort': fireIn(configWith('async-be', 1, '{ mode: async }')),
  'fire, 1 async hook, durable': fireIn(configWith('async-durable', 1, '{ mode: async, delivery: durable }')),
};
const workersRunning = () => spawnSync('pgrep', ['-f', `${BIN} __worker`]).status === 0;

const times = Object.fromEntries([...Object.keys(cases), ...Object.keys(asyncCases)].map((k) => [k, []]));
function round(group, settle) {
  for (let i = 0; i < RUNS + 2; i++) {
    for (const [name, [cmd, args, input]] of Object.entries(group)) {
      const start = process.hrtime.bigint();
      const r = spawnSync(cmd, args, { input, encoding: 'utf8' });
      const ms = Number(process.hrtime.bigint() - start) / 1e6;
      if (r.status !== 0) throw new Error(`${name} failed: ${r.stderr}`);
      if (i >= 2) times[name].push(ms); // the first two rounds warm the page cache
      settle?.();
    }
  }
}
round(cases);
round(asyncCases, () => {
  const deadline = Date.now() + 10_000;
  while (workersRunning() && Date.now() < deadline) spawnSync('sleep', ['0.02']);
});
const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
const base = median(times['node -e 0 (baseline)']);
console.log(`chrys-hooks bench: ${RUNS} interleaved runs per case, node ${process.version}, ${new Date().toISOString()}`);
console.log('case'.padEnd(40), 'median ms'.padStart(10), 'x baseline'.padStart(11));
for (const [name, xs] of Object.entries(times)) {
  const m = median(xs);
  console.log(name.padEnd(40), m.toFixed(1).padStart(10), (m / base).toFixed(2).padStart(11));
}
const one = median(times['fire, 1 blocking hook (/bin/true)']);
const ten = median(times['fire, 10 blocking hooks (/bin/true)']);
const spawn10 = median(times['node spawning /bin/true 10 times']) - base;
console.log(`\nper extra blocking hook: ${((ten - one) / 9).toFixed(1)} ms (node spawning /bin/true: ${(spawn10 / 10).toFixed(1)} ms each)`);
const durableCost = median(times['fire, 1 async hook, durable']) - median(times['fire, 1 async hook, best_effort']);
console.log(`durable over best_effort: ${durableCost.toFixed(1)} ms per firing`);

// drain-outbox throughput: 1,000 due jobs of /bin/true.
console.log('\ndrain-outbox, 1,000 due jobs of /bin/true:');
for (const parallel of [1, 4]) {
  const dir = configWith(`drain-${parallel}`, 1, '{ mode: async, delivery: durable }', `settings:\n  max_parallel_hooks: ${parallel}\n  outbox_retry_age_seconds: 0\n`);
  const pending = join(dir, 'hooks', 'outbox', 'pending');
  mkdirSync(pending, { recursive: true });
  const old = new Date(Date.now() - 3600_000).toISOString();
  for (let i = 0; i < 1000; i++) {
    const id = `job-${String(i).padStart(4, '0')}`;
    writeFileSync(join(pending, `${id}.json`), JSON.stringify({
      job_id: id, hook_id: 'h0', event: 'before_tool_call', payload: { event: 'before_tool_call', cwd: work }, created_at: old,
      hook_source: 'global', hook_source_path: join(dir, 'hooks', 'hooks.yaml'), state: 'pending', retries: 0,
      last_started_at: null, last_finished_at: null, exit_code: null, error: null, stderr_tail: null,
    }));
  }
  const start = process.hrtime.bigint();
  const r = spawnSync(process.execPath, [BIN, 'drain-outbox', '--json', '--config-dir', dir], { encoding: 'utf8' });
  const seconds = Number(process.hrtime.bigint() - start) / 1e9;
  const summary = JSON.parse(r.stdout);
  console.log(`  max_parallel_hooks ${parallel}: ${summary.done} done in ${seconds.toFixed(1)} s = ${(summary.done / seconds).toFixed(0)} jobs/s`);
}
rmSync(root, { recursive: true, force: true });
