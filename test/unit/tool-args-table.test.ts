// The portable-argument table (src/core/protocols/tool-args.ts), entry by
// entry: which arguments each agent's built-in shell and file tools take, and
// which of them hold `path`, `command` and `content` (docs/hooks-file.md
// "Portable argument names").
//
// The module is imported afresh for every test: TOOL_ARGS is built when it
// loads, and mutation testing switches a mutant on only after a test file's
// own imports have run, so a table entry can be told apart only by a module
// loaded inside the test.

import { beforeEach, describe, expect, it, vi } from 'vitest';

type ToolArgs = typeof import('../../src/core/protocols/tool-args.js');
type Names = typeof import('../../src/core/protocols/names.js');
let T: ToolArgs;
let N: Names;
beforeEach(async () => {
  vi.resetModules();
  T = await import('../../src/core/protocols/tool-args.js');
  N = await import('../../src/core/protocols/names.js');
});

describe('canonicalArgsOf: each agent\'s own names under path, command and content', () => {
  it.each<[string, Record<string, unknown>, Record<string, string>]>([
    // Chrys's envelope vocabulary
    ['run_shell', { command: 'make test' }, { command: 'make test' }],
    ['write_file', { path: '/w/.env', content: 'A=1' }, { path: '/w/.env', content: 'A=1' }],
    // Claude Code
    ['Bash', { command: 'git status', description: 'status', timeout: 60000, run_in_background: false }, { command: 'git status' }],
    ['Write', { file_path: '/w/a.ts', content: 'export {};\n' }, { path: '/w/a.ts', content: 'export {};\n' }],
    // Edit and MultiEdit change part of a file: no whole content.
    ['Edit', { file_path: '/w/a.ts', old_string: 'a', new_string: 'b', replace_all: true }, { path: '/w/a.ts' }],
    ['MultiEdit', { file_path: '/w/a.ts', edits: [{ old_string: 'a', new_string: 'b' }] }, { path: '/w/a.ts' }],
    // new_source is one cell, not the notebook file.
    ['NotebookEdit', { notebook_path: '/w/n.ipynb', new_source: 'print(1)', cell_id: 'c1', cell_type: 'code', edit_mode: 'replace' }, { path: '/w/n.ipynb' }],
    ['Read', { file_path: '/w/.env', offset: 10, limit: 5 }, { path: '/w/.env' }],
    ['Glob', { pattern: '**/*.ts', path: '/w/src' }, { path: '/w/src' }],
    ['Grep', { pattern: 'TODO', path: '/w/src', glob: '*.ts', output_mode: 'content', '-n': true }, { path: '/w/src' }],
    ['LS', { path: '/w', ignore: ['node_modules'] }, { path: '/w' }],
    // Codex: shell and local_shell send argv, exec_command a line in cmd.
    ['shell', { command: ['bash', '-lc', 'ls -la'], workdir: '/w', timeout_ms: 1000 }, { command: "bash -lc 'ls -la'" }],
    ['exec_command', { cmd: 'cargo test', workdir: '/w', yield_time_ms: 500 }, { command: 'cargo test' }],
    ['local_shell', { command: ['ls', '/w'], workdir: '/w' }, { command: 'ls /w' }],
    // Gemini CLI
    ['run_shell_command', { command: 'npm test', description: 'tests', dir_path: 'pkg' }, { command: 'npm test' }],
    ['write_file', { file_path: '/w/b.md', content: '# b' }, { path: '/w/b.md', content: '# b' }],
    ['replace', { file_path: '/w/a.ts', old_string: 'a', new_string: 'b', instruction: 'rename', expected_replacements: 1 }, { path: '/w/a.ts' }],
    ['read_file', { file_path: '/w/.env' }, { path: '/w/.env' }],
    // Older Gemini CLI releases name read_file's file absolute_path.
    ['read_file', { absolute_path: '/w/.env', offset: 0 }, { path: '/w/.env' }],
    ['list_directory', { dir_path: '/w/src' }, { path: '/w/src' }],
    ['list_directory', { path: '/w/src', ignore: ['*.log'] }, { path: '/w/src' }],
    ['glob', { pattern: '*.md', dir_path: '/w/docs' }, { path: '/w/docs' }],
    ['glob', { pattern: '*.md', path: '/w/docs', case_sensitive: false }, { path: '/w/docs' }],
    ['search_file_content', { pattern: 'secret', dir_path: '/w' }, { path: '/w' }],
    ['search_file_content', { pattern: 'secret', path: '/w', include: '*.env' }, { path: '/w' }],
    // Cursor
    ['Shell', { command: 'rm -rf build', cwd: '/w' }, { command: 'rm -rf build' }],
    // Copilot CLI
    ['bash', { command: 'ls', description: 'list', sessionId: 'main', async: false }, { command: 'ls' }],
    ['view', { path: '/w/.env', view_range: [1, 10] }, { path: '/w/.env' }],
    ['create', { path: '/w/new.txt', file_text: 'hello' }, { path: '/w/new.txt', content: 'hello' }],
    ['edit', { path: '/w/a.ts', old_str: 'a', new_str: 'b' }, { path: '/w/a.ts' }],
  ])('%s %j', (tool, args, expected) => {
    expect(T.canonicalArgsOf(tool, args)).toEqual(expected);
  });

  it.each([
    // apply_patch names its files inside the patch; read_many_files takes a list: neither has one path.
    ['apply_patch', { input: '*** Begin Patch\n*** Add File: a.txt\n+x\n*** End Patch\n' }],
    ['read_many_files', { paths: ['/w/a', '/w/b'], include: ['*.ts'] }],
    // no tool of any agent
    ['mcp__fs__write', { path: '/w/a', content: 'x' }],
    // tool names are case-sensitive: Claude Code's is Write, Gemini CLI's write_file
    ['write', { file_path: '/w/a', content: 'x' }],
    ['BASH', { command: 'ls' }],
  ])('%s %j has no canonical view', (tool, args) => {
    expect(T.canonicalArgsOf(tool, args)).toBeUndefined();
  });

  // An argument named "" is nobody's: a canonical name must come from the tool's own argument names only.
  it.each(['run_shell', 'write_file', 'Bash', 'Write', 'Edit', 'MultiEdit', 'NotebookEdit', 'Read', 'Glob', 'Grep', 'LS', 'shell', 'exec_command', 'local_shell', 'apply_patch', 'run_shell_command', 'replace', 'read_file', 'list_directory', 'glob', 'search_file_content', 'read_many_files', 'Shell', 'bash', 'view', 'create', 'edit'])('%s reads no argument named ""', (tool) => {
    expect(T.canonicalArgsOf(tool, { '': '/etc/passwd' })).toBeUndefined();
  });

  it('with no arguments at all there is no view, for a file tool as for a shell tool', () => {
    expect(T.canonicalArgsOf('Write', undefined)).toBeUndefined();
    expect(T.canonicalArgsOf('read_file', undefined)).toBeUndefined();
    expect(T.canonicalArgsOf('Bash', undefined)).toBeUndefined();
    expect(T.canonicalArgsOf('Write', {})).toBeUndefined();
  });

  it.each<[string, Record<string, unknown>]>([
    ['Bash', {}],
    ['Bash', { command: 42 }],
    ['Bash', { command: null }],
    ['Bash', { command: [] }],
    ['shell', { command: ['ls', 1] }],
    ['exec_command', { command: 'ls' }],
    ['Bash', { cmd: 'ls' }],
  ])('a shell tool whose command is absent or not text has none: %s %j', (tool, args) => {
    expect(T.canonicalArgsOf(tool, args)).toBeUndefined();
  });

  it('an empty command line is still the line the agent sent', () => {
    expect(T.canonicalArgsOf('Bash', { command: '' })).toEqual({ command: '' });
    expect(T.canonicalArgsOf('Write', { file_path: '/w/empty', content: '' })).toEqual({ path: '/w/empty', content: '' });
  });

  it('a name that is not text is passed over for the next name the tool uses', () => {
    expect(T.canonicalArgsOf('Write', { file_path: 42, content: 'x' })).toEqual({ content: 'x' });
    expect(T.canonicalArgsOf('list_directory', { dir_path: null, path: '/w' })).toEqual({ path: '/w' });
    expect(T.canonicalArgsOf('read_file', { file_path: ['/a'], absolute_path: '/w/b' })).toEqual({ path: '/w/b' });
    expect(T.canonicalArgsOf('read_file', { file_path: '/w/a', absolute_path: '/w/b' })).toEqual({ path: '/w/a' });
    expect(T.canonicalArgsOf('create', { path: '/w/a', file_text: { text: 'x' } })).toEqual({ path: '/w/a' });
  });

  it('another agent\'s name on a tool is not read: Claude Code\'s Write holds its path in file_path', () => {
    expect(T.canonicalArgsOf('Write', { file_path: '/w/a', content: 'x', path: '/elsewhere', file_text: 'y' })).toEqual({ path: '/w/a', content: 'x' });
    expect(T.canonicalArgsOf('Edit', { path: '/w/a' })).toBeUndefined();
    expect(T.canonicalArgsOf('create', { file_path: '/w/a', content: 'x' })).toBeUndefined();
  });

  it('an inherited property is no argument', () => {
    expect(T.canonicalArgsOf('Write', Object.create({ file_path: '/w/a', content: 'x' }) as Record<string, unknown>)).toBeUndefined();
  });
});

