// envelopeToAgentInput: the stdin a run.protocol hook reads, the agent's own
// input shape (AGENT-PROTOCOLS.md §1.5, §2.4, §3.4, §4.5, §5; docs/agents.md
// "run.protocol").
//
// The module is imported afresh for every test: its set of envelope-only keys
// is built when it loads, and mutation testing switches a mutant on only
// after a test file's own imports have run.

import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { EventName } from '../../src/core/events.js';
import type { JsonObject } from '../../src/core/json.js';
import type { AgentProtocol } from '../../src/core/protocols/agents/index.js';

type ForeignInput = typeof import('../../src/core/protocols/foreign-input.js');
type Json = typeof import('../../src/core/json.js');
let I: ForeignInput;
// The JSON module comes afresh with it: a JsonNumber is known by its class.
let J: Json;
beforeEach(async () => {
  vi.resetModules();
  I = await import('../../src/core/protocols/foreign-input.js');
  J = await import('../../src/core/json.js');
});

/** The input as JSON text, so numbers compare by their text. */
const input = (protocol: AgentProtocol, envelope: string, event: EventName): JsonObject => I.envelopeToAgentInput(protocol, J.parseJson(envelope) as JsonObject, event);
const text = (protocol: AgentProtocol, envelope: string, event: EventName): string => J.stringifyJson(input(protocol, envelope, event));

