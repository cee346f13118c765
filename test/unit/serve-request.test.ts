// answerRequest: one `serve --stdio` request line in, one answer line out,
// through the real fire path (a real config dir, real hook processes).
import { describe, expect, it } from 'vitest';
import { SERVE_PROTOCOLS, answerRequest, checkProtocol, tooLargeAnswer } from '../../src/engine/serve-request.js';
import { type Sandbox, hookYaml, useSandbox } from '../helpers/sandbox.js';

const sandbox = useSandbox();

function blocker(): Sandbox {
  const s = sandbox();
  s.globalHooks(`hooks:\n${hookYaml({ id: 'no-rm', match: 'tool_kind: process.exec\nargs:\n  command: { regex: "rm\\\\s+-rf" }', run: `type: shell\nshell: 'echo "{\\"action\\": \\"block\\", \\"reason\\": \\"no rm\\"}" > "$CHRYS_HOOK_RESULT"'` })}\n`);
  return s;
}
const answer = async (s: Sandbox, line: string): Promise<Record<string, unknown>> => JSON.parse(await answerRequest(line, { configDir: s.configDir, cwd: s.workspace })) as Record<string, unknown>;
const bash = (command: string) => ({ event: 'before_tool_call', session_id: 's', tool: { name: 'Bash', kind: 'process.exec', args: { command } } });

describe('answerRequest', () => {
  it("answers a Chrys envelope with fire's decision, the request's id first", async () => {
    const s = blocker();
    const text = await answerRequest(JSON.stringify({ id: 'r1', envelope: bash('rm -rf /') }), { configDir: s.configDir, cwd: s.workspace });
    expect(text.startsWith('{"id":"r1","schema":1,')).toBe(true);
    expect(JSON.parse(text)).toMatchObject({ id: 'r1', blocked: true, reason: 'no rm', blocked_by: { id: 'no-rm', source: 'global' } });
    expect(await answer(s, JSON.stringify({ id: 2, envelope: bash('ls') }))).toMatchObject({ id: 2, blocked: false });
    expect(await answer(s, JSON.stringify({ envelope: bash('ls') }))).not.toHaveProperty('id');
  });

  it("answers an agent's hook input as that agent expects, with exit_code and stderr", async () => {
    const s = blocker();
    const claude = await answer(s, JSON.stringify({ id: 1, protocol: 'claude', envelope: { hook_event_name: 'PreToolUse', session_id: 's', cwd: s.workspace, tool_name: 'Bash', tool_input: { command: 'rm -rf /' } } }));
    expect(claude).toMatchObject({ id: 1, exit_code: expect.any(Number), stderr: expect.any(String) });
    expect(JSON.stringify(claude)).toContain('no rm');
    const passed = await answer(s, JSON.stringify({ protocol: 'claude', envelope: { hook_event_name: 'PreToolUse', session_id: 's', cwd: s.workspace, tool_name: 'Bash', tool_input: { command: 'ls' } } }));
    expect(JSON.stringify(passed)).not.toContain('no rm');
  });

  it('names the event from "event" when the envelope has none, and accepts an event alone', async () => {
    const s = blocker();
    expect(await answer(s, JSON.stringify({ event: 'before_tool_call', envelope: { tool: { name: 'Bash', kind: 'process.exec', args: { command: 'rm -rf x' } } } }))).toMatchObject({ event: 'before_tool_call', blocked: true });
    expect(await answer(s, JSON.stringify({ id: 3, event: 'session_start' }))).toMatchObject({ id: 3, event: 'session_start', blocked: false });
  });

  it.each([
    ['an empty line', '  ', 'invalid_request', 'empty request line'],
    ['bad JSON', '{"id": 1,', 'invalid_json', 'the request is not valid JSON'],
    ['an array', '[1]', 'invalid_request', 'not an array'],
    ['a scalar', '7', 'invalid_request', 'not a scalar'],
    ['an unknown key', '{"id": 1, "tool": {}}', 'invalid_request', 'unknown request key "tool"'],
    ['two unknown keys', '{"a": 1, "b": 2}', 'invalid_request', 'unknown request keys "a", "b"'],
    ['a non-string event', '{"event": 3, "envelope": {}}', 'invalid_request', '"event" must be a string'],
    ['no envelope and no event', '{"id": 1}', 'invalid_request', 'the request has no "envelope" (and no "event")'],
    ['an unknown protocol', '{"protocol": "vim", "envelope": {}}', 'unknown_protocol', 'unknown protocol "vim"'],
  ])('answers %s with an error object', async (_what, line, code, message) => {
    const s = sandbox();
    const got = await answer(s, line);
    expect(got).toMatchObject({ error: { code, message: expect.stringContaining(message) } });
  });

  it('keeps the id of a request it refuses, when the id could be read', async () => {
    const s = sandbox();
    expect(await answer(s, '{"id": 9, "nope": 1}')).toMatchObject({ id: 9, error: { code: 'invalid_request' } });
    expect(await answer(s, '{"id": 9, "envelope": {"event": "no_such_event"}}')).toMatchObject({ id: 9, error: {} });
  });
});

describe('tooLargeAnswer and checkProtocol', () => {
  it('says how large the request was and what the limit is', () => {
    expect(JSON.parse(tooLargeAnswer(5 * 1024 * 1024, 4 * 1024 * 1024))).toMatchObject({ error: { code: 'input_too_large', message: 'the request is 5242880 bytes, over the 4 MiB limit' } });
  });

  it('accepts chrys and every agent protocol, and nothing else', () => {
    expect(SERVE_PROTOCOLS).toEqual(expect.arrayContaining(['chrys', 'claude', 'codex', 'gemini', 'cursor', 'copilot']));
    for (const p of [undefined, ...SERVE_PROTOCOLS]) expect(() => checkProtocol(p)).not.toThrow();
    expect(() => checkProtocol(1 as never)).toThrow('unknown protocol 1');
  });
});
