// convertAgentConfig: an agent's parsed hook config turned into Chrys hook
// entries, pure. What cannot be carried over exactly is skipped or imported
// disabled, with the reason, never widened.
import { describe, expect, it } from 'vitest';
import { type ImportPlan, type ImportSource, convertAgentConfig } from '../../src/core/import/convert.js';
import { type JsonObject, parseJson } from '../../src/core/json.js';

const convert = (from: ImportSource, text: string, plan?: ImportPlan): ImportPlan => convertAgentConfig(from, parseJson(text) as JsonObject, 'settings.json', plan);
const ids = (plan: ImportPlan): string[] => plan.hooks.map((h) => h.id);

describe('ids', () => {
  it('gives two handlers of the same name distinct ids', () => {
    const plan = convert('claude', '{"hooks":{"PreToolUse":[{"hooks":[{"type":"command","command":"a","name":"Guard"}]},{"hooks":[{"type":"command","command":"b","name":"guard"}]}]}}');
    expect(ids(plan)).toEqual(['claude-guard', 'claude-guard-2']);
  });

  it('numbers an unnamed handler by its group and place in the group', () => {
    const plan = convert('claude', '{"hooks":{"Stop":[{"hooks":[{"command":"a"},{"command":"b"}]},{"hooks":[{"command":"c"}]}]}}');
    expect(ids(plan)).toEqual(['claude-stop-1-1', 'claude-stop-1-2', 'claude-stop-2-1']);
  });

  it('numbers a flat (Cursor) handler by its place alone', () => {
    expect(ids(convert('cursor', '{"hooks":{"stop":[{"command":"a"},{"command":"b"}]}}'))).toEqual(['cursor-stop-1', 'cursor-stop-2']);
  });

  // A suffixed id ("x-2") must not collide with a handler whose own id is
  // "x-2": validation would reject the imported file for its duplicate id.
  it('never gives two hooks one id, even when a name spells a suffixed id', () => {
    const plan = convert('claude', '{"hooks":{"Stop":[{"hooks":[{"command":"a","name":"x"},{"command":"b","name":"x"},{"command":"c","name":"x 2"}]}]}}');
    expect(new Set(ids(plan)).size).toBe(3);
  });

  // Each file is converted into the same plan: a third file with the same
  // handler as two before must get an id not yet given.
  it('never gives two hooks one id across three files (Copilot reads every .github/hooks/*.json)', () => {
    const file = '{"hooks":{"preToolUse":[{"bash":"check"}]}}';
    let plan: ImportPlan | undefined;
    for (let i = 0; i < 3; i++) plan = convert('copilot', file, plan);
    expect(new Set(ids(plan!)).size).toBe(3);
  });
});

describe('handlers', () => {
  it('carries command, args, env, async, timeout and failClosed over', () => {
    const [hook] = convert('claude', '{"hooks":{"PostToolUse":[{"matcher":"Write","hooks":[{"type":"command","command":"fmt","args":["--all"],"env":{"A":"1","N":2},"async":true,"timeout":5,"failClosed":true}]}]}}').hooks;
    expect(hook).toMatchObject({ event: 'after_tool_call', agentEvent: 'PostToolUse', enabled: true, run: { type: 'command', argv: ['fmt', '--all'] }, env: { A: '1' }, mode: 'async', timeoutSeconds: 5, onError: 'block', protocol: 'claude', match: { tool_name: 'Write' } });
  });

  it("gives a hook its agent's default timeout: Claude's 600 s (30 s on a prompt), Gemini's milliseconds as seconds", () => {
    const timeout = (from: ImportSource, event: string, extra = ''): number | undefined => convert(from, `{"hooks":{"${event}":[{"hooks":[{"command":"x"${extra}}]}]}}`).hooks[0]!.timeoutSeconds;
    expect([timeout('claude', 'Stop'), timeout('claude', 'UserPromptSubmit'), timeout('gemini', 'AfterAgent'), timeout('gemini', 'AfterAgent', ',"timeout":1500'), timeout('claude', 'Stop', ',"timeout":0')]).toEqual([600, 30, 60, 1.5, 600]);
  });

  it('skips a handler that is not a command, or has none, saying where it was', () => {
    const plan = convert('claude', '{"hooks":{"Stop":[{"hooks":[{"type":"prompt","prompt":"p"},{"type":"command","command":"  "}, 3]}]}}');
    expect(plan.hooks).toEqual([]);
    expect(plan.skipped).toEqual([
      'settings.json: Stop[0].hooks[0] is a "prompt" handler; only command handlers can be imported',
      'settings.json: Stop[0].hooks[1] has no command; only command handlers can be imported',
      'settings.json: Stop[0].hooks[2] is not an object; not imported',
    ]);
  });

  it('skips what has no Chrys equivalent or is not the right shape', () => {
    expect(convert('claude', '{}').skipped).toEqual(['settings.json has no "hooks" key: nothing to import']);
    expect(convert('claude', '{"hooks":[]}').skipped).toEqual(['settings.json: "hooks" is not an object: nothing imported']);
    expect(convert('claude', '{"hooks":{"NoSuch":[],"Stop":{}}}').skipped).toEqual([
      'settings.json: event "NoSuch" has no chrys-hooks equivalent; its hooks were not imported',
      'settings.json: hooks.Stop is not a list; not imported',
    ]);
  });

  it('imports a Gemini hook named in hooks.disabled disabled, and reads no event from the settings keys', () => {
    const plan = convert('gemini', '{"hooks":{"enabled":true,"disabled":["b"],"AfterAgent":[{"hooks":[{"command":"x","name":"a"},{"command":"y","name":"b"}]}]}}');
    expect(plan.hooks.map((h) => [h.id, h.enabled])).toEqual([['gemini-a', true], ['gemini-b', false]]);
    expect(plan.skipped).toEqual([]);
  });
});

