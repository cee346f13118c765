// `fire --protocol claude|codex|gemini` and `fire --fail-closed`: an agent's
// hook input mapped onto the envelope, the chain run as usual, the decision
// answered in the agent's format; with --fail-closed a broken bridge or hooks
// file blocks a guarded event instead of failing open.

import type { Decision } from '../core/decide.js';
import { ChrysError, EXIT } from '../core/errors.js';
import type { EventName } from '../core/events.js';
import { parseEnvelope } from '../core/envelope.js';
import { applyFailClosed, failClosedDecision } from '../core/fail-closed.js';
import { failClosedOnInput } from '../core/fail-closed-input.js';
import { type Json, type JsonObject, stringifyJson } from '../core/json.js';
import type { Inbound } from '../core/protocols/inbound.js';
import { AGENT_PROTOCOLS, type AgentProtocol } from '../core/protocols/names.js';
import { decisionToReply } from '../core/protocols/reply.js';
import { agentInbound as inboundOf, fireInbound } from '../engine/agent-fire.js';
import { fireEnvelope } from '../engine/fire.js';
import type { Trace } from '../engine/trace.js';
import type { CliGlobals } from './globals.js';
import { fireNotices } from './notices.js';
import type { CommandResult } from './output.js';

export async function runAgentFire(input: string, opts: Record<string, unknown>, globals: CliGlobals & { trace?: Trace }, failClosed: boolean): Promise<CommandResult> {
  const protocol = protocolOf(opts.protocol);
  const flagEvent = typeof opts.event === 'string' ? opts.event : undefined;
  const inbound = protocol ? agentInbound(protocol, input, flagEvent, globals) : chrysInbound(input, flagEvent);
  const decision = await fireInbound(inbound, globals, (envelope, event, opts) => fireGuarded(envelope, event, opts, failClosed));
  const explained = globals.trace ? [(await import('./explain.js')).renderTrace(globals.trace, decision)] : [];
  const notices = [...explained, ...fireNotices(decision.warnings)];
  if (!protocol) {
    return { stdout: stringifyJson(decision as unknown as Json, 2), stderr: notices, exitCode: opts.exitCode && decision.blocked ? EXIT.blocked : EXIT.ok };
  }
  const reply = decisionToReply(protocol, decision, inbound.agentEvent, { exitCode: opts.exitCode === true });
  // On exit 2 the agent shows stderr as the block reason: nothing else goes there.
  const stderr = reply.exitCode === 2 ? [reply.stderr.replace(/\n$/, '')] : notices;
  return { ...(reply.stdout ? { stdout: reply.stdout } : {}), stderr, exitCode: reply.exitCode };
}

async function fireGuarded(envelope: JsonObject, event: EventName, opts: Parameters<typeof fireEnvelope>[2], failClosed: boolean): Promise<Decision> {
  try {
    const decision = await fireEnvelope(envelope, event, opts);
    return failClosed ? failClosedOnInput(applyFailClosed(decision), envelope) : decision;
  } catch (e) {
    if (!failClosed || (e instanceof ChrysError && e.code !== 'internal')) throw e;
    const closed = failClosedDecision(event, (e as Error)?.message ?? String(e));
    if (!closed) throw e;
    if (process.env.CHRYS_HOOKS_DEBUG) process.stderr.write(`${(e as Error)?.stack}\n`);
    return closed;
  }
}

function protocolOf(value: unknown): AgentProtocol | undefined {
  if (value === undefined) return undefined;
  if (typeof value === 'string' && (AGENT_PROTOCOLS as readonly string[]).includes(value)) return value as AgentProtocol;
  throw new ChrysError('usage', `option '--protocol <agent>' argument '${String(value)}' is invalid. Allowed choices are ${AGENT_PROTOCOLS.join(', ')}.`, 'see chrys-hooks fire --help');
}

function agentInbound(protocol: AgentProtocol, input: string, flagEvent: string | undefined, opts: CliGlobals): Inbound {
  // The agent input is an envelope without "event": --event (or hook_event_name) names an
  // agent event, so it is not checked against the Chrys event names here.
  const { envelope } = parseEnvelope(input, 'other');
  return inboundOf(protocol, envelope, flagEvent, opts);
}

function chrysInbound(input: string, flagEvent: string | undefined): Inbound {
  const { envelope, event } = parseEnvelope(input, flagEvent);
  return { ok: true, envelope, event, agentEvent: event, warnings: [] };
}
