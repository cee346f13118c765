// `fire --protocol claude|codex|gemini` and `fire --fail-closed`: an agent's
// hook input mapped onto the envelope, the chain run as usual, the decision
// answered in the agent's format; with --fail-closed a broken bridge, hooks
// file or guard, or refused input, blocks a guarded event instead of failing open.

import type { Decision } from '../core/decide.js';
import { ChrysError, EXIT } from '../core/errors.js';
import { parseEnvelope } from '../core/envelope.js';
import { type Json, stringifyJson } from '../core/json.js';
import type { Inbound } from '../core/protocols/inbound.js';
import { AGENT_PROTOCOLS, type AgentProtocol } from '../core/protocols/names.js';
import { answerAgentInput, fireGuarded, fireInbound } from '../engine/agent-fire.js';
import type { Trace } from '../engine/trace.js';
import type { CliGlobals } from './globals.js';
import { fireNotices } from './notices.js';
import type { CommandResult } from './output.js';

/** `read` gives the input text, or throws what it is refused for (too large, unreadable). */
export async function runAgentFire(read: () => string, opts: Record<string, unknown>, globals: CliGlobals & { trace?: Trace }, failClosed: boolean): Promise<CommandResult> {
  const protocol = protocolOf(opts.protocol);
  const flagEvent = typeof opts.event === 'string' ? opts.event : undefined;
  const fireOpts = failClosed ? { ...globals, failClosed } : globals;
  if (!protocol) {
    const decision = await fireInbound(chrysInbound(read(), flagEvent), fireOpts, fireGuarded);
    return { stdout: stringifyJson(decision as unknown as Json, 2), stderr: await notices(globals, decision), exitCode: opts.exitCode && decision.blocked ? EXIT.blocked : EXIT.ok };
  }
  // The agent input is an envelope without "event": --event (or hook_event_name) names an
  // agent event, so it is not checked against the Chrys event names here.
  const { reply, decision } = await answerAgentInput(protocol, () => parseEnvelope(read(), 'other').envelope, flagEvent, fireOpts, { exitCode: opts.exitCode === true });
  // On exit 2 the agent shows stderr as the block reason: nothing else goes there.
  // Otherwise the reply's own stderr (Copilot: what its JSON cannot say) comes first.
  const own = reply.stderr ? reply.stderr.replace(/\n$/, '').split('\n') : [];
  const stderr = reply.exitCode === 2 ? [reply.stderr.replace(/\n$/, '')] : [...own, ...(decision ? await notices(globals, decision) : [])];
  return { ...(reply.stdout ? { stdout: reply.stdout } : {}), stderr, exitCode: reply.exitCode };
}

async function notices(globals: { trace?: Trace }, decision: Decision): Promise<string[]> {
  const explained = globals.trace ? [(await import('./explain.js')).renderTrace(globals.trace, decision)] : [];
  return [...explained, ...fireNotices(decision.warnings)];
}

function protocolOf(value: unknown): AgentProtocol | undefined {
  if (value === undefined) return undefined;
  if (typeof value === 'string' && (AGENT_PROTOCOLS as readonly string[]).includes(value)) return value as AgentProtocol;
  throw new ChrysError('usage', `option '--protocol <agent>' argument '${String(value)}' is invalid. Allowed choices are ${AGENT_PROTOCOLS.join(', ')}.`, 'see chrys-hooks fire --help');
}

function chrysInbound(input: string, flagEvent: string | undefined): Inbound {
  const { envelope, event } = parseEnvelope(input, flagEvent);
  return { ok: true, envelope, event, agentEvent: event, warnings: [] };
}