describe('an envelope from the same agent family is what the agent sent', () => {
  it.each<[string, AgentProtocol]>([
    ['claude', 'claude'], ['claude', 'codex'], ['codex', 'claude'], ['codex', 'codex'], ['gemini', 'gemini'], ['cursor', 'cursor'], ['copilot', 'copilot'], ['claude', 'cursor'], ['codex', 'copilot'],
  ])('from %s to a %s hook', (from, protocol) => {
    expect(input(protocol, `{"agent_protocol":"${from}","model":"m"}`, 'before_tool_call').model).toBe('m');
  });

  it.each<[unknown, AgentProtocol]>([['gemini', 'claude'], ['claude', 'gemini'], ['codex', 'gemini'], ['cursor', 'claude'], ['copilot', 'codex'], ['cursor', 'copilot'], [7, 'claude'], [null, 'claude']])(
    'not from %s to a %s hook: built afresh',
    (from, protocol) => {
      expect(input(protocol, `{"agent_protocol":${JSON.stringify(from)},"model":"m"}`, 'before_tool_call').model).toBeUndefined();
    },
  );

  it('nor from a native Chrys envelope', () => {
    expect(input('claude', '{"model":"m"}', 'before_tool_call').model).toBeUndefined();
  });

  it.each(['event', 'schema', 'profile', 'session_kind', 'tool', 'result', 'text', 'agent_protocol', 'agent_cwd', 'agent_timestamp', 'agent_session_from'])('leaves out the envelope key %s', (key) => {
    const envelope: JsonObject = { agent_protocol: 'claude', hook_event_name: 'PreToolUse', [key]: key === 'agent_protocol' ? 'claude' : 'x' };
    expect(Object.hasOwn(I.envelopeToAgentInput('claude', envelope, 'before_tool_call'), key)).toBe(false);
  });

  it("keeps Cursor's own text (afterAgentResponse), not the envelope's text from a prompt", () => {
    expect(input('cursor', '{"agent_protocol":"cursor","text":"answer"}', 'other').text).toBe('answer');
    expect(input('cursor', '{"agent_protocol":"cursor","prompt":"hi","text":"hi"}', 'user_prompt_submit').text).toBeUndefined();
    expect(input('claude', '{"agent_protocol":"claude","text":"answer"}', 'other').text).toBeUndefined();
  });

  it('leaves out a session_id the agent never sent', () => {
    expect(input('cursor', '{"agent_protocol":"cursor","session_id":"c","agent_session_from":"conversation_id","conversation_id":"c"}', 'session_start').session_id).toBeUndefined();
    expect(Object.hasOwn(input('cursor', '{"agent_protocol":"cursor","session_id":""}', 'session_start'), 'session_id')).toBe(false);
    expect(Object.hasOwn(input('copilot', '{"agent_protocol":"copilot","session_id":""}', 'session_start'), 'session_id')).toBe(false);
    expect(input('claude', '{"agent_protocol":"claude","session_id":""}', 'session_start').session_id).toBe('');
    expect(input('claude', '{"agent_protocol":"claude","session_id":"s"}', 'session_start').session_id).toBe('s');
  });

  it('keeps hook_event_name but for Copilot, whose input names no event', () => {
    expect(input('claude', '{"agent_protocol":"claude","hook_event_name":"PreToolUse"}', 'before_tool_call').hook_event_name).toBe('PreToolUse');
    expect(Object.hasOwn(input('copilot', '{"agent_protocol":"copilot","hook_event_name":"preToolUse"}', 'before_tool_call'), 'hook_event_name')).toBe(false);
  });

  it('keeps a timestamp only where the agent sends one (Gemini, Copilot)', () => {
    const envelope = (p: string): string => `{"agent_protocol":"${p}","timestamp":"2026-01-01T00:00:00.000Z"}`;
    for (const p of ['claude', 'codex', 'cursor'] as const) expect(Object.hasOwn(input(p, envelope(p), 'session_start'), 'timestamp')).toBe(false);
    for (const p of ['gemini', 'copilot'] as const) expect(input(p, envelope(p), 'session_start').timestamp).toBe('2026-01-01T00:00:00.000Z');
    expect(text('copilot', '{"agent_protocol":"copilot","timestamp":"2026-01-01T00:00:00.000Z","agent_timestamp":1767225600000}', 'session_start')).toBe('{"timestamp":1767225600000}');
  });

  it("gives back the agent's own cwd", () => {
    expect(input('claude', '{"agent_protocol":"claude","cwd":"/root","agent_cwd":"/root/sub"}', 'session_start').cwd).toBe('/root/sub');
  });

  it('carries tool_input as modified so far, and the original where the envelope has no arguments', () => {
    expect(input('claude', '{"agent_protocol":"claude","tool_input":{"command":"rm x"},"tool":{"name":"Bash","args":{"command":"ls"}}}', 'before_tool_call').tool_input).toStrictEqual({ command: 'ls' });
    expect(input('codex', '{"agent_protocol":"codex","tool_input":{"command":"rm x"},"tool":{"name":"Bash"}}', 'before_tool_call').tool_input).toStrictEqual({ command: 'rm x' });
  });

  it("Copilot: toolArgs in the form it came, JSON text or an object", () => {
    expect(input('copilot', '{"agent_protocol":"copilot","toolArgs":"{\\"command\\":\\"rm\\"}","tool":{"name":"bash","args":{"command":"ls"}}}', 'before_tool_call').toolArgs).toBe('{"command":"ls"}');
    expect(input('copilot', '{"agent_protocol":"copilot","toolArgs":{"command":"rm"},"tool":{"name":"bash","args":{"command":"ls"}}}', 'before_tool_call').toolArgs).toStrictEqual({ command: 'ls' });
  });

  it("Cursor: the arguments where its event puts them", () => {
    const shell = input('cursor', '{"agent_protocol":"cursor","hook_event_name":"beforeShellExecution","command":"rm x","tool":{"name":"Shell","args":{"command":"ls"}}}', 'before_tool_call');
    expect(shell.command).toBe('ls');
    expect(Object.hasOwn(shell, 'tool_input')).toBe(false);
    expect(input('cursor', '{"agent_protocol":"cursor","hook_event_name":"beforeMCPExecution","tool_input":"{}","tool":{"name":"MCP:x","args":{"a":1}}}', 'before_tool_call').tool_input).toBe('{"a":1}');
    expect(input('cursor', '{"agent_protocol":"cursor","hook_event_name":"preToolUse","tool_input":{},"tool":{"name":"Shell","args":{"a":"x"}}}', 'before_tool_call').tool_input).toStrictEqual({ a: 'x' });
  });
});

