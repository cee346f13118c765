// The hooks-file loader: schema, semantic rules and positions (CONTRACT §2).
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadHooksFile } from '../../src/config/load.js';

const dir = mkdtempSync(join(tmpdir(), 'chrys-load-'));
let n = 0;
async function load(content: string, ext = 'yaml') {
  const path = join(dir, `f${n++}.${ext}`);
  writeFileSync(path, content);
  return loadHooksFile(path, 'global');
}
const codes = (r: Awaited<ReturnType<typeof load>>) => r.diagnostics.map((d) => `${d.line}:${d.column} ${d.severity} ${d.code}`);

const ok = `hooks:
  - id: a
    event: before_tool_call
    match: { tool_name: edit_file }
    run: { type: command, argv: [git, status] }
`;

describe('loading a hooks file', () => {
  it('accepts a valid file and fills defaults', async () => {
    const r = await load(ok);
    expect(r.valid).toBe(true);
    expect(r.diagnostics).toEqual([]);
    expect(r.hooks[0]).toMatchObject({
      id: 'a',
      enabled: true,
      execution: { mode: 'fire_and_forget', delivery: 'best_effort', on_error: 'warn', detach: false, timeout_seconds: 30 },
    });
  });

  it.each(['', '# only a comment\n', 'hooks:\n', 'version: 1\n'])('treats %j as a valid file with no hooks', async (text) => {
    const r = await load(text);
    expect(r.valid).toBe(true);
    expect(r.hooks).toEqual([]);
  });

  it.each<[string, string, string[]]>([
    ['unknown key with a suggestion', ok.replace('    run:', '    timout_seconds: 3\n    run:'), ['5:5 error unknown_key']],
    ['wrong type', ok.replace('    run:', '    enabled: "yes"\n    run:'), ['5:14 error invalid_type']],
    ['YAML 1.1 yes is a string, so a type error', ok.replace('    run:', '    enabled: yes\n    run:'), ['5:14 error invalid_type']],
    ['mode out of the enum', ok + '    execution: { mode: sync }\n', ['6:24 error invalid_value']],
    ['timeout 0', ok + '    execution: { timeout_seconds: 0 }\n', ['6:35 error invalid_value']],
    ['blank id', ok.replace('id: a', 'id: "  "'), ['2:9 error invalid_value']],
    ['empty argv', ok.replace('[git, status]', '[]'), ['5:33 error invalid_value']],
    ['missing run', 'hooks:\n  - id: a\n    event: session_start\n', ['2:5 error missing_field']],
    ['unknown event', ok.replace('before_tool_call', 'before_tool_cal'), ['3:12 error unknown_event']],
    ['unsupported version', 'version: 2\n' + ok, ['1:10 error unsupported_version']],
    ['duplicate id', ok + ok.replace('hooks:\n', ''), ['6:9 error duplicate_id']],
    ['detach with blocking', ok + '    execution: { mode: blocking, detach: true }\n', ['6:42 error invalid_combination']],
    ['delay without durable', ok + '    execution: { mode: async, delay_seconds: 10 }\n', ['6:46 error invalid_combination']],
    ['run fields that do not fit the type', ok.replace('argv: [git, status]', 'argv: [git], shell: "echo"'), ['5:47 error run_type_mismatch']],
    ['non-string matcher', ok.replace('{ tool_name: edit_file }', '{ args: { n: { equals: 10 } } }'), ['4:35 error non_string_matcher']],
    ['prompt_file not .md', ok.replace('argv: [git, status]', 'argv: [git], prompt_file: x.txt'), ['5:53 error invalid_prompt_file']],
    ['prompt_file with ..', ok.replace('argv: [git, status]', 'argv: [git], prompt_file: ../x.md'), ['5:53 error invalid_prompt_file']],
  ])('reports %s', async (_name, text, expected) => {
    const r = await load(text);
    expect(codes(r)).toEqual(expected);
    expect(r.valid).toBe(false);
    expect(r.hooks).toEqual([]);
  });

  it('gives a "did you mean" hint for an unknown key', async () => {
    const r = await load(ok + '    execution: { timeout_secs: 3 }\n');
    expect(r.diagnostics[0]).toMatchObject({ code: 'unknown_key', hint: 'did you mean "timeout_seconds"?' });
  });

  it.each<[string, string, string]>([
    ['blocking + durable', ok + '    execution: { mode: blocking, delivery: durable }\n', 'durable_ignored'],
    ['before_tool_call with no match', ok.replace('    match: { tool_name: edit_file }\n', ''), 'broad_match'],
    ['tool filter on an event without a tool', ok.replace('before_tool_call', 'session_start'), 'tool_filter_never_matches'],
    ['an event alias', ok.replace('before_tool_call', 'PreToolUse'), 'event_alias'],
  ])('warns on %s and still loads', async (_name, text, code) => {
    const r = await load(text);
    expect(r.valid).toBe(true);
    expect(r.diagnostics.map((d) => d.code)).toEqual([code]);
    expect(r.hooks).toHaveLength(1);
  });

  it('leaves out a hook whose regex is invalid, keeping the rest, and quotes the pattern as written', async () => {
    const bad = ok.replace('{ tool_name: edit_file }', "{ args: { path: { regex: '(^|/)(\\.env' } } }");
    const r = await load(bad + ok.replace('hooks:\n', '').replace('id: a', 'id: b'));
    expect(r.valid).toBe(true);
    expect(r.diagnostics).toMatchObject([{ code: 'invalid_regex', severity: 'error', line: 4, hook: 'a' }]);
    expect(r.diagnostics[0]!.message).toBe('hook "a" is left out: regex `(^|/)(\\.env` is invalid: Unterminated group');
    expect(r.hooks.map((h) => h.id)).toEqual(['b']);
  });

  it('leaves out a hook whose regex uses a Python-only feature, as a warning', async () => {
    const bad = ok.replace('{ tool_name: edit_file }', "{ args: { path: { regex: '(?>a)' } } }");
    const r = await load(bad + ok.replace('hooks:\n', '').replace('id: a', 'id: b'));
    expect(r.valid).toBe(true);
    expect(r.diagnostics).toMatchObject([{ code: 'hook_skipped', severity: 'warning', line: 4, hook: 'a' }]);
    expect(r.hooks.map((h) => h.id)).toEqual(['b']);
  });

  it('reports a hook without event as missing_field at the hook, never as unknown event "undefined"', async () => {
    const r = await load('hooks:\n  - id: a\n    run: { type: shell, shell: x }\n');
    expect(codes(r)).toEqual(['2:5 error missing_field']);
    expect(r.diagnostics[0]!.message).toBe('hooks[0].event is required');
  });

  it('reports YAML syntax errors with a position (tabs)', async () => {
    const r = await load('hooks:\n\t- id: a\n');
    expect(r.valid).toBe(false);
    expect(r.diagnostics[0]).toMatchObject({ code: 'syntax_error', line: 2 });
  });

  it('reports a JSON trailing comma with its position', async () => {
    const r = await load('{\n  "hooks": [],\n}\n', 'json');
    expect(codes(r)).toEqual(['3:1 error syntax_error']);
  });

  it('positions JSON diagnostics like YAML ones', async () => {
    const r = await load('{"hooks": [\n  {"id": "a", "event": "session_start", "run": {"type": "shell", "shell": "x"}, "enabled": "yes"}\n]}', 'json');
    expect(codes(r)).toEqual(['2:92 error invalid_type']);
  });

  it('keeps positions right with CRLF line endings', async () => {
    const r = await load(ok.replace('    run:', '    bogus: 1\n    run:').replaceAll('\n', '\r\n'));
    expect(codes(r)).toEqual(['5:5 error unknown_key']);
  });

  it('supports YAML anchors and merge keys', async () => {
    const r = await load(`defaults: &d
  run: { type: command, argv: ["true"] }
hooks:
  - <<: *d
    id: a
    event: session_start
`);
    // a top-level "defaults" key is not part of the schema
    expect(codes(r)).toEqual(['1:1 error unknown_key']);
    const r2 = await load(`hooks:
  - &first
    id: a
    event: session_start
    run: { type: command, argv: ["true"] }
  - <<: *first
    id: b
`);
    expect(r2.valid).toBe(true);
    expect(r2.hooks.map((h) => h.id)).toEqual(['a', 'b']);
  });
});

describe('linting a file with several problems', () => {
  it('reports the problems of every hook, not only the first bad one', async () => {
    const r = await load(`hooks:
  - id: a
    event: before_tool_call
    bogus: 1
    run: { type: command, argv: [x] }
  - id: b
    event: session_start
    run: { type: command, argv: [x] }
    execution: { mode: blocking, detach: true }
  - id: b
    event: session_start
    run: { type: command, argv: [x] }
`);
    expect(codes(r)).toEqual(['4:5 error unknown_key', '9:42 error invalid_combination', '10:9 error duplicate_id']);
    expect(r.hooks).toEqual([]);
    expect(r.lintHooks.map((h) => h.id)).toEqual(['b']);
  });
});
