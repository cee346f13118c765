// Authoring mistakes are loud (issue 20): one run of `validate` shows every
// problem of a file, a guard whose script is missing fails CI, a
// non-blocking hook that evidently decides is named, and at run time the
// decision it wrote shows up in the session's next `fire`.

import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { eventually, useSandbox } from '../helpers/sandbox.js';

const sandbox = useSandbox();

const FOUR_MISTAKES = `version: 1
hooks:
  - id: typo
    event: before_tool_call
    match: { tool_name: run_shell }
    run: { type: shell, shell: 'true' }
    executon: { mode: blocking }
  - id: bad-regex
    event: before_tool_call
    match: { args: { command: { regex: '(' } } }
    run: { type: shell, shell: 'true' }
    execution: { mode: blocking }
  - id: missing-script
    event: before_tool_call
    match: { tool_name: run_shell }
    run: { type: script, path: scripts/guard.sh }
    execution: { mode: blocking }
  - id: not-blocking
    event: before_tool_call
    match: { command: { program: rm } }
    run: { type: shell, shell: 'echo "{\\"action\\": \\"block\\"}" > "$CHRYS_HOOK_RESULT"' }
`;

describe('validate', () => {
  it('reports a key typo, a bad regex, a missing script and a non-blocking guard in one run, and exits 1', async () => {
    const s = sandbox();
    const file = s.globalHooks(FOUR_MISTAKES);
    const r = await s.run(['validate', file, '--format', 'json']);
    expect(r.exitCode).toBe(1);
    const report = JSON.parse(r.stdout);
    expect(report.diagnostics.map((d: any) => [d.code, d.severity, d.hook ?? null, d.line])).toEqual([
      ['unknown_key', 'error', null, 7],
      ['invalid_regex', 'error', 'bad-regex', 10],
      ['script_not_found', 'error', 'missing-script', 16],
      ['decision_never_applied', 'warning', 'not-blocking', 18],
    ]);
    expect(report.diagnostics[2].hint).toContain('--allow-missing');
  });

  it('checks the regex and script of a hook that failed the schema, with its bad key left out', async () => {
    const s = sandbox();
    const file = s.globalHooks(`hooks:\n  - id: g\n    event: before_tool_call\n    match: { command: { progam: rm, args: { regex: '[' } } }\n    run: { type: script, path: nope.py }\n    execution: { mode: blocking, timout: 2 }\n`);
    const report = JSON.parse((await s.run(['validate', file, '--format', 'json'])).stdout);
    expect(report.diagnostics.map((d: any) => d.code)).toEqual(['unknown_key', 'invalid_regex', 'script_not_found', 'unknown_key']);
    expect(report.diagnostics[0]).toMatchObject({ message: 'unknown key "progam" in hooks[0].match.command', hint: 'did you mean "program"?' });
  });

  it('fails on a missing script, prompt file or interpreter, and --allow-missing makes them warnings', async () => {
    const s = sandbox();
    const file = s.globalHooks(`hooks:\n  - id: g\n    event: before_tool_call\n    match: { tool_name: x }\n    run: { type: script, path: gen/guard.nointerp, prompt_file: gen/p.md }\n    execution: { mode: blocking }\n`);
    const strict = await s.run(['validate', file, '--format', 'json'], { env: { PATH: '/nonexistent' } });
    expect(strict.exitCode).toBe(1);
    expect(JSON.parse(strict.stdout).diagnostics.map((d: any) => `${d.code}:${d.severity}`)).toEqual(['script_not_found:error', 'interpreter_not_found:error', 'script_not_found:error']);
    const allowed = await s.run(['validate', file, '--allow-missing', '--format', 'json'], { env: { PATH: '/nonexistent' } });
    expect(allowed.exitCode).toBe(0);
    expect(JSON.parse(allowed.stdout)).toMatchObject({ errors: 0, warnings: 3 });
    // list and resolve still load the file and show them as warnings
    const list = JSON.parse((await s.run(['list', '--json'], { env: { PATH: '/nonexistent' } })).stdout);
    expect(list.sources[0].state).toBe('loaded');
    expect(list.warnings.map((w: any) => w.code)).toContain('script_not_found');
  });

  it('names a non-blocking hook that speaks an agent protocol or whose script writes CHRYS_HOOK_RESULT, on gated events only', async () => {
    const s = sandbox();
    s.globalScript('decide.sh', '#!/bin/sh\necho \'{"action":"block"}\' > "$CHRYS_HOOK_RESULT"\n');
    s.globalScript('log.sh', '#!/bin/sh\necho hi >> /tmp/log\n');
    const file = s.globalHooks(`hooks:
  - id: decides
    event: user_prompt_submit
    run: { type: script, path: scripts/decide.sh }
    execution: { mode: async }
  - id: claude-style
    event: PreToolUse
    match: { tool_name: Bash }
    run: { type: script, path: scripts/log.sh, protocol: claude }
  - id: logs
    event: before_tool_call
    match: { tool_name: Bash }
    run: { type: script, path: scripts/log.sh }
  - id: after
    event: after_tool_call
    run: { type: script, path: scripts/decide.sh }
  - id: off
    enabled: false
    event: before_tool_call
    match: { tool_name: Bash }
    run: { type: script, path: scripts/decide.sh }
`);
    const report = JSON.parse((await s.run(['validate', file, '--format', 'json'])).stdout);
    const never = report.diagnostics.filter((d: any) => d.code === 'decision_never_applied');
    expect(never.map((d: any) => [d.hook, d.line])).toEqual([['decides', 5], ['claude-style', 6]]);
    expect(never[0].message).toContain('is async, but its script writes CHRYS_HOOK_RESULT');
    expect(never[1].message).toContain("is fire_and_forget, but it speaks claude's hook protocol");
  });
});

describe('a non-blocking hook that decides, at run time', () => {
  it("reports the ignored decision in the session's next fire, once", async () => {
    const s = sandbox();
    s.globalHooks(`hooks:
  - id: wants-to-block
    event: before_tool_call
    match: { tool_name: run_shell }
    run: { type: shell, shell: 'echo "{\\"action\\": \\"block\\", \\"reason\\": \\"no\\"}" > "$CHRYS_HOOK_RESULT"' }
`);
    const call = (session: string) => ({ event: 'before_tool_call', session_id: session, tool: { name: 'run_shell', args: { command: 'ls' } } });
    const first = (await s.fire(call('s1'))).decision;
    expect(first.blocked).toBe(false);
    expect(first.hooks).toMatchObject([{ id: 'wants-to-block', status: 'started' }]);
    expect(first.warnings).toEqual([]);
    const sessions = join(s.configDir, 'hooks', 'state', 'sessions');
    await eventually(() => existsSync(sessions) && readdirSync(sessions).some((d) => readdirSync(join(sessions, d)).some((f) => f.endsWith('.ignored'))), 30_000, 'the worker to note the ignored decision');
    const other = (await s.fire({ event: 'session_start', session_id: 's2' })).decision;
    expect(other.warnings).toEqual([]);
    const next = (await s.fire({ event: 'user_prompt_submit', session_id: 's1', text: 'hi' })).decision;
    expect(next.warnings).toMatchObject([{ code: 'decision_ignored', hook: 'wants-to-block', event: 'before_tool_call', message: expect.stringMatching(/is fire_and_forget: its decision \(action, reason\) is ignored; make it blocking.*\(it ran on before_tool_call at /) }]);
    const after = (await s.fire({ event: 'user_prompt_submit', session_id: 's1', text: 'hi' })).decision;
    expect(after.warnings).toEqual([]);
  });
});
