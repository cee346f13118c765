// convertAgentConfig, detail by detail: matchers carried over exactly (or the
// hook imported off), notes for what is dropped, ids that never collide.
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { ImportPlan, ImportSource, ImportedHook } from '../../src/core/import/convert.js';
import type { Json, JsonObject } from '../../src/core/json.js';

type ConvertModule = typeof import('../../src/core/import/convert.js');
let C: ConvertModule;
// From the same fresh json.js as convert's, so JsonNumber timeouts are read as numbers.
let parseJson: (text: string) => Json;
beforeEach(async () => {
  vi.resetModules();
  C = await import('../../src/core/import/convert.js');
  ({ parseJson } = await import('../../src/core/json.js'));
});

const convert = (from: ImportSource, config: unknown): ImportPlan => C.convertAgentConfig(from, parseJson(JSON.stringify(config)) as JsonObject, 'f.json');
const claude = (event: string, group: object): ImportedHook => {
  const plan = convert('claude', { hooks: { [event]: [{ hooks: [{ type: 'command', command: 'x' }], ...group }] } });
  expect(plan.hooks).toHaveLength(1);
  return plan.hooks[0]!;
};
const one = (from: ImportSource, event: string, handler: object, group: object = {}): ImportedHook => {
  const flat = from === 'cursor' || from === 'copilot';
  const plan = convert(from, { hooks: { [event]: [flat ? { ...handler, ...group } : { ...group, hooks: [handler] }] } });
  expect(plan.hooks, JSON.stringify(plan.skipped)).toHaveLength(1);
  return plan.hooks[0]!;
};

describe('tool matchers', () => {
  it.each([undefined, null, '', '*', ' * '])('matcher %j on a tool event matches every tool', (matcher) => {
    expect(claude('PreToolUse', matcher === undefined ? {} : { matcher }).match).toBeUndefined();
  });

  it('a non-string matcher imports the hook disabled, saying why', () => {
    const h = claude('PreToolUse', { matcher: { a: [1] } });
    expect(h.enabled).toBe(false);
    expect(h.disabledReason).toBe('its matcher {"a":[1]} is not a string, and no match clause is exactly what the agent does with it');
    expect(h.notes[0]).toBe(`imported disabled: ${h.disabledReason}`);
  });

  it('Claude names are exact and carry no unanchored note; Gemini and Codex say so', () => {
    expect(claude('PreToolUse', { matcher: 'Bash' }).notes).toEqual([]);
    const g = one('gemini', 'BeforeTool', { command: 'x' }, { matcher: 'run_shell_command' });
    expect(g.match).toEqual({ tool_name: 'run_shell_command' });
    expect(g.notes).toEqual(['Gemini CLI reads matcher "run_shell_command" as an unanchored regex; this hook matches the names exactly, which is never broader']);
    expect(one('codex', 'PreToolUse', { command: 'x' }, { matcher: 'Bash' }).notes[0]).toContain('Codex reads matcher "Bash" as an unanchored regex');
  });

  it('Codex: Edit|Write gains apply_patch, Bash does not', () => {
    const h = one('codex', 'PreToolUse', { command: 'x' }, { matcher: 'Bash|Edit' });
    expect(h.match).toEqual({ tool_names: ['Bash', 'Edit', 'apply_patch'] });
    expect(h.notes[0]).toBe('Codex runs a matcher naming Edit or Write for apply_patch too, so apply_patch is in tool_names');
    expect(one('codex', 'PreToolUse', { command: 'x' }, { matcher: 'Bash' }).match).toEqual({ tool_name: 'Bash' });
    expect(one('codex', 'PreToolUse', { command: 'x' }, { matcher: 'Write|apply_patch' }).match).toEqual({ tool_names: ['Write', 'apply_patch'] });
  });

  it('a Codex matcher JavaScript cannot compile is imported disabled; Gemini matches it exactly with a note', () => {
    const c = one('codex', 'PreToolUse', { command: 'x' }, { matcher: '(' });
    expect(c.enabled).toBe(false);
    expect(c.disabledReason).toContain('matcher "(" is not a JavaScript regex');
    const g = one('gemini', 'BeforeTool', { command: 'x' }, { matcher: '(' });
    expect(g.match).toEqual({ tool_name: '(' });
    expect(g.notes).toContain('matcher "(" is not a valid regex; Gemini CLI matches it exactly, and so does this hook');
  });

  it('a Claude matcher that does not compile is skipped: Claude never runs it', () => {
    const plan = convert('claude', { hooks: { PreToolUse: [{ matcher: '(', hooks: [{ command: 'x' }] }] } });
    expect(plan.hooks).toEqual([]);
    expect(plan.skipped).toEqual(['f.json: PreToolUse[0].hooks[0]: matcher "(" is not a valid regex; the agent never runs this hook']);
  });
});

