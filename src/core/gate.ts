// Does this hook run, and if not, why: the one answer `fire` (both phases,
// and so `serve` and the API), `resolve`, `test` and `drain-outbox` share.
// Pure: the kill switches, the once-per-session stamp and the chain so far
// come in as data; stamping stays in state/once.ts.
//
// The rules, in this order; the first that says no decides:
//
//   1. disabled          `enabled: false`                      status disabled (fire never lists it)
//   2. no_match          a match clause fails                  status no_match (fire never lists it)
//   3. blocked_earlier   an earlier hook of the event blocked  status not_run
//   4. hooks_off         CHRYS_HOOKS=0 (not a locked hook)     status skipped
//   5. skip_listed       CHRYS_HOOKS_SKIP names it (ditto)     status skipped
//   6. match_error       matching itself failed (regex budget) status failed: the hook's on_error applies
//   7. session_kind      match.session_kinds                   status skipped
//      context_tokens    match.max_context_tokens              status skipped
//   8. once_per_session  already stamped for this session      status skipped
//
// Why this order: a hook that does not match is no hook of this firing, so
// no later rule may list it (CONTRACT §7: only matching or skipped hooks are
// listed). A block stops everything still to come, whatever else holds
// (§6.1). The switches are the user's own word and come before the file's
// rules; a switched-off hook never runs, so a failure to match it is not a
// failure its on_error should answer for. once_per_session is last because
// it is the only rule with a side effect: a caller stamps only when every
// other rule said run, and, when the stamp was already taken, asks again
// with `stamped: true` to get the skip.
//
// A queued durable job passed rules 2–7 when it was queued, against the
// payload it carries: the drain asks with `queued: true`, which keeps 1 and 8.

import type { Hook } from './config.js';
import type { JsonObject } from './json.js';
import { type KillSwitches, skipReason, switchedOff } from './kill-switch.js';
import { type MatchVerdict, matchHook } from './match.js';
import type { CommandVerdict } from './shell/command-match.js';

export type GateCode = 'disabled' | 'no_match' | 'blocked_earlier' | 'hooks_off' | 'skip_listed' | 'match_error' | 'session_kind' | 'context_tokens' | 'once_per_session';
export type GateStatus = 'disabled' | 'no_match' | 'not_run' | 'skipped' | 'failed';

export interface GateInput {
  hook: Hook;
  /** The envelope as modified so far by the blocking hooks before this one. */
  envelope: JsonObject;
  switches: KillSwitches;
  /** The firing's session, and whether the hook's once_per_session stamp for it is already taken. */
  once: { sessionId: string; stamped: boolean };
  /** The hook that blocked the chain so far, if one did. */
  blockedBy?: { id: string; source: string } | null | undefined;
  /** A durable job found again by the drain: only rules 1 and 8 apply. */
  queued?: boolean;
}

export type Gate =
  | { run: true; command?: CommandVerdict }
  | { run: false; status: GateStatus; code: GateCode; reason: string; command?: CommandVerdict };

/** Switches that turn nothing off: for callers outside a firing's environment. */
export const NO_SWITCHES: KillSwitches = { off: false, skip: [] };

export const HOOKS_OFF_REASON = 'turned off by CHRYS_HOOKS=0';

export const onceReason = (sessionId: string): string => `once_per_session: already ran in session ${sessionId}`;

export const blockedEarlierReason = (by: { id: string; source: string }): string => `not run: hook "${by.id}" (${by.source}) blocked first`;

export function gate(input: GateInput): Gate {
  const { hook, switches } = input;
  if (!hook.enabled) return { run: false, status: 'disabled', code: 'disabled', reason: 'enabled: false' };
  // Stryker disable next-line ObjectLiteral,StringLiteral: a queued job's verdict is read only for its command, which { verdict: 'run' } has not
  const m: MatchVerdict = input.queued ? { verdict: 'run' } : matchHook(hook, input.envelope);
  const command = m.verdict === 'run' || m.verdict === 'no_match' ? m.command : undefined;
  // A match verdict's reason is built only when read (command-match.ts): most hooks that
  // do not run are never asked why, so the gate passes the verdict on, not its text.
  const no = (status: GateStatus, code: GateCode, why: string | { readonly reason: string }): Gate => ({
    run: false,
    status,
    code,
    get reason() {
      return typeof why === 'string' ? why : why.reason;
    },
    ...(command ? { command } : {}),
  });
  if (!input.queued) {
    if (m.verdict === 'no_match') return no('no_match', 'no_match', m);
    if (input.blockedBy) return no('not_run', 'blocked_earlier', blockedEarlierReason(input.blockedBy));
    if (switchedOff(hook, switches)) return no('skipped', 'hooks_off', HOOKS_OFF_REASON);
    const listed = skipReason(hook, switches);
    if (listed) return no('skipped', 'skip_listed', listed);
    if (m.verdict === 'error') return no('failed', 'match_error', m);
    if (m.verdict === 'skipped') return no('skipped', m.rule === 'session_kinds' ? 'session_kind' : 'context_tokens', m);
  }
  const once = input.once;
  if (hook.execution.once_per_session && once.sessionId !== '' && once.stamped) return no('skipped', 'once_per_session', onceReason(once.sessionId));
  return command ? { run: true, command } : { run: true };
}
