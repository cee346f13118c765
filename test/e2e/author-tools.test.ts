// The hook author's loop: `init`, `test`, `fire --explain`, the kill switches
// and `list --stats`.
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { hookYaml, useSandbox } from '../helpers/sandbox.js';

const sandbox = useSandbox();
const EDIT = { event: 'before_tool_call', tool: { name: 'edit_file', args: { path: 'a.txt' } } };
const command = (id: string, extra: Partial<Parameters<typeof hookYaml>[0]> = {}): string =>
  hookYaml({ id, run: 'type: command\nargv: ["true"]', match: 'tool_name: edit_file', ...extra });

const EVERY_KEY = `#!/usr/bin/env python3
import json, os, sys
print("to stdout"); print("to stderr", file=sys.stderr)
json.dump({"action": "modify", "args_override": {"dry_run": True}, "args": {"path": "b.txt"},
           "system_reminder": "r", "extra_context": "e", "replace_result": "x", "permission": "deny",
           "context": [{"text": "c", "channel": "tool_preface"}], "reason": "why"}, open(os.environ["CHRYS_HOOK_RESULT"], "w"))
`;

describe('test HOOK_ID', () => {
  it('runs one hook that writes every result key and says what applies', async () => {
    const s = sandbox();
    s.globalScript('every.py', EVERY_KEY);
    s.globalHooks(`hooks:\n${hookYaml({ id: 'every', run: 'type: script\npath: scripts/every.py', match: 'tool_name: edit_file\nargs:\n  path: { equals: a.txt }' })}\n`);
    const r = await s.run(['test', 'every', '--json']);
    expect(r.exitCode, r.stderr).toBe(0);
    const out = JSON.parse(r.stdout);
    expect(out.match).toMatchObject({ verdict: 'run', note: null });
    expect(out.payload.tool).toEqual({ name: 'edit_file', args: { path: 'a.txt' } });
    expect(out.argv.at(-1)).toContain('every.py');
    expect(out.env).toMatchObject({ CHRYS_HOOK_ID: 'every', CHRYS_HOOK_EVENT: 'before_tool_call' });
    expect(out.stdout_tail).toBe('to stdout\n');
    expect(out.stderr_tail).toBe('to stderr\n');
    expect(JSON.parse(out.result_file)).toMatchObject({ action: 'modify' });
    expect(out.applied).toEqual(['args', 'args_override', 'context', 'action']);
    expect(out.ignored.map((w: any) => w.message).join('\n')).toMatch(/system_reminder ignored[\s\S]*extra_context ignored[\s\S]*replace_result ignored[\s\S]*permission ignored/);
    expect(out.decision.args).toEqual({ path: 'b.txt', dry_run: true });
    // nothing written: no history, no outbox, no stamps
    const state = join(s.configDir, 'hooks', 'state');
    expect(existsSync(join(state, 'history'))).toBe(false);
    expect(existsSync(join(s.configDir, 'hooks', 'outbox'))).toBe(false);
    expect(existsSync(join(state, 'once'))).toBe(false);
  });

  it('runs a run.protocol: claude hook on a Claude hook input with --protocol claude', async () => {
    const s = sandbox();
    s.globalScript('deny.py', `#!/usr/bin/env python3
import json, sys
data = json.load(sys.stdin)
print(json.dumps(data), file=sys.stderr)
print(json.dumps({"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "deny", "permissionDecisionReason": "no " + data["tool_input"]["command"]}}))
`);
    s.globalHooks(`hooks:\n${hookYaml({ id: 'guard', event: 'PreToolUse', run: 'type: script\npath: scripts/deny.py\nprotocol: claude', match: 'tool_name_regex: "Bash|Edit"' })}\n`);
    s.write('pre.json', JSON.stringify({ session_id: 's', transcript_path: '/t', cwd: s.workspace, hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command: 'rm -rf /' } }));
    const r = await s.run(['test', 'guard', '--protocol', 'claude', '--input', join(s.root, 'pre.json'), '--json']);
    expect(r.exitCode, r.stderr).toBe(0);
    const out = JSON.parse(r.stdout);
    expect(out.match).toMatchObject({ verdict: 'run', note: null });
    expect(JSON.parse(out.stderr_tail)).toMatchObject({ hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command: 'rm -rf /' }, transcript_path: '/t' });
    expect(out.decision).toMatchObject({ blocked: true, reason: 'no rm -rf /' });
    // --event names a Claude event, as in fire --protocol
    s.write('bare.json', JSON.stringify({ tool_name: 'Bash', tool_input: { command: 'ls' } }));
    const named = await s.run(['test', 'guard', '--protocol', 'claude', '--event', 'PreToolUse', '--input', join(s.root, 'bare.json'), '--json']);
    expect(JSON.parse(named.stdout).decision).toMatchObject({ blocked: true, reason: 'no ls' });
    const bogus = await s.run(['test', 'guard', '--protocol', 'claude', '--event', 'Bogus', '--input', join(s.root, 'bare.json')]);
    expect(bogus.exitCode).toBe(65);
    expect(bogus.stderr).toContain('Bogus');
    const noInput = await s.run(['test', 'guard', '--protocol', 'claude']);
    expect(noInput.exitCode).toBe(64);
    expect(noInput.stderr).toContain('--input');
  });

  it('builds the sample tool name from tool_names and tool_name_regex', async () => {
    const s = sandbox();
    const hooks = [
      command('names', { match: 'tool_names: [write_file, edit_file]' }),
      command('plain', { match: 'tool_name_regex: "Edit|Write"' }),
      command('regex', { match: 'tool_name_regex: "^mcp__github__.*"' }),
    ];
    s.globalHooks(`hooks:\n${hooks.join('\n')}\n`);
    const sample = async (id: string) => JSON.parse((await s.run(['test', id, '--json'])).stdout);
    expect((await sample('names')).payload.tool.name).toBe('write_file');
    const plain = await sample('plain');
    expect(plain.payload.tool.name).toBe('Edit');
    expect(plain.match.verdict).toBe('run');
    const regex = await sample('regex');
    expect(regex.payload.tool.name).toBe('mcp__github__');
    expect(regex.match.verdict).toBe('run');
  });

  it('builds a shell call the match.command clause accepts as the sample', async () => {
    const s = sandbox();
    const hooks = [
      command('rm-home', { match: "command:\n  program: rm\n  flags: [-r, -f]\n  args: ['~', '~/*']" }),
      command('push', { match: 'command:\n  program: git\n  subcommand: push\n  flags: [--force]' }),
    ];
    s.globalHooks(`hooks:\n${hooks.join('\n')}\n`);
    const sample = async (id: string) => JSON.parse((await s.run(['test', id, '--json'])).stdout);
    const rm = await sample('rm-home');
    expect(rm.payload.tool).toMatchObject({ name: 'run_shell', args: { command: 'rm -r -f ~' } });
    expect(rm.match.verdict).toBe('run');
    const push = await sample('push');
    expect(push.payload.tool.args.command).toBe('git push --force');
    expect(push.match.verdict).toBe('run');
  });

  it('runs a hook that would not match, saying so, and exits 1 when it fails', async () => {
    const s = sandbox();
    s.globalHooks(`hooks:\n${hookYaml({ id: 'fails', run: 'type: shell\nshell: "echo oops >&2; exit 3"', match: 'tool_name: write_file' })}\n`);
    s.write('env.json', JSON.stringify(EDIT));
    const r = await s.run(['test', 'fails', '--input', join(s.root, 'env.json')]);
    expect(r.exitCode).toBe(1);
    expect(r.stdout).toContain('does not match: tool_name is `edit_file`, hook wants `write_file`');
    expect(r.stdout).toContain('ran anyway');
    expect(r.stdout).toContain('exit code 3');
    expect(r.stdout).toContain('oops');
  });

  it('suggests the id it did not find, and asks for --source when both layers have it', async () => {
    const s = sandbox();
    s.globalHooks(`hooks:\n${command('guard')}\n`);
    s.projectHooks(`hooks:\n${command('guard')}\n`);
    const typo = await s.run(['test', 'gaurd']);
    expect(typo.exitCode).toBe(64);
    expect(typo.stderr).toContain('did you mean "guard"?');
    expect(typo.stderr).toContain('dormant');
    const both = await s.run(['test', 'guard', '--project-hooks']);
    expect(both.exitCode).toBe(64);
    expect(both.stderr).toMatch(/project .*hooks\.yaml and global .*hooks\.yaml/);
    const picked = JSON.parse((await s.run(['test', 'guard', '--project-hooks', '--source', 'project', '--json'])).stdout);
    expect(picked.hook.source).toBe('project');
  });
});

