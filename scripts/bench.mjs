// `npm run bench`: one run that measures every case against its floor in the
// same rounds (the machine is shared and noisy, so only paired ratios mean
// anything) and prints one table of medians and ratios. Writes
// bench/results/latest.json, bench/results/latest.svg and the table in
// docs/performance.md. BENCH_RUNS=N changes the runs per one-shot case (default 30).
// The table is measured on this machine's Node and, when they can be had, on
// Node 22 and 24 (scripts/bench/nodes.mjs); BENCH_NODES=20 (a list of majors)
// picks which.
import { spawnSync } from 'node:child_process';
import { cpus, tmpdir } from 'node:os';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { envelope, makeFixtures, queueJobs } from './bench/fixtures.mjs';
import { writeOutputs, tableLines } from './bench/report.mjs';
import { Server } from './bench/serve.mjs';
import { median, pairedRatio, quantile } from './bench/stats.mjs';
import { commandMatchBench } from './bench/command-match.mjs';
import { benchOnEveryNode } from './bench/nodes.mjs';
import { lefthookExe } from './bench/lefthook.mjs';

// The parent runs this script once per Node binary (BENCH_CHILD set) and writes the outputs.
if (!process.env.BENCH_CHILD) {
  await benchOnEveryNode(new URL(import.meta.url).pathname);
  process.exit(0);
}

const RUNS = Number(process.env.BENCH_RUNS ?? 30);
// Variables that change what every `node` start costs, the floors' and ours alike, so
// they are removed for every process measured. NODE_EXTRA_CA_CERTS makes Node 20 read
// and parse a CA bundle at each start (about 45 ms of CPU on this project's machine),
// a constant that hid most of fire's own cost in the ratios of runs made with it set.
const STARTUP_VARS = ['NODE_EXTRA_CA_CERTS', 'NODE_OPTIONS'];
const givenEnv = { ...process.env };
const startupVars = STARTUP_VARS.filter((v) => process.env[v] !== undefined);
for (const v of startupVars) delete process.env[v];
const BIN = resolve('bin/chrys-hooks');
const LEFTHOOK = lefthookExe();
const root = mkdtempSync(join(tmpdir(), 'chrys-bench-'));
const f = makeFixtures(root);
spawnSync('git', ['init', '-q', f.lefthookDir]);

const timed = (cmd, args, opts = {}) => {
  const start = process.hrtime.bigint();
  const r = spawnSync(cmd, args, { encoding: 'utf8', ...opts });
  const ms = Number(process.hrtime.bigint() - start) / 1e6;
  if (r.status !== 0) throw new Error(`${cmd} ${args.join(' ')} failed (${r.status}): ${r.stderr}${r.stdout}`);
  return ms;
};
const node = (code) => () => timed(process.execPath, ['-e', code]);
const fire = (configDir) => () => timed(process.execPath, [BIN, 'fire', '--config-dir', configDir, '--cwd', f.work], { input: envelope });
let edits = 0;
const uncachedFile = join(f.uncached50, 'hooks', 'hooks.yaml');
const uncachedText = spawnSync('cat', [uncachedFile], { encoding: 'utf8' }).stdout;
const fireAfterEdit = () => {
  writeFileSync(uncachedFile, `${uncachedText}# edit ${++edits}\n`);
  return fire(f.uncached50)();
};
const lefthook = (hook) => () => timed(LEFTHOOK, ['run', hook], { cwd: f.lefthookDir, env: { ...process.env, LEFTHOOK_QUIET: 'meta,summary,execution,execution_out,execution_info,skips' } });

const servers = { one: new Server(BIN, ['--config-dir', f.one, '--cwd', f.work]), ten: new Server(BIN, ['--config-dir', f.ten, '--cwd', f.work]), other50: new Server(BIN, ['--config-dir', f.other50, '--cwd', f.work]) };
const request = JSON.stringify({ envelope: JSON.parse(envelope) });
const serveOnce = (server) => async () => (await servers[server].roundTrips(request, 1))[0];

