// `install` and `uninstall`: the new text of an agent's hook file with the
// chrys-hooks entries added (one per event) or removed, and, unless a dry
// run, that text written atomically with a backup of the old file. Returns
// data; the CLI prints.

import { existsSync, lstatSync, mkdirSync, readFileSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname } from 'node:path';
import { AGENTS, type AgentDescriptor, type AgentDirs, type Scope } from '../agents/index.js';
import { HookFileError, type WiredEntry, addEntry, readWiring, removeHandler, setCommand } from '../agents/wiring.js';
import { ChrysError } from '../core/errors.js';
import { unifiedDiff } from '../core/line-diff.js';
import type { AgentProtocol } from '../core/protocols/names.js';
import { type GlobalOptions, workspaceOf } from '../config/locations.js';
import { writeFileAtomic } from '../base/atomic-write.js';
import { type SelfCommand, selfCommand } from './self-command.js';

export interface InstallOptions extends GlobalOptions {
  agent: AgentProtocol;
  scope: Scope;
  /** Agent event names; default: the descriptor's events. */
  events?: string[];
  failClosed: boolean;
  dryRun: boolean;
  env?: NodeJS.ProcessEnv;
}

export type Change = { event: string; kind: 'added' | 'updated' | 'removed' | 'unchanged'; command: string; from?: string };

export interface InstallResult {
  agent: AgentDescriptor;
  scope: Scope;
  file: string;
  created: boolean;
  changes: Change[];
  /** Whether the file's text changes. */
  changed: boolean;
  diff: string;
  written: boolean;
  backup?: string;
  self?: SelfCommand;
}

export const agentDirs = (d: AgentDescriptor, opts: GlobalOptions, env: NodeJS.ProcessEnv = process.env): AgentDirs => ({ configDir: d.configDir(env, homedir()), workspace: workspaceOf(opts) });

export const backupPathOf = (file: string): string => `${file}.chrys-backup`;

/** The file's text ('' when absent); refuses a symlink, which an atomic replace would turn into a plain file. */
export function readAgentFile(file: string): string | undefined {
  let st;
  try {
    st = lstatSync(file);
  } catch {
    return undefined;
  }
  if (st.isSymbolicLink()) throw new ChrysError('refused', `${file} is a symbolic link; chrys-hooks does not write through links, and replacing it would cut it`, 'edit the file it points to by hand, or replace the link with a copy of it and run again');
  if (!st.isFile()) throw new ChrysError('refused', `${file} is not a regular file`, 'move it away and run again');
  return readFileSync(file, 'utf8');
}

export function wiringOf(file: string, text: string, d?: AgentDescriptor): WiredEntry[] {
  try {
    return readWiring(text, d);
  } catch (e) {
    if (e instanceof HookFileError) throw new ChrysError('invalid_json', `${file}:${e.line}:${e.column}: cannot read it as the agent's settings: ${e.message}`, 'fix the file (the agent cannot read it either), then run again; nothing was written');
    throw e;
  }
}

function eventsOf(d: AgentDescriptor, asked: string[] | undefined): string[] {
  if (!asked) return [...d.events];
  const known = [...d.events, ...d.otherEvents];
  const unknown = asked.filter((e) => !known.includes(e));
  if (unknown.length) throw new ChrysError('usage', `${d.name} has no event ${unknown.map((e) => `"${e}"`).join(', ')}`, `--events takes ${d.name}'s own names: ${known.join(', ')}`);
  return [...new Set(asked)];
}

/** The other files the agent reads for the same events: another chrys-hooks entry there fires every hook twice. */
function conflictFiles(d: AgentDescriptor, scope: Scope, dirs: AgentDirs): string[] {
  const other: Scope = scope === 'user' ? 'project' : 'user';
  return [d.file(other, dirs), ...d.alsoRead(other, dirs), ...d.alsoRead(scope, dirs)].filter((f) => f !== d.file(scope, dirs) && existsSync(f));
}

