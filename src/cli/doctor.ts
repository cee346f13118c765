// `chrys-hooks doctor [--json]`: exit 0 when healthy, 1 with one line per
// problem and its fix.

import { EXIT } from '../core/errors.js';
import { printable } from '../core/printable.js';
import { doctor } from '../engine/doctor.js';
import type { CliGlobals } from './globals.js';
import type { CommandResult } from './output.js';
import { describeTrust, paint, renderSources } from './render.js';

export async function runDoctor(_args: string[], opts: Record<string, unknown>, globals: CliGlobals): Promise<CommandResult> {
  const r = await doctor(globals);
  const exitCode = r.problems.length ? EXIT.findings : EXIT.ok;
  if (opts.json) return { stdout: JSON.stringify(r, null, 2), exitCode };
  const k = paint(globals.color);
  const lines = [`${k.bold('chrys-hooks')} ${r.version} (${printable(r.binary)})`, '', k.bold('chrys'), `  config dir ${printable(r.chrys.config_dir)}`, ...renderSources(r.chrys.sources, k)];
  lines.push(`  workspace ${printable(r.chrys.workspace)}: project hooks ${describeTrust(r.chrys.project_trust)}`);
  for (const a of r.agents) {
    lines.push('', `${k.bold(a.name)} (${a.agent}): config dir ${printable(a.config_dir)}`);
    for (const f of a.files) {
      if (!f.exists) continue;
      const state = f.valid ? `${a.wired.filter((w) => w.file === f.path).length} chrys-hooks entries` : k.red(`invalid: ${printable(f.error ?? '')}`);
      lines.push(`  ${printable(f.path)} (${f.scope}${f.symlink ? ', a symbolic link' : ''}): ${state}`);
      for (const w of a.wired.filter((x) => x.file === f.path)) {
        const target = !w.binary.found ? k.red('missing binary') : w.binary.self ? 'this binary' : `${printable(w.binary.path ?? '')} ${w.binary.version ?? '(unknown version)'}`;
        const trust = w.codex_trust === undefined ? '' : w.codex_trust === 'trusted' || w.codex_trust === 'managed' ? `, ${w.codex_trust} in Codex` : `, ${k.red(`${w.codex_trust.replace('_', ' ')} in Codex`)}`;
        lines.push(`    ${w.event.padEnd(19)} ${printable(w.command)}  -> ${target}${trust}`);
      }
    }
    for (const c of a.checks) lines.push(`  ${k.yellow('check')}: ${printable(c)}`);
  }
  if (r.absent.length) lines.push('', k.gray(`not found: ${r.absent.map((a) => `${a.agent} (${printable(a.config_dir)})`).join(', ')}`));
  if (r.notes.length) lines.push('', ...r.notes.map((n) => `note: ${printable(n)}`));
  lines.push('');
  if (r.problems.length === 0) lines.push(k.green('healthy: no problems found'));
  else {
    for (const p of r.problems) lines.push(`${k.red('problem')}: ${printable(p.message)}; fix: ${printable(p.fix)}`);
    lines.push(`${r.problems.length} problem${r.problems.length === 1 ? '' : 's'}`);
  }
  return { stdout: lines.join('\n'), exitCode };
}
