// Command-line consistency (issue 11.5) and `events` (issue 12.4), through the binary.
import { execa } from 'execa';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { EVENT_NAMES } from '../../src/core/events.js';
import { useSandbox } from '../helpers/sandbox.js';

const sandbox = useSandbox();

describe('help and usage errors', () => {
  it('help fire exits 0 like fire --help, with the same text', async () => {
    const s = sandbox();
    const help = await s.runRaw(['help', 'fire']);
    const flag = await s.runRaw(['fire', '--help']);
    expect(help.exitCode).toBe(0);
    expect(flag.exitCode).toBe(0);
    expect(help.stdout).toBe(flag.stdout);
    expect((await s.runRaw([])).exitCode).toBe(64);
  });

  it.each([
    [['vaildate'], 'chrys-hooks: unknown command \'vaildate\' (did you mean "validate"? see chrys-hooks --help)'],
    [['list', '--evnt', 'x'], 'chrys-hooks list: unknown option \'--evnt\' (did you mean "--event"? see chrys-hooks list --help)'],
    [['validate', '--format', 'xml'], "chrys-hooks validate: option '--format <format>' argument 'xml' is invalid. Allowed choices are text, json, github. (see chrys-hooks validate --help)"],
    [['drain-outbox', '--limit', 'x'], 'chrys-hooks drain-outbox: --limit takes a number >= 0, not "x" (for example --limit 10)'],
    [['drain-outbox', '--limit', ''], 'chrys-hooks drain-outbox: --limit takes a number >= 0, not "" (for example --limit 10)'],
    [['drain-outbox', '--limit', '0x2'], 'chrys-hooks drain-outbox: --limit takes a number >= 0, not "0x2" (for example --limit 10)'],
    [['drain-outbox', '--limit', '1.5'], 'chrys-hooks drain-outbox: --limit takes a number >= 0, not "1.5" (for example --limit 10)'],
    [['drain-outbox', '--prune-done', '1e0'], 'chrys-hooks drain-outbox: --prune-done takes a number >= 0, not "1e0" (for example --prune-done 10)'],
  ])('%j is exit 64 with a hint', async (args, line) => {
    const r = await sandbox().runRaw(args);
    expect(r.exitCode).toBe(64);
    expect(r.stderr).toBe(line);
  });

  it('fire prints the hint in its error object too', async () => {
    const r = await sandbox().runRaw(['fire', '--evnt', 'x']);
    expect(r.exitCode).toBe(64);
    expect(JSON.parse(r.stdout)).toEqual({ error: { code: 'usage', message: "unknown option '--evnt'", hint: 'did you mean "--event"? see chrys-hooks fire --help' } });
  });
});

describe('completions', () => {
  it('bash offers only directories after --config-dir and --cwd, and files after --input', async () => {
    const s = sandbox();
    mkdirSync(join(s.root, 'cand', 'adir'), { recursive: true });
    writeFileSync(join(s.root, 'cand', 'afile'), '');
    const complete = async (words: string[]) => {
      const script = `source ${resolve('completions/chrys-hooks.bash')}; COMP_WORDS=(${words.map((w) => `'${w}'`).join(' ')}); COMP_CWORD=${words.length - 1}; _chrys_hooks; printf '%s\\n' "\${COMPREPLY[@]}"`;
      const r = await execa('bash', ['-c', script], { cwd: join(s.root, 'cand') });
      return r.stdout.split('\n').filter(Boolean).sort();
    };
    expect(await complete(['chrys-hooks', 'fire', '--config-dir', 'a'])).toEqual(['adir']);
    expect(await complete(['chrys-hooks', 'list', '--cwd', 'a'])).toEqual(['adir']);
    expect(await complete(['chrys-hooks', 'fire', '--input', 'a'])).toEqual(['adir', 'afile']);
    // One flag, different values per command.
    expect(await complete(['chrys-hooks', 'fire', '--protocol', ''])).toEqual(['claude', 'codex', 'copilot', 'cursor', 'gemini']);
    expect(await complete(['chrys-hooks', 'init', '--protocol', ''])).toEqual(['chrys', 'claude']);
  });
});

describe('events', () => {
  it('lists every event with can-block, decision keys, payload fields and aliases per agent', async () => {
    const s = sandbox();
    const json = JSON.parse((await s.runRaw(['events', '--json'])).stdout);
    expect(json.events.map((e: any) => e.event)).toEqual(EVENT_NAMES);
    expect(json.events.find((e: any) => e.event === 'before_tool_call')).toMatchObject({
      can_block: true,
      decision_keys: ['action:block', 'action:modify', 'context'],
      fields: expect.arrayContaining([{ name: 'tool.args', type: 'object' }]),
      aliases: { claude: ['PreToolUse'], gemini: ['BeforeTool'], cursor: ['preToolUse'] },
    });
    const text = await s.runRaw(['events']);
    expect(text.exitCode).toBe(0);
    expect(text.stdout).toContain('before_tool_call  can block\n  decision keys: action:block, action:modify, context\n  payload:       tool {name, kind, call_id, args}\n  aliases:       Claude Code: PreToolUse; Codex: PreToolUse; Gemini CLI: BeforeTool; Cursor: preToolUse; other spellings: PreTool, pre_tool');
  });

  it('an unknown event with no near name points to it', async () => {
    const r = await sandbox().runRaw(['fire', '--event', 'zzzzzzzzzzzz']);
    expect(r.exitCode).toBe(65);
    expect(JSON.parse(r.stdout).error.hint).toBe('run chrys-hooks events for the list');
  });
});
