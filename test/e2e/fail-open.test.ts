// No way to fail open (issue 17 §3), through the built binary: under
// --fail-closed a guard that crashes, hangs or cannot launch blocks; deep but
// valid JSON is parsed, and refused input is a deny; a hook's "ask" is never
// answered as an allow; serve and the API give every answer as JSON; and a
// relative PATH entry never picks a hook's interpreter. One input against
// given files is a golden scenario (test/golden/fail-open/); here inputs built
// by code, serve, the API, and a workspace with a node_modules of its own.
import { execa } from 'execa';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { type Sandbox, hookYaml, useSandbox } from '../helpers/sandbox.js';
import { ServeProcess } from '../helpers/serve.js';

const sandbox = useSandbox();
const PROTOCOLS = ['claude', 'codex', 'gemini'] as const;
type Protocol = (typeof PROTOCOLS)[number];

/** A published-style guard: it assumes `command` is a string, and crashes (exit 1) on a list. */
const PY_GUARD = `import json, sys
envelope = json.load(sys.stdin)
command = envelope["tool"]["args"]["command"]
if "rm -rf" in command.lower():
    with open(__import__("os").environ["CHRYS_HOOK_RESULT"], "w") as f:
        json.dump({"action": "block", "reason": "rm -rf is not allowed"}, f)
`;

/** The agent's tool-call input under each protocol. */
const toolCall = (s: Sandbox, protocol: Protocol, toolInput: object): string =>
  JSON.stringify(protocol === 'gemini'
    ? { session_id: 'g', cwd: s.workspace, hook_event_name: 'BeforeTool', tool_name: 'run_shell_command', tool_input: toolInput }
    : { session_id: 's', cwd: s.workspace, hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: toolInput });

async function fire(s: Sandbox, input: string, args: string[], env: Record<string, string> = {}) {
  const r = await s.run(['fire', ...args], { input, env });
  return { ...r, json: r.stdout.trim() ? JSON.parse(r.stdout) : undefined };
}

/** The deny of a tool call, as each agent reads it: the reason, or undefined when it is not a deny. */
function deniedBecause(protocol: Protocol, r: { exitCode: number; stderr: string; json: any }): string | undefined {
  if (r.exitCode === 2) return r.stderr;
  if (protocol === 'gemini') return r.json?.decision === 'deny' ? r.json.reason : undefined;
  const specific = r.json?.hookSpecificOutput;
  return specific?.permissionDecision === 'deny' ? specific.permissionDecisionReason : undefined;
}

const guardHook = (execution = 'mode: blocking'): string => hookYaml({ id: 'guard', run: 'type: script\npath: scripts/guard.py', execution });

describe('deep JSON and refused input', () => {
  const nested = (depth: number): string => '['.repeat(depth) + '"rm -rf /"' + ']'.repeat(depth);
  // Built as text: JSON.stringify itself overflows at these depths.
  const deepCall = (s: Sandbox, protocol: Protocol, command: string, depth: number): string =>
    toolCall(s, protocol, { command, payload: 'DEEP' }).replace('"DEEP"', nested(depth));

  it('matches inside a value nested 100,000 deep (Python str() of it) without overflowing', async () => {
    const s = sandbox();
    s.globalHooks(`hooks:\n${hookYaml({
      id: 'deep-rm',
      match: 'args:\n  payload: { contains: "rm -rf" }',
      run: `type: shell\nshell: 'echo "{\\"action\\": \\"block\\", \\"reason\\": \\"deep rm\\"}" > "$CHRYS_HOOK_RESULT"'`,
    })}\n`);
    const r = await fire(s, deepCall(s, 'claude', 'ls', 100_000), ['--protocol', 'claude', '--fail-closed']);
    expect(deniedBecause('claude', r)).toBe('deep rm');
  });

  it('under --protocol X --fail-closed, refused input is the deny of a gated event, not exit 65', async () => {
    const s = sandbox();
    const refused = ['not json', '[1]', '{"tool_name":"Bash"}', '{"hook_event_name":"PreToolUseX","tool_name":"Bash"}'];
    for (const protocol of PROTOCOLS) {
      for (const input of refused) {
        const r = await fire(s, input, ['--protocol', protocol, '--fail-closed']);
        expect([r.exitCode, r.stdout], `${protocol} ${input}`).toEqual([2, '']);
        expect(r.stderr, `${protocol} ${input}`).toMatch(/^chrys-hooks fails closed: the hook input was refused \(.+\), so no guard saw it$/);
      }
    }
    // Too big: refused before it is parsed.
    const huge = await fire(s, `{"hook_event_name":"PreToolUse","x":"${'a'.repeat(64 * 1024 * 1024)}"}`, ['--protocol', 'claude', '--fail-closed']);
    expect([huge.exitCode, huge.stderr]).toEqual([2, expect.stringContaining('MiB')]);
    // A known event fail-closed leaves alone keeps its error; PermissionRequest is denied in its JSON form.
    expect((await fire(s, 'not json', ['--protocol', 'claude', '--fail-closed', '--event', 'PostToolUse'])).exitCode).toBe(65);
    const permission = await fire(s, 'not json', ['--protocol', 'claude', '--fail-closed', '--event', 'PermissionRequest']);
    expect(permission).toMatchObject({ exitCode: 0, json: { hookSpecificOutput: { hookEventName: 'PermissionRequest', decision: { behavior: 'deny', message: expect.stringContaining('refused') } } } });
    // Without --fail-closed: exit 65, as before.
    expect((await fire(s, 'not json', ['--protocol', 'claude'])).exitCode).toBe(65);
  });
});