describe('the shell tools: command is the argument match.command reads', () => {
  const shells: [string, string][] = [
    ['run_shell', 'command'],
    ['Bash', 'command'],
    ['shell', 'command'],
    ['exec_command', 'cmd'],
    ['local_shell', 'command'],
    ['run_shell_command', 'command'],
    ['Shell', 'command'],
    ['bash', 'command'],
    ['run_in_terminal', 'command'],
    ['powershell', 'command'],
  ];

  it.each(shells)('%s: %s', (tool, arg) => {
    const entries = T.TOOL_ARGS.filter((t) => t.tool === tool);
    expect(entries).toHaveLength(1);
    expect(entries[0]!.canonical.command).toEqual([arg]);
    expect(entries[0]!.args).toContain(arg);
    // A shell tool writes through its command, never to one path.
    expect(entries[0]!.canonical.path).toBeUndefined();
    expect(N.SHELL_TOOLS.find((t) => t.tool === tool)?.arg).toBe(arg);
    expect(T.canonicalArgsOf(tool, { [arg]: 'rm -rf /tmp/x' })).toEqual({ command: 'rm -rf /tmp/x' });
  });

  it('no other tool has a canonical command', () => {
    expect(T.TOOL_ARGS.filter((t) => t.canonical.command !== undefined).map((t) => t.tool)).toEqual(shells.map(([tool]) => tool));
  });
});

