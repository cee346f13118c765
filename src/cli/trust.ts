// `chrys-hooks trust` and `untrust`: show what trusting this workspace covers,
// ask (on a terminal) or take --yes, and record it; `trust --list` shows every
// trusted workspace and whether it changed since.

import { relative } from 'node:path';
import { createInterface } from 'node:readline/promises';
import { ChrysError, EXIT } from '../core/errors.js';
import { type TrustedFile, describeDiff, isEmptyDiff } from '../core/trust.js';
import { type TrustPlan, listTrusted, planTrust, recordTrustPlan, untrust } from '../engine/trust.js';
import type { CliGlobals } from './globals.js';
import type { CommandResult } from './output.js';
import { type Paint, paint, table } from './render.js';
import { printable } from '../core/printable.js';

export async function runTrust(_args: string[], opts: Record<string, unknown>, globals: CliGlobals): Promise<CommandResult> {
  if (opts.list) return await listing(opts, globals);
  const plan = await planTrust(globals);
  const k = paint(globals.color);
  const summary = describePlan(plan, k);
  if (opts.json && !opts.yes) throw new ChrysError('usage', 'trust --json needs --yes (it cannot ask)');
  if (!opts.yes) {
    if (!process.stdin.isTTY) {
      process.stdout.write(summary.join('\n') + '\n');
      throw new ChrysError('refused', 'nothing was trusted: stdin is not a terminal, so trust cannot ask', 'review the files above and run `chrys-hooks trust --yes`');
    }
    process.stdout.write(summary.join('\n') + '\n');
    if (!(await confirm(`Trust these ${plan.files.length} file${plan.files.length === 1 ? '' : 's'}? Their hooks will run on every agent event here. [y/N] `))) {
      return { stdout: 'nothing was trusted', exitCode: EXIT.findings };
    }
  }
  const entry = recordTrustPlan(plan);
  if (opts.json) return { stdout: JSON.stringify(entry, null, 2), stderr: plan.blindSpots.map((b) => `warning: ${printable(b)}`), exitCode: EXIT.ok };
  const done = `trusted ${printable(plan.workspace)} (${plan.files.length} file${plan.files.length === 1 ? '' : 's'}); its project hooks load until one of these files changes`;
  return { stdout: opts.yes ? [...summary, '', done].join('\n') : done, exitCode: EXIT.ok };
}

export async function runUntrust(args: string[], opts: Record<string, unknown>, globals: CliGlobals): Promise<CommandResult> {
  const r = untrust(globals, args[0], opts.ignore === true);
  const ws = printable(r.workspace);
  if (r.ignored_at) {
    const head = r.removed ? `untrusted ${ws}: its project hooks are dormant again` : `${ws} was not trusted; its project hooks stay dormant`;
    return { stdout: `${head}, and fire no longer reports them (project_hooks_dormant); \`chrys-hooks trust\` of it lifts that`, exitCode: EXIT.ok };
  }
  return { stdout: r.removed ? `untrusted ${ws}: its project hooks are dormant again` : `${ws} was not trusted; nothing changed`, exitCode: EXIT.ok };
}

function describePlan(plan: TrustPlan, k: Paint): string[] {
  const lines = [`${k.bold('workspace')}  ${printable(plan.workspace)}`, `${k.bold('hooks file')} ${printable(plan.projectPath)}`];
  if (plan.recordProblem) lines.push(k.yellow(`warning: the trust record cannot be read (${printable(plan.recordProblem)}); trusting replaces it`));
  for (const blind of plan.blindSpots) lines.push(k.yellow(`warning: ${printable(blind)}`));
  if (plan.since) {
    const d = plan.since.diff;
    lines.push(isEmptyDiff(d) ? `already trusted on ${printable(plan.since.trusted_at)}, unchanged` : `trusted on ${printable(plan.since.trusted_at)}; since then ${describeDiff(d, (p) => shown(p, plan.workspace))}`);
  }
  lines.push('', k.bold('files'));
  lines.push(...table(plan.files.map((f) => ['  ' + shown(f.path, plan.workspace), f.sha256 ?? k.gray('(missing)'), note(f, plan.workspace, k)])));
  return lines;
}

function note(f: TrustedFile, workspace: string, k: Paint): string {
  const parts: string[] = [];
  if (f.real && f.real !== f.path) parts.push(`-> ${shown(f.real, workspace)}`);
  if (f.outside) parts.push(k.yellow('outside the workspace'));
  if (!f.sha256) parts.push(k.gray('missing: the layer goes dormant if it appears'));
  return parts.join('  ');
}

const shown = (path: string, workspace: string): string => {
  const rel = relative(workspace, path);
  return printable(rel && !rel.startsWith('..') ? rel : path);
};

async function confirm(question: string): Promise<boolean> {
  const rl = createInterface({ input: process.stdin, output: process.stderr });
  try {
    return /^y(es)?$/i.test((await rl.question(question)).trim());
  } finally {
    rl.close();
  }
}

async function listing(opts: Record<string, unknown>, globals: CliGlobals): Promise<CommandResult> {
  const r = await listTrusted(globals);
  if (opts.json) return { stdout: JSON.stringify(r, null, 2), exitCode: EXIT.ok };
  if (r.workspaces.length === 0) return { stdout: `no trusted workspaces (${printable(r.record)})`, exitCode: EXIT.ok };
  const k = paint(globals.color);
  const rows = [['workspace', 'state', 'files', 'trusted at'].map((h) => k.bold(h))];
  for (const w of r.workspaces) {
    const state = w.state === 'trusted' ? k.green('trusted') : w.state === 'changed' ? k.yellow('changed') : k.gray('gone');
    rows.push([printable(w.workspace), state, String(w.files), printable(w.trusted_at)]);
  }
  const lines = table(rows);
  for (const w of r.workspaces) if (w.state === 'changed') lines.push(`  ${printable(w.workspace)}: ${describeDiff(w.diff, (p) => shown(p, w.workspace))}`);
  return { stdout: lines.join('\n'), exitCode: EXIT.ok };
}
