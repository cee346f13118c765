// `npm run bench`: start-up and per-hook cost of `fire`, as medians over
// interleaved runs, against `node -e 0` measured in the same run.
// BENCH_RUNS=N changes the number of runs per case (default 30).
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const RUNS = Number(process.env.BENCH_RUNS ?? 30);
const BIN = resolve('bin/chrys-hooks');
const root = mkdtempSync(join(tmpdir(), 'chrys-bench-'));
const envelope = JSON.stringify({ event: 'before_tool_call', tool: { name: 'edit_file', args: { path: 'src/a.ts' } } });

function configWith(name, hookCount) {
  const dir = join(root, name);
  mkdirSync(join(dir, 'hooks'), { recursive: true });
  if (hookCount > 0) {
    const hooks = Array.from({ length: hookCount }, (_, i) =>
      `  - id: h${i}\n    event: before_tool_call\n    match: { tool_name: edit_file }\n    run: { type: command, argv: [/bin/true] }\n    execution: { mode: blocking }\n`).join('');
    writeFileSync(join(dir, 'hooks', 'hooks.yaml'), `hooks:\n${hooks}`);
  }
  return dir;
}

const work = join(root, 'work');
mkdirSync(work);
const fireIn = (configDir) => [process.execPath, [BIN, 'fire', '--config-dir', configDir, '--cwd', work], envelope];
const cases = {
  'node -e 0 (baseline)': [process.execPath, ['-e', '0'], ''],
  'fire, no hooks files': fireIn(configWith('none', 0)),
  'fire, 1 blocking hook (/bin/true)': fireIn(configWith('one', 1)),
  'fire, 10 blocking hooks (/bin/true)': fireIn(configWith('ten', 10)),
  'node spawning /bin/true 10 times': [process.execPath, ['-e', "const {spawnSync}=require('child_process');for(let i=0;i<10;i++)spawnSync('/bin/true')"], ''],
};

const times = Object.fromEntries(Object.keys(cases).map((k) => [k, []]));
for (let i = 0; i < RUNS + 2; i++) {
  for (const [name, [cmd, args, input]] of Object.entries(cases)) {
    const start = process.hrtime.bigint();
    const r = spawnSync(cmd, args, { input, encoding: 'utf8' });
    const ms = Number(process.hrtime.bigint() - start) / 1e6;
    if (r.status !== 0) throw new Error(`${name} failed: ${r.stderr}`);
    if (i >= 2) times[name].push(ms); // the first two rounds warm the page cache
  }
}
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
rmSync(root, { recursive: true, force: true });