describe("Claude Code's and Codex's input, built from a native envelope", () => {
  const base = '"session_id":"s","transcript_path":"/t","cwd":"/w"';
  it('a tool call: tool_use_id only when the call has an id', () => {
    expect(text('codex', `{${base},"tool":{"name":"Bash","args":{"command":"ls"}}}`, 'before_tool_call')).toBe('{"session_id":"s","transcript_path":"/t","cwd":"/w","hook_event_name":"PreToolUse","permission_mode":"default","tool_name":"Bash","tool_input":{"command":"ls"}}');
  });

  it('after a tool: tool_response, empty without a result', () => {
    expect(input('claude', `{${base},"tool":{"name":"Bash","args":{}},"result":{"text":"out"}}`, 'after_tool_call').tool_response).toBe('out');
    expect(input('claude', `{${base},"tool":{"name":"Bash","args":{}}}`, 'after_tool_call').tool_response).toBe('');
    expect(input('claude', `{${base},"tool":{"name":"Bash","args":{}}}`, 'tool_error').error).toBe('');
    expect(input('claude', `{${base},"tool":{"name":"Bash","args":{}},"result":{"text":"t"}}`, 'tool_error').error).toBe('t');
  });

  it('a prompt, from text or user_text', () => {
    expect(input('claude', `{${base},"text":"hi"}`, 'user_prompt_submit').prompt).toBe('hi');
    expect(input('claude', `{${base},"user_text":"yo"}`, 'user_prompt_submit').prompt).toBe('yo');
  });

  it.each<EventName>(['conversation_done', 'sub_agent_end'])('%s: stop_hook_active (false by default) and last_assistant_message', (event) => {
    expect(text('claude', `{${base}}`, event)).toBe(`{"session_id":"s","transcript_path":"/t","cwd":"/w","hook_event_name":"${event === 'conversation_done' ? 'Stop' : 'SubagentStop'}","permission_mode":"default","stop_hook_active":false}`);
    expect(input('claude', `{${base},"stop_hook_active":true,"last_assistant_message":"done"}`, event)).toMatchObject({ stop_hook_active: true, last_assistant_message: 'done' });
  });

  it('pre_compact: trigger, auto by default', () => {
    expect(input('claude', `{${base}}`, 'pre_compact').trigger).toBe('auto');
    expect(input('claude', `{${base},"trigger":"manual"}`, 'pre_compact').trigger).toBe('manual');
  });

  it('no event-specific field on another event', () => {
    expect(text('claude', `{${base},"text":"hi","trigger":"manual","result":{"text":"x"}}`, 'session_restored')).toBe('{"session_id":"s","transcript_path":"/t","cwd":"/w","hook_event_name":"SessionStart","permission_mode":"default","source":"resume"}');
  });
});

describe('session fields, the agent defaults where the envelope has none', () => {
  it.each<[AgentProtocol, string, string]>([['claude', 'startup', 'other'], ['codex', 'startup', 'other'], ['gemini', 'startup', 'exit'], ['copilot', 'new', 'complete']])('%s', (protocol, source, endReason) => {
    expect(input(protocol, '{}', 'session_start').source).toBe(source);
    expect(input(protocol, '{"source":"clear"}', 'session_start').source).toBe('clear');
    expect(input(protocol, '{"source":"clear"}', 'session_restored').source).toBe('resume');
    expect(input(protocol, '{}', 'session_end').reason).toBe(endReason);
    expect(input(protocol, '{"reason":"logout"}', 'session_end').reason).toBe('logout');
    expect(Object.hasOwn(input(protocol, '{"source":"x","reason":"y"}', 'user_prompt_submit'), 'source')).toBe(false);
    expect(Object.hasOwn(input(protocol, '{"source":"x","reason":"y"}', 'user_prompt_submit'), 'reason')).toBe(false);
  });
});

