import { describe, expect, it, vi } from 'vitest';
import type { Hook, Match } from '../../src/core/config.js';
import { testHook } from '../helpers/hook.js';
import { compilePythonRegex } from '../../src/core/pyregex.js';
import { NO_SWITCHES, gate } from '../../src/core/gate.js';
import { parseJson } from '../../src/core/json.js';
import type { JsonObject } from '../../src/core/json.js';

const hook = (over: { id?: string; enabled?: boolean; match?: Match; once?: boolean; locked?: boolean; source?: Hook['source'] } = {}): Hook =>
  testHook({ id: over.id ?? 'h', source: over.source ?? 'global', enabled: over.enabled ?? true, match: over.match, ...(over.locked ? { locked: true } : {}), execution: { once_per_session: over.once ?? false } });

const env = (json: string): JsonObject => parseJson(json) as JsonObject;
const EDIT = env('{"event":"before_tool_call","session_kind":"interactive","context_tokens":5000,"tool":{"name":"edit_file","args":{"path":"a"}}}');
const once = { sessionId: 's1', stamped: true };
const by = { id: 'guard', source: 'project' };
const every: Match = { tool_name: 'edit_file', session_kinds: ['cron'] };
const codeOf = (g: ReturnType<typeof gate>): string => (g.run ? 'run' : `${g.status}:${g.code}`);

describe('gate: one order', () => {
  it('each rule in turn decides when every later one would say no too', () => {
    const h = hook({ match: every, once: true });
    const switches = { off: true, skip: ['h'] };
    expect(codeOf(gate({ hook: hook({ enabled: false, match: { tool_name: 'x' } }), envelope: EDIT, switches, once, blockedBy: by }))).toBe('disabled:disabled');
    expect(codeOf(gate({ hook: hook({ match: { tool_name: 'x', session_kinds: ['cron'] } }), envelope: EDIT, switches, once, blockedBy: by }))).toBe('no_match:no_match');
    expect(gate({ hook: h, envelope: EDIT, switches, once, blockedBy: by })).toEqual({ run: false, status: 'not_run', code: 'blocked_earlier', reason: 'not run: hook "guard" (project) blocked first' });
    expect(gate({ hook: h, envelope: EDIT, switches, once })).toMatchObject({ status: 'skipped', code: 'hooks_off', reason: 'turned off by CHRYS_HOOKS=0' });
    expect(gate({ hook: h, envelope: EDIT, switches: { off: false, skip: ['h'] }, once })).toMatchObject({ status: 'skipped', code: 'skip_listed', reason: 'skipped by CHRYS_HOOKS_SKIP' });
    expect(gate({ hook: h, envelope: EDIT, switches: NO_SWITCHES, once })).toMatchObject({ status: 'skipped', code: 'session_kind' });
    expect(gate({ hook: hook({ match: { max_context_tokens: 100 }, once: true }), envelope: EDIT, switches: NO_SWITCHES, once })).toMatchObject({ status: 'skipped', code: 'context_tokens' });
    expect(gate({ hook: hook({ once: true }), envelope: EDIT, switches: NO_SWITCHES, once })).toEqual({ run: false, status: 'skipped', code: 'once_per_session', reason: 'once_per_session: already ran in session s1' });
    expect(gate({ hook: hook({ once: true }), envelope: EDIT, switches: NO_SWITCHES, once: { sessionId: 's1', stamped: false } })).toEqual({ run: true });
  });

  it('a locked global hook passes both switches; a project hook of the same id does not', () => {
    const switches = { off: true, skip: ['h'] };
    expect(gate({ hook: hook({ locked: true }), envelope: EDIT, switches, once })).toEqual({ run: true });
    expect(codeOf(gate({ hook: hook({ locked: true, source: 'project' }), envelope: EDIT, switches, once }))).toBe('skipped:hooks_off');
  });

  it('once_per_session needs a session and the flag', () => {
    expect(gate({ hook: hook({ once: true }), envelope: EDIT, switches: NO_SWITCHES, once: { sessionId: '', stamped: true } })).toEqual({ run: true });
    expect(gate({ hook: hook(), envelope: EDIT, switches: NO_SWITCHES, once })).toEqual({ run: true });
  });

  it('a queued job keeps only enabled and once_per_session', () => {
    const h = hook({ match: { tool_name: 'x' }, once: true });
    const switches = { off: true, skip: ['h'] };
    expect(gate({ hook: h, envelope: EDIT, switches, once: { sessionId: 's1', stamped: false }, queued: true })).toEqual({ run: true });
    expect(codeOf(gate({ hook: h, envelope: EDIT, switches, once, queued: true }))).toBe('skipped:once_per_session');
    expect(codeOf(gate({ hook: hook({ enabled: false }), envelope: EDIT, switches, once, queued: true }))).toBe('disabled:disabled');
  });

  it('a regex out of its budget is a failure, after the switches and before the session_kind rule', () => {
    const r = compilePythonRegex('(a+)+$');
    if (!r.ok) throw new Error(r.error);
    const slow: Match = { args: { path: { regex: r.regex, regexSource: '(a+)+$', regexBounded: true } }, session_kinds: ['cron'] };
    const long = env(`{"event":"before_tool_call","tool":{"name":"edit_file","args":{"path":"${'a'.repeat(40)}!"}}}`);
    expect(codeOf(gate({ hook: hook({ match: slow }), envelope: long, switches: { off: false, skip: ['h'] }, once }))).toBe('skipped:skip_listed');
    expect(gate({ hook: hook({ match: slow }), envelope: long, switches: NO_SWITCHES, once })).toMatchObject({ status: 'failed', code: 'match_error', reason: expect.stringContaining('budget') });
  });

  it('carries the match.command verdict, for resolve and --explain', () => {
    const h = hook({ match: { command: [{ programs: ['rm'] }] } as unknown as Hook['match'] });
    const shell = env('{"event":"before_tool_call","tool":{"name":"run_shell","args":{"command":"ls && rm -rf x"}}}');
    const g = gate({ hook: h, envelope: shell, switches: { off: true, skip: [] }, once });
    expect(g).toMatchObject({ run: false, code: 'hooks_off' });
    expect(g.command).toBeDefined();
  });
});