describe('init', () => {
  it('writes a starter that passes validate and test, and never overwrites', async () => {
    const s = sandbox();
    const r = await s.run(['init']);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stdout).toContain('chrys-hooks test protect-secrets');
    const file = join(s.workspace, '.chrys', 'hooks', 'hooks.yaml');
    expect(readFileSync(file, 'utf8')).toMatch(/^# yaml-language-server: \$schema=.*hooks\.schema\.json\n/);
    const v = await s.run(['validate', '--strict']);
    expect(v.exitCode, v.stdout).toBe(0);
    expect((await s.run(['trust', '--yes'])).exitCode).toBe(0);
    for (const id of ['protect-secrets', 'no-destructive-commands', 'shell-dry-run', 'house-rules', 'tool-call-log', 'follow-up']) {
      const t = await s.run(['test', id, '--json']);
      expect(t.exitCode, `${id}: ${t.stdout}${t.stderr}`).toBe(0);
    }
    const guard = JSON.parse((await s.run(['test', 'protect-secrets', '--json'])).stdout);
    expect(guard.decision.blocked).toBe(true);
    // The same guard holds for Claude Code's Write, which names the file file_path.
    const write = { hook_event_name: 'PreToolUse', session_id: 's', cwd: s.workspace, tool_name: 'Write', tool_input: { file_path: join(s.workspace, '.env'), content: 'K=1' } };
    const claude = await s.run(['fire', '--protocol', 'claude'], { input: JSON.stringify(write) });
    expect(claude.exitCode, claude.stderr).toBe(0);
    expect(JSON.parse(claude.stdout).hookSpecificOutput).toMatchObject({ permissionDecision: 'deny', permissionDecisionReason: expect.stringContaining(`writes to ${join(s.workspace, '.env')} are not allowed`) });
    const again = await s.run(['init']);
    expect(again.exitCode).toBe(1);
    expect(again.stderr).toContain('never overwrites');
  });

  it('writes a Claude-protocol starter with --protocol claude whose guards block as in Claude Code', async () => {
    const s = sandbox();
    const r = await s.run(['init', '--global', '--protocol', 'claude']);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stdout).toContain('chrys-hooks test protect-env');
    expect(readdirSync(join(s.configDir, 'hooks'))).toContain('hooks.yaml');
    const v = await s.run(['validate', '--strict']);
    expect(v.exitCode, v.stdout).toBe(0);
    for (const id of ['no-destructive-commands', 'protect-env', 'house-rules', 'tests-before-stop', 'tool-call-log']) {
      const t = await s.run(['test', id, '--json']);
      expect(t.exitCode, `${id}: ${t.stdout}${t.stderr}`).toBe(0);
    }
    const claude = async (input: object) => {
      const f = await s.run(['fire', '--protocol', 'claude'], { input: JSON.stringify({ session_id: 's', cwd: s.workspace, ...input }) });
      expect(f.exitCode, f.stderr).toBe(0);
      return JSON.parse(f.stdout);
    };
    const rm = await claude({ hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command: 'rm -r -f ~' } });
    expect(rm.hookSpecificOutput).toMatchObject({ permissionDecision: 'deny', permissionDecisionReason: expect.stringContaining('this command destroys work') });
    const build = await claude({ hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command: 'rm -rf build' } });
    expect(build.hookSpecificOutput?.permissionDecision).not.toBe('deny');
    const env = await claude({ hook_event_name: 'PreToolUse', tool_name: 'Write', tool_input: { file_path: `${s.workspace}/.env`, content: 'x' } });
    expect(env.hookSpecificOutput).toMatchObject({ permissionDecision: 'deny', permissionDecisionReason: expect.stringContaining('.env holds secrets') });
    const ls = await claude({ hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command: 'ls' } });
    expect(ls.hookSpecificOutput?.permissionDecision).not.toBe('deny');
  });
});

