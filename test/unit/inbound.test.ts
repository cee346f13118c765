// agentToEnvelope: an agent's hook input mapped onto the Chrys envelope, the
// original fields kept beside the mapped ones. Plain objects in and out.
import { describe, expect, it } from 'vitest';
import { type JsonNumber, type JsonObject, parseJson } from '../../src/core/json.js';
import { AGENT_CWD_KEY, AGENT_TIMESTAMP_KEY, SESSION_FROM_KEY, agentToEnvelope } from '../../src/core/protocols/inbound.js';

const input = (text: string): JsonObject => parseJson(text) as JsonObject;

describe('Gemini CLI AfterTool', () => {
  it('counts an empty error as no failure: the event stays after_tool_call', () => {
    const read = agentToEnvelope('gemini', input('{"tool_name":"run_shell_command","tool_response":{"llmContent":"ok","error":""}}'), 'AfterTool');
    expect(read).toMatchObject({ ok: true, event: 'after_tool_call', envelope: { result: { text: 'ok', failed: false } } });
    expect(read.ok && 'error' in (read.envelope.result as JsonObject)).toBe(false);
  });

  it('counts a null or missing error as no failure either', () => {
    for (const response of ['{"llmContent":"a","error":null}', '{"returnDisplay":"a"}']) {
      expect(agentToEnvelope('gemini', input(`{"tool_name":"x","tool_response":${response}}`), 'AfterTool')).toMatchObject({ event: 'after_tool_call', envelope: { result: { text: 'a', failed: false } } });
    }
  });

  it('turns a tool response with an error into tool_error, the error as text', () => {
    expect(agentToEnvelope('gemini', input('{"tool_name":"x","tool_response":{"llmContent":"","error":"ENOENT"}}'), 'AfterTool')).toMatchObject({
      ok: true, event: 'tool_error', envelope: { result: { text: '', failed: true, error: 'ENOENT' } },
    });
    expect(agentToEnvelope('gemini', input('{"tool_name":"x","tool_response":{"error":{"code":1}}}'), 'AfterTool')).toMatchObject({ event: 'tool_error', envelope: { result: { error: '{"code":1}' } } });
  });

  it('reads a tool response that is not an object as its text', () => {
    expect(agentToEnvelope('gemini', input('{"tool_name":"x","tool_response":"plain"}'), 'AfterTool')).toMatchObject({ event: 'after_tool_call', envelope: { result: { text: 'plain', failed: false } } });
  });
});

describe('Claude Code and Codex', () => {
  it('maps the tool, keeps every original field, and names the event as given', () => {
    const read = agentToEnvelope('claude', input('{"hook_event_name":"PreToolUse","session_id":"s","tool_name":"Bash","tool_use_id":"t1","tool_input":{"command":"ls"},"extra":1}'), 'PreToolUse');
    expect(read).toMatchObject({ ok: true, event: 'before_tool_call', warnings: [] });
    expect(read.ok && read.envelope).toMatchObject({ session_id: 's', extra: expect.anything(), agent_protocol: 'claude', tool: { name: 'Bash', call_id: 't1', args: { command: 'ls' } } });
  });

  it('warns when tool_input is not an object, and keeps the tool without arguments', () => {
    const read = agentToEnvelope('codex', input('{"tool_name":"Bash","tool_input":"ls"}'), 'PreToolUse');
    expect(read.warnings).toMatchObject([{ code: 'agent_input_invalid', message: expect.stringContaining('not a string') }]);
    expect(read.ok && read.envelope.tool).toEqual({ name: 'Bash', kind: 'process.exec' });
    expect(agentToEnvelope('codex', input('{"tool_name":"Bash"}'), 'PreToolUse').warnings).toEqual([]);
  });

  it('reads PostToolUseFailure as a failed result, the error as text', () => {
    expect(agentToEnvelope('claude', input('{"tool_name":"Bash","error":"exit 1"}'), 'PostToolUseFailure')).toMatchObject({ event: 'tool_error', envelope: { result: { text: 'exit 1', error: 'exit 1', failed: true } } });
    expect(agentToEnvelope('claude', input('{"tool_name":"Bash"}'), 'PostToolUseFailure')).toMatchObject({ envelope: { result: { error: 'the tool failed' } } });
    expect(agentToEnvelope('claude', input('{"tool_name":"Bash","error":{"code":2}}'), 'PostToolUseFailure')).toMatchObject({ envelope: { result: { error: '{"code":2}' } } });
  });

  it('keeps the agent cwd aside when the project root is given', () => {
    const read = agentToEnvelope('claude', input('{"cwd":"/w/sub","prompt":"hi"}'), 'UserPromptSubmit', '/w');
    expect(read.ok && [read.envelope.cwd, read.envelope[AGENT_CWD_KEY], read.envelope.text]).toEqual(['/w', '/w/sub', 'hi']);
  });

  it('runs no hooks for an event it does not know, and says so', () => {
    expect(agentToEnvelope('claude', {}, 'NoSuchEvent')).toEqual({ ok: false, agentEvent: 'NoSuchEvent', warnings: [{ code: 'agent_event_unknown', message: expect.stringContaining('"NoSuchEvent"') }] });
  });
});

describe('Cursor and Copilot CLI', () => {
  it('Cursor: a shell gate is the Shell tool; the conversation is the session, marked as taken', () => {
    const read = agentToEnvelope('cursor', input('{"conversation_id":"c1","command":"rm -rf x","cwd":"/w"}'), 'beforeShellExecution');
    expect(read.ok && read.envelope).toMatchObject({ session_id: 'c1', [SESSION_FROM_KEY]: 'conversation_id', tool: { name: 'Shell', args: { command: 'rm -rf x', cwd: '/w' } } });
  });

  it('Copilot: JSON-text toolArgs read as an object; a failed toolResult is a failure; the timestamp becomes ISO text', () => {
    const read = agentToEnvelope('copilot', input('{"sessionId":"s","timestamp":0,"toolName":"bash","toolArgs":"{\\"command\\":\\"ls\\"}","toolResult":{"resultType":"failure","textResultForLlm":"no"}}'), 'postToolUse');
    expect(read.ok && read.envelope).toMatchObject({ timestamp: '1970-01-01T00:00:00.000Z', tool: { name: 'bash', args: { command: 'ls' } }, result: { text: 'no', failed: true, error: 'no' } });
    expect(read.ok && (read.envelope[AGENT_TIMESTAMP_KEY] as JsonNumber).toNumber()).toBe(0);
  });

  it('Copilot: a session_id already there is not replaced by sessionId', () => {
    const read = agentToEnvelope('copilot', input('{"session_id":"mine","sessionId":"theirs"}'), 'sessionStart');
    expect(read.ok && [read.envelope.session_id, read.envelope[SESSION_FROM_KEY]]).toEqual(['mine', undefined]);
  });
});
