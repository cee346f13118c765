// The pure parts of the interop work: Claude's matcher semantics, block
// feedback after a tool, fail-closed decisions, and foreign input built from a
// native Chrys envelope.
import { describe, expect, it } from 'vitest';
import { testHook } from '../helpers/hook.js';
import type { Hook } from '../../src/core/config.js';
import { type Chain, type Outcome, applyOutcome, emptyDecision } from '../../src/core/decide.js';
import { type EventName, eventSpecFor } from '../../src/core/events.js';
import { applyFailClosed, failClosedDecision } from '../../src/core/fail-closed.js';
import { type JsonObject, parseJson, stringifyJson } from '../../src/core/json.js';
import { envelopeToAgentInput } from '../../src/core/protocols/foreign-input.js';
import { compileToolMatcher, toolMatches } from '../../src/core/tool-matcher.js';
import { runAgentFire } from '../../src/cli/fire-agent.js';

const matches = (matcher: string, name: string | undefined): boolean => {
  const c = compileToolMatcher(matcher);
  if (!c.ok) throw new Error(c.error);
  return toolMatches(c.matcher, name);
};

describe("Claude's tool matcher semantics", () => {
  it('plain names and lists match exactly; anything else is an unanchored regex; * and empty match all', () => {
    expect(matches('Bash', 'Bash')).toBe(true);
    expect(matches('Bash', 'BashOutput')).toBe(false);
    expect(matches('Edit|Write', 'Write')).toBe(true);
    expect(matches('Edit, Write', 'Edit')).toBe(true);
    expect(matches('Edit|Write', 'NotebookEdit')).toBe(false);
    expect(matches('Edit.*', 'NotebookEdit')).toBe(true);
    expect(matches('^Edit$', 'NotebookEdit')).toBe(false);
    expect(matches('mcp__memory__.*', 'mcp__memory__create')).toBe(true);
    expect(matches('mcp__memory', 'mcp__memory__create')).toBe(false);
    expect(matches('mcp_github_.*', 'mcp_github_list')).toBe(true); // Gemini's single underscores
    expect(matches('*', undefined)).toBe(true);
    expect(matches('', 'x')).toBe(true);
    expect(matches('Bash', undefined)).toBe(false);
    expect(compileToolMatcher('[bad')).toMatchObject({ ok: false });
  });
});

const hook = (id: string, event: EventName): Hook => testHook({ id, event, source: 'project' });
const ok = (result: string): Outcome => ({ status: 'ok', exitCode: 0, signal: null, durationMs: 1, stderrTail: '', result: { kind: 'json', value: parseJson(result) as JsonObject } });

describe('block_feedback after a tool', () => {
  it('fills block_feedback (last wins) without blocking or a decision_ignored warning', () => {
    for (const event of ['after_tool_call', 'tool_error'] as EventName[]) {
      const chain: Chain = { decision: emptyDecision(event), args: undefined, argsModified: false };
      const first = applyOutcome(chain, hook('a', event), ok('{"action":"block","reason":"lint failed"}'));
      applyOutcome(chain, hook('b', event), ok('{"action":"block","reason":"tests failed"}'));
      applyOutcome(chain, hook('c', event), ok('{"extra_context":"more"}'));
      expect(first.status).toBe('ok');
      expect(chain.decision).toMatchObject({ blocked: false, blocked_by: null, reason: null, block_feedback: 'tests failed', extra_context: ['more'], warnings: [] });
    }
  });

  it('still ignores a block on an observer event, and blocks a stop only for an agent protocol', () => {
    const observer: Chain = { decision: emptyDecision('session_start'), args: undefined, argsModified: false };
    applyOutcome(observer, hook('a', 'session_start'), ok('{"action":"block","reason":"x"}'));
    expect(observer.decision).toMatchObject({ blocked: false, block_feedback: null, warnings: [{ code: 'decision_ignored' }, { code: 'decision_ignored' }] });
    const chrysStop: Chain = { decision: emptyDecision('conversation_done'), args: undefined, argsModified: false, spec: eventSpecFor('conversation_done', undefined) };
    applyOutcome(chrysStop, hook('s', 'conversation_done'), ok('{"action":"block","reason":"run the tests first"}'));
    expect(chrysStop.decision).toMatchObject({ blocked: false, warnings: [{ code: 'decision_ignored' }, { code: 'decision_ignored' }] });
    const claudeStop: Chain = { decision: emptyDecision('conversation_done'), args: undefined, argsModified: false, spec: eventSpecFor('conversation_done', 'claude') };
    applyOutcome(claudeStop, hook('s', 'conversation_done'), ok('{"action":"block","reason":"run the tests first"}'));
    expect(claudeStop.decision).toMatchObject({ blocked: true, reason: 'run the tests first' });
  });
});

