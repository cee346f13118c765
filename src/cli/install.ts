// `chrys-hooks install|uninstall --agent claude|codex|gemini [--user|--project]
// [--events LIST] [--fail-closed|--no-fail-closed] [--dry-run]`.

import { AGENT_IDS } from '../agents/index.js';
import { ChrysError, EXIT } from '../core/errors.js';
import { printable } from '../core/printable.js';
import type { AgentProtocol } from '../core/protocols/names.js';
import { type InstallResult, install, uninstall } from '../engine/install.js';
import type { CliGlobals } from './globals.js';
import type { CommandResult } from './output.js';

function common(opts: Record<string, unknown>) {
  const agent = opts.agent as AgentProtocol | undefined;
  if (!agent || !AGENT_IDS.includes(agent)) throw new ChrysError('usage', `required option '--agent <agent>' not specified (${AGENT_IDS.join(', ')})`);
  if (opts.user && opts.project) throw new ChrysError('usage', '--user and --project exclude each other');
  const events = typeof opts.events === 'string' ? opts.events.split(',').map((e) => e.trim()).filter(Boolean) : undefined;
  if (events && events.length === 0) throw new ChrysError('usage', '--events needs at least one event name');
  return { agent, scope: opts.project ? ('project' as const) : ('user' as const), ...(events ? { events } : {}), dryRun: opts.dryRun === true };
}

export async function runInstall(_args: string[], opts: Record<string, unknown>, globals: CliGlobals): Promise<CommandResult> {
  const r = install({ ...globals, ...common(opts), failClosed: opts.failClosed !== false });
  const lines = summary(r, opts.dryRun === true);
  if (r.self) lines.push(`command: ${printable(r.self.why)}`);
  if (r.scope === 'project') {
    lines.push(`warning: ${printable(r.file)} is the project's file: every teammate who opens this project runs these entries, so each needs chrys-hooks installed${r.self && !r.self.bare ? ', at this same absolute path' : ' on PATH'}`);
  }
  if (r.changed || r.changes.length) for (const step of r.agent.afterInstall(r.scope)) lines.push(`next: ${step}`);
  return { stdout: lines.join('\n'), exitCode: EXIT.ok };
}

export async function runUninstall(_args: string[], opts: Record<string, unknown>, globals: CliGlobals): Promise<CommandResult> {
  const r = uninstall({ ...globals, ...common(opts) });
  return { stdout: summary(r, opts.dryRun === true).join('\n'), exitCode: EXIT.ok };
}

function summary(r: InstallResult, dryRun: boolean): string[] {
  const file = printable(r.file);
  const lines: string[] = [];
  if (!r.changed) {
    lines.push(r.changes.length ? `${r.agent.id}: nothing to change: ${file} already calls chrys-hooks for ${r.changes.map((c) => c.event).join(', ')}` : `${r.agent.id}: nothing to change: ${file} has no chrys-hooks entries`);
    return lines;
  }
  const verb = dryRun ? 'would change' : r.created ? 'created' : 'changed';
  lines.push(`${r.agent.id}: ${verb} ${file} (${r.scope} scope, ${r.agent.name})${r.backup ? `; the old file is kept as ${printable(r.backup)}` : ''}`);
  for (const c of r.changes) {
    if (c.kind === 'unchanged') continue;
    lines.push(`  ${c.kind.padEnd(8)} ${c.event}: ${printable(c.command)}${c.from ? ` (was ${printable(c.from)})` : ''}`);
  }
  if (dryRun) lines.push('', ...r.diff.split('\n').map(printable), '', 'dry run: nothing was written');
  return lines;
}