const cases = {
  'node -e 0': node('0'),
  'node spawning /bin/true 1×': node("require('child_process').spawnSync('/bin/true')"),
  'node spawning /bin/true 10×': node("const {spawnSync}=require('child_process');for(let i=0;i<10;i++)spawnSync('/bin/true')"),
  'bash loop of 10 /bin/true': () => timed('bash', ['-c', 'for i in 1 2 3 4 5 6 7 8 9 10; do /bin/true; done']),
  'lefthook, 1 command': lefthook('bench1'),
  'lefthook, 10 commands': lefthook('bench10'),
  'fire, no hooks files': fire(f.none),
  'fire, 50 hooks of other events, cached': fire(f.other50),
  'fire, 50 hooks, after an edit (uncached)': fireAfterEdit,
  'fire, 1 blocking hook': fire(f.one),
  'fire, 10 blocking hooks': fire(f.ten),
  'serve, 10 blocking hooks (round trip)': serveOnce('ten'),
  'validate, 1,000 hooks': () => timed(process.execPath, [BIN, 'validate', f.bigFile]),
};
const asyncCases = {
  'node -e 0 (async round)': node('0'),
  'fire, 1 async hook, best effort': fire(f.asyncBestEffort),
  'fire, 1 async hook, durable': fire(f.asyncDurable),
};
const times = {};
async function rounds(group, settle) {
  for (const k of Object.keys(group)) times[k] = [];
  for (let i = 0; i < RUNS + 2; i++) {
    for (const [name, run] of Object.entries(group)) {
      const ms = await run();
      if (i >= 2) times[name].push(ms); // the first two rounds warm the page cache
      settle?.();
    }
  }
}
const workersRunning = () => spawnSync('pgrep', ['-f', resolve('dist/worker.js')]).status === 0;

process.stderr.write(`one-shot cases, ${RUNS} rounds...\n`);
await rounds(cases);
await rounds(asyncCases, () => {
  const deadline = Date.now() + 10_000;
  while (workersRunning() && Date.now() < deadline) spawnSync('sleep', ['0.02']);
});

process.stderr.write('serve and the API...\n');
await servers.other50.roundTrips(request, 500);
const serveNoMatch = await servers.other50.roundTrips(request, 5000);
await servers.one.roundTrips(request, 20);
const serveOne = await servers.one.roundTrips(request, 300);
const bursts = [];
for (let i = 0; i < 3; i++) bursts.push(await servers.other50.eventsPerSecond(request, 20_000));
for (const s of Object.values(servers)) await s.close();

const api = await import(pathToFileURL(resolve('dist/api.js')).href);
const apiTimes = [];
const apiEnvelope = JSON.parse(envelope);
for (let i = 0; i < 6000; i++) {
  const start = process.hrtime.bigint();
  await api.fire(apiEnvelope, { configDir: f.other50, cwd: f.work });
  if (i >= 1000) apiTimes.push(Number(process.hrtime.bigint() - start) / 1e6);
}

process.stderr.write('match.command on 1 KB command lines (paired against the regex clause)...\n');
const cm = await commandMatchBench();

process.stderr.write('drain-outbox of 1,000 jobs (3 paired rounds)...\n');
const drainTimes = [];
const loopTimes = [];
for (let i = 0; i < 3; i++) {
  loopTimes.push(timed('bash', ['-c', 'for ((i=0;i<1000;i++)); do /bin/true; done']));
  queueJobs(f.drain, f.work);
  drainTimes.push(timed(process.execPath, [BIN, 'drain-outbox', '--json', '--config-dir', f.drain]));
  rmSync(join(f.drain, 'hooks', 'outbox'), { recursive: true, force: true });
}