export function install(opts: InstallOptions): InstallResult {
  const d = AGENTS[opts.agent];
  const env = opts.env ?? process.env;
  const dirs = agentDirs(d, opts, env);
  const file = d.file(opts.scope, dirs);
  if (opts.scope === 'project' && file === d.file('user', dirs)) {
    throw new ChrysError('refused', `${file} is ${d.name}'s user file (the workspace ${dirs.workspace} is the home directory)`, 'pass --cwd with the project, or install --user');
  }
  const before = readAgentFile(file);
  const events = eventsOf(d, opts.events);
  const self = selfCommand(env);
  const commandFor = (event: string): string => `${self.text} fire --protocol ${d.id}${d.eventFlag ? ` --event ${event}` : ''}${opts.failClosed && d.gating.includes(event) ? ' --fail-closed' : ''}`;

  const clashes: string[] = [];
  for (const other of conflictFiles(d, opts.scope, dirs)) {
    const text = readAgentFile(other);
    if (text === undefined) continue;
    for (const e of wiringOf(other, text, d)) if (events.includes(e.event) && !clashes.includes(`${e.event} (${other})`)) clashes.push(`${e.event} (${other})`);
  }
  if (clashes.length) {
    throw new ChrysError('refused', `not installed: ${clashes.join(', ')} already call${clashes.length === 1 ? 's' : ''} chrys-hooks, so an entry in ${file} would fire every hook twice`, `remove those with \`chrys-hooks uninstall --agent ${d.id} --${opts.scope === 'user' ? 'project' : 'user'}\`, or leave the events out with --events`);
  }

  let text = before ?? '{}\n';
  const changes: Change[] = [];
  for (const event of events) {
    const command = commandFor(event);
    const mine = wiringOf(file, text, d).filter((e) => e.event === event);
    const first = mine[0];
    if (!first) {
      text = addEntry(text, d, event, command);
      changes.push({ event, kind: 'added', command });
      continue;
    }
    // Extra entries for the event fire every hook twice: only the first stays.
    for (const extra of mine.slice(1).reverse()) text = removeHandler(text, extra);
    if (first.command === command && mine.length === 1) changes.push({ event, kind: 'unchanged', command });
    else {
      if (first.command !== command) text = setCommand(text, first, command, d);
      changes.push({ event, kind: 'updated', command, from: first.command });
    }
  }
  return finish(d, opts, file, before, text, changes, self);
}

export function uninstall(opts: Omit<InstallOptions, 'failClosed'>): InstallResult {
  const d = AGENTS[opts.agent];
  const dirs = agentDirs(d, opts, opts.env ?? process.env);
  const file = d.file(opts.scope, dirs);
  const before = readAgentFile(file);
  const events = opts.events ? eventsOf(d, opts.events) : undefined;
  let text = before ?? '';
  const changes: Change[] = [];
  if (before !== undefined) {
    for (;;) {
      const entry = wiringOf(file, text, d).find((e) => !events || events.includes(e.event));
      if (!entry) break;
      text = removeHandler(text, entry);
      changes.push({ event: entry.event, kind: 'removed', command: entry.command });
    }
  }
  return finish(d, opts, file, before, text, changes);
}

function finish(d: AgentDescriptor, opts: { scope: Scope; dryRun: boolean }, file: string, before: string | undefined, after: string, changes: Change[], self?: SelfCommand): InstallResult {
  const changed = before === undefined ? changes.some((c) => c.kind !== 'unchanged') : after !== before;
  const diff = changed ? unifiedDiff(before ?? '', after, before === undefined ? '/dev/null' : file, file) : '';
  const result: InstallResult = { agent: d, scope: opts.scope, file, created: before === undefined && changed, changes, changed, diff, written: false, ...(self ? { self } : {}) };
  if (!changed || opts.dryRun) return result;
  const mode = before !== undefined ? statSync(file).mode & 0o777 : opts.scope === 'user' ? 0o600 : 0o644;
  // The backup is replaced like the file, so a link planted under its name is replaced, never followed.
  const backup = before !== undefined ? backupPathOf(file) : undefined;
  if (backup) writeFileAtomic(backup, before!, { mode, durable: true });
  else mkdirSync(dirname(file), { recursive: true });
  writeFileAtomic(file, after, { mode, durable: true });
  return { ...result, written: true, ...(backup ? { backup } : {}) };
}
