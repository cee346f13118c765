// Agent hook inputs onto the envelope, field by field: what is set, and what
// is left absent (an absent key, not one holding undefined).
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { Json, JsonObject } from '../../src/core/json.js';

type InboundModule = typeof import('../../src/core/protocols/inbound.js');
let I: InboundModule;
// JSON numbers must come from the same fresh json.js as inbound's, or instanceof JsonNumber fails.
let parseJson: (text: string) => Json;
beforeEach(async () => {
  vi.resetModules();
  I = await import('../../src/core/protocols/inbound.js');
  ({ parseJson } = await import('../../src/core/json.js'));
});

const ok = (r: ReturnType<InboundModule['agentToEnvelope']>): { envelope: JsonObject; event: string; warnings: { code: string; message: string }[] } => {
  if (!r.ok) throw new Error('not mapped');
  return r;
};
const keys = (o: unknown): string[] => Object.keys(o as object);

describe('Claude Code / Codex input', () => {
  it('a prompt event has no tool, no result, and keeps the input cwd only with a project root', () => {
    const r = ok(I.agentToEnvelope('claude', { session_id: 's', cwd: 3 as never, hook_event_name: 'Stop' }, 'Stop', '/proj'));
    expect(keys(r.envelope)).not.toContain('tool');
    expect(keys(r.envelope)).not.toContain('result');
    expect(keys(r.envelope)).not.toContain('text');
    expect(keys(r.envelope)).not.toContain('agent_cwd');
    expect(r.envelope.cwd).toBe('/proj');
  });

  it('a tool without a known kind, call id or canonical args has none of those keys', () => {
    const r = ok(I.agentToEnvelope('claude', { tool_name: 'Frob', tool_input: { z: 1 } as never }, 'PreToolUse'));
    expect(r.envelope.tool).toStrictEqual({ name: 'Frob', args: { z: 1 } });
  });

  it('Bash gets its kind, call id and canonical command', () => {
    const r = ok(I.agentToEnvelope('claude', { tool_name: 'Bash', tool_use_id: 'tu1', tool_input: { command: 'ls' } }, 'PreToolUse'));
    const tool = r.envelope.tool as JsonObject;
    expect(tool.kind).toBe('process.exec');
    expect(tool.call_id).toBe('tu1');
    expect(tool.canonical_args).toMatchObject({ command: 'ls' });
  });

  it('PostToolUse without duration_ms has no duration_ms', () => {
    const r = ok(I.agentToEnvelope('claude', { tool_name: 'Frob', tool_response: 'out' }, 'PostToolUse'));
    expect(r.envelope.result).toStrictEqual({ text: 'out', failed: false });
  });

  it.each([['[1]', 'a list'], ['null', 'null'], ['"x"', 'a string'], ['true', 'a boolean'], ['1', 'a number']])('tool_input %s is reported as %s', (text, what) => {
    const r = ok(I.agentToEnvelope('claude', { tool_name: 'Frob', tool_input: parseJson(text) }, 'PreToolUse'));
    expect(r.warnings).toEqual([{ code: 'agent_input_invalid', message: `tool_input must be an object, not ${what}; argument matchers see no arguments` }]);
  });
});

describe('Gemini CLI input', () => {
  it('an AfterTool with an error is tool_error; without, after_tool_call', () => {
    expect(ok(I.agentToEnvelope('gemini', { tool_name: 'x', tool_response: { llmContent: 'c', error: 'boom' } }, 'AfterTool')).event).toBe('tool_error');
    const fine = ok(I.agentToEnvelope('gemini', { tool_name: 'x', tool_response: { returnDisplay: 'd' } }, 'AfterTool'));
    expect(fine.event).toBe('after_tool_call');
    expect(fine.envelope.result).toStrictEqual({ text: 'd', failed: false });
    expect(ok(I.agentToEnvelope('gemini', { tool_name: 'x', tool_response: {} }, 'AfterTool')).envelope.result).toStrictEqual({ text: '', failed: false });
  });

  it('a failure on BeforeTool is not turned into tool_error', () => {
    expect(ok(I.agentToEnvelope('gemini', { tool_name: 'x', tool_response: { error: 'boom' } }, 'BeforeTool')).event).toBe('before_tool_call');
  });

  it('Claude PostToolUse with a failed-looking response stays after_tool_call (only Gemini reads error there)', () => {
    expect(ok(I.agentToEnvelope('claude', { tool_name: 'x', tool_response: { error: 'boom' } as never }, 'PostToolUse')).event).toBe('after_tool_call');
  });
});

