// lefthook, the bench's point of comparison, is not a dependency of the
// project: it is installed on first use into .cache/bench (git-ignored) and
// reused from there. Its postinstall, which would write git hooks into this
// repository, is not run.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

const VERSION = '2.2.1';
const prefix = fileURLToPath(new URL('../../.cache/bench/', import.meta.url));
const getExe = `${prefix}node_modules/lefthook/get-exe.js`;

/** The path of the lefthook binary, installing lefthook@VERSION into .cache/bench the first time. */
export function lefthookExe() {
  if (!existsSync(getExe)) {
    process.stderr.write(`installing lefthook@${VERSION} into ${prefix} (once, for the bench)...\n`);
    const r = spawnSync('npm', ['install', '--prefix', prefix, '--no-audit', '--no-fund', '--ignore-scripts', `lefthook@${VERSION}`], { stdio: ['ignore', 'ignore', 'inherit'] });
    if (r.status !== 0 || !existsSync(getExe)) throw new Error(`npm install lefthook@${VERSION} into ${prefix} failed; the bench compares against it`);
  }
  return createRequire(getExe)(getExe).getExePath();
}