describe('gate: what it hands on', () => {
  const rm = { command: [{ programs: ['rm'] }] } as unknown as Match;
  const shell = (line: string): JsonObject => env(`{"event":"before_tool_call","tool":{"name":"run_shell","args":{"command":${JSON.stringify(line)}}}}`);
  const fresh = { sessionId: 's1', stamped: false };

  it('carries the command verdict on a run and on a non-match, and nothing else without one', () => {
    expect(gate({ hook: hook({ match: rm }), envelope: shell('rm x'), switches: NO_SWITCHES, once: fresh })).toStrictEqual({
      run: true,
      command: { matched: true, reason: '`rm x` matches (simple commands: `rm x`)', commands: ['rm x'], matchedCommand: 'rm x' },
    });
    expect(gate({ hook: hook({ match: rm }), envelope: shell('ls'), switches: NO_SWITCHES, once: fresh })).toStrictEqual({
      run: false,
      status: 'no_match',
      code: 'no_match',
      reason: 'command: no command matches (simple commands: `ls`)',
      command: { matched: false, reason: 'no command matches (simple commands: `ls`)', commands: ['ls'] },
    });
    expect(gate({ hook: hook(), envelope: EDIT, switches: NO_SWITCHES, once: fresh })).toStrictEqual({ run: true });
    expect(gate({ hook: hook({ match: { tool_name: 'x' } }), envelope: EDIT, switches: NO_SWITCHES, once: fresh })).toStrictEqual({ run: false, status: 'no_match', code: 'no_match', reason: 'tool_name is `edit_file`, hook wants `x`' });
    expect(gate({ hook: hook({ once: true }), envelope: EDIT, switches: NO_SWITCHES, once })).toStrictEqual({ run: false, status: 'skipped', code: 'once_per_session', reason: 'once_per_session: already ran in session s1' });
  });

  it('keeps the command verdict on a skip by a switch or by once_per_session', () => {
    const g = gate({ hook: hook({ match: rm, once: true }), envelope: shell('rm x'), switches: NO_SWITCHES, once });
    expect(g).toMatchObject({ run: false, code: 'once_per_session', command: { matched: true, matchedCommand: 'rm x' } });
    expect(gate({ hook: hook({ match: rm }), envelope: shell('rm x'), switches: { off: false, skip: ['h'] }, once: fresh })).toMatchObject({ code: 'skip_listed', command: { matched: true } });
  });

  it('gives the match clause\'s own reason for a skip by session_kinds or max_context_tokens', () => {
    expect(gate({ hook: hook({ match: { session_kinds: ['cron'] } }), envelope: EDIT, switches: NO_SWITCHES, once: fresh })).toStrictEqual({
      run: false,
      status: 'skipped',
      code: 'session_kind',
      reason: 'session_kind is `interactive`, hook runs only for `cron`',
    });
    expect(gate({ hook: hook({ match: { max_context_tokens: 100 } }), envelope: EDIT, switches: NO_SWITCHES, once: fresh })).toStrictEqual({
      run: false,
      status: 'skipped',
      code: 'context_tokens',
      reason: 'context_tokens 5000 is above max_context_tokens 100',
    });
  });

  it('a queued job is not matched again against its payload', () => {
    expect(gate({ hook: hook({ match: rm }), envelope: shell('ls'), switches: NO_SWITCHES, once: fresh, queued: true })).toStrictEqual({ run: true });
    expect(gate({ hook: hook({ match: rm }), envelope: shell('ls'), switches: NO_SWITCHES, once: fresh, blockedBy: by, queued: true })).toStrictEqual({ run: true });
  });

  it('a queued: false job gets every rule', () => {
    expect(codeOf(gate({ hook: hook({ match: { tool_name: 'x' } }), envelope: EDIT, switches: NO_SWITCHES, once: fresh, queued: false }))).toBe('no_match:no_match');
    expect(codeOf(gate({ hook: hook(), envelope: EDIT, switches: NO_SWITCHES, once: fresh, blockedBy: null }))).toBe('run');
  });
});

