// The cost of `match.command` (issue 20: at most 0.2 ms added per 1 KB
// command line), paired against the regex clause it replaces: both hooks are
// built from hooks-file text the way `fire` builds them (the starter guard,
// and the old starter's `args.command.regex`), and each round matches both
// against the same fresh 1 KB line (fresh, so no analysis is reused).
// `node scripts/bench/command-match.mjs` prints the numbers alone.
import { build } from 'esbuild';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { median } from './stats.mjs';

const ENTRY = `
import { load } from 'js-yaml';
import { checkHooksFile } from ${JSON.stringify(resolve('src/core/schema.ts'))};
import { normaliseHooksFile } from ${JSON.stringify(resolve('src/core/normalise.ts'))};
import { matchHook } from ${JSON.stringify(resolve('src/core/match.ts'))};
import { starterHooksFile } from ${JSON.stringify(resolve('src/engine/starter.ts'))};
const hooksOf = (text) => normaliseHooksFile(checkHooksFile(load(text)).value, 'global', '/x/hooks.yaml').hooks;
export const commandHook = hooksOf(starterHooksFile('s.json')).find((h) => h.id === 'no-destructive-commands');
export const regexHook = hooksOf("hooks:\\n  - id: r\\n    event: before_tool_call\\n    match:\\n      tool_name: run_shell\\n      args:\\n        command: { regex: 'rm\\\\s+-[a-zA-Z]*r[a-zA-Z]*f' }\\n    run: { type: shell, shell: 'true' }\\n")[0];
export { matchHook };
`;

/** A realistic 1 KB agent command line: a chain with quotes, a pipe, a substitution and a wrapper. */
export function commandLine(i, bytes = 1024) {
  const unit = `cd "packages/app-${i}" && npm ci --no-audit 2>&1 | tail -n 20; sudo -u build env CI=1 bash -c 'rm -rf ./dist ./node_modules/.cache' && echo "$(git rev-parse --short HEAD)" > build-id.txt; `;
  let line = '';
  while (line.length + unit.length < bytes) line += unit;
  return `${line}echo done-${i}`.padEnd(bytes, ' ');
}

export async function commandMatchBench(rounds = 3000) {
  // In the repository, so the entry resolves js-yaml from its node_modules.
  const dir = mkdtempSync(join(resolve('.'), '.bench-cm-'));
  try {
    writeFileSync(join(dir, 'entry.mjs'), ENTRY);
    await build({ entryPoints: [join(dir, 'entry.mjs')], outfile: join(dir, 'out.mjs'), bundle: true, format: 'esm', platform: 'node', logLevel: 'warning' });
    const { commandHook, regexHook, matchHook } = await import(pathToFileURL(join(dir, 'out.mjs')).href);
    const envelope = (command) => ({ event: 'before_tool_call', tool: { name: 'run_shell', args: { command } } });
    const added = [];
    const command = [];
    const regex = [];
    for (let i = 0; i < rounds + 500; i++) {
      const e = envelope(commandLine(i));
      const t0 = process.hrtime.bigint();
      const a = matchHook(commandHook, e);
      const t1 = process.hrtime.bigint();
      const b = matchHook(regexHook, e);
      const t2 = process.hrtime.bigint();
      if (a.verdict !== 'no_match' || b.verdict !== 'run') throw new Error('the bench line is a safe one the old regex blocks');
      if (i < 500) continue; // warm-up: JIT
      command.push(Number(t1 - t0) / 1e6);
      regex.push(Number(t2 - t1) / 1e6);
      added.push(Number(t1 - t0 - (t2 - t1)) / 1e6);
    }
    const big = envelope(`echo ${'a'.repeat(1024 * 1024)}`);
    const t = process.hrtime.bigint();
    const bounded = matchHook(commandHook, big);
    const boundedMs = Number(process.hrtime.bigint() - t) / 1e6;
    if (bounded.verdict !== 'run') throw new Error('a 1 MiB command line must fail closed');
    return { commandMs: median(command), regexMs: median(regex), addedMs: median(added), boundedMs, rounds };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const r = await commandMatchBench();
  console.log(`match.command on a 1 KB line: ${r.commandMs.toFixed(4)} ms; regex clause: ${r.regexMs.toFixed(4)} ms; added (paired median): ${r.addedMs.toFixed(4)} ms (target <= 0.2 ms); 1 MiB line fails closed in ${r.boundedMs.toFixed(3)} ms; ${r.rounds} rounds`);
}
