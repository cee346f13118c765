// `chrys-hooks resolve`: sources, merged settings with their origin, and for
// an envelope the exact plan, without running anything.

import { EXIT } from '../core/errors.js';
import type { AgentProtocol } from '../core/protocols/names.js';
import { resolvePlan } from '../engine/inspect.js';
import type { CliGlobals } from './globals.js';
import type { CommandResult } from './output.js';
import { invalidFileLines } from './notices.js';
import { describeTrust, paint, renderSources, renderWarnings, table } from './render.js';
import { printable } from '../core/printable.js';

const shellQuote = (s: string): string => (/^[\w@%+=:,./-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`);

export async function runResolve(_args: string[], opts: Record<string, unknown>, globals: CliGlobals): Promise<CommandResult> {
  const inputFile = typeof opts.input === 'string' ? opts.input : undefined;
  // stdin is read only when it is not a terminal, so a bare `resolve` never waits for input.
  const input = inputFile !== undefined || !process.stdin.isTTY ? globals.readInput(inputFile) : undefined;
  const r = await resolvePlan(input !== undefined && input.trim() === '' && typeof opts.event !== 'string' ? undefined : input, {
    ...globals,
    ...(typeof opts.event === 'string' ? { event: opts.event } : {}),
    ...(typeof opts.protocol === 'string' ? { protocol: opts.protocol as AgentProtocol } : {}),
  });
  if (opts.json) return { stdout: JSON.stringify(r, null, 2), exitCode: EXIT.ok };

  const k = paint(globals.color);
  const lines = [
    ...invalidFileLines(r.warnings).map((l) => k.red(l)),
    `${k.bold('config dir')}  ${printable(r.config_dir)}`,
    `${k.bold('workspace')}   ${printable(r.workspace)}`,
    `${k.bold('project hooks')} ${describeTrust(r.project_trust)}`,
    '',
    k.bold('sources'),
    ...renderSources(r.sources, k),
    '',
    k.bold('settings'),
    ...table(Object.entries(r.settings).map(([name, s]) => [`  ${name}`, String(s.value), k.gray(`(${s.origin})`)])),
  ];
  if (r.warnings.length) lines.push('', k.bold('warnings'), ...renderWarnings(r.warnings, k));
  lines.push('');
  if (!r.plan) {
    lines.push(k.gray('no envelope given: pipe one in (or pass --event / --input) to see the plan'));
    return { stdout: lines.join('\n'), exitCode: EXIT.ok };
  }
  lines.push(k.bold(`plan for ${r.plan.event}`));
  if (r.plan.hooks.length === 0) lines.push('  no hooks for this event');
  let phase = '';
  r.plan.hooks.forEach((h, i) => {
    if (h.phase !== phase) {
      phase = h.phase;
      lines.push(`  ${k.underline(phase === 'blocking' ? 'blocking phase' : 'non-blocking phase')}`);
    }
    const verdict = h.verdict === 'run' ? k.green('run') : h.verdict === 'no_match' ? k.gray('no match') : k.yellow(h.verdict);
    lines.push(`  ${i + 1}. ${k.bold(printable(h.id))} (${h.source}, ${h.mode})  ${verdict}${h.reason ? `: ${printable(h.reason)}` : ''}`);
    if (h.command) {
      lines.push(`       commands: ${h.command.simple_commands.length ? h.command.simple_commands.map((c) => (c === h.command!.matched ? k.bold(`${printable(c)}  <- matched`) : printable(c))).join(' | ') : '(none)'}`);
      if (h.command.fail_closed) lines.push(`       fails closed: ${printable(h.command.fail_closed)}`);
    }
    if (h.argv) {
      lines.push(`       argv: ${printable(h.argv.map(shellQuote).join(' '))}`, `       cwd:  ${printable(h.cwd ?? '')}`);
      for (const [name, value] of Object.entries(h.env ?? {})) lines.push(`       env:  ${printable(`${name}=${value}`)}`);
    }
  });
  return { stdout: lines.join('\n'), exitCode: EXIT.ok };
}