describe('gate: its texts and defaults, from a module loaded afresh', () => {
  // Built when the module loads: a mutant in them is switched on only for a module imported inside the test.
  it('switches nothing off by default, and words each reason', async () => {
    vi.resetModules();
    const G = await import('../../src/core/gate.js');
    expect(G.NO_SWITCHES).toStrictEqual({ off: false, skip: [] });
    expect(G.HOOKS_OFF_REASON).toBe('turned off by CHRYS_HOOKS=0');
    expect(G.onceReason('s9')).toBe('once_per_session: already ran in session s9');
    expect(G.blockedEarlierReason({ id: 'g', source: 'global' })).toBe('not run: hook "g" (global) blocked first');
    const fresh = { sessionId: 's1', stamped: false };
    expect(G.gate({ hook: hook(), envelope: EDIT, switches: G.NO_SWITCHES, once: fresh })).toStrictEqual({ run: true });
    expect(G.gate({ hook: hook({ locked: true, source: 'project' }), envelope: EDIT, switches: { off: true, skip: [] }, once: fresh })).toStrictEqual({ run: false, status: 'skipped', code: 'hooks_off', reason: 'turned off by CHRYS_HOOKS=0' });
    expect(G.gate({ hook: hook(), envelope: EDIT, switches: G.NO_SWITCHES, once: fresh, blockedBy: by })).toStrictEqual({ run: false, status: 'not_run', code: 'blocked_earlier', reason: 'not run: hook "guard" (project) blocked first' });
    expect(G.gate({ hook: hook({ once: true }), envelope: EDIT, switches: G.NO_SWITCHES, once: { sessionId: 's2', stamped: true } })).toStrictEqual({ run: false, status: 'skipped', code: 'once_per_session', reason: 'once_per_session: already ran in session s2' });
  });

  it('says a disabled hook is enabled: false', () => {
    expect(gate({ hook: hook({ enabled: false }), envelope: EDIT, switches: NO_SWITCHES, once })).toStrictEqual({ run: false, status: 'disabled', code: 'disabled', reason: 'enabled: false' });
  });
});