describe('Cursor input', () => {
  it('beforeShellExecution is the Shell tool with only the fields sent', () => {
    const r = ok(I.agentToEnvelope('cursor', { command: 'ls', conversation_id: 'c1' }, 'beforeShellExecution'));
    expect((r.envelope.tool as JsonObject).args).toStrictEqual({ command: 'ls' });
    expect(r.envelope.session_id).toBe('c1');
    expect(r.envelope.agent_session_from).toBe('conversation_id');
    expect(keys(r.envelope)).not.toContain('result');
  });

  it('afterShellExecution without output or duration: empty text, no duration', () => {
    const r = ok(I.agentToEnvelope('cursor', { command: 'ls', output: 5 as never }, 'afterShellExecution'));
    expect(r.envelope.result).toStrictEqual({ text: '', failed: false });
    const d = ok(I.agentToEnvelope('cursor', { command: 'ls', output: 'o', duration: parseJson('12') }, 'afterShellExecution'));
    expect((d.envelope.result as JsonObject).text).toBe('o');
    expect((d.envelope.result as JsonObject).duration_ms).toEqual(parseJson('12'));
  });

  it('MCP: the tool is MCP:<name>, args from JSON text; result_json as text', () => {
    const r = ok(I.agentToEnvelope('cursor', { tool_name: 'fetch', tool_input: '{"url":"u"}', result_json: { a: 1 } as never }, 'afterMCPExecution'));
    expect((r.envelope.tool as JsonObject).name).toBe('MCP:fetch');
    expect((r.envelope.tool as JsonObject).args).toEqual({ url: 'u' });
    expect(r.envelope.result).toStrictEqual({ text: '{"a":1}', failed: false });
    expect(ok(I.agentToEnvelope('cursor', { tool_name: 'fetch', result_json: 'raw' }, 'afterMCPExecution')).envelope.result).toStrictEqual({ text: 'raw', failed: false });
    expect(ok(I.agentToEnvelope('cursor', {}, 'afterMCPExecution')).envelope.result).toStrictEqual({ text: '', failed: false });
    const b = ok(I.agentToEnvelope('cursor', {}, 'beforeMCPExecution'));
    expect(b.envelope.tool).toStrictEqual({ name: 'MCP' });
    expect(keys(b.envelope)).not.toContain('result');
  });

  it('MCP tool_input that is not an object is a warning naming what it is', () => {
    const r = ok(I.agentToEnvelope('cursor', { tool_name: 'f', tool_input: '[1]' }, 'beforeMCPExecution'));
    expect(r.warnings).toEqual([{ code: 'agent_input_invalid', message: 'tool_input must be an object (or JSON text of one), not a string; argument matchers see no arguments' }]);
    expect(keys(r.envelope.tool)).not.toContain('args');
    expect(ok(I.agentToEnvelope('cursor', { tool_name: 'f', tool_input: 'not json' }, 'beforeMCPExecution')).warnings).toHaveLength(1);
    // Only JSON text is read: a list holding the text of an object is not that object.
    const listed = ok(I.agentToEnvelope('cursor', { tool_name: 'f', tool_input: ['{"url":"u"}'] }, 'beforeMCPExecution'));
    expect(listed.warnings[0]!.message).toContain('not a list');
    expect(keys(listed.envelope.tool)).not.toContain('args');
  });

  it('afterFileEdit is Write with the edits as the result text', () => {
    const r = ok(I.agentToEnvelope('cursor', { file_path: 'a.ts', edits: [{ old_string: 'a', new_string: 'b' }] as never }, 'afterFileEdit'));
    expect((r.envelope.tool as JsonObject).name).toBe('Write');
    expect((r.envelope.result as JsonObject).text).toBe('[{"old_string":"a","new_string":"b"}]');
    expect((ok(I.agentToEnvelope('cursor', { file_path: 'a.ts' }, 'afterFileEdit')).envelope.result as JsonObject).text).toBe('');
  });

  it('postToolUseFailure: error_message, else error, else a default', () => {
    const e = (input: JsonObject): unknown => (ok(I.agentToEnvelope('cursor', { tool_name: 'Shell', ...input }, 'postToolUseFailure')).envelope.result as JsonObject).error;
    expect(e({ error_message: 'm', error: 'e' })).toBe('m');
    expect(e({ error: 'e' })).toBe('e');
    expect(e({})).toBe('the tool failed');
  });

  it('preToolUse without a tool_name has no tool; postToolUse without duration has none', () => {
    expect(keys(ok(I.agentToEnvelope('cursor', {}, 'preToolUse')).envelope)).not.toContain('tool');
    const r = ok(I.agentToEnvelope('cursor', { tool_name: 'Read', tool_output: 'x', tool_use_id: 'id' }, 'postToolUse'));
    expect(r.envelope.result).toStrictEqual({ text: 'x', failed: false });
    expect((r.envelope.tool as JsonObject).call_id).toBe('id');
    expect(keys(ok(I.agentToEnvelope('cursor', { tool_name: 'Read' }, 'postToolUse')).envelope)).not.toContain('result');
  });
});

