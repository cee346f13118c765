// `chrys-hooks test HOOK_ID`: run exactly one hook now, synchronously, as the
// blocking chain would, and report everything about the run. It writes
// nothing to the outbox, the run history or the once-per-session stamps.

import type { Hook, Layer } from '../core/config.js';
import { type Chain, type Decision, applyOutcome, emptyDecision, ignoredResult } from '../core/decide.js';
import type { Warning } from '../core/diagnostics.js';
import { completeEnvelope, parseEnvelope, stringField } from '../core/envelope.js';
import { ChrysError } from '../core/errors.js';
import { type EventName, closest, eventSpec, eventSpecFor, lookupEvent } from '../core/events.js';
import { type JsonObject, isJsonObject, stringifyJson } from '../core/json.js';
import { describeMatch, matchHook } from '../core/match.js';
import { loadConfig } from '../config/load.js';
import { type GlobalOptions, workspaceOf } from '../config/locations.js';
import type { HookContext } from '../core/hook-template.js';
import { resolveInvocation } from '../run/invocation.js';
import { TempFiles } from '../run/runtime.js';
import { runHook } from '../run/spawn.js';
import { AGENT_PROTOCOL_KEY, agentToEnvelope } from '../core/protocols/inbound.js';
import { gate } from '../core/gate.js';
import { type KillSwitches, killSwitchesFrom } from '../core/kill-switch.js';
import { OnceGuard } from '../state/once.js';
import type { AgentProtocol } from '../core/protocols/names.js';
import { toolMatches } from '../core/tool-matcher.js';
import type { CommandClause } from '../core/shell/command-match.js';

export interface TestOptions extends GlobalOptions {
  input?: string;
  event?: string;
  /** The input is this agent's hook input (and --event one of its event names), mapped as `fire --protocol` maps it. */
  protocol?: AgentProtocol;
  source?: Layer;
  /** CHRYS_HOOKS / CHRYS_HOOKS_SKIP, for the note on whether `fire` would run the hook; read from the environment when absent. */
  switches?: KillSwitches;
}

export interface TestReport {
  hook: { id: string; source: Layer; file: string; event: EventName; mode: Hook['execution']['mode']; enabled: boolean };
  envelope_from: 'input' | 'sample';
  match: { verdict: 'run' | 'no_match' | 'skipped' | 'error'; reason: string | null; clauses: string; note: string | null };
  argv: string[];
  cwd: string;
  env: Record<string, string>;
  payload: JsonObject;
  status: string;
  exit_code: number | null;
  duration_ms: number;
  error: string | null;
  stdout_tail: string;
  stderr_tail: string;
  result_file: string | null;
  /** Result keys that took effect for this event and mode. */
  applied: string[];
  /** decision_ignored / result_invalid / hook_failed warnings, with the why. */
  ignored: Warning[];
  decision: Decision;
}

const TAIL = 4096;
const tail = (s: string): string => (s.length > TAIL ? `[... ${s.length - TAIL} characters before ...]\n${s.slice(-TAIL)}` : s);

