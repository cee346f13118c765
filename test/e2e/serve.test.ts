// `serve --stdio`: the same decisions as `fire`, in order, config re-checked on
// every request, bad lines answered with an error object, and clean endings.
import { execa } from 'execa';
import { existsSync, mkdirSync, renameSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseJson, stringifyJson } from '../../src/core/json.js';
import { BIN, eventually, hookYaml, useSandbox } from '../helpers/sandbox.js';
import { ServeProcess } from '../helpers/serve.js';

const sandbox = useSandbox();
const EDIT = { event: 'before_tool_call', session_id: 's1', tool: { name: 'edit_file', args: { path: 'a.ts' } } };
const ctxHook = (id: string, text: string): string =>
  hookYaml({ id, run: `type: shell\nshell: 'echo "{\\"context\\":[{\\"text\\":\\"${text}\\"}]}" > "$CHRYS_HOOK_RESULT"'` });
/** fire's output on one line, with the hooks' run times (which differ run to run) zeroed. */
const oneLine = (text: string): string => stringifyJson(parseJson(text)).replace(/"duration_ms":\d+/g, '"duration_ms":0');

describe('serve --stdio', () => {
  it('answers each envelope byte-for-byte as fire does, in order, echoing ids', async () => {
    const s = sandbox();
    s.globalScript('guard.sh', `#!/usr/bin/env bash\nif grep -q secret "$CHRYS_HOOK_PAYLOAD_FILE"; then echo '{"action":"block","reason":"no secrets"}' > "$CHRYS_HOOK_RESULT";\nelse echo '{"action":"modify","args_override":{"dry_run":true}}' > "$CHRYS_HOOK_RESULT"; fi\n`);
    s.globalHooks(`hooks:\n${hookYaml({ id: 'guard', run: 'type: script\npath: scripts/guard.sh' })}\n${ctxHook('ctx', 'hello')}\n`);
    s.projectHooks(`hooks:\n${ctxHook('dormant', 'never')}\n`);
    const envelopes = [
      '{"event": "before_tool_call", "session_id": "s1", "tool": {"name": "edit_file", "args": {"path": "a.ts", "n": 1.0}}}',
      JSON.stringify({ ...EDIT, tool: { name: 'edit_file', args: { path: 'secret.txt' } } }),
      JSON.stringify({ event: 'PreToolUse', tool: { name: 'other', args: {} } }),
      JSON.stringify({ event: 'user_prompt_submit', prompt: 'hi' }),
    ];
    const serve = new ServeProcess(s);
    envelopes.forEach((envelope, i) => serve.send(`{"id": ${i}, "envelope": ${envelope}}`));
    serve.send({ envelope: EDIT });
    const answers = await Promise.all([...envelopes, EDIT].map(() => serve.next()));
    serve.end();
    // project_hooks_dormant is said once per session: fire the same sequence from the same fresh session state.
    rmSync(join(s.configDir, 'hooks', 'state', 'sessions'), { recursive: true, force: true });
    for (const [i, envelope] of envelopes.entries()) {
      const fired = await s.run(['fire'], { input: envelope });
      expect(answers[i]!.replace(/"duration_ms":\d+/g, '"duration_ms":0')).toBe(`{"id":${i},${oneLine(fired.stdout).slice(1)}`);
    }
    expect(JSON.parse(answers[0]!).args).toEqual({ path: 'a.ts', n: 1, dry_run: true });
    expect(answers[0]).toContain('"n":1.0,'); // numbers keep their spelling, as in fire
    expect(JSON.parse(answers[1]!)).toMatchObject({ id: 1, blocked: true, reason: 'no secrets' });
    expect(JSON.parse(answers[4]!)).not.toHaveProperty('id');
    expect(await serve.exited).toEqual({ code: 0, signal: null });
  });

  it('refuses to start without --stdio, with a usage error', async () => {
    const r = await sandbox().run(['serve']);
    expect(r.exitCode).toBe(64);
    expect(r.stderr).toContain('serve needs --stdio');
  });

  it('answers an agent protocol as fire --protocol does, byte for byte, plus its exit_code and stderr', async () => {
    const s = sandbox();
    s.globalHooks(`hooks:\n${hookYaml({ id: 'no-rm', match: 'tool_kind: process.exec\nargs:\n  command: { regex: "rm\\\\s+-rf" }', run: `type: shell\nshell: 'echo "{\\"action\\": \\"block\\", \\"reason\\": \\"rm -rf is not allowed\\"}" > "$CHRYS_HOOK_RESULT"'` })}\n`);
    const pre = (command: string) => ({ session_id: 's', cwd: s.workspace, hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command } });
    const cases: [string, object][] = [['claude', pre('rm -rf /')], ['claude', pre('ls')], ['codex', pre('rm -rf /')], ['gemini', { hook_event_name: 'BeforeTool', cwd: s.workspace, tool_name: 'run_shell_command', tool_input: { command: 'rm -rf /' } }], ['claude', { hook_event_name: 'PreToolUseX' }]];
    const serve = new ServeProcess(s);
    const answers: string[] = [];
    for (const [protocol, input] of cases) {
      serve.send({ protocol, envelope: input });
      answers.push(await serve.next());
    }
    serve.end();
    expect((await serve.exited).code).toBe(0);
    expect(serve.unread).toEqual([]);
    for (const [i, [protocol, input]] of cases.entries()) {
      const fired = await s.run(['fire', '--protocol', protocol], { input: JSON.stringify(input) });
      expect(answers[i], `${protocol} case ${i}`).toBe(`${fired.stdout.replace(/\n$/, '').replace(/^\{\}$/, '{').replace(/\}$/, ',')}"exit_code":0,"stderr":""}`);
    }
    expect(JSON.parse(answers[0]!)).toMatchObject({ hookSpecificOutput: { permissionDecision: 'deny' } });
    const withId = new ServeProcess(s);
    expect(await withId.ask({ id: 'c', protocol: 'claude', envelope: pre('ls') })).toEqual({ id: 'c', exit_code: 0, stderr: '' });
    expect((await withId.ask({ id: 'd', protocol: 'claude', envelope: { tool_name: 'Bash' } })).error).toMatchObject({ code: 'missing_event' });
    withId.end();
    expect((await withId.exited).code).toBe(0);
  });

  it('answers a bad line with the error object and goes on', async () => {
    const s = sandbox();
    const serve = new ServeProcess(s);
    const errorOf = async (line: string): Promise<any> => (await serve.ask(line)).error;
    expect(await errorOf('{"id": 1, "envelope": ')).toMatchObject({ code: 'invalid_json' });
    expect(await errorOf('   ')).toMatchObject({ code: 'invalid_request', message: 'empty request line' });
    expect(await errorOf('[{"envelope": {}}]')).toMatchObject({ code: 'invalid_request', message: 'a request must be a JSON object, not an array' });
    expect(await serve.ask({ id: 'p', protocol: 'klingon', envelope: EDIT })).toEqual({ id: 'p', error: { code: 'unknown_protocol', message: 'unknown protocol "klingon"', hint: 'use one of: chrys, claude, codex, gemini, cursor, copilot' } });
    expect(await errorOf(JSON.stringify(EDIT))).toMatchObject({ code: 'invalid_request', hint: 'put the event envelope under "envelope"' });
    expect(await errorOf('{"envelope": {"event": "before_tool_cal"}}')).toMatchObject({ code: 'unknown_event', hint: 'did you mean "before_tool_call"?' });
    expect(await errorOf('{"envelope": 5}')).toMatchObject({ code: 'not_an_object' });
    expect(await serve.ask({ id: 9, protocol: 'chrys', event: 'Stop' })).toMatchObject({ id: 9, event: 'conversation_done', blocked: false });
    serve.end();
    expect(await serve.exited).toEqual({ code: 0, signal: null });
    expect(serve.stderr).toBe('');
  });

  it('takes a 50 MiB envelope, refuses a line over 64 MiB without holding it, and goes on', async () => {
    const s = sandbox();
    const serve = new ServeProcess(s);
    const big = 'x'.repeat(50 * 1024 * 1024);
    serve.send(`{"id":1,"envelope":{"event":"after_tool_call","tool":{"name":"read","result":"${big}"}}}`);
    serve.send(`{"id":2,"envelope":{"event":"after_tool_call","result":"${big}${big}"}}`);
    serve.send({ id: 3, envelope: EDIT });
    expect(JSON.parse(await serve.next())).toMatchObject({ id: 1, event: 'after_tool_call', blocked: false });
    expect(JSON.parse(await serve.next()).error).toMatchObject({ code: 'input_too_large' });
    expect(JSON.parse(await serve.next())).toMatchObject({ id: 3, event: 'before_tool_call' });
    serve.end();
    expect((await serve.exited).code).toBe(0);
  });

  it('re-checks the config on every request: an edit, a rename, a symlink retarget, a trust change', async () => {
    const s = sandbox();
    const hooksDir = join(s.configDir, 'hooks');
    const contexts = async (): Promise<string[]> => (await serve.ask({ envelope: EDIT })).contexts.map((c: any) => c.text);
    s.globalHooks(`hooks:\n${ctxHook('a', 'one')}\n`);
    const serve = new ServeProcess(s);
    expect(await contexts()).toEqual(['one']);
    s.globalHooks(`hooks:\n${ctxHook('a', 'two')}\n`); // same size
    expect(await contexts()).toEqual(['two']);
    writeFileSync(join(s.root, 'next.yaml'), `hooks:\n${ctxHook('a', 'tri')}\n`);
    renameSync(join(s.root, 'next.yaml'), join(hooksDir, 'hooks.yaml'));
    expect(await contexts()).toEqual(['tri']);

    mkdirSync(join(s.root, 'targets'));
    writeFileSync(join(s.root, 'targets', 'x.yaml'), `hooks:\n${ctxHook('a', 'xxx')}\n`);
    writeFileSync(join(s.root, 'targets', 'y.yaml'), `hooks:\n${ctxHook('a', 'yyy')}\n`);
    rmSync(join(hooksDir, 'hooks.yaml'));
    symlinkSync(join(s.root, 'targets', 'x.yaml'), join(hooksDir, 'hooks.yaml'));
    expect(await contexts()).toEqual(['xxx']);
    rmSync(join(hooksDir, 'hooks.yaml'));
    symlinkSync(join(s.root, 'targets', 'y.yaml'), join(hooksDir, 'hooks.yaml'));
    expect(await contexts()).toEqual(['yyy']);

    s.projectHooks(`hooks:\n${ctxHook('p', 'project')}\n`);
    expect(await contexts()).toEqual(['yyy']);
    s.write(join(s.configDir, 'settings.yaml'), 'project:\n  hooks_enabled: true\n');
    expect(await contexts()).toEqual(['project', 'yyy']);
    s.write(join(s.configDir, 'settings.yaml'), 'project:\n  hooks_enabled: false\n');
    expect(await contexts()).toEqual(['yyy']);
    rmSync(join(hooksDir, 'hooks.yaml'));
    expect(await contexts()).toEqual([]);
    serve.end();
    expect((await serve.exited).code).toBe(0);
  });

  it('hands non-blocking hooks to the worker, as fire does', async () => {
    const s = sandbox();
    s.globalHooks(`hooks:\n${hookYaml({ id: 'bg', event: 'after_tool_call', run: "type: shell\nshell: 'echo ran > ../bg.txt'", execution: 'mode: async' })}\n`);
    const serve = new ServeProcess(s);
    const answer = await serve.ask({ envelope: { event: 'after_tool_call', session_id: 's', tool: { name: 'x' } } });
    expect(answer.hooks).toMatchObject([{ id: 'bg', mode: 'async', status: 'started' }]);
    await eventually(() => existsSync(join(s.root, 'bg.txt')), 30_000, 'the worker to run the hook');
    serve.end();
    expect((await serve.exited).code).toBe(0);
  });

  it('times out a hook that never exits; the requests behind it wait their turn', async () => {
    const s = sandbox();
    s.globalHooks(`hooks:\n${hookYaml({ id: 'stuck', run: "type: shell\nshell: 'sleep 600'", execution: 'mode: blocking\ntimeout_seconds: 0.5' })}\n`);
    const serve = new ServeProcess(s);
    serve.send({ id: 1, envelope: EDIT });
    serve.send({ id: 2, envelope: { event: 'user_prompt_submit' } });
    const first = JSON.parse(await serve.next());
    expect(first).toMatchObject({ id: 1, hooks: [{ id: 'stuck', status: 'timeout' }] });
    expect(JSON.parse(await serve.next())).toMatchObject({ id: 2, hooks: [] });
    serve.end();
    expect((await serve.exited).code).toBe(0);
  });

  it('on EOF, and on stdin closed mid-line, answers what it has and exits 0', async () => {
    const s = sandbox();
    s.globalHooks(`hooks:\n${hookYaml({ id: 'slowish', run: "type: shell\nshell: 'sleep 0.3'" })}\n`);
    const r = await execa(process.execPath, [BIN, 'serve', '--stdio', '--config-dir', s.configDir, '--cwd', s.workspace], {
      input: `${JSON.stringify({ id: 1, envelope: EDIT })}\n{"id": 2, "envelope": {"event"`,
      env: s.env(), extendEnv: false, reject: false,
    });
    const lines = r.stdout.split('\n');
    expect(lines).toHaveLength(2);
    expect(JSON.parse(lines[0]!)).toMatchObject({ id: 1, hooks: [{ id: 'slowish', status: 'ok' }] });
    expect(JSON.parse(lines[1]!).error).toMatchObject({ code: 'invalid_json' });
    expect(r.exitCode).toBe(0);
  });

  it('sends an answer at once, never held back by a request behind it that runs a hook', async () => {
    const s = sandbox();
    s.globalHooks(`hooks:\n${hookYaml({ id: 'gate', event: 'user_prompt_submit', run: "type: shell\nshell: 'for i in $(seq 1 600); do [ -e ../go ] && exit 0; sleep 0.05; done; exit 1'" })}\n`);
    const serve = new ServeProcess(s);
    serve.send({ id: 1, envelope: EDIT });
    serve.send({ id: 2, envelope: { event: 'user_prompt_submit', prompt: 'hi' } });
    // The gate waits for this file, so id 1's answer can only come before it is written.
    expect(JSON.parse(await serve.next())).toMatchObject({ id: 1, hooks: [] });
    writeFileSync(join(s.root, 'go'), '');
    expect(JSON.parse(await serve.next())).toMatchObject({ id: 2, hooks: [{ id: 'gate', status: 'ok' }] });
    serve.end();
    expect(await serve.exited).toEqual({ code: 0, signal: null });
  });

  it('on SIGTERM finishes the request in flight, answers it, and exits 0 without reading on', async () => {
    const s = sandbox();
    s.globalHooks(`hooks:\n${hookYaml({ id: 'gate', run: "type: shell\nshell: 'touch ../started; for i in $(seq 1 600); do [ -e ../go ] && exit 0; sleep 0.05; done; exit 1'" })}\n`);
    const serve = new ServeProcess(s);
    serve.send({ id: 1, envelope: EDIT });
    serve.send({ id: 2, envelope: EDIT });
    await eventually(() => existsSync(join(s.root, 'started')), 30_000, 'the hook to start');
    serve.child.kill('SIGTERM');
    writeFileSync(join(s.root, 'go'), '');
    expect(JSON.parse(await serve.next())).toMatchObject({ id: 1, hooks: [{ id: 'gate', status: 'ok' }] });
    expect(await serve.exited).toEqual({ code: 0, signal: null });
    expect(serve.unread).toEqual([]);
  });

  it('exits quietly when its stdout is closed', async () => {
    const s = sandbox();
    const serve = new ServeProcess(s);
    expect(await serve.ask({ envelope: EDIT })).toMatchObject({ blocked: false });
    serve.child.stdout.destroy();
    for (let i = 0; i < 50; i++) serve.send({ envelope: EDIT });
    expect(await serve.exited).toEqual({ code: 0, signal: null });
    expect(serve.stderr).toBe('');
  });
});
