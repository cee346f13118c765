// `fire --fail-closed` on a malformed tool call (core/fail-closed-input.ts):
// arguments that no guard could read block a guarded event.
import { describe, expect, it } from 'vitest';
import { emptyDecision } from '../../src/core/decide.js';
import { type JsonObject, parseJson } from '../../src/core/json.js';
import { failClosedOnInput, toolInputProblem } from '../../src/core/fail-closed-input.js';

const env = (json: string): JsonObject => parseJson(json) as JsonObject;

describe('toolInputProblem on a chrys envelope', () => {
  it.each<[string, string]>([
    ['"x"', 'a string'],
    ['[1]', 'a list'],
    ['null', 'null'],
    ['true', 'a boolean'],
    ['3', 'a number'],
  ])('names tool.args %s as %s', (args, what) => {
    expect(toolInputProblem(env(`{"tool":{"name":"t","args":${args}}}`))).toBe(`tool.args is ${what}, not an object, so no guard could see the tool's arguments`);
  });

  it('has no problem with object args, missing args or no tool object', () => {
    expect(toolInputProblem(env('{"tool":{"name":"t","args":{}}}'))).toBeUndefined();
    expect(toolInputProblem(env('{"tool":{"name":"t"}}'))).toBeUndefined();
    expect(toolInputProblem(env('{"tool":"t"}'))).toBeUndefined();
    expect(toolInputProblem(env('{}'))).toBeUndefined();
  });
});

describe('toolInputProblem on an agent envelope', () => {
  const agent = (rest: string) => env(`{"agent_protocol":"claude",${rest}}`);
  it('names a tool_input that is not an object, missing included', () => {
    expect(toolInputProblem(agent('"tool_name":"Bash","tool_input":"ls"'))).toBe("tool_input is a string, not an object, so no guard could see the tool's arguments");
    expect(toolInputProblem(agent('"tool_name":"Bash"'))).toBe("tool_input is missing, not an object, so no guard could see the tool's arguments");
  });

  it('has no problem with an object tool_input, or without a tool name', () => {
    expect(toolInputProblem(agent('"tool_name":"Bash","tool_input":{"command":"ls"}'))).toBeUndefined();
    expect(toolInputProblem(agent('"tool_input":"ls"'))).toBeUndefined();
    expect(toolInputProblem(agent('"tool_name":7,"tool_input":"ls"'))).toBeUndefined();
  });

  it('reads tool_input, not tool.args, once an agent protocol is set', () => {
    expect(toolInputProblem(agent('"tool_name":"Bash","tool_input":{},"tool":{"args":"x"}'))).toBeUndefined();
  });
});

describe('failClosedOnInput', () => {
  const BAD = env('{"tool":{"name":"t","args":"rm -rf /"}}');
  it('blocks a guarded event whose arguments cannot be read', () => {
    expect(failClosedOnInput(emptyDecision('before_tool_call'), BAD)).toMatchObject({
      blocked: true,
      reason: "chrys-hooks fails closed: tool.args is a string, not an object, so no guard could see the tool's arguments",
      blocked_by: { id: 'fail-closed', source: 'global' },
    });
    expect(failClosedOnInput(emptyDecision('permission_request'), BAD)).toMatchObject({ blocked: true, permission: 'deny' });
  });

  it('leaves readable input, other events and a decision already blocked alone', () => {
    expect(failClosedOnInput(emptyDecision('before_tool_call'), env('{"tool":{"name":"t","args":{}}}')).blocked).toBe(false);
    const after = failClosedOnInput(emptyDecision('after_tool_call'), BAD);
    expect(after.blocked).toBe(false);
    expect(after.warnings).toEqual([]);
    const blocked = { ...emptyDecision('before_tool_call'), blocked: true, reason: 'hook said no' };
    expect(failClosedOnInput(blocked, BAD)).toMatchObject({ reason: 'hook said no', warnings: [] });
  });
});
