// `node scripts/bench-interop.mjs` (after `npm run build`): the cost of the
// agent bridge. Medians of interleaved runs of `fire` with a Chrys envelope
// and of `fire --protocol claude` with the same call as Claude Code sends it,
// with no hooks files, one Chrys hook and one `run.protocol: claude` hook.
// BENCH_RUNS=N changes the number of runs per case (default 30).
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const RUNS = Number(process.env.BENCH_RUNS ?? 30);
const BIN = resolve('bin/chrys-hooks');
const root = mkdtempSync(join(tmpdir(), 'chrys-bench-interop-'));
const work = join(root, 'work');
mkdirSync(work);
const chrys = JSON.stringify({ event: 'before_tool_call', tool: { name: 'Bash', args: { command: 'ls' } } });
const claude = JSON.stringify({ session_id: 's', transcript_path: '/t', cwd: work, permission_mode: 'default', hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command: 'ls' }, tool_use_id: 't1' });

function config(name, hook) {
  const dir = join(root, name);
  mkdirSync(join(dir, 'hooks'), { recursive: true });
  if (hook) writeFileSync(join(dir, 'hooks', 'hooks.yaml'), `hooks:\n  - id: h\n    event: before_tool_call\n    match: { tool_name: Bash }\n    run: { type: command, argv: [/bin/true]${hook === 'claude' ? ', protocol: claude' : ''} }\n    execution: { mode: blocking }\n`);
  return dir;
}
const none = config('none');
const one = config('one', 'chrys');
const foreign = config('foreign', 'claude');
const fire = (dir, input, extra = []) => [[BIN, 'fire', ...extra, '--config-dir', dir, '--cwd', work], input];
const cases = {
  'node -e 0 (baseline)': [['-e', '0'], ''],
  'fire, no hooks files': fire(none, chrys),
  'fire --protocol claude, no hooks files': fire(none, claude, ['--protocol', 'claude']),
  'fire, 1 blocking hook': fire(one, chrys),
  'fire --protocol claude, 1 blocking hook': fire(one, claude, ['--protocol', 'claude']),
  'fire --protocol claude, 1 run.protocol: claude hook': fire(foreign, claude, ['--protocol', 'claude']),
};
const times = Object.fromEntries(Object.keys(cases).map((k) => [k, []]));
for (const [, [args, input]] of Object.entries(cases)) spawnSync(process.execPath, args, { input }); // warm the cache
for (let i = 0; i < RUNS; i++) {
  for (const [name, [args, input]] of Object.entries(cases)) {
    const t = process.hrtime.bigint();
    spawnSync(process.execPath, args, { input });
    times[name].push(Number(process.hrtime.bigint() - t) / 1e6);
  }
}
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const base = median(times['node -e 0 (baseline)']);
for (const [name, xs] of Object.entries(times)) console.log(`${name.padEnd(52)} ${median(xs).toFixed(0).padStart(5)} ms  ${(median(xs) / base).toFixed(2)}x`);
rmSync(root, { recursive: true, force: true });
