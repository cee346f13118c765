// `fire --protocol claude|codex|gemini` as data: an agent's hook input mapped
// onto the envelope, the chain run by fireEnvelope, the decision answered in
// the agent's format. Shared by the CLI's `fire --protocol`, `serve`
// requests with a `protocol` and the API; prints nothing.

import { type Decision, emptyDecision } from '../core/decide.js';
import { ChrysError } from '../core/errors.js';
import type { JsonObject } from '../core/json.js';
import { type Inbound, agentToEnvelope } from '../core/protocols/inbound.js';
import { AGENT_PROTOCOLS, type AgentProtocol } from '../core/protocols/names.js';
import { type ProjectRoot, projectDirFromEnv, projectRootOf } from '../core/protocols/project-root.js';
import { discover } from '../config/discover.js';
import { configDirOf } from '../config/locations.js';
import { readSessionRoot, recordSessionRoot } from '../state/session-root.js';
import { type AgentReply, decisionToReply } from '../core/protocols/reply.js';
import { type FireOptions, fireEnvelope } from './fire.js';

export const isAgentProtocol = (value: unknown): value is AgentProtocol => typeof value === 'string' && (AGENT_PROTOCOLS as readonly string[]).includes(value);

/** The agent input (an envelope without "event") mapped; `flagEvent` (--event) or hook_event_name names the event. */
export function agentInbound(protocol: AgentProtocol, input: JsonObject, flagEvent: string | undefined, opts: FireOptions): Inbound {
  const name = flagEvent ?? input.hook_event_name;
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

/** The agent's answer to one hook input, as `fire --protocol` (without --exit-code or --fail-closed) gives it. */
export async function fireAgentInput(protocol: AgentProtocol, input: JsonObject, flagEvent: string | undefined, opts: FireOptions): Promise<AgentReply> {
  const inbound = agentInbound(protocol, input, flagEvent, opts);
  return decisionToReply(protocol, await fireInbound(inbound, opts), inbound.agentEvent);
}