describe('matchers', () => {
  const matchOf = (from: ImportSource, event: string, matcher: string): ImportPlan['hooks'][number] | undefined =>
    convert(from, JSON.stringify({ hooks: { [event]: [{ matcher, hooks: [{ command: 'x' }] }] } })).hooks[0];

  it('reads a tool matcher as names, or as a regex when it is one', () => {
    expect(matchOf('claude', 'PreToolUse', 'Edit|Write')?.match).toEqual({ tool_names: ['Edit', 'Write'] });
    expect(matchOf('claude', 'PreToolUse', 'mcp__.*')?.match).toEqual({ tool_name_regex: 'mcp__.*' });
    expect(matchOf('claude', 'PreToolUse', '*')?.match).toBeUndefined();
  });

  it("adds apply_patch to a Codex matcher naming Edit or Write, as Codex runs it for both", () => {
    expect(matchOf('codex', 'PreToolUse', 'Write')?.match).toEqual({ tool_names: ['Write', 'apply_patch'] });
    expect(matchOf('codex', 'PreToolUse', 'Bash')?.match).toEqual({ tool_name: 'Bash' });
  });

  it('skips a Claude hook whose matcher does not compile (Claude never runs it); Gemini matches it exactly', () => {
    const plan = convert('claude', '{"hooks":{"PreToolUse":[{"matcher":"(","hooks":[{"command":"x"}]}]}}');
    expect([plan.hooks, plan.skipped]).toEqual([[], ['settings.json: PreToolUse[0].hooks[0]: matcher "(" is not a valid regex; the agent never runs this hook']]);
    expect(matchOf('gemini', 'BeforeTool', '(')?.match).toEqual({ tool_name: '(' });
  });

  it('matches a lifecycle matcher on the field the agent tests, or imports the hook disabled', () => {
    expect(matchOf('claude', 'SessionStart', 'startup|resume')).toMatchObject({ enabled: true, match: { fields: { source: ['startup', 'resume'] } } });
    expect(matchOf('claude', 'SessionStart', 'start.*')).toMatchObject({ enabled: false, disabledReason: expect.stringContaining('is a regex on source') });
    expect(matchOf('claude', 'Stop', 'anything')).toMatchObject({ enabled: true, match: undefined, notes: [expect.stringContaining('the agent ignores matchers on Stop')] });
  });

  it('keeps a Cursor gate to its one tool, a command matcher becoming command_regex', () => {
    expect(convert('cursor', '{"hooks":{"beforeShellExecution":[{"command":"x","matcher":"^git "}]}}').hooks[0]?.match).toEqual({ tool_name: 'Shell', command_regex: '^git ' });
    expect(convert('cursor', '{"hooks":{"beforeReadFile":[{"command":"x","matcher":"secret"}]}}').hooks[0]).toMatchObject({ enabled: false, match: undefined });
  });
});
