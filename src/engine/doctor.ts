// `doctor`: for each agent found on the machine (its config dir exists),
// which events call chrys-hooks, from which file and with which command,
// whether that command reaches this binary; and Chrys's own side: config
// dir, hooks files, their validity and the workspace's trust. Every problem
// comes with its fix. Returns data; the CLI prints.

import { existsSync, lstatSync } from 'node:fs';
import { execa } from 'execa';
import { AGENTS, AGENT_IDS, type AgentDescriptor, type Scope } from '../agents/index.js';
import { HookFileError, readWiring, type Shape, type WiredEntry } from '../agents/wiring.js';
import type { AgentProtocol } from '../core/protocols/names.js';
import type { ProjectTrust } from '../core/trust.js';
import { diagnosticText } from '../core/diagnostics.js';
import { type GlobalOptions, workspaceOf } from '../config/locations.js';
import { type Source, loadConfig } from '../config/load.js';
import { VERSION } from '../version.js';
import { agentDirs } from './install.js';
import { codexHookTrust, codexTrustOf } from './codex-trust.js';
import { binaryTarget, onPath, runningBinary } from './self-command.js';
import { readFileSync } from 'node:fs';

export interface Problem {
  agent?: AgentProtocol;
  message: string;
  fix: string;
}

export interface DoctorEntry {
  event: string;
  file: string;
  scope: Scope;
  command: string;
  protocol?: string;
  fail_closed: boolean;
  /** Where the command's binary leads, and whether it is this binary or another version. */
  binary: { path?: string; found: boolean; self: boolean; version?: string };
  /** Codex only: the entry's trust as Codex reports it (`trusted`, `untrusted`, `modified`, `managed`, `not_loaded`), when it could be asked. */
  codex_trust?: string;
}

export interface DoctorFile {
  path: string;
  scope: Scope;
  exists: boolean;
  valid: boolean;
  symlink: boolean;
  error?: string;
}

export interface DoctorAgent {
  agent: AgentProtocol;
  name: string;
  config_dir: string;
  files: DoctorFile[];
  wired: DoctorEntry[];
  checks: string[];
}

export interface DoctorReport {
  version: string;
  binary: string;
  chrys: { config_dir: string; workspace: string; sources: Source[]; project_trust: ProjectTrust; problems: string[] };
  agents: DoctorAgent[];
  /** Agents whose config dir does not exist: not on this machine, not checked. */
  absent: { agent: AgentProtocol; config_dir: string }[];
  problems: Problem[];
  notes: string[];
}

const installCommand = (d: AgentDescriptor, scope: Scope): string => `chrys-hooks install --agent ${d.id}${scope === 'project' ? ' --project' : ''}`;

export async function doctor(opts: GlobalOptions, env: NodeJS.ProcessEnv = process.env): Promise<DoctorReport> {
  const problems: Problem[] = [];
  const notes: string[] = [];
  const agents: DoctorAgent[] = [];
  const absent: DoctorReport['absent'] = [];
  const versions = new Map<string, string | undefined>();
  for (const id of AGENT_IDS) {
    const d = AGENTS[id];
    const dirs = agentDirs(d, opts, env);
    if (!existsSync(dirs.configDir)) {
      absent.push({ agent: id, config_dir: dirs.configDir });
      continue;
    }
    const report: DoctorAgent = { agent: id, name: d.name, config_dir: dirs.configDir, files: [], wired: [], checks: [] };
    const files: [string, Scope][] = [[d.file('user', dirs), 'user'], ...d.alsoRead('user', dirs).map((f): [string, Scope] => [f, 'user']), [d.file('project', dirs), 'project'], ...d.alsoRead('project', dirs).map((f): [string, Scope] => [f, 'project'])];
    const seen = new Set<string>();
    for (const [path, scope] of files) {
      // The workspace may be the home directory: its project file is then the user file.
      if (seen.has(path)) continue;
      seen.add(path);
      const file = readFile(path, scope, d);
      report.files.push(file.report);
      if (file.error) problems.push({ agent: id, message: `${d.name} cannot read ${path}: ${file.error}`, fix: `fix the JSON of ${path} (\`chrys-hooks install\` refuses to edit it until then)` });
      for (const e of file.entries) report.wired.push(await entryOf(e, path, scope, env, versions));
    }
    agents.push(report);
    if (id === 'codex' && report.wired.length) await checkCodexTrust(report, dirs.workspace, problems, env);
    checkAgent(d, report, problems, notes);
  }
  const chrys = await chrysSide(opts, problems);
  return { version: VERSION, binary: runningBinary(), chrys, agents, absent, problems, notes };
}

function readFile(path: string, scope: Scope, shape: Shape): { report: DoctorFile; entries: WiredEntry[]; error?: string } {
  if (!existsSync(path)) return { report: { path, scope, exists: false, valid: true, symlink: false }, entries: [] };
  const symlink = lstatSync(path).isSymbolicLink();
  try {
    const entries = readWiring(readFileSync(path, 'utf8'), shape);
    return { report: { path, scope, exists: true, valid: true, symlink }, entries };
  } catch (e) {
    const error = e instanceof HookFileError ? `line ${e.line}, column ${e.column}: ${e.message}` : (e as Error).message;
    return { report: { path, scope, exists: true, valid: false, symlink, error }, entries: [], error };
  }
}

