// Foreign hooks (`run.protocol`): the agent's input built from the envelope.
// How their run is read by the agent's rules is a rule of the one
// classification (outcome.test.ts).
import { describe, expect, it } from 'vitest';
import type { Hook } from '../../src/core/config.js';
import { foreignInput } from '../../src/run/foreign.js';
import { testHook } from '../helpers/hook.js';

const foreignHook = (protocol: 'claude' | 'codex' | 'gemini' | 'copilot' | undefined, over: Partial<Hook['execution']> = {}, event: Hook['event'] = 'before_tool_call'): Hook =>
  testHook({ event, run: { type: 'command', argv: ['x'], args: [], env: {}, cwd: '', ...(protocol ? { protocol } : {}) }, execution: over });

describe('foreignInput', () => {
  it('is nothing for a Chrys hook', () => {
    expect(foreignInput(foreignHook(undefined), '{}')).toBeUndefined();
  });

  it("is the agent's input as JSON text, with the agent's event name", () => {
    const input = foreignInput(foreignHook('claude'), '{"event":"before_tool_call","session_id":"s","tool":{"name":"Bash","args":{"command":"ls"}}}')!;
    expect(input.agentEvent).toBe('PreToolUse');
    expect(JSON.parse(input.stdin)).toMatchObject({ hook_event_name: 'PreToolUse', session_id: 's', tool_name: 'Bash', tool_input: { command: 'ls' } });
    expect(foreignInput(foreignHook('gemini'), '{}')!.agentEvent).toBe('BeforeTool');
  });

  it('reads a payload that is JSON but not an object as an empty envelope', () => {
    expect(JSON.parse(foreignInput(foreignHook('claude'), '[1]')!.stdin)).toMatchObject({ hook_event_name: 'PreToolUse', session_id: '' });
  });

  it("falls back to the hook's event when the agent's input names none", () => {
    const input = foreignInput(foreignHook('claude', {}, 'after_tool_call'), '{"agent_protocol":"claude","session_id":"s"}')!;
    expect(JSON.parse(input.stdin).hook_event_name).toBeUndefined();
    expect(input.agentEvent).toBe('after_tool_call');
  });

  it('throws on a payload that is not JSON', () => {
    expect(() => foreignInput(foreignHook('claude'), '{')).toThrow();
  });

  it("names Copilot's event from the event table, since Copilot's input names none", () => {
    const input = foreignInput(foreignHook('copilot'), '{"event":"before_tool_call","session_id":"s"}')!;
    expect(JSON.parse(input.stdin).hook_event_name).toBeUndefined();
    expect(input.agentEvent).toBe('preToolUse');
  });

  it('keeps the event name an envelope from Copilot itself carries', () => {
    expect(foreignInput(foreignHook('copilot'), '{"agent_protocol":"copilot","hook_event_name":"PreToolUse"}')!.agentEvent).toBe('PreToolUse');
  });

  it("does not take another agent's event name, nor one that is not text, for Copilot's", () => {
    expect(foreignInput(foreignHook('copilot'), '{"agent_protocol":"claude","hook_event_name":"PreToolUse"}')!.agentEvent).toBe('preToolUse');
    expect(foreignInput(foreignHook('copilot'), '{"agent_protocol":"copilot","hook_event_name":7}')!.agentEvent).toBe('preToolUse');
    expect(foreignInput(foreignHook('copilot'), '{"hook_event_name":"PreToolUse"}')!.agentEvent).toBe('preToolUse');
  });
});
