// `--protocol X --fail-closed` on input chrys-hooks refuses (not JSON, not an
// object, too big, an event it does not know): exit 65 is a non-blocking
// error to the agents, so the call would go on unguarded. On a guarded event
// it is answered with the agent's deny instead; where the event cannot be
// read at all, with the deny every agent honours on its gates (exit 2).

import { emptyDecision } from '../decide.js';
import { FAIL_CLOSED_EVENTS, blockFailClosed } from '../fail-closed.js';
import { type AgentProtocol, chrysEventOf } from './names.js';
import { type AgentReply, decisionToReply } from './reply.js';

/**
 * The deny for refused input whose agent event is `agentEvent` (undefined:
 * unreadable), or undefined when that event is one fail-closed leaves alone
 * (after a tool, a stop: the refusal stays an error there).
 */
export function refusedInputReply(protocol: AgentProtocol, agentEvent: string | undefined, why: string): AgentReply | undefined {
  const event = agentEvent === undefined ? undefined : chrysEventOf(protocol, agentEvent);
  if (event !== undefined && !FAIL_CLOSED_EVENTS.includes(event)) return undefined;
  const cause = `the hook input was refused (${why}), so no guard saw it`;
  // Copilot CLI reads exit 2 as a warning: its deny is JSON, in both the tool-call and the permission form.
  if (event === undefined && protocol === 'copilot') {
    const reason = `chrys-hooks fails closed: ${cause}`;
    return { stdout: JSON.stringify({ permissionDecision: 'deny', permissionDecisionReason: reason, behavior: 'deny', message: reason }), stderr: `${reason}\n`, exitCode: 0 };
  }
  if (event === undefined) return { stdout: '', stderr: `chrys-hooks fails closed: ${cause}\n`, exitCode: 2 };
  // A known guarded event: its own deny form (PermissionRequest's is JSON, the rest exit 2).
  return decisionToReply(protocol, blockFailClosed(emptyDecision(event), cause, 'global'), agentEvent!, { exitCode: true });
}