describe('Copilot CLI input', () => {
  it('toolArgs JSON text, a non-object toolResult, a failure and a denial', () => {
    const r = ok(I.agentToEnvelope('copilot', { toolName: 'bash', toolArgs: '{"command":"ls"}', toolResult: 'plain', sessionId: 's9' }, 'postToolUse'));
    expect((r.envelope.tool as JsonObject).args).toEqual({ command: 'ls' });
    expect(r.envelope.result).toStrictEqual({ text: 'plain', failed: false });
    expect(r.envelope.session_id).toBe('s9');
    const f = ok(I.agentToEnvelope('copilot', { toolName: 'bash', toolResult: { resultType: 'failure', textResultForLlm: 'bad' } }, 'postToolUse'));
    expect(f.envelope.result).toStrictEqual({ text: 'bad', failed: true, error: 'bad' });
    const d = ok(I.agentToEnvelope('copilot', { toolName: 'bash', toolResult: { resultType: 'denied' } }, 'postToolUse'));
    expect(d.envelope.result).toStrictEqual({ text: '', failed: true, error: '' });
    const s = ok(I.agentToEnvelope('copilot', { toolName: 'bash', toolResult: { resultType: 'success', textResultForLlm: 'ok' } }, 'postToolUse'));
    expect(s.envelope.result).toStrictEqual({ text: 'ok', failed: false });
  });

  it('toolArgs that are not an object are a warning naming toolArgs', () => {
    const r = ok(I.agentToEnvelope('copilot', { toolName: 'bash', toolArgs: true }, 'preToolUse'));
    expect(r.warnings[0]!.message.startsWith('toolArgs must be an object (or JSON text of one), not a boolean')).toBe(true);
  });

  it('a non-finite timestamp is dropped, the original kept beside', () => {
    const r = ok(I.agentToEnvelope('copilot', parseJson('{"timestamp": 1e400}') as JsonObject, 'sessionStart'));
    expect(keys(r.envelope)).not.toContain('timestamp');
    expect(r.envelope.agent_timestamp).toEqual(parseJson('1e400'));
    const fine = ok(I.agentToEnvelope('copilot', parseJson('{"timestamp": 0}') as JsonObject, 'sessionStart'));
    expect(fine.envelope.timestamp).toBe('1970-01-01T00:00:00.000Z');
  });
});
