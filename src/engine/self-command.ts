// Which command an agent should run to reach this chrys-hooks, and which file
// a written command reaches: `install` writes the bare name when `chrys-hooks`
// on PATH is this very binary (it then survives a reinstall elsewhere on
// PATH), else the absolute path of the running binary.

import { accessSync, constants, realpathSync, statSync } from 'node:fs';
import { isAbsolute, resolve } from 'node:path';
import { which } from '../base/interpreter.js';

/** The running binary: the bin shim node was started with. */
export const runningBinary = (): string => resolve(process.argv[1] ?? 'chrys-hooks');

const realOr = (p: string): string => {
  try {
    return realpathSync(p);
  } catch {
    return p;
  }
};

function isExecutableFile(p: string): boolean {
  try {
    if (!statSync(p).isFile()) return false;
    accessSync(p, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/**
 * The first executable `name` in an absolute PATH entry of `env` (the same
 * look-up interpreters get: a relative entry such as `node_modules/.bin`
 * names a folder of whatever directory the command runs in, a cloned
 * repository's among them, and is never searched).
 */
export const onPath = (name: string, env: NodeJS.ProcessEnv = process.env): string | undefined => which(name, env.PATH ?? '');

const SAFE_WORD = /^[\w@%+=:,./-]+$/;
export const shellQuote = (word: string): string => (SAFE_WORD.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`);

export interface SelfCommand {
  /** What the written command starts with: `chrys-hooks` or a quoted absolute path. */
  text: string;
  bare: boolean;
  /** One line for the output: which, and why. */
  why: string;
}

export function selfCommand(env: NodeJS.ProcessEnv = process.env): SelfCommand {
  const self = runningBinary();
  const found = onPath('chrys-hooks', env);
  if (found && realOr(found) === realOr(self)) return { text: 'chrys-hooks', bare: true, why: `chrys-hooks (on PATH as ${found}, which is this binary)` };
  const why = found ? `\`chrys-hooks\` on PATH is another file (${found})` : '`chrys-hooks` is not on PATH';
  return { text: shellQuote(self), bare: false, why: `${self} (the running binary: ${why})` };
}

/** Where a written binary leads: the file, whether it is there and runnable, and whether it is this binary. */
export interface BinaryTarget {
  path?: string;
  found: boolean;
  self: boolean;
}

export function binaryTarget(binary: string, env: NodeJS.ProcessEnv = process.env): BinaryTarget {
  const path = binary.includes('/') ? (isAbsolute(binary) ? binary : undefined) : onPath(binary, env);
  if (!path || !isExecutableFile(path)) return { ...(path ? { path } : {}), found: false, self: false };
  return { path, found: true, self: realOr(path) === realOr(runningBinary()) };
}