export async function testHook(hookId: string, opts: TestOptions): Promise<TestReport> {
  const workspace = workspaceOf(opts);
  const config = await loadConfig({ ...opts, workspace });
  const hook = pickHook(hookId, config.hooks, opts.source, config.sources.some((s) => s.layer === 'project' && s.state === 'dormant'));
  const fromInput = opts.input !== undefined;
  const parsed = fromInput ? inputEnvelope(opts.input!, opts) : { envelope: sampleEnvelope(hook, sampleEvent(hook, opts.event)), event: sampleEvent(hook, opts.event) };
  const envelope = completeEnvelope(parsed.envelope, parsed.event, workspace, new Date());
  const ctx: HookContext = { configDir: config.configDir, workspace, sessionId: stringField(envelope, 'session_id'), profile: stringField(envelope, 'profile') };
  const m = matchHook(hook, envelope);
  const once = new OnceGuard(config.configDir, ctx.sessionId);
  const g = gate({ hook, envelope, switches: opts.switches ?? killSwitchesFrom(process.env), once: { sessionId: ctx.sessionId, stamped: once.seen(hook) } });
  const notes: string[] = [];
  if (!hook.enabled) notes.push('the hook is disabled (enabled: false)');
  if (parsed.event !== hook.event) notes.push(`the hook listens to ${hook.event}, not ${parsed.event}`);
  if (!g.run && g.status !== 'disabled') notes.push(`it would not run for this envelope (${g.reason})`);

  const invocation = resolveInvocation(hook, ctx);
  const temp = new TempFiles(config.configDir);
  const record = await runHook(hook, ctx, invocation, stringifyJson(envelope), temp, { keepResultText: true });
  temp.cleanup();
  const decision = emptyDecision(parsed.event);
  const tool = isJsonObject(envelope.tool) ? envelope.tool : undefined;
  // The event's rules as `fire` applies them: an agent protocol can gate a stop.
  const agentProtocol = typeof envelope[AGENT_PROTOCOL_KEY] === 'string' ? (envelope[AGENT_PROTOCOL_KEY] as string) : undefined;
  const chain: Chain = { decision, args: tool?.args, argsModified: false, spec: eventSpecFor(parsed.event, agentProtocol), applied: [] };
  if (hook.execution.mode === 'blocking') {
    decision.hooks.push(applyOutcome(chain, hook, record));
    if (chain.argsModified) decision.args = chain.args ?? null;
  } else if (record.status === 'ok' && record.result.kind === 'json') {
    decision.warnings.push(...ignoredResult(hook, record.result.value));
  }
  decision.warnings.push(...temp.warnings);
  return {
    hook: { id: hook.id, source: hook.source, file: hook.file, event: hook.event, mode: hook.execution.mode, enabled: hook.enabled },
    envelope_from: fromInput ? 'input' : 'sample',
    match: { verdict: m.verdict, reason: m.verdict === 'run' ? null : m.reason, clauses: describeMatch(hook.match), note: notes.length ? `${notes.join('; ')}: ran anyway` : null },
    argv: invocation.argv,
    cwd: invocation.cwd,
    env: invocation.env,
    payload: envelope,
    status: record.status,
    exit_code: record.exitCode,
    duration_ms: record.durationMs,
    error: record.error ?? null,
    stdout_tail: tail(record.stdout),
    stderr_tail: tail(record.stderr),
    result_file: record.resultText ? record.resultText : null,
    applied: chain.applied ?? [],
    ignored: decision.warnings,
    decision,
  };
}

function pickHook(id: string, hooks: readonly Hook[], source: Layer | undefined, projectDormant: boolean): Hook {
  const named = hooks.filter((h) => h.id === id);
  const picked = source ? named.filter((h) => h.source === source) : named;
  if (picked.length === 1) return picked[0]!;
  if (picked.length > 1) {
    throw new ChrysError('usage', `hook id "${id}" is defined in both layers: ${picked.map((h) => `${h.source} ${h.file}`).join(' and ')}`, 'pick one with --source project or --source global');
  }
  const suggestion = closest(id, [...new Set(hooks.map((h) => h.id))]);
  const hints = [
    ...(suggestion ? [`did you mean "${suggestion}"?`] : []),
    ...(named.length && source ? [`"${id}" is a ${named[0]!.source} hook`] : []),
    ...(projectDormant ? ['the project hooks file is dormant and was not searched: run `chrys-hooks trust`'] : []),
  ];
  throw new ChrysError('usage', `no ${source ? `${source} ` : ''}hook "${id}"`, hints.length ? hints.join('; ') : 'run `chrys-hooks list` to see the hook ids');
}

