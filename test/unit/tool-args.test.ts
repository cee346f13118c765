// Portable argument names (src/core/protocols/tool-args.ts): every shell and
// file tool of each agent has a tool.kind, and the canonical view reads the
// agent's own argument names.
import { describe, expect, it } from 'vitest';
import { SHELL_TOOLS, toolKindOf } from '../../src/core/protocols/names.js';
import { TOOL_ARGS, canonicalArgsOf, foreignArgOf } from '../../src/core/protocols/tool-args.js';
import { agentToEnvelope } from '../../src/core/protocols/inbound.js';

describe('tool kinds and canonical arguments', () => {
  it('every agent shell tool is process.exec and every file tool has a filesystem kind', () => {
    for (const t of SHELL_TOOLS.filter((t) => t.tool !== 'beforeShellExecution')) expect(toolKindOf(t.tool), t.tool).toBe('process.exec');
    for (const t of TOOL_ARGS) {
      const kind = toolKindOf(t.tool);
      expect(kind, `${t.agent} ${t.tool}`).toMatch(/^(process\.exec|filesystem\.(read|write))$/);
      if (t.canonical.command) expect(kind, t.tool).toBe('process.exec');
      if (t.canonical.content) expect(kind, t.tool).toBe('filesystem.write');
    }
  });

  it('maps each agent\'s names onto path, command and content', () => {
    expect(canonicalArgsOf('Write', { file_path: 'a/.env', content: 'x' })).toEqual({ path: 'a/.env', content: 'x' });
    expect(canonicalArgsOf('NotebookEdit', { notebook_path: 'n.ipynb', new_source: 'y' })).toEqual({ path: 'n.ipynb' });
    expect(canonicalArgsOf('read_file', { absolute_path: '/x' })).toEqual({ path: '/x' });
    expect(canonicalArgsOf('exec_command', { cmd: 'ls -la' })).toEqual({ command: 'ls -la' });
    expect(canonicalArgsOf('shell', { command: ['bash', '-lc', 'rm -rf /'] })).toEqual({ command: "bash -lc 'rm -rf /'" });
    expect(canonicalArgsOf('create', { path: 'p', file_text: 't' })).toEqual({ path: 'p', content: 't' });
    expect(canonicalArgsOf('mcp__x__y', { path: 'p' })).toBeUndefined();
    expect(canonicalArgsOf('read_many_files', { paths: ['a'] })).toBeUndefined();
  });

  it('the envelope keeps the agent\'s args and adds kind and canonical_args', () => {
    const r = agentToEnvelope('claude', { hook_event_name: 'PreToolUse', tool_name: 'Edit', tool_input: { file_path: 'f', old_string: 'a', new_string: 'b' } }, 'PreToolUse');
    expect(r.ok && r.envelope.tool).toEqual({ name: 'Edit', kind: 'filesystem.write', args: { file_path: 'f', old_string: 'a', new_string: 'b' }, canonical_args: { path: 'f' } });
    const codex = agentToEnvelope('codex', { hook_event_name: 'PreToolUse', tool_name: 'exec_command', tool_input: { cmd: 'ls' } }, 'PreToolUse');
    expect(codex.ok && codex.envelope.tool).toMatchObject({ kind: 'process.exec', canonical_args: { command: 'ls' } });
  });

  it('foreignArgOf: another agent\'s argument on one agent\'s tool', () => {
    expect(foreignArgOf('Write', 'path')).toMatchObject({ agent: 'claude', via: 'file_path' });
    expect(foreignArgOf('Bash', 'cmd')).toMatchObject({ agent: 'claude', others: ['codex exec_command'] });
    expect(foreignArgOf('Write', 'file_path')).toBeUndefined();
    expect(foreignArgOf('Write', 'no_such_arg')).toBeUndefined();
    expect(foreignArgOf('mcp__x', 'path')).toBeUndefined();
  });
});