describe('foreignArgOf: the arguments each tool takes', () => {
  const CMD = ['codex exec_command'];
  // Every tool outside Codex that takes file_path.
  const FILE_PATH = ['claude Write', 'claude Edit', 'claude MultiEdit', 'claude Read', 'gemini write_file', 'gemini replace', 'gemini read_file'];

  it.each<[string, string, string, string[]]>([
    ['run_shell', 'cmd', 'chrys', ['command']],
    // Chrys and Gemini CLI both name a tool write_file; a hook on it speaks to both.
    ['write_file', 'cmd', 'chrys, gemini', ['path', 'content', 'file_path']],
    ['Bash', 'cmd', 'claude', ['command', 'description', 'timeout', 'run_in_background']],
    ['Write', 'cmd', 'claude', ['file_path', 'content']],
    ['Edit', 'cmd', 'claude', ['file_path', 'old_string', 'new_string', 'replace_all']],
    ['MultiEdit', 'cmd', 'claude', ['file_path', 'edits']],
    ['NotebookEdit', 'cmd', 'claude', ['notebook_path', 'new_source', 'cell_id', 'cell_type', 'edit_mode']],
    ['Read', 'cmd', 'claude', ['file_path', 'offset', 'limit']],
    ['Glob', 'cmd', 'claude', ['pattern', 'path']],
    ['Grep', 'cmd', 'claude', ['pattern', 'path', 'glob', 'type', 'output_mode', '-i', '-n', '-A', '-B', '-C', 'multiline', 'head_limit']],
    ['LS', 'cmd', 'claude', ['path', 'ignore']],
    ['shell', 'file_path', 'codex', ['command', 'workdir', 'timeout_ms']],
    ['exec_command', 'file_path', 'codex', ['cmd', 'workdir', 'yield_time_ms', 'max_output_tokens', 'shell', 'login']],
    ['local_shell', 'file_path', 'codex', ['command', 'workdir', 'timeout_ms']],
    ['apply_patch', 'file_path', 'codex', ['input', 'command']],
    ['run_shell_command', 'cmd', 'gemini', ['command', 'description', 'dir_path', 'directory']],
    ['replace', 'cmd', 'gemini', ['file_path', 'old_string', 'new_string', 'instruction', 'expected_replacements']],
    ['read_file', 'cmd', 'gemini', ['file_path', 'absolute_path', 'offset', 'limit']],
    ['list_directory', 'cmd', 'gemini', ['dir_path', 'path', 'ignore', 'file_filtering_options']],
    ['glob', 'cmd', 'gemini', ['pattern', 'dir_path', 'path', 'case_sensitive', 'respect_git_ignore']],
    ['search_file_content', 'cmd', 'gemini', ['pattern', 'dir_path', 'path', 'include']],
    ['read_many_files', 'cmd', 'gemini', ['paths', 'include', 'exclude', 'recursive', 'useDefaultExcludes']],
    ['Shell', 'cmd', 'cursor', ['command', 'cwd']],
    ['bash', 'cmd', 'copilot', ['command', 'description', 'sessionId', 'async', 'timeout']],
    ['powershell', 'cmd', 'copilot', ['command', 'description', 'sessionId', 'async', 'timeout']],
    ['run_in_terminal', 'cmd', 'copilot', ['command', 'explanation', 'isBackground']],
    ['view', 'cmd', 'copilot', ['path', 'view_range']],
    ['create', 'cmd', 'copilot', ['path', 'file_text']],
    ['edit', 'cmd', 'copilot', ['path', 'old_str', 'new_str']],
  ])('%s (%s is another agent\'s): %s takes %j', (tool, foreign, agent, own) => {
    expect(T.foreignArgOf(tool, foreign)).toEqual({ agent, own, others: foreign === 'cmd' ? CMD : FILE_PATH });
    for (const arg of own) expect(T.foreignArgOf(tool, arg), arg).toBeUndefined();
  });

  const PATH_FOR_CLAUDE = ['chrys write_file', 'gemini list_directory', 'gemini glob', 'gemini search_file_content', 'copilot view', 'copilot create', 'copilot edit'];
  const PATH_FOR_GEMINI = ['chrys write_file', 'claude Glob', 'claude Grep', 'claude LS', 'copilot view', 'copilot create', 'copilot edit'];

  it.each<[string, string, string, string[], string]>([
    // `tool_name: Write` with `args.path` (docs/hooks-file.md): matches only through the canonical view.
    ['Write', 'path', 'claude', PATH_FOR_CLAUDE, 'file_path'],
    ['Edit', 'path', 'claude', PATH_FOR_CLAUDE, 'file_path'],
    ['MultiEdit', 'path', 'claude', PATH_FOR_CLAUDE, 'file_path'],
    ['NotebookEdit', 'path', 'claude', PATH_FOR_CLAUDE, 'notebook_path'],
    ['Read', 'path', 'claude', PATH_FOR_CLAUDE, 'file_path'],
    ['replace', 'path', 'gemini', PATH_FOR_GEMINI, 'file_path'],
    ['read_file', 'path', 'gemini', PATH_FOR_GEMINI, 'file_path'],
    ['create', 'content', 'copilot', ['chrys write_file', 'claude Write', 'gemini write_file'], 'file_text'],
    // Codex's exec_command sends its line in cmd.
    ['exec_command', 'command', 'codex', ['chrys run_shell', 'claude Bash', 'gemini run_shell_command', 'cursor Shell', 'copilot bash', 'copilot run_in_terminal', 'copilot powershell'], 'cmd'],
  ])('%s has no %s (%s): it matches through %s', (tool, arg, agent, others, via) => {
    expect(T.foreignArgOf(tool, arg)).toMatchObject({ agent, others, via });
  });

  it('a canonical name the tool has no argument for never matches: no via', () => {
    expect(T.foreignArgOf('Bash', 'path')).toEqual({ agent: 'claude', own: ['command', 'description', 'timeout', 'run_in_background'], others: PATH_FOR_CLAUDE });
    expect(T.foreignArgOf('Write', 'command')).toEqual({ agent: 'claude', own: ['file_path', 'content'], others: ['chrys run_shell', 'codex shell', 'codex local_shell', 'codex apply_patch', 'gemini run_shell_command', 'cursor Shell', 'copilot bash', 'copilot run_in_terminal', 'copilot powershell'] });
  });

  it('write_file takes what either of its agents takes', () => {
    expect(T.foreignArgOf('write_file', 'path')).toBeUndefined();
    expect(T.foreignArgOf('write_file', 'file_path')).toBeUndefined();
    expect(T.foreignArgOf('write_file', 'content')).toBeUndefined();
  });

  it('says nothing for an argument no agent\'s tool takes, or a tool no agent has', () => {
    expect(T.foreignArgOf('Bash', 'run_in_background')).toBeUndefined();
    expect(T.foreignArgOf('Bash', 'no_such_arg')).toBeUndefined();
    expect(T.foreignArgOf('Bash', '')).toBeUndefined();
    expect(T.foreignArgOf('mcp__fs__read', 'file_path')).toBeUndefined();
    expect(T.foreignArgOf('', 'file_path')).toBeUndefined();
  });
});

describe('the canonical names', () => {
  it('are path, command and content', () => {
    expect(T.CANONICAL_ARGS).toEqual(['path', 'command', 'content']);
    for (const name of ['path', 'command', 'content']) expect(T.isCanonicalArg(name), name).toBe(true);
    for (const name of ['file_path', 'cmd', 'file_text', 'Path', '', 'paths']) expect(T.isCanonicalArg(name), name).toBe(false);
  });
});
