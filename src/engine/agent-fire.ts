// `fire --protocol claude|codex|gemini` as data: an agent's hook input mapped
// onto the envelope, the chain run by fireEnvelope, the decision answered in
// the agent's format; with `failClosed`, the guards of fail-closed.ts. Shared
// by the CLI's `fire --protocol`, `serve` requests with a `protocol` and the
// API; prints nothing.

import { type Decision, emptyDecision } from '../core/decide.js';
import { ChrysError, EXIT } from '../core/errors.js';
import type { EventName } from '../core/events.js';
import { applyFailClosed, failClosedDecision } from '../core/fail-closed.js';
import { failClosedOnInput } from '../core/fail-closed-input.js';
import type { JsonObject } from '../core/json.js';
import { type Inbound, agentToEnvelope } from '../core/protocols/inbound.js';
import { AGENT_PROTOCOLS, type AgentProtocol } from '../core/protocols/names.js';
import { type ProjectRoot, projectDirFromEnv, projectRootOf } from '../core/protocols/project-root.js';
import { refusedInputReply } from '../core/protocols/refused-input.js';
import { isAbsolute } from 'node:path';
import { discover } from '../config/discover.js';
import { configDirOf } from '../config/locations.js';
import { readSessionRoot, recordSessionRoot } from '../state/session-root.js';
import { type AgentReply, decisionToReply } from '../core/protocols/reply.js';
import { fireEnvelope } from './fire.js';
import type { FireOptions } from './fire-options.js';

export const isAgentProtocol = (value: unknown): value is AgentProtocol => typeof value === 'string' && (AGENT_PROTOCOLS as readonly string[]).includes(value);

/** The agent input (an envelope without "event") mapped; `flagEvent` (--event) or hook_event_name names the event. */
export function agentInbound(protocol: AgentProtocol, input: JsonObject, flagEvent: string | undefined, opts: FireOptions): Inbound {
  const name = flagEvent ?? input.hook_event_name;
  // Copilot's input names no event: its hooks file says it (install writes --event).
  if (typeof name !== 'string' || name === '') {
    throw new ChrysError('missing_event', `the ${protocol} hook input has no "hook_event_name" and no --event was given`, `pipe the input ${protocol} gives its hooks, or pass --event`);
  }
  // --cwd wins over everything the input says (workspaceOf), so no root is looked for.
  const root = opts.cwd ? undefined : sessionProjectRoot(protocol, input, opts);
  const inbound = agentToEnvelope(protocol, input, name, root?.path);
  if (inbound.ok && root && isSessionStart(inbound.event)) recordStart(root, inbound.envelope, opts);
  return inbound;
}

/** The session's project root (CONTRACT §1): the agent's variable, else the cwd recorded at session_start, else the input cwd. */
function sessionProjectRoot(protocol: AgentProtocol, input: JsonObject, opts: FireOptions): ProjectRoot | undefined {
  const fromEnv = projectDirFromEnv(protocol, opts.env ?? process.env);
  const sessionId = typeof input.session_id === 'string' ? input.session_id : '';
  const recorded = fromEnv || !sessionId ? undefined : readSessionRoot(configDirOf(opts), sessionId);
  const roots = protocol === 'cursor' && Array.isArray(input.workspace_roots) ? input.workspace_roots : [];
  const cursorRoot = typeof roots[0] === 'string' && isAbsolute(roots[0]) ? roots[0] : undefined;
  if (!fromEnv && cursorRoot) return { path: cursorRoot, source: 'env', detail: 'workspace_roots[0] of the input' };
  return projectRootOf(fromEnv, recorded, typeof input.cwd === 'string' ? input.cwd : undefined);
}

const isSessionStart = (event: string): boolean => event === 'session_start' || event === 'session_restored';

/**
 * Records the input cwd of a session's start for its later firings, when the
 * agent names no root itself. Only where a hooks file exists: with none, fire
 * writes nothing (CONTRACT §7).
 */
function recordStart(root: ProjectRoot, envelope: JsonObject, opts: FireOptions): void {
  const sessionId = envelope.session_id;
  if (root.source !== 'input_cwd' || typeof sessionId !== 'string' || sessionId === '') return;
  const found = discover({ ...opts, workspace: root.path });
  if (found.globalPath || found.projectPath) recordSessionRoot(found.configDir, sessionId, root.path);
}

/** The decision for a mapped input: "no decision" plus the mapping's warnings when its event is unknown. */
export async function fireInbound(inbound: Inbound, opts: FireOptions, fire = fireEnvelope): Promise<Decision> {
  if (!inbound.ok) {
    const decision = emptyDecision('other');
    decision.warnings.push(...inbound.warnings);
    return decision;
  }
  const decision = await fire(inbound.envelope, inbound.event, opts);
  decision.warnings.unshift(...inbound.warnings);
  return decision;
}

/** fireEnvelope; with `failClosed`, a lost guard, a malformed tool input or an internal error blocks a guarded event. */
export async function fireGuarded(envelope: JsonObject, event: EventName, opts: FireOptions): Promise<Decision> {
  if (!opts.failClosed) return fireEnvelope(envelope, event, opts);
  try {
    return failClosedOnInput(applyFailClosed(await fireEnvelope(envelope, event, opts)), envelope);
  } catch (e) {
    if (e instanceof ChrysError && e.code !== 'internal') throw e;
    const closed = failClosedDecision(event, (e as Error)?.message ?? String(e));
    if (!closed) throw e;
    if (process.env.CHRYS_HOOKS_DEBUG) process.stderr.write(`${(e as Error)?.stack}\n`);
    return closed;
  }
}

/** An agent's answer, and the decision behind it (none when the input was refused). */
export interface AgentAnswer {
  reply: AgentReply;
  decision: Decision | undefined;
}

/**
 * The agent's answer to one hook input, read by `read` (which throws what
 * the input is refused for). With `failClosed`, refused input and an event
 * chrys-hooks does not know are answered with the agent's deny
 * (refused-input.ts) instead of an error.
 */
export async function answerAgentInput(protocol: AgentProtocol, read: () => JsonObject, flagEvent: string | undefined, opts: FireOptions, replyOpts: { exitCode?: boolean } = {}): Promise<AgentAnswer> {
  let input: JsonObject | undefined;
  let inbound: Inbound;
  try {
    input = read();
    inbound = agentInbound(protocol, input, flagEvent, opts);
  } catch (e) {
    const named = flagEvent ?? (typeof input?.hook_event_name === 'string' ? input.hook_event_name : undefined);
    const denied = opts.failClosed && e instanceof ChrysError && e.exitCode === EXIT.badInput ? refusedInputReply(protocol, named, e.message) : undefined;
    if (!denied) throw e;
    return { reply: denied, decision: undefined };
  }
  const decision = await fireInbound(inbound, opts, fireGuarded);
  const reply = decisionToReply(protocol, decision, inbound.agentEvent, { ...replyOpts, input });
  // An event no hook could see is allowed unless its answer already denies (a Cursor-style name).
  if (!inbound.ok && opts.failClosed && reply.exitCode !== 2) {
    return { reply: refusedInputReply(protocol, undefined, `${protocol} event "${inbound.agentEvent}" is not one chrys-hooks knows, so no hook ran`)!, decision: undefined };
  }
  return { reply, decision };
}