describe('fire --explain', () => {
  it('traces on stderr and leaves stdout unchanged', async () => {
    const s = sandbox();
    s.globalHooks(`hooks:\n${hookYaml({ id: 'ctx', run: 'type: shell\nshell: \'echo "{\\"context\\":[\\"hi\\"]}" > "$CHRYS_HOOK_RESULT"\'', match: 'tool_name: edit_file' })}\n${command('other', { match: 'tool_name: write_file' })}\n`);
    const plain = await s.fire(EDIT);
    const explained = await s.fire(EDIT, ['--explain']);
    const debug = await s.fire(EDIT, [], { env: { CHRYS_HOOKS_DEBUG: '1' } });
    const strip = (d: any) => ({ ...d, hooks: d.hooks.map((h: any) => ({ ...h, duration_ms: null })) });
    expect(strip(explained.decision)).toEqual(strip(plain.decision));
    expect(plain.result.stderr).toBe('');
    for (const r of [explained.result, debug.result]) {
      expect(r.stderr).toContain('source global  loaded');
      expect(r.stderr).toMatch(/1\. ctx \(global, blocking\): ran in \d+ ms, ok; applied context/);
      expect(r.stderr).toContain('2. other (global, blocking): no match: tool_name is `edit_file`, hook wants `write_file`');
    }
  });
});