const m = (name) => median(times[name]);
const row = (name, floorName, target) => {
  const ratio = floorName ? pairedRatio(times[name], times[floorName]) : undefined;
  return { name, value: m(name), unit: 'ms', ...(floorName ? { floor: floorName, ratio } : {}), ...target?.(ratio, m(name)) };
};
const atMost = (limit) => (ratio) => ({ target: limit, targetRatio: limit, targetText: `≤ ${limit}×`, met: ratio <= limit });
const below = (limit) => (ratio) => ({ target: limit, targetRatio: limit, targetText: `< ${limit}×`, met: ratio < limit });
const rows = [
  row('node -e 0'),
  row('node spawning /bin/true 1×', 'node -e 0'),
  row('node spawning /bin/true 10×', 'node -e 0'),
  row('bash loop of 10 /bin/true'),
  row('lefthook, 1 command', 'node spawning /bin/true 1×'),
  row('lefthook, 10 commands', 'bash loop of 10 /bin/true'),
  row('fire, no hooks files', 'node -e 0', atMost(1.15)),
  row('fire, 50 hooks of other events, cached', 'node -e 0', atMost(1.2)),
  row('fire, 50 hooks, after an edit (uncached)', 'node -e 0', atMost(1.8)),
  row('fire, 1 blocking hook', 'node spawning /bin/true 1×', atMost(1.25)),
  row('fire, 10 blocking hooks', 'node spawning /bin/true 10×', atMost(1.3)),
  { ...row('fire, 10 blocking hooks', 'lefthook, 10 commands'), name: 'fire, 10 blocking hooks vs lefthook' },
  { ...row('fire, 1 async hook, best effort', 'node -e 0 (async round)') },
  { ...row('fire, 1 async hook, durable', 'node -e 0 (async round)') },
  row('validate, 1,000 hooks', 'node -e 0', atMost(2.5)),
  row('serve, 10 blocking hooks (round trip)', 'lefthook, 10 commands', atMost(0.5)),
];
const p50 = median(serveNoMatch);
rows.push(
  { name: 'serve, no match, p50 round trip', value: p50, unit: 'ms', target: 0.3, targetText: '≤ 0.3 ms', met: p50 <= 0.3 },
  { name: 'serve, no match, p99 round trip', value: quantile(serveNoMatch, 0.99), unit: 'ms' },
  { name: 'serve, 1 blocking hook, p50 round trip', value: median(serveOne), unit: 'ms' },
  { name: 'serve, 1 blocking hook, p99 round trip', value: quantile(serveOne, 0.99), unit: 'ms' },
  { name: 'serve, no match, events/s (pipelined)', value: median(bursts), unit: 'events/s', target: 5000, targetText: '≥ 5,000/s', met: median(bursts) >= 5000 },
  { name: 'API fire(), no match, per call', value: median(apiTimes), unit: 'ms', target: 0.2, targetText: '≤ 0.2 ms', met: median(apiTimes) <= 0.2 },
);
rows.push(
  { name: 'match.command, 1 KB command line, added over the regex clause', value: cm.addedMs, unit: 'ms', target: 0.2, targetText: '≤ 0.2 ms', met: cm.addedMs <= 0.2 },
  { name: 'match.command, 1 MiB command line (fails closed unparsed)', value: cm.boundedMs, unit: 'ms' },
);
const drainRatio = pairedRatio(drainTimes, loopTimes);
rows.push({ name: 'drain-outbox, 1,000 jobs, parallel 4', value: median(drainTimes), unit: 'ms', floor: 'bash loop of 1,000 /bin/true', ratio: drainRatio, target: 3, targetRatio: 3, targetText: '≤ 3×', met: drainRatio <= 3 });

/** What the removed variables cost a bare start here: node -e 0 with them and without, paired. */
function startupVarsNote() {
  if (startupVars.length === 0) return [];
  const withVars = [];
  const without = [];
  for (let i = 0; i < RUNS; i++) {
    withVars.push(timed(process.execPath, ['-e', '0'], { env: givenEnv }));
    without.push(timed(process.execPath, ['-e', '0']));
  }
  return [`${startupVars.join(' and ')} ${startupVars.length === 1 ? 'was' : 'were'} set: every process above ran without, as with ${startupVars.length === 1 ? 'it' : 'them'} node -e 0 took ${median(withVars).toFixed(2)} ms against ${median(without).toFixed(2)} ms without (${pairedRatio(withVars, without).toFixed(2)}×, ${RUNS} paired runs), a cost every start pays alike.`];
}

const notes = [
  ...startupVarsNote(),
  `serve and the API were measured against a config of 50 hooks of other events (no match); serve no-match round trips: ${serveNoMatch.length} sequential requests; events/s: median of 3 bursts of 20,000 pipelined requests.`,
  `match.command: the starter guard (${cm.commandMs.toFixed(3)} ms) against the old starter's regex clause (${cm.regexMs.toFixed(3)} ms) on the same fresh 1 KB line, ${cm.rounds} paired rounds in process.`,
  `drain-outbox: ${(1000 / (median(drainTimes) / 1000)).toFixed(0)} jobs/s (the bash loop: ${(1000 / (median(loopTimes) / 1000)).toFixed(0)}/s).`,
  `lefthook ${spawnSync(LEFTHOOK, ['version'], { encoding: 'utf8' }).stdout.trim()} runs its commands piped (one after another), from its own binary.`,
];
console.log(`chrys-hooks bench: node ${process.version}, ${cpus().length} CPUs, ${new Date().toISOString()}`);
for (const line of tableLines(rows)) console.log(line);
for (const n of notes) console.log(`- ${n}`);
writeFileSync(process.env.BENCH_CHILD, JSON.stringify({ date: new Date().toISOString(), node: process.version, cpus: cpus().length, runs: RUNS, rows, notes, raw: { ...times, serveOne, bursts, drainTimes, loopTimes } }));
rmSync(root, { recursive: true, force: true });
