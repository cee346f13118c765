// What would run and why, without running anything: the data behind
// `resolve` and `list`. Uses the same loader, planner and gate as `fire`.

import type { Hook, Layer, Mode, Settings } from '../core/config.js';
import type { Warning } from '../core/diagnostics.js';
import { completeEnvelope, parseEnvelope, stringField } from '../core/envelope.js';
import { envelopeShapeWarnings } from '../core/envelope-shape.js';
import type { EventName } from '../core/events.js';
import { ChrysError } from '../core/errors.js';
import type { JsonObject } from '../core/json.js';
import { agentToEnvelope } from '../core/protocols/inbound.js';
import type { AgentProtocol } from '../core/protocols/names.js';
import { projectDirFromEnv, projectRootOf } from '../core/protocols/project-root.js';
import { readSessionRoot } from '../state/session-root.js';
import type { ProjectTrust } from '../core/trust.js';
import { describeMatch } from '../core/match.js';
import { gate } from '../core/gate.js';
import { type KillSwitches, killSwitchWarnings, killSwitchesFrom } from '../core/kill-switch.js';
import { planEvent } from '../core/plan.js';
import { type LoadedConfig, type Source, loadConfig } from '../config/load.js';
import { type GlobalOptions, configDirOf, workspaceOf } from '../config/locations.js';
import type { HookContext } from '../core/hook-template.js';
import { resolveInvocation } from '../run/invocation.js';
import { lastRun, type RunEntry } from '../state/history.js';
import { OnceGuard } from '../state/once.js';
import { type RunStats, hookStats } from '../state/stats.js';

export interface PlannedHook {
  id: string;
  source: Layer;
  mode: Mode;
  phase: 'blocking' | 'non_blocking';
  verdict: 'run' | 'no_match' | 'disabled' | 'skipped';
  reason: string | null;
  argv: string[] | null;
  cwd: string | null;
  env: Record<string, string> | null;
  /** For a hook with match.command: the simple commands parsed, the one that matched, and why it failed closed if it did. */
  command?: { simple_commands: string[]; matched: string | null; fail_closed: string | null };
}

export interface Resolution {
  config_dir: string;
  workspace: string;
  project_hooks_enabled: boolean;
  project_trust: ProjectTrust;
  sources: Source[];
  settings: { [K in keyof Settings]: { value: Settings[K]; origin: Layer | 'default' } };
  warnings: Warning[];
  plan: null | { event: EventName; hooks: PlannedHook[] };
}

const TEMP_FILE = '(a 0600 temp file created for each run)';

/** An agent's hook input (`--protocol`; --event an agent event name) mapped as `fire --protocol` maps it, without recording anything. */
function agentParsed(protocol: AgentProtocol, input: string | undefined, opts: GlobalOptions & { event?: string }): { envelope: JsonObject; event: EventName } {
  const raw = input === undefined || input.trim() === '' ? {} : parseEnvelope(input, 'other').envelope;
  const name = opts.event ?? raw.hook_event_name;
  if (typeof name !== 'string' || name === '') {
    throw new ChrysError('missing_event', `the ${protocol} hook input has no "hook_event_name" and no --event was given`, `pipe the input ${protocol} gives its hooks, or pass --event`);
  }
  // The session's project root as fire finds it (agent-fire.ts); --cwd wins over it.
  const fromEnv = projectDirFromEnv(protocol, process.env);
  const sessionId = typeof raw.session_id === 'string' ? raw.session_id : '';
  const root = opts.cwd ? undefined : projectRootOf(fromEnv, fromEnv || !sessionId ? undefined : readSessionRoot(configDirOf(opts), sessionId), typeof raw.cwd === 'string' ? raw.cwd : undefined);
  const mapped = agentToEnvelope(protocol, raw, name, root?.path);
  if (!mapped.ok) throw new ChrysError('unknown_event', mapped.warnings[0]!.message.replace(/; no hooks ran$/, ''), 'run chrys-hooks events for the agent event names');
  return mapped;
}