describe('lifecycle matchers', () => {
  it('a Claude SessionStart matcher becomes match.fields.source; "*" none', () => {
    expect(claude('SessionStart', { matcher: 'startup|resume' }).match).toEqual({ fields: { source: ['startup', 'resume'] } });
    expect(claude('SessionStart', { matcher: '*' }).match).toBeUndefined();
    const spaced = claude('SessionStart', { matcher: ' * ' });
    expect(spaced.match).toBeUndefined();
    expect(spaced.enabled).toBe(true);
  });

  it('Gemini lifecycle matchers are exact strings', () => {
    expect(one('gemini', 'SessionStart', { command: 'x' }, { matcher: 'a|b' }).match).toEqual({ fields: { source: ['a|b'] } });
  });

  it('a matcher on an event without a known field is imported disabled', () => {
    const h = claude('StopFailure', { matcher: 'x' });
    expect(h.enabled).toBe(false);
    expect(h.disabledReason).toBe('matcher "x" on StopFailure: chrys-hooks does not know which field it tests, so no match clause is exactly the agent\'s');
  });

  it('a matcher Claude ignores (Stop) is dropped with a note, the hook on', () => {
    const h = claude('Stop', { matcher: 'x' });
    expect(h.enabled).toBe(true);
    expect(h.match).toBeUndefined();
    expect(h.notes).toEqual(['matcher "x" on Stop was not carried over: the agent ignores matchers on Stop, so this hook runs on every Stop, as it did']);
  });

  it('a regex on a lifecycle field is imported disabled', () => {
    const h = claude('SessionStart', { matcher: '^start' });
    expect(h.enabled).toBe(false);
    expect(h.disabledReason).toContain('is a regex on source');
  });

  it('an event that arrives as other is kept to its own name', () => {
    const h = claude('Notification', { matcher: 'idle_prompt' });
    expect(h.event).toBe('other');
    expect(h.match).toEqual({ fields: { hook_event_name: ['Notification'], notification_type: ['idle_prompt'] } });
    expect(h.notes).toContain('"Notification" arrives as event other; match.fields.hook_event_name keeps this hook to Notification');
    expect(claude('Notification', {}).match).toEqual({ fields: { hook_event_name: ['Notification'] } });
  });
});

describe('Cursor gates', () => {
  it.each([undefined, null, '', '*'])('matcher %j keeps the gate to its tool', (matcher) => {
    expect(one('cursor', 'beforeShellExecution', { command: 'x' }, matcher === undefined ? {} : { matcher }).match).toEqual({ tool_name: 'Shell' });
  });

  it('a shell-gate matcher becomes command_regex; elsewhere the hook is disabled', () => {
    expect(one('cursor', 'afterShellExecution', { command: 'x' }, { matcher: '^git' }).match).toEqual({ tool_name: 'Shell', command_regex: '^git' });
    const m = one('cursor', 'beforeMCPExecution', { command: 'x' }, { matcher: 'fetch' });
    expect(m.enabled).toBe(false);
    expect(m.disabledReason).toBe('its matcher "fetch" on beforeMCPExecution has no exact equivalent');
    expect(convert('cursor', { hooks: { beforeShellExecution: [{ command: 'x', matcher: '(' }] } }).hooks).toEqual([]);
  });
});

