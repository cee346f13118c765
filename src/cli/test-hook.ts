// `chrys-hooks test HOOK_ID`: one hook's run, shown in full: the match
// verdict, what it was given, what it printed and what of its result applies.

import { ChrysError, EXIT } from '../core/errors.js';
import { type Json, stringifyJson } from '../core/json.js';
import { printable } from '../core/printable.js';
import type { AgentProtocol } from '../core/protocols/names.js';
import { testHook } from '../engine/test-hook.js';
import type { CliGlobals } from './globals.js';
import type { CommandResult } from './output.js';
import { paint } from './render.js';

const shellQuote = (s: string): string => (/^[\w@%+=:,./-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`);
const indent = (text: string): string[] => (text.trim() === '' ? ['    (empty)'] : text.replace(/\n$/, '').split('\n').map((l) => `    ${printable(l)}`));

export async function runTest(args: string[], opts: Record<string, unknown>, globals: CliGlobals): Promise<CommandResult> {
  const id = args[0];
  if (!id) throw new ChrysError('usage', 'test needs a hook id', 'run `chrys-hooks list` to see them');
  const source = opts.source === 'project' || opts.source === 'global' ? opts.source : undefined;
  const input = typeof opts.input === 'string' ? globals.readInput(opts.input) : undefined;
  const protocol = opts.protocol as AgentProtocol | undefined;
  if (protocol && input === undefined) throw new ChrysError('usage', `test --protocol ${protocol} needs --input FILE: the hook input ${protocol} would send`, 'save one such input to a file and pass --input FILE, or drop --protocol for a sample envelope');
  const r = await testHook(id, { ...globals, ...(input !== undefined ? { input } : {}), ...(typeof opts.event === 'string' ? { event: opts.event } : {}), ...(source ? { source } : {}), ...(protocol ? { protocol } : {}) });
  const exitCode = r.status === 'ok' && r.exit_code === 0 ? EXIT.ok : EXIT.findings;
  if (opts.json) return { stdout: stringifyJson(r as unknown as Json, 2), exitCode };

  const k = paint(globals.color);
  const verdict = r.match.verdict === 'run' ? k.green('matches') : k.yellow(`${r.match.verdict === 'no_match' ? 'does not match' : 'would be skipped'}: ${printable(r.match.reason ?? '')}`);
  const lines = [
    `${k.bold(printable(r.hook.id))} (${r.hook.source}, ${r.hook.event}, ${r.hook.mode}) from ${printable(r.hook.file)}`,
    `${k.bold('match')}    ${printable(r.match.clauses)}: ${verdict}`,
    ...(r.match.note ? [`         ${k.yellow(r.match.note)}`] : []),
    `${k.bold('argv')}     ${printable(r.argv.map(shellQuote).join(' '))}`,
    `${k.bold('cwd')}      ${printable(r.cwd)}`,
    ...Object.entries(r.env).map(([n, v]) => `${k.bold('env')}      ${printable(`${n}=${v}`)}`),
    `${k.bold('payload')}  (${r.envelope_from === 'sample' ? 'a sample envelope; pass --input FILE for your own' : protocol ? `from --input, mapped from ${protocol}` : 'from --input'})`,
    ...indent(stringifyJson(r.payload as unknown as Json, 2)),
    `${k.bold('exit')}     ${r.status === 'ok' ? k.green('ok') : k.red(r.status)}, exit code ${r.exit_code ?? '-'}, ${r.duration_ms} ms${r.error ? ` (${printable(r.error)})` : ''}`,
    `${k.bold('stdout')}`, ...indent(r.stdout_tail),
    `${k.bold('stderr')}`, ...indent(r.stderr_tail),
    `${k.bold('result file')}`, ...indent(r.result_file ?? ''),
    `${k.bold('applied')}  ${r.applied.length ? r.applied.join(', ') : 'nothing'}`,
    ...r.ignored.map((w) => `${k.yellow('warning')}  ${k.cyan(w.code)}: ${printable(w.message)}`),
  ];
  const d = r.decision;
  if (d.blocked) lines.push(`${k.bold('decision')} ${k.red('blocked')}: ${printable(d.reason ?? '')}`);
  if (d.args !== null) lines.push(`${k.bold('args')}     ${stringifyJson(d.args)}`);
  for (const s of d.system_reminders) lines.push(`${k.bold('reminder')} ${printable(s)}`);
  for (const s of d.extra_context) lines.push(`${k.bold('extra')}    ${printable(s)}`);
  if (d.replace_result !== null) lines.push(`${k.bold('replace')}  ${printable(d.replace_result)}`);
  if (d.permission !== null) lines.push(`${k.bold('permission')} ${d.permission}`);
  for (const c of d.contexts) lines.push(`${k.bold('context')}  [${c.channel}] ${printable(c.text)}`);
  lines.push(k.gray('nothing was written to the outbox, the run history or the once-per-session stamps'));
  return { stdout: lines.join('\n'), exitCode };
}
