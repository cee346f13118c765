// `chrys-hooks init`: write the starter hooks file and say what to do next.

import { isAbsolute, relative } from 'node:path';
import { EXIT } from '../core/errors.js';
import { initHooks } from '../engine/init.js';
import type { CliGlobals } from './globals.js';
import type { CommandResult } from './output.js';

export async function runInit(_args: string[], opts: Record<string, unknown>, globals: CliGlobals): Promise<CommandResult> {
  const r = initHooks({ ...globals, global: Boolean(opts.global), ...(typeof opts.protocol === 'string' ? { protocol: opts.protocol } : {}) });
  const shown = (p: string): string => {
    const rel = relative(process.cwd(), p);
    return rel && !rel.startsWith('..') && !isAbsolute(rel) ? rel : p;
  };
  const lines = [...r.written.map((p) => `wrote ${shown(p)}`), ...r.kept.map((p) => `kept  ${shown(p)} (it already exists)`)];
  lines.push('', 'next:');
  if (r.layer === 'project') lines.push('  chrys-hooks trust            # review and trust these hooks for this workspace');
  lines.push(`  chrys-hooks test ${r.protocol === 'claude' ? 'protect-env' : 'protect-secrets'}`, '  chrys-hooks validate');
  if (r.protocol === 'claude') lines.push('  chrys-hooks install --agent claude   # make Claude Code call chrys-hooks (docs/agents.md)');
  return { stdout: lines.join('\n'), exitCode: EXIT.ok };
}