async function entryOf(e: WiredEntry, file: string, scope: Scope, env: NodeJS.ProcessEnv, versions: Map<string, string | undefined>): Promise<DoctorEntry> {
  const target = binaryTarget(e.chrys.binary, env);
  let version: string | undefined;
  if (target.self) version = VERSION;
  else if (target.found && target.path) {
    if (!versions.has(target.path)) versions.set(target.path, await versionOf(target.path, env));
    version = versions.get(target.path);
  }
  return {
    event: e.event,
    file,
    scope,
    command: e.command,
    ...(e.chrys.protocol ? { protocol: e.chrys.protocol } : {}),
    fail_closed: e.chrys.failClosed,
    binary: { ...(target.path ? { path: target.path } : {}), found: target.found, self: target.self, ...(version ? { version } : {}) },
  };
}

async function versionOf(path: string, env: NodeJS.ProcessEnv): Promise<string | undefined> {
  const r = await execa(path, ['--version'], { reject: false, timeout: 10_000, env, extendEnv: false, stdin: 'ignore' });
  return r.exitCode === 0 ? String(r.stdout).trim() : undefined;
}

function checkAgent(d: AgentDescriptor, report: DoctorAgent, problems: Problem[], notes: string[]): void {
  const say = (message: string, fix: string): void => void problems.push({ agent: d.id, message, fix });
  for (const w of report.wired) {
    const where = `${w.event} in ${w.file}`;
    if (w.protocol !== d.id) say(`${where} runs \`${w.command}\`, which does not speak ${d.name}'s protocol (--protocol ${d.id})`, installCommand(d, w.scope));
    if (!w.binary.found) say(`${where} calls ${w.binary.path ?? w.command.split(' ')[0]}, which is missing or not executable: the event runs no hooks`, installCommand(d, w.scope));
    else if (!w.binary.self && w.binary.version !== VERSION) say(`${where} calls ${w.binary.path} (version ${w.binary.version ?? 'unknown'}), not this chrys-hooks ${VERSION}`, installCommand(d, w.scope));
    if (d.gating.includes(w.event) && !w.fail_closed) notes.push(`${d.id}: ${where} gates but fails open (no --fail-closed)`);
  }
  const byEvent = new Map<string, DoctorEntry[]>();
  for (const w of report.wired) byEvent.set(w.event, [...(byEvent.get(w.event) ?? []), w]);
  for (const [event, list] of byEvent) {
    if (list.length < 2) continue;
    const files = [...new Set(list.map((w) => w.file))];
    const fix = files.length > 1 ? `chrys-hooks uninstall --agent ${d.id} --project (or --user): keep one scope` : `chrys-hooks install --agent ${d.id}${list[0]!.scope === 'project' ? ' --project' : ''} (it keeps one entry per event)`;
    say(`${event} calls chrys-hooks ${list.length} times (${files.join(', ')}): every hook fires ${list.length} times`, fix);
  }
  if (report.wired.length === 0) notes.push(`${d.id}: ${d.name} is here (${report.config_dir}) but calls no chrys-hooks: \`${installCommand(d, 'user')}\``);
  else if (!report.wired.some((w) => w.codex_trust)) report.checks.push(...d.doctorChecks);
}

/** The fix for a Codex entry Codex does not run: its own review, which chrys-hooks leaves to the user. */
const CODEX_TRUST_FIX = 'run `codex` in a terminal and choose "Trust all and continue" at "Hooks need review" (or open `/hooks` there and press t)';

// Codex runs a non-managed hook only once the user trusted it, and `codex
// exec` skips an untrusted one silently: ask Codex which entries it trusts.
async function checkCodexTrust(report: DoctorAgent, workspace: string, problems: Problem[], env: NodeJS.ProcessEnv): Promise<void> {
  const codex = onPath('codex', env);
  if (!codex) {
    report.checks.push('`codex` is not on PATH, so chrys-hooks could not ask Codex which of these entries it trusts');
    return;
  }
  const trust = await codexHookTrust(codex, workspace, env);
  if ('unavailable' in trust) {
    report.checks.push(`could not ask Codex which of these entries it trusts: ${trust.unavailable}`);
    return;
  }
  for (const w of report.wired) {
    w.codex_trust = codexTrustOf(w, trust.hooks);
    const where = `${w.event} in ${w.file}`;
    if (w.codex_trust === 'untrusted' || w.codex_trust === 'modified') {
      const why = w.codex_trust === 'modified' ? 'changed since it was trusted' : 'new, never reviewed';
      problems.push({ agent: 'codex', message: `Codex does not trust ${where} (${why}): it skips the entry, so the event runs no hooks`, fix: CODEX_TRUST_FIX });
    } else if (w.codex_trust === 'not_loaded') {
      const fix = w.scope === 'project' ? "trust the project in Codex: it loads a project's .codex/ only then" : 'turn Codex hooks on: `[features] hooks = true` in its config.toml';
      problems.push({ agent: 'codex', message: `Codex does not load ${where}: the event runs no hooks`, fix });
    }
  }
}

async function chrysSide(opts: GlobalOptions, problems: Problem[]): Promise<DoctorReport['chrys']> {
  const workspace = workspaceOf(opts);
  const config = await loadConfig({ ...opts, workspace, checkFiles: true });
  const errors = config.diagnostics.filter((d) => d.severity === 'error').map((d) => `${d.path}:${d.line}:${d.column}: ${diagnosticText(d)}`);
  for (const e of errors) problems.push({ message: e, fix: 'fix the hooks file (`chrys-hooks validate` lists every finding); an invalid file runs none of its hooks' });
  return { config_dir: config.configDir, workspace, sources: config.sources, project_trust: config.projectTrust, problems: errors };
}