/** switches: CHRYS_HOOKS / CHRYS_HOOKS_SKIP, read from the environment when absent. */
export async function resolvePlan(input: string | undefined, opts: GlobalOptions & { event?: string; switches?: KillSwitches; protocol?: AgentProtocol }): Promise<Resolution> {
  const parsed = opts.protocol && (input !== undefined || opts.event !== undefined)
    ? agentParsed(opts.protocol, input, opts)
    : input !== undefined || opts.event !== undefined ? parseEnvelope(input ?? '', opts.event) : undefined;
  const envelopeCwd = typeof parsed?.envelope.cwd === 'string' ? parsed.envelope.cwd : undefined;
  const workspace = workspaceOf(opts, envelopeCwd);
  const config = await loadConfig({ ...opts, workspace, checkFiles: true });
  const base = {
    config_dir: config.configDir,
    workspace,
    project_hooks_enabled: config.projectHooksEnabled,
    project_trust: config.projectTrust,
    sources: config.sources,
    settings: config.settings,
    warnings: config.warnings,
  };
  if (!parsed) return { ...base, plan: null };
  const envelope = completeEnvelope(parsed.envelope, parsed.event, workspace, new Date());
  base.warnings = [...envelopeShapeWarnings(envelope, parsed.event), ...config.warnings];
  const ctx: HookContext = { configDir: config.configDir, workspace, sessionId: stringField(envelope, 'session_id'), profile: stringField(envelope, 'profile') };
  const once = new OnceGuard(config.configDir, ctx.sessionId);
  const plan = planEvent(config.hooks, parsed.event);
  const hooks: PlannedHook[] = [];
  const hookOf = new Map<PlannedHook, Hook>();
  const entry = (hook: Hook, verdict: PlannedHook['verdict'], reason: string | null): PlannedHook => {
    const inv = verdict === 'run' ? resolveInvocation(hook, ctx) : undefined;
    const planned: PlannedHook = {
      id: hook.id,
      source: hook.source,
      mode: hook.execution.mode,
      phase: hook.execution.mode === 'blocking' ? 'blocking' : 'non_blocking',
      verdict,
      reason: inv && !inv.ok ? `will fail to launch: ${inv.error}` : reason,
      argv: inv ? inv.argv : null,
      cwd: inv ? inv.cwd : null,
      // A run.protocol hook is given the agent's input on stdin, never the payload and result files.
      env: inv ? { ...inv.env, ...(hook.run.protocol ? {} : { CHRYS_HOOK_PAYLOAD_FILE: TEMP_FILE, CHRYS_HOOK_RESULT: TEMP_FILE }), ...(hook.run.prompt_file ? { CHRYS_HOOK_PROMPT_FILE: TEMP_FILE } : {}) } : null,
    };
    hookOf.set(planned, hook);
    return planned;
  };
  const switches = opts.switches ?? killSwitchesFrom(process.env);
  base.warnings = [...base.warnings, ...killSwitchWarnings(switches, config.hooks)];
  // The same gate as `fire`, with nothing run: no hook has blocked and the envelope is as given.
  for (const hook of [...plan.blocking, ...plan.nonBlocking, ...plan.disabled]) {
    const g = gate({ hook, envelope, switches, once: { sessionId: ctx.sessionId, stamped: once.seen(hook) } });
    const planned = g.run ? entry(hook, 'run', null) : entry(hook, g.status === 'failed' ? 'skipped' : (g.status as PlannedHook['verdict']), g.status === 'failed' ? `${g.reason}; at run time its on_error applies` : g.reason);
    const c = g.command;
    if (c) planned.command = { simple_commands: c.commands, matched: c.matchedCommand ?? null, fail_closed: c.failClosed ?? null };
    hooks.push(planned);
  }
  for (const { hook, reason } of config.skipped) {
    if (hook.event === parsed.event) hooks.push(entry(hook, 'skipped', reason));
  }
  hooks.sort((a, b) => phaseRank(a) - phaseRank(b) || byFileOrder(hookOf.get(a)!, hookOf.get(b)!));
  return { ...base, plan: { event: parsed.event, hooks } };
}

const phaseRank = (h: PlannedHook): number => (h.phase === 'blocking' ? 0 : 1);

/** Project hooks before global ones, each in file order: the chain's order. */
const byFileOrder = (a: Hook, b: Hook): number => (a.source === b.source ? a.index - b.index : a.source === 'project' ? -1 : 1);

export interface ListedHook {
  position: number;
  id: string;
  source: Layer;
  path: string;
  event: EventName;
  mode: Mode;
  enabled: boolean;
  match: string;
  description: string;
  last_run: null | Pick<RunEntry, 'status' | 'at' | 'session_id'>;
  /** Why the hook is left out (a bad regex), or null when it loads. */
  skipped: string | null;
  /** With `stats`: from the run history. */
  stats?: RunStats;
}

export async function listHooks(opts: GlobalOptions & { event?: EventName; stats?: boolean }): Promise<{ config: LoadedConfig; hooks: ListedHook[] }> {
  const config = await loadConfig({ ...opts, workspace: workspaceOf(opts), checkFiles: true });
  const skipped = new Map(config.skipped.map((s) => [s.hook, s.reason]));
  const selected = [...config.hooks, ...skipped.keys()].sort(byFileOrder).filter((h) => opts.event === undefined || h.event === opts.event);
  // For one event, the chain's run order (blocking phase first); otherwise project then global, in file order.
  const ordered = opts.event === undefined ? selected : [...selected.filter((h) => h.execution.mode === 'blocking'), ...selected.filter((h) => h.execution.mode !== 'blocking')];
  const hooks = ordered.map((h, i): ListedHook => {
    const last = lastRun(config.configDir, h);
    return {
      position: i + 1,
      id: h.id,
      source: h.source,
      path: h.file,
      event: h.event,
      mode: h.execution.mode,
      enabled: h.enabled,
      match: describeMatch(h.match),
      description: h.description,
      last_run: last ? { status: last.status, at: last.at, session_id: last.session_id } : null,
      skipped: skipped.get(h) ?? null,
      ...(opts.stats ? { stats: hookStats(config.configDir, h) } : {}),
    };
  });
  return { config, hooks };
}
