// `chrys-hooks import --from AGENT [FILE] [--write [--global] [--force]]`.

import { ChrysError, EXIT } from '../core/errors.js';
import type { ImportSource } from '../core/import/convert.js';
import { AGENT_PROTOCOLS, agentList, importRulesOf, protocolOf } from '../core/protocols/agents/index.js';
import { importConfig } from '../engine/import.js';
import type { CliGlobals } from './globals.js';
import type { CommandResult } from './output.js';
import { printable } from '../core/printable.js';

/** The command that wires the agent to chrys-hooks, for the given events (all it maps when none). */
const installLine = (from: ImportSource, events: string[] = []): string => `chrys-hooks install --agent ${from}${events.length ? ` --events ${events.join(',')}` : ''}`;

/** What the user must change in the agent's own settings, or hooks run twice (or never). */
function afterImportSteps(from: ImportSource, otherEvents: string[]): string[] {
  const a = { name: protocolOf(from).name, settings: importRulesOf(from).label };
  const others = [...new Set(otherEvents.map(printable))];
  const wire = `then wire ${a.name} to chrys-hooks: ${installLine(from)}`;
  const lines = [`next: remove the imported hooks from ${a.settings}, or ${a.name} runs each one itself and again through chrys-hooks;`, `      ${wire}`];
  for (const e of others) {
    lines.push(`note: "${e}" is imported as event other: it fires only if ${a.settings} calls chrys-hooks for ${e}: ${installLine(from, [e])}`);
  }
  return lines;
}

export async function runImport(args: string[], opts: Record<string, unknown>, globals: CliGlobals): Promise<CommandResult> {
  const from = opts.from as ImportSource | undefined;
  if (!from || !AGENT_PROTOCOLS.includes(from)) throw new ChrysError('usage', `required option '--from <agent>' not specified (${agentList()})`);
  if ((opts.global || opts.force) && !opts.write) throw new ChrysError('usage', '--global and --force need --write');
  const result = importConfig({ ...globals, from, ...(args[0] ? { file: args[0] } : {}), write: opts.write === true, global: opts.global === true, force: opts.force === true });
  // A hook imported off because no match clause is exactly the agent's matcher: said here too, not only in the YAML.
  const stderr = result.plan.hooks.filter((h) => h.disabledReason).map((h) => `chrys-hooks import: hook "${printable(h.id)}" is imported with enabled: false: ${printable(h.disabledReason!)}`);
  if (!result.written) return { stdout: result.yaml, ...(stderr.length ? { stderr } : {}), exitCode: EXIT.ok };
  const n = result.plan.hooks.length;
  const lines = [`wrote ${printable(result.written)} (${n} hook${n === 1 ? '' : 's'}${result.plan.skipped.length ? `, ${result.plan.skipped.length} not imported: see the comments` : ''})`];
  if (result.shadowed) lines.push(`note: ${printable(result.shadowed)} is now shadowed by it (hooks.yaml is read first)`);
  if (!opts.global) lines.push('project hooks run only in a trusted workspace: review and trust them with `chrys-hooks trust` (or use --project-hooks, CHRYS_PROJECT_HOOKS=1 or project.hooks_enabled: true)');
  lines.push(...afterImportSteps(from, result.plan.hooks.filter((h) => h.event === 'other').map((h) => h.agentEvent)));
  return { stdout: lines.join('\n'), ...(stderr.length ? { stderr } : {}), exitCode: EXIT.ok };
}
