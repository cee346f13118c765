// The imported plan as hooks.yaml: it must parse back to the same hooks, and
// text from the imported file stays inside comments.
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { parse } from 'yaml';
import type { ImportPlan, ImportedHook } from '../../src/core/import/convert.js';

type RenderModule = typeof import('../../src/core/import/render.js');
let R: RenderModule;
beforeEach(async () => {
  vi.resetModules();
  R = await import('../../src/core/import/render.js');
});

const hook = (over: Partial<ImportedHook> = {}): ImportedHook => ({
  id: 'claude-pre-tool-use-1',
  event: 'before_tool_call',
  agentEvent: 'PreToolUse',
  description: 'from .claude/settings.json',
  enabled: true,
  match: undefined,
  run: { type: 'shell', shell: 'echo "hi" \\ there' },
  env: {},
  protocol: 'claude',
  mode: 'blocking',
  timeoutSeconds: undefined,
  onError: 'warn',
  notes: [],
  ...over,
});
type Doc = { version: number; hooks: Record<string, unknown>[] };
const render = (plan: ImportPlan, header: string[] = []): { text: string; doc: Doc } => {
  const text = R.renderHooksYaml(plan, header);
  return { text, doc: parse(text) as Doc };
};

describe('renderHooksYaml', () => {
  it('an empty plan is version 1 with an empty hooks list, skipped items and header as comments', () => {
    const { text, doc } = render({ hooks: [], skipped: ['x: event "Foo"\nhooks: evil'] }, ['imported by chrys-hooks']);
    expect(doc).toEqual({ version: 1, hooks: [] });
    const lines = text.split('\n');
    expect(lines[0]).toBe('# imported by chrys-hooks');
    expect(lines[1]).toBe('version: 1');
    expect(lines[2]!.startsWith('# not imported: x: event "Foo"')).toBe(true);
    expect(lines[3]).toBe('hooks: []');
    expect(text.endsWith('hooks: []\n')).toBe(true);
  });

  it('a minimal shell hook parses back field for field', () => {
    const { text, doc } = render({ hooks: [hook()], skipped: [] });
    expect(text.endsWith('\n')).toBe(true);
    expect(text.endsWith('\n\n')).toBe(false);
    expect(doc.hooks).toEqual([{
      id: 'claude-pre-tool-use-1',
      event: 'before_tool_call',
      description: 'from .claude/settings.json',
      run: { type: 'shell', shell: 'echo "hi" \\ there', protocol: 'claude' },
      execution: { mode: 'blocking', on_error: 'warn' },
    }]);
  });

  it('disabled, matched, argv, env, timeout and async hooks parse back', () => {
    const { doc } = render({
      hooks: [
        hook({ id: 'a', enabled: false, match: { tool_name: 'Bash' }, env: { FOO: 'b"ar' }, timeoutSeconds: 30, mode: 'async', onError: 'block', run: { type: 'command', argv: ['node', 'x y.js'] }, protocol: 'gemini' }),
        hook({ id: 'b', match: { tool_names: ['Edit', 'Write'], fields: { source: ['startup', 'resume'] } } }),
        hook({ id: 'c', match: { tool_name_regex: '^mcp__.*', command_regex: '^git\\s' } }),
      ],
      skipped: [],
    });
    expect(doc.hooks[0]).toEqual({
      id: 'a', event: 'before_tool_call', description: 'from .claude/settings.json', enabled: false,
      match: { tool_name: 'Bash' },
      run: { type: 'command', argv: ['node', 'x y.js'], env: { FOO: 'b"ar' }, protocol: 'gemini' },
      execution: { mode: 'async', timeout_seconds: 30, on_error: 'block' },
    });
    expect(doc.hooks[1]!.match).toEqual({ tool_names: ['Edit', 'Write'], fields: { source: ['startup', 'resume'] } });
    expect(doc.hooks[1]!.enabled).toBeUndefined();
    expect(doc.hooks[2]!.match).toEqual({ tool_name_regex: '^mcp__.*', args: { command: { regex: '^git\\s' } } });
  });

  it('notes are comments above the entry, a line break in one cannot start a live line', () => {
    const { text, doc } = render({ hooks: [hook({ notes: ['matcher "Bash"\nenabled: false'] })], skipped: [] });
    const lines = text.split('\n');
    const at = lines.indexOf('hooks:');
    expect(lines[at + 1]!.startsWith('  # matcher "Bash"')).toBe(true);
    expect(lines[at + 2]).toBe('  - id: "claude-pre-tool-use-1"');
    expect(doc.hooks[0]!.enabled).toBeUndefined();
  });
});