function inputEnvelope(input: string, opts: TestOptions): { envelope: JsonObject; event: EventName } {
  if (!opts.protocol) return parseEnvelope(input, opts.event);
  const { envelope } = parseEnvelope(input, 'other');
  const name = opts.event ?? envelope.hook_event_name;
  if (typeof name !== 'string' || name === '') {
    throw new ChrysError('missing_event', `the ${opts.protocol} hook input has no "hook_event_name" and no --event was given`, `pass the input ${opts.protocol} gives its hooks, or --event`);
  }
  const mapped = agentToEnvelope(opts.protocol, envelope, name);
  if (!mapped.ok) throw new ChrysError('unknown_event', mapped.warnings[0]!.message.replace(/; no hooks ran$/, ''), 'run chrys-hooks events for the agent event names');
  return mapped;
}

function sampleEvent(hook: Hook, flag: string | undefined): EventName {
  if (flag === undefined) return hook.event;
  const found = lookupEvent(flag);
  if (!found.ok) throw new ChrysError('unknown_event', `unknown event "${flag}"`, found.suggestion ? `did you mean "${found.suggestion}"?` : undefined);
  return found.event;
}

/** An envelope the hook's matcher accepts where it can: tool name, kind and args from it. */
export function sampleEnvelope(hook: Hook, event: EventName): JsonObject {
  const m = hook.match;
  const envelope: JsonObject = {
    event,
    session_id: 'chrys-hooks-test',
    profile: m?.profile ?? m?.profiles?.[0] ?? '',
    session_kind: m?.session_kinds?.[0] ?? 'interactive',
  };
  if (event === 'user_prompt_submit') envelope.prompt = 'an example prompt from chrys-hooks test';
  // match.fields: the first value each field may have (source: startup).
  for (const [name, values] of Object.entries(m?.fields ?? {})) if (!Object.hasOwn(envelope, name) && name !== 'tool' && values[0] !== undefined) envelope[name] = values[0];
  if (!eventSpec(event).hasTool) return envelope;
  const args: JsonObject = {};
  for (const [name, op] of Object.entries(m?.args ?? {})) {
    args[name] = op.equals ?? (op.contains !== undefined ? `example-${op.contains}` : 'example');
  }
  // match.command reads the command line of a shell tool: a run_shell call of a command its first clause names.
  if (m?.command?.[0] && !Object.hasOwn(args, 'command')) args.command = sampleCommandLine(m.command[0]);
  envelope.tool = { name: sampleToolName(m), ...(m?.tool_kind ? { kind: m.tool_kind } : {}), args };
  if (event === 'after_tool_call' || event === 'tool_error') (envelope.tool as JsonObject).result = 'example tool output';
  return envelope;
}

/** A tool name the matcher accepts: tool_name, the first of tool_names, or the first plain name of tool_name_regex. */
function sampleToolName(m: Hook['match']): string {
  if (m?.tool_name !== undefined) return m.tool_name;
  if (m?.tool_names?.[0] !== undefined) return m.tool_names[0];
  const matcher = m?.toolMatcher;
  if (matcher?.kind === 'names') return matcher.names[0]!;
  const word = /[A-Za-z_][\w-]*/.exec(m?.tool_name_regex ?? '')?.[0];
  if (matcher && word && toolMatches(matcher, word)) return word;
  return m?.command ? 'run_shell' : 'example_tool';
}

/** A command line the clause accepts where it can: its program, subcommand, flags and an argument its glob spells. */
function sampleCommandLine(clause: CommandClause): string {
  const glob = clause.args?.globs.find((g) => !/[[\]{}]/.test(g.source))?.source;
  const words = [clause.programs?.[0] ?? 'example', ...(clause.subcommands?.[0] ?? []), ...(clause.flags ?? []), ...(glob !== undefined ? [glob.replace(/[*?]/g, 'x')] : [])];
  return words.map(shellQuoteWord).join(' ');
}

/** The word as the shell reads it back: bare when safe, else single-quoted. `~` stays bare, as a user types it. */
const shellQuoteWord = (word: string): string => (/^[\w@%+=:,./~-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`);
