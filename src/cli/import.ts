// `chrys-hooks import --from claude|codex|gemini|cursor [FILE] [--write [--global] [--force]]`.

import { ChrysError, EXIT } from '../core/errors.js';
import type { ImportSource } from '../core/import/convert.js';
import { importConfig } from '../engine/import.js';
import type { CliGlobals } from './globals.js';
import type { CommandResult } from './output.js';

const SOURCES: readonly ImportSource[] = ['claude', 'codex', 'gemini', 'cursor'];

export async function runImport(args: string[], opts: Record<string, unknown>, globals: CliGlobals): Promise<CommandResult> {
  const from = opts.from as ImportSource | undefined;
  if (!from || !SOURCES.includes(from)) throw new ChrysError('usage', "required option '--from <agent>' not specified (claude, codex, gemini or cursor)");
  if ((opts.global || opts.force) && !opts.write) throw new ChrysError('usage', '--global and --force need --write');
  const result = importConfig({ ...globals, from, ...(args[0] ? { file: args[0] } : {}), write: opts.write === true, global: opts.global === true, force: opts.force === true });
  if (!result.written) return { stdout: result.yaml, exitCode: EXIT.ok };
  const n = result.plan.hooks.length;
  const lines = [`wrote ${result.written} (${n} hook${n === 1 ? '' : 's'}${result.plan.skipped.length ? `, ${result.plan.skipped.length} not imported: see the comments` : ''})`];
  if (result.shadowed) lines.push(`note: ${result.shadowed} is now shadowed by it (hooks.yaml is read first)`);
  if (!opts.global) lines.push('project hooks run only in a trusted workspace: --project-hooks, CHRYS_PROJECT_HOOKS=1 or project.hooks_enabled: true');
  return { stdout: lines.join('\n'), exitCode: EXIT.ok };
}