describe("Gemini CLI's input", () => {
  const base = '"session_id":"s","cwd":"/w","timestamp":"T"';
  it('a tool call: no tool_use_id', () => {
    expect(text('gemini', `{${base},"tool":{"name":"run_shell_command","call_id":"c","args":{"command":"ls"}}}`, 'before_tool_call')).toBe('{"session_id":"s","transcript_path":"","cwd":"/w","hook_event_name":"BeforeTool","timestamp":"T","tool_name":"run_shell_command","tool_input":{"command":"ls"}}');
  });

  it('AfterTool: tool_response {llmContent, returnDisplay, error}, for a success and a failure', () => {
    expect(input('gemini', `{${base},"tool":{"name":"x","args":{}},"result":{"text":"out"}}`, 'after_tool_call').tool_response).toStrictEqual({ llmContent: 'out', returnDisplay: 'out', error: null });
    expect(input('gemini', `{${base},"tool":{"name":"x","args":{}}}`, 'after_tool_call').tool_response).toStrictEqual({ llmContent: '', returnDisplay: '', error: null });
    expect(input('gemini', `{${base},"tool":{"name":"x","args":{}},"result":{"text":"out","error":"boom"}}`, 'tool_error').tool_response).toStrictEqual({ llmContent: 'out', returnDisplay: 'out', error: 'boom' });
    expect(input('gemini', `{${base},"tool":{"name":"x","args":{}},"result":{"text":"out"}}`, 'tool_error').tool_response).toMatchObject({ error: 'out' });
    expect(input('gemini', `{${base},"tool":{"name":"x","args":{}}}`, 'tool_error').tool_response).toMatchObject({ error: 'the tool failed' });
    expect(input('gemini', `{${base},"result":{"text":"out"}}`, 'before_tool_call').tool_response).toBeUndefined();
  });

  it('AfterAgent: prompt and stop_hook_active; BeforeAgent: prompt', () => {
    expect(input('gemini', `{${base},"text":"hi"}`, 'conversation_done')).toMatchObject({ hook_event_name: 'AfterAgent', prompt: 'hi', stop_hook_active: false });
    expect(input('gemini', `{${base},"stop_hook_active":true}`, 'conversation_done').stop_hook_active).toBe(true);
    expect(input('gemini', `{${base},"user_text":"yo"}`, 'user_prompt_submit')).toMatchObject({ hook_event_name: 'BeforeAgent', prompt: 'yo' });
    expect(Object.hasOwn(input('gemini', `{${base},"text":"hi"}`, 'user_prompt_submit'), 'stop_hook_active')).toBe(false);
    expect(Object.hasOwn(input('gemini', `{${base},"text":"hi"}`, 'session_start'), 'prompt')).toBe(false);
  });

  it('PreCompress: trigger, auto by default', () => {
    expect(input('gemini', `{${base}}`, 'pre_compact')).toMatchObject({ hook_event_name: 'PreCompress', trigger: 'auto' });
    expect(input('gemini', `{${base},"trigger":"manual"}`, 'pre_compact').trigger).toBe('manual');
    expect(Object.hasOwn(input('gemini', `{${base},"trigger":"manual"}`, 'session_start'), 'trigger')).toBe(false);
  });
});

describe("Cursor's input", () => {
  it('the common fields', () => {
    expect(text('cursor', '{"session_id":"s","cwd":"/w"}', 'session_start')).toBe('{"conversation_id":"s","generation_id":"","hook_event_name":"sessionStart","workspace_roots":["/w"],"transcript_path":null}');
    expect(input('cursor', '{"conversation_id":"c","session_id":"s","generation_id":"g","workspace_roots":["/a","/b"],"transcript_path":"/t"}', 'session_start')).toMatchObject({ conversation_id: 'c', generation_id: 'g', workspace_roots: ['/a', '/b'], transcript_path: '/t' });
  });

  it("a shell call: preToolUse's fields and the shell gate's command", () => {
    expect(text('cursor', '{"cwd":"/w","agent_cwd":"/w/sub","tool":{"name":"Shell","call_id":"c","args":{"command":"ls"}}}', 'before_tool_call')).toBe(
      '{"conversation_id":"","generation_id":"","hook_event_name":"preToolUse","workspace_roots":["/w"],"transcript_path":null,"tool_name":"Shell","tool_input":{"command":"ls"},"tool_use_id":"c","cwd":"/w/sub","command":"ls"}',
    );
  });

  it("a read: the read gate's file_path, from file_path or path; no command for a tool that is no shell, or has none", () => {
    const read = input('cursor', '{"tool":{"name":"Read","args":{"path":"a.ts"}}}', 'before_tool_call');
    expect(read.file_path).toBe('a.ts');
    expect(Object.hasOwn(read, 'command')).toBe(false);
    expect(Object.hasOwn(read, 'tool_use_id')).toBe(false);
    expect(input('cursor', '{"tool":{"name":"Write","args":{"file_path":"b","path":"c"}}}', 'before_tool_call').file_path).toBe('b');
    expect(Object.hasOwn(input('cursor', '{"tool":{"name":"Shell","args":{}}}', 'before_tool_call'), 'command')).toBe(false);
    expect(Object.hasOwn(input('cursor', '{"tool":{"name":"Shell","args":{"command":"ls"}}}', 'before_tool_call'), 'file_path')).toBe(false);
  });

  it('after a tool and on a failure: tool_output, error_message', () => {
    expect(input('cursor', '{"tool":{"name":"Shell","args":{}},"result":{"text":"out"}}', 'after_tool_call')).toMatchObject({ hook_event_name: 'postToolUse', tool_output: 'out' });
    expect(input('cursor', '{"tool":{"name":"Shell","args":{}},"result":{"text":"out","error":"boom"}}', 'tool_error')).toMatchObject({ hook_event_name: 'postToolUseFailure', error_message: 'boom' });
    expect(input('cursor', '{"tool":{"name":"Shell","args":{}},"result":{"text":"out"}}', 'tool_error').error_message).toBe('out');
    expect(Object.hasOwn(input('cursor', '{"result":{"text":"out"}}', 'tool_error'), 'tool_output')).toBe(false);
    expect(Object.hasOwn(input('cursor', '{"result":{"text":"out"}}', 'after_tool_call'), 'error_message')).toBe(false);
  });

  it('a prompt', () => {
    expect(input('cursor', '{"text":"hi"}', 'user_prompt_submit')).toMatchObject({ hook_event_name: 'beforeSubmitPrompt', prompt: 'hi' });
    expect(Object.hasOwn(input('cursor', '{"text":"hi"}', 'session_start'), 'prompt')).toBe(false);
  });

  it.each<[EventName, string]>([['conversation_done', 'stop'], ['sub_agent_end', 'subagentStop']])('%s: status and loop_count', (event, name) => {
    expect(text('cursor', '{}', event)).toBe(`{"conversation_id":"","generation_id":"","hook_event_name":"${name}","workspace_roots":[""],"transcript_path":null,"status":"completed","loop_count":0}`);
    expect(input('cursor', '{"stop_hook_active":true,"status":"aborted"}', event)).toMatchObject({ status: 'aborted' });
    expect(J.stringifyJson(input('cursor', '{"stop_hook_active":true}', event).loop_count)).toBe('1');
    expect(J.stringifyJson(input('cursor', '{"loop_count":3}', event).loop_count)).toBe('3');
    expect(Object.hasOwn(input('cursor', '{}', 'session_end'), 'loop_count')).toBe(false);
  });
});

