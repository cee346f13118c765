// `chrys-hooks init`: writes the starter hooks file and its scripts into the
// project (or, with --global, the global) hooks directory. Never overwrites:
// an existing hooks file stops it; an existing script is left as it is.

import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ChrysError } from '../core/errors.js';
import { type GlobalOptions, HOOKS_FILE_NAMES, configDirOf, findFirstEntry, globalHooksDir, projectHooksDir, workspaceOf } from '../config/locations.js';
import { symlinkOnTheWay } from '../config/write-hooks.js';
import { STARTER_SCRIPTS, starterHooksFile } from './starter.js';
import { STARTER_CLAUDE_SCRIPTS, starterClaudeHooksFile } from './starter-claude.js';

export interface InitResult {
  layer: 'project' | 'global';
  dir: string;
  written: string[];
  /** Scripts that already existed and were left alone. */
  kept: string[];
  /** The hook protocol the examples are written in. */
  protocol: 'chrys' | 'claude';
}

export function initHooks(opts: GlobalOptions & { global?: boolean; protocol?: string }): InitResult {
  const layer = opts.global ? 'global' : 'project';
  const base = layer === 'global' ? configDirOf(opts) : workspaceOf(opts);
  const dir = layer === 'global' ? globalHooksDir(base) : projectHooksDir(base);
  const existing = findFirstEntry(dir, HOOKS_FILE_NAMES);
  if (existing) throw new ChrysError('refused', `${existing} already exists; init never overwrites a hooks file`, `edit it, or run \`chrys-hooks validate ${existing}\``);
  const claude = opts.protocol === 'claude';
  const result: InitResult = { layer, dir, written: [], kept: [], protocol: claude ? 'claude' : 'chrys' };
  const files = [{ path: 'hooks.yaml', content: (claude ? starterClaudeHooksFile : starterHooksFile)(schemaPath()), mode: 0o644 }, ...(claude ? STARTER_CLAUDE_SCRIPTS : STARTER_SCRIPTS)];
  // Every check before the first write: a refusal leaves nothing half-written.
  for (const f of files) refuseSymlink(base, join(dir, f.path));
  for (const f of files) write(base, join(dir, f.path), f.content, f.mode, result);
  return result;
}

function refuseSymlink(base: string, path: string): void {
  const link = symlinkOnTheWay(base, path);
  if (link) throw new ChrysError('refused', `${link} is a symbolic link; init never writes through one, so nothing was written`, 'replace the link with a real directory, or run init elsewhere');
}

function write(base: string, path: string, content: string, mode: number, result: InitResult): void {
  refuseSymlink(base, path); // again, for a link made after the first check
  mkdirSync(dirname(path), { recursive: true });
  try {
    writeFileSync(path, content, { mode, flag: 'wx' });
    result.written.push(path);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw new ChrysError('refused', `cannot write ${path}: ${(e as Error).message}`);
    result.kept.push(path);
  }
}

/** The JSON Schema shipped with this install, for the yaml-language-server line. */
function schemaPath(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (let i = 0; i < 4; i++) {
    const candidate = join(dir, 'schema', 'hooks.schema.json');
    if (existsSync(candidate)) return candidate;
    dir = dirname(dir);
  }
  return '/path/to/chrys-hooks/schema/hooks.schema.json';
}