describe('kill switches', () => {
  const GLOBAL = (locked: boolean) => `hooks:\n${command('guard', { extra: locked ? '    locked: true' : '' })}\n${command('lint')}\n`;

  it('CHRYS_HOOKS=0 turns every hook off, loudly, except locked global hooks', async () => {
    const s = sandbox();
    s.globalHooks(GLOBAL(false));
    const off = (await s.fire(EDIT, [], { env: { CHRYS_HOOKS: '0' } })).decision;
    const turnedOff = { status: 'skipped', reason: 'turned off by CHRYS_HOOKS=0', exit_code: null };
    expect(off.hooks).toMatchObject([{ id: 'guard', ...turnedOff }, { id: 'lint', ...turnedOff }]);
    expect(off.warnings).toMatchObject([{ code: 'hooks_disabled' }]);
    s.globalHooks(GLOBAL(true));
    const locked = (await s.fire(EDIT, [], { env: { CHRYS_HOOKS: '0' } })).decision;
    expect(locked.hooks).toMatchObject([{ id: 'guard', status: 'ok' }, { id: 'lint', ...turnedOff }]);
    expect(locked.warnings.map((w: any) => w.code)).toEqual(['hooks_disabled', 'hook_locked']);
  });

  it('names the CHRYS_HOOKS value set, and warns about one it does not understand', async () => {
    const s = sandbox();
    const bare = (await s.fire(EDIT, [], { env: { CHRYS_HOOKS: 'off' } })).decision;
    expect(bare.warnings).toMatchObject([{ code: 'hooks_disabled', message: expect.stringContaining('CHRYS_HOOKS=off:') }]);
    const nope = await s.fire(EDIT, [], { env: { CHRYS_HOOKS: 'nope' } });
    expect(nope.decision.warnings).toMatchObject([{ code: 'kill_switch_invalid', message: expect.stringContaining('CHRYS_HOOKS=nope') }]);
    expect(nope.result.stderr).toContain('warning kill_switch_invalid');
    s.globalHooks(GLOBAL(false));
    const loaded = (await s.fire(EDIT, [], { env: { CHRYS_HOOKS: 'nope' } })).decision;
    expect(loaded.hooks.map((h: any) => h.id)).toEqual(['guard', 'lint']);
    expect(loaded.warnings.map((w: any) => w.code)).toEqual(['kill_switch_invalid']);
    expect((await s.fire(EDIT, [], { env: { CHRYS_HOOKS: 'Yes' } })).decision.warnings).toEqual([]);
  });

  it('CHRYS_HOOKS=0 with no hooks files still says so', async () => {
    const s = sandbox();
    const d = (await s.fire(EDIT, [], { env: { CHRYS_HOOKS: '0' } })).decision;
    expect(d.warnings).toMatchObject([{ code: 'hooks_disabled' }]);
    expect(readdirSync(s.configDir)).toEqual([]);
  });

  it('CHRYS_HOOKS_SKIP skips the named hooks, warns about unknown ids, and cannot skip a locked one', async () => {
    const s = sandbox();
    s.globalHooks(GLOBAL(false));
    const skip = (await s.fire(EDIT, [], { env: { CHRYS_HOOKS_SKIP: 'guard, nope' } })).decision;
    expect(skip.hooks).toMatchObject([{ id: 'guard', status: 'skipped', reason: 'skipped by CHRYS_HOOKS_SKIP' }, { id: 'lint', status: 'ok' }]);
    expect(skip.warnings).toMatchObject([{ code: 'skip_unknown_hook', hook: 'nope' }]);
    s.globalHooks(GLOBAL(true));
    const locked = (await s.fire(EDIT, [], { env: { CHRYS_HOOKS_SKIP: 'guard' } })).decision;
    expect(locked.hooks).toMatchObject([{ id: 'guard', status: 'ok' }, { id: 'lint', status: 'ok' }]);
    expect(locked.warnings).toMatchObject([{ code: 'hook_locked', hook: 'guard' }]);
    const resolve = JSON.parse((await s.run(['resolve', '--json'], { input: JSON.stringify(EDIT), env: { CHRYS_HOOKS_SKIP: 'lint' } })).stdout);
    expect(resolve.plan.hooks).toMatchObject([{ id: 'guard', verdict: 'run' }, { id: 'lint', verdict: 'skipped', reason: 'skipped by CHRYS_HOOKS_SKIP' }]);
  });

  it('validate rejects locked in a project file, and fire leaves that file out', async () => {
    const s = sandbox();
    s.projectHooks(`hooks:\n${command('guard', { extra: '    locked: true' })}\n`);
    const v = await s.run(['validate', '--format', 'json']);
    expect(v.exitCode).toBe(1);
    expect(JSON.parse(v.stdout).diagnostics).toMatchObject([{ code: 'locked_in_project', severity: 'error' }]);
    const d = (await s.fire(EDIT, ['--project-hooks'])).decision;
    expect(d.hooks).toEqual([]);
    expect(d.warnings).toMatchObject([{ code: 'project_hooks_config_invalid' }]);
  });
});

describe('list --stats', () => {
  it('shows runs, failures, timeouts and durations from the run history', async () => {
    const s = sandbox();
    s.globalHooks(`hooks:\n${command('ok')}\n${hookYaml({ id: 'bad', run: 'type: command\nargv: ["false"]', match: 'tool_name: edit_file' })}\n`);
    for (let i = 0; i < 3; i++) await s.fire(EDIT);
    const out = JSON.parse((await s.run(['list', '--stats', '--json'])).stdout);
    expect(out.hooks.map((h: any) => [h.id, h.stats.runs, h.stats.failures, h.stats.timeouts, h.stats.last_status])).toEqual([
      ['ok', 3, 0, 0, 'ok'],
      ['bad', 3, 3, 0, 'failed'],
    ]);
    expect(out.hooks[0].stats.p50_ms).toBeGreaterThanOrEqual(0);
    expect(out.hooks[0].stats.p95_ms).toBeGreaterThanOrEqual(out.hooks[0].stats.p50_ms);
    const text = (await s.run(['list', '--stats'])).stdout;
    expect(text).toMatch(/bad\s+global\s+before_tool_call\s+3\s+3\s+0/);
  });
});