describe('fail-closed', () => {
  it('blocks only guarded events, and only for an invalid hooks file', () => {
    const invalid = { code: 'project_hooks_config_invalid' as const, message: 'project hooks file x is invalid' };
    const d = emptyDecision('before_tool_call');
    d.warnings.push(invalid);
    expect(applyFailClosed(d)).toMatchObject({ blocked: true, blocked_by: { id: 'fail-closed', source: 'project' }, reason: expect.stringContaining('is invalid') });
    const observer = emptyDecision('after_tool_call');
    observer.warnings.push(invalid);
    expect(applyFailClosed(observer).blocked).toBe(false);
    const dormant = emptyDecision('before_tool_call');
    dormant.warnings.push({ code: 'project_hooks_dormant', message: 'dormant' });
    expect(applyFailClosed(dormant).blocked).toBe(false);
    expect(failClosedDecision('conversation_done', 'boom')).toBeUndefined();
  });

  it('turns an internal error of the bridge into a deny in the agent format, and lets it through without --fail-closed', async () => {
    const input = '{"hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{}}';
    // A config dir that is not a string makes the engine throw, as a bug would.
    const broken = { configDir: 42 as unknown as string, color: false, readInput: () => input };
    const closed = await runAgentFire(() => input, { protocol: 'claude' }, broken, true);
    expect(JSON.parse(closed.stdout!)).toMatchObject({ hookSpecificOutput: { permissionDecision: 'deny', permissionDecisionReason: expect.stringContaining('internal error') } });
    await expect(runAgentFire(() => input, { protocol: 'claude' }, broken, false)).rejects.toThrow();
  });
});

describe('foreign input from a native Chrys envelope', () => {
  it('builds the fields the agent would send', () => {
    const envelope = parseJson('{"event":"before_tool_call","session_id":"s","cwd":"/w","schema":1,"tool":{"name":"write_file","call_id":"c1","args":{"path":"a","n":1.0}}}') as JsonObject;
    expect(stringifyJson(envelopeToAgentInput('claude', envelope, 'before_tool_call'))).toBe('{"session_id":"s","transcript_path":"","cwd":"/w","hook_event_name":"PreToolUse","permission_mode":"default","tool_name":"write_file","tool_input":{"path":"a","n":1.0},"tool_use_id":"c1"}');
    const prompt = parseJson('{"event":"user_prompt_submit","session_id":"s","cwd":"/w","timestamp":"T","text":"hi"}') as JsonObject;
    expect(stringifyJson(envelopeToAgentInput('gemini', prompt, 'user_prompt_submit'))).toBe('{"session_id":"s","transcript_path":"","cwd":"/w","hook_event_name":"BeforeAgent","timestamp":"T","prompt":"hi"}');
    const after = parseJson('{"event":"tool_error","cwd":"/w","tool":{"name":"Bash","args":{}},"result":{"text":"x","error":"boom"}}') as JsonObject;
    expect(envelopeToAgentInput('claude', after, 'tool_error')).toMatchObject({ hook_event_name: 'PostToolUseFailure', error: 'boom' });
  });
});