describe("Copilot CLI's input", () => {
  it('a tool call: Unix-millisecond timestamp, cwd, sessionId, toolName, toolArgs as JSON text', () => {
    expect(text('copilot', '{"timestamp":"2026-01-01T00:00:00.000Z","cwd":"/w","session_id":"s","tool":{"name":"bash","args":{"command":"ls"}}}', 'before_tool_call')).toBe(
      '{"timestamp":1767225600000,"cwd":"/w","sessionId":"s","toolName":"bash","toolArgs":"{\\"command\\":\\"ls\\"}"}',
    );
    expect(text('copilot', '{"timestamp":"not a date","session_id":""}', 'user_interrupt')).toBe('{"timestamp":0,"cwd":""}');
    expect(Object.hasOwn(input('copilot', '{"session_id":7}', 'user_interrupt'), 'sessionId')).toBe(false);
  });

  it('after a tool: toolResult success or failure', () => {
    expect(input('copilot', '{"tool":{"name":"bash","args":{}},"result":{"text":"out"}}', 'after_tool_call').toolResult).toStrictEqual({ resultType: 'success', textResultForLlm: 'out' });
    expect(input('copilot', '{"tool":{"name":"bash","args":{}},"result":{"text":"out"}}', 'tool_error').toolResult).toStrictEqual({ resultType: 'failure', textResultForLlm: 'out' });
    expect(Object.hasOwn(input('copilot', '{"result":{"text":"out"}}', 'before_tool_call'), 'toolResult')).toBe(false);
  });

  it('a prompt, and an error', () => {
    expect(input('copilot', '{"text":"hi"}', 'user_prompt_submit').prompt).toBe('hi');
    expect(Object.hasOwn(input('copilot', '{"text":"hi"}', 'error'), 'prompt')).toBe(false);
    expect(input('copilot', '{"error_message":"boom"}', 'error').error).toStrictEqual({ message: 'boom', name: 'Error' });
    expect(input('copilot', '{"message":"m"}', 'error').error).toStrictEqual({ message: 'm', name: 'Error' });
    expect(Object.hasOwn(input('copilot', '{"message":"m"}', 'user_prompt_submit'), 'error')).toBe(false);
  });
});