describe('handler details', () => {
  it('notes what is not carried over', () => {
    const h = one('claude', 'PreToolUse', { command: 'run ${CLAUDE_PLUGIN_ROOT}/x', if: 'a', once: true, asyncRewake: true, statusMessage: 's', shell: 'bash', loop_limit: 3 }, { sequential: true });
    expect(h.notes).toEqual([
      'uses CLAUDE_PLUGIN_ROOT / CLAUDE_PLUGIN_DATA, which only plugin hooks get: set them in run.env',
      'if: "a" was not carried over',
      'once: true was not carried over',
      'asyncRewake: true was not carried over',
      'statusMessage: "s" was not carried over',
      'shell: "bash" was not carried over',
      'loop_limit: 3 was not carried over',
      'sequential was not carried over (blocking hooks always run one at a time)',
    ]);
    expect(one('claude', 'PreToolUse', { command: '$CLAUDE_PLUGIN_DATA/y' }).notes).toHaveLength(1);
    expect(one('claude', 'PreToolUse', { command: 'echo $CLAUDE_PLUGIN' }).notes).toEqual([]);
  });

  it('a Copilot cwd is noted; a Claude one is not', () => {
    expect(one('copilot', 'preToolUse', { bash: 'x', cwd: 'sub' }).notes).toEqual(['cwd: "sub" was not carried over: set run.cwd']);
    expect(one('claude', 'PreToolUse', { command: 'x', cwd: 'sub' }).notes).toEqual([]);
    expect(one('copilot', 'preToolUse', { bash: 'x', cwd: 1 }).notes).toEqual([]);
  });

  it('args of strings make argv; otherwise a shell line', () => {
    expect(one('claude', 'Stop', { command: 'node', args: ['a.js'] }).run).toEqual({ type: 'command', argv: ['node', 'a.js'] });
    expect(one('claude', 'Stop', { command: 'node', args: ['a.js', 1] }).run).toEqual({ type: 'shell', shell: 'node' });
    expect(one('claude', 'Stop', { command: 'node', args: 'a.js' }).run).toEqual({ type: 'shell', shell: 'node' });
  });

  it('description names the handler; async and failClosed only when true', () => {
    const h = one('claude', 'Stop', { command: 'x', name: 'My Guard', async: 'yes', failClosed: 1 });
    expect(h.description).toBe('Stop hook imported from f.json (My Guard)');
    expect(h.id).toBe('claude-my-guard');
    expect(h.mode).toBe('blocking');
    expect(h.onError).toBe('warn');
    expect(one('claude', 'Stop', { command: 'x' }).description).toBe('Stop hook imported from f.json');
    expect(one('claude', 'Stop', { command: 'x', name: 3 }).id).toBe('claude-stop-1-1');
  });

  it('slugs collapse runs and trim the ends', () => {
    expect(one('claude', 'Stop', { command: 'x', name: '--A  b!!c--' }).id).toBe('claude-a-b-c');
  });

  it('a zero or negative timeout keeps the default', () => {
    expect(one('claude', 'Stop', { command: 'x', timeout: 0 }).timeoutSeconds).toBe(600);
    expect(one('claude', 'Stop', { command: 'x', timeout: 5 }).timeoutSeconds).toBe(5);
  });

  it('ids skip every taken suffix', () => {
    const plan = convert('claude', { hooks: { Stop: [{ hooks: [{ command: 'a', name: 'g' }, { command: 'b', name: 'g-2' }, { command: 'c', name: 'g' }, { command: 'd', name: 'g' }] }] } });
    expect(plan.hooks.map((h) => h.id)).toEqual(['claude-g', 'claude-g-2', 'claude-g-3', 'claude-g-4']);
  });

  it('a handler of another type, or with a blank command, is skipped saying which', () => {
    const plan = convert('claude', { hooks: { Stop: [{ hooks: [{ type: 'prompt', command: 'x' }, { type: 'command', command: '  ' }, { command: 5 }] }] } });
    expect(plan.hooks).toEqual([]);
    expect(plan.skipped).toEqual([
      'f.json: Stop[0].hooks[0] is a "prompt" handler; only command handlers can be imported',
      'f.json: Stop[0].hooks[1] has no command; only command handlers can be imported',
      'f.json: Stop[0].hooks[2] has no command; only command handlers can be imported',
    ]);
  });

  it('a group that is not an object, and a flat handler that is not, are skipped by place', () => {
    expect(convert('claude', { hooks: { Stop: [3] } }).skipped).toEqual(['f.json: hooks.Stop[0] is not an object; not imported']);
    expect(convert('cursor', { hooks: { stop: [3] } }).skipped).toEqual(['f.json: hooks.stop[0] is not an object; not imported']);
    expect(convert('claude', { hooks: { Stop: [{ hooks: 'x' }] } })).toEqual({ hooks: [], skipped: [] });
  });

  it('only Gemini reads hooks.disabled, and only its strings', () => {
    const g = convert('gemini', { hooks: { disabled: ['g', 1], BeforeTool: [{ hooks: [{ command: 'x', name: 'g' }, { command: 'y', name: 'h' }] }] } });
    expect(g.hooks.map((h) => h.enabled)).toEqual([false, true]);
    const c = convert('claude', { hooks: { disabled: ['g'], Stop: [{ hooks: [{ command: 'x', name: 'g' }] }] } });
    expect(c.hooks[0]!.enabled).toBe(true);
    expect(c.skipped).toEqual(['f.json: event "disabled" has no chrys-hooks equivalent; its hooks were not imported']);
  });
});