describe('serve and the API: every answer is JSON', () => {
  // A Cursor-style name chrys-hooks does not map is denied with exit 2 and no stdout under --protocol claude.
  const UNMAPPED = { hook_event_name: 'beforeShellExecution', command: 'rm -rf /' };

  it('serve answers an exit-2 deny as one object with its id, exit_code and stderr; --fail-closed and CHRYS_HOOKS_FAIL_CLOSED apply', async () => {
    const s = sandbox();
    s.globalScript('guard.py', PY_GUARD);
    s.globalHooks(`hooks:\n${guardHook()}\n`);
    const cli = await s.run(['fire', '--protocol', 'claude'], { input: JSON.stringify(UNMAPPED) });
    expect(cli.exitCode).toBe(2);
    const crash = JSON.parse(toolCall(s, 'claude', { command: ['rm'] }));
    for (const [args, env] of [[['--fail-closed'], {}], [[], { CHRYS_HOOKS_FAIL_CLOSED: '1' }]] as const) {
      const serve = new ServeProcess(s, [...args], env);
      expect(await serve.ask({ id: 2, protocol: 'claude', envelope: UNMAPPED })).toEqual({ id: 2, exit_code: 2, stderr: cli.stderr });
      expect(await serve.ask({ id: 3, protocol: 'claude', envelope: crash })).toMatchObject({ id: 3, exit_code: 0, stderr: '', hookSpecificOutput: { permissionDecision: 'deny', permissionDecisionReason: expect.stringContaining('hook "guard" failed') } });
      expect(await serve.ask({ id: 4, protocol: 'codex', envelope: 'not an object' })).toMatchObject({ id: 4, exit_code: 2, stderr: expect.stringContaining('fails closed') });
      expect(await serve.ask({ id: 5, envelope: { event: 'before_tool_call', tool: { name: 'Bash', args: { command: ['rm'] } } } })).toMatchObject({ id: 5, blocked: true, blocked_by: { id: 'guard' } });
      serve.end();
      expect((await serve.exited).code).toBe(0);
    }
    const open = new ServeProcess(s);
    expect(await open.ask({ id: 6, protocol: 'claude', envelope: crash })).toEqual({ id: 6, exit_code: 0, stderr: '', systemMessage: expect.stringContaining('hook_failed') });
    open.end();
    await open.exited;
  });

  it('the API returns an exit-2 deny as an object instead of throwing a SyntaxError; failClosed and CHRYS_HOOKS_FAIL_CLOSED apply', async () => {
    const s = sandbox();
    s.globalScript('guard.py', PY_GUARD);
    s.globalHooks(`hooks:\n${guardHook()}\n`);
    const crash = JSON.parse(toolCall(s, 'claude', { command: ['rm'] }));
    const base = { configDir: s.configDir, cwd: s.workspace };
    const code = `import * as api from 'chrys-hooks';
      const base = ${JSON.stringify(base)};
      const out = [];
      out.push(await api.fire(${JSON.stringify(UNMAPPED)}, { ...base, protocol: 'claude' }));
      out.push(await api.fire(${JSON.stringify(crash)}, { ...base, protocol: 'codex', failClosed: true }));
      out.push(await api.fire('[1]', { ...base, protocol: 'gemini', failClosed: true }));
      out.push(await api.fire(${JSON.stringify(crash)}, { ...base, protocol: 'claude' }));
      console.log(JSON.stringify(out));`;
    const run = async (env: Record<string, string>) => {
      const r = await execa(process.execPath, ['--input-type=module', '-e', code], { reject: false, env: { PATH: process.env.PATH ?? '', ...env }, extendEnv: false });
      if (r.exitCode !== 0) throw new Error(`the module failed: ${r.stderr}`);
      return JSON.parse(String(r.stdout));
    };
    const [unmapped, closed, refused, open] = await run({});
    expect(unmapped).toEqual({ exit_code: 2, stderr: expect.stringContaining('beforeShellExecution') });
    expect(closed).toMatchObject({ exit_code: 0, hookSpecificOutput: { permissionDecision: 'deny', permissionDecisionReason: expect.stringContaining('hook "guard" failed') } });
    expect(refused).toMatchObject({ exit_code: 2, stderr: expect.stringContaining('fails closed') });
    expect(open).toEqual({ exit_code: 0, stderr: '', systemMessage: expect.stringContaining('hook_failed') });
    const fromEnv = await run({ CHRYS_HOOKS_FAIL_CLOSED: '1' });
    expect(fromEnv[3]).toMatchObject({ hookSpecificOutput: { permissionDecision: 'deny' } });
  });
});

describe('interpreters are never found through a relative PATH entry', () => {
  it('a global .ts hook does not run the workspace\'s node_modules/.bin/tsx with PATH=node_modules/.bin:$PATH', async () => {
    const s = sandbox();
    s.write(join(s.workspace, 'node_modules', '.bin', 'tsx'), '#!/bin/sh\necho pwned > "$CHRYS_WORKSPACE/ran-workspace-tsx"\n', 0o755);
    s.globalScript('guard.ts', 'console.log("hi");\n');
    s.globalHooks(`hooks:\n${hookYaml({ id: 'ts-guard', run: 'type: script\npath: scripts/guard.ts' })}\n`);
    const { decision } = await s.fire({ event: 'before_tool_call', tool: { name: 'x', args: {} } }, [], { env: { PATH: `node_modules/.bin:${join(s.root, 'empty-bin')}` } });
    expect(existsSync(join(s.workspace, 'ran-workspace-tsx'))).toBe(false);
    expect(decision.hooks).toMatchObject([{ id: 'ts-guard', status: 'launch_error', reason: expect.stringContaining('tsx') }]);
  });
});
