// The hook process contract through the real binary (CONTRACT §5): env, temp
// files, stdin, interpreters, output caps, timeouts and process-group kills.
// What a firing's decision and files show is a golden scenario (test/golden/fire-runner/);
// here what needs a look at processes, or at paths the hooks report.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { hookYaml, isAlive, useSandbox } from '../helpers/sandbox.js';

const sandbox = useSandbox();
const EVENT = { event: 'before_tool_call', session_id: 'sess-1', profile: 'Code', tool: { name: 'edit_file', args: { path: 'a', n: 1.0, big: 12345678901234567890123 } } };
const EVENT_TEXT = '{"event":"PreToolUse","session_id":"sess-1","profile":"Code","tool":{"name":"edit_file","args":{"path":"a","n":1.0,"big":12345678901234567890123}}}';
const blocking = (id: string, run: string, execution = 'mode: blocking'): string => hookYaml({ id, run, match: 'tool_name: edit_file', execution });


describe('fire: the hook process contract', () => {
  it('gives a python3 hook the env, payload file, stdin and result file of the contract', async () => {
    const s = sandbox();
    s.globalScript('probe.py', `
import json, os, stat, sys
env = {k: os.environ.get(k) for k in ["CHRYS_HOOK_ID", "CHRYS_HOOK_EVENT", "CHRYS_HOOK_SOURCE", "CHRYS_HOME", "CHRYS_WORKSPACE", "PYTHONUTF8", "PYTHONIOENCODING", "PYTHONPATH", "PYTHONHOME", "LEVEL", "WHERE", "LITERAL"]}
payload_path = os.environ["CHRYS_HOOK_PAYLOAD_FILE"]
result_path = os.environ["CHRYS_HOOK_RESULT"]
facts = {
  "env": env,
  "cwd": os.getcwd(),
  "stdin": sys.stdin.read(),
  "payload": open(payload_path, encoding="utf-8").read(),
  "payload_mode": oct(stat.S_IMODE(os.stat(payload_path).st_mode)),
  "result_mode": oct(stat.S_IMODE(os.stat(result_path).st_mode)),
  "result_size": os.path.getsize(result_path),
  "paths": [payload_path, result_path],
}
json.dump(facts, open(os.path.join(os.environ["CHRYS_WORKSPACE"], "facts.json"), "w"))
`);
    s.globalHooks(`hooks:\n${blocking('probe', 'type: script\npath: scripts/probe.py\nenv:\n  LEVEL: strict\n  WHERE: "${workspace_cwd}|${chrys_home}|${session_id}|${profile}"\n  LITERAL: "$HOME ${nope}"')}\n`);
    const { decision } = await s.fire(EVENT_TEXT, [], { env: { PYTHONPATH: '/leak', PYTHONHOME: '/leak' } });
    expect(decision.hooks).toMatchObject([{ id: 'probe', status: 'ok' }]);
    const facts = JSON.parse(readFileSync(join(s.workspace, 'facts.json'), 'utf8'));
    expect(facts.env).toEqual({
      CHRYS_HOOK_ID: 'probe',
      CHRYS_HOOK_EVENT: 'before_tool_call',
      CHRYS_HOOK_SOURCE: 'global',
      CHRYS_HOME: s.configDir,
      CHRYS_WORKSPACE: s.workspace,
      PYTHONUTF8: '1',
      PYTHONIOENCODING: 'utf-8',
      PYTHONPATH: null,
      PYTHONHOME: null,
      LEVEL: 'strict',
      WHERE: `${s.workspace}|${s.configDir}|sess-1|Code`,
      LITERAL: '$HOME ${nope}',
    });
    expect(facts.cwd).toBe(s.workspace);
    expect(facts.payload_mode).toBe('0o400');
    expect(facts.result_mode).toBe('0o600');
    expect(facts.result_size).toBe(0);
    expect(facts.stdin).toBe(facts.payload);
    // the alias is normalised, defaults filled, numbers keep their spelling
    expect(facts.payload).toContain('"event":"before_tool_call"');
    expect(facts.payload).toContain('"n":1.0');
    expect(facts.payload).toContain('"big":12345678901234567890123');
    const payload = JSON.parse(facts.payload);
    expect(payload).toMatchObject({ schema: 1, cwd: s.workspace, session_kind: 'interactive', session_id: 'sess-1' });
    expect(payload.timestamp).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    for (const p of facts.paths) expect(existsSync(p)).toBe(false);
  });

  it('shares one read-only payload file among a firing\'s blocking hooks, and writes a new one when the args change', async () => {
    const s = sandbox();
    s.globalScript('seen.py', `
import json, os, stat, sys
name, mode = sys.argv[1], sys.argv[2]
path = os.environ["CHRYS_HOOK_PAYLOAD_FILE"]
facts = {"path": path, "payload": json.load(open(path)), "mode": oct(stat.S_IMODE(os.stat(path).st_mode)), "dir_mode": oct(stat.S_IMODE(os.stat(os.path.dirname(path)).st_mode))}
if os.geteuid() == 0:
  facts["write"] = "root"  # a mode does not stop root; the stamp check (mode tamper) covers it
else:
  try:
    open(path, "a").write("x")
    facts["write"] = "written"
  except PermissionError:
    facts["write"] = "refused"
if mode == "tamper":
  os.chmod(path, 0o600)
  open(path, "w").write('{"tampered": true}')
if mode == "modify":
  open(os.environ["CHRYS_HOOK_RESULT"], "w").write(json.dumps({"action": "modify", "args_override": {"path": "b"}}))
json.dump(facts, open(os.path.join(os.environ["CHRYS_WORKSPACE"], name + ".json"), "w"))
`);
    const hook = (id: string, mode: string): string => blocking(id, `type: script\npath: scripts/seen.py\nargs: ["${id}", "${mode}"]`);
    s.globalHooks(`hooks:\n${hook('a', 'plain')}\n${hook('b', 'modify')}\n${hook('c', 'tamper')}\n${hook('d', 'plain')}\n`);
    const { decision } = await s.fire(EVENT_TEXT);
    expect(decision.hooks.map((h: { status: string }) => h.status)).toEqual(['ok', 'ok', 'ok', 'ok']);
    const seen = Object.fromEntries(['a', 'b', 'c', 'd'].map((id) => [id, JSON.parse(readFileSync(join(s.workspace, `${id}.json`), 'utf8'))]));
    for (const id of ['a', 'b', 'c', 'd']) {
      expect(seen[id].mode).toBe('0o400');
      expect(seen[id].dir_mode).toBe('0o700');
      expect(seen[id].write).toBe(process.getuid?.() === 0 ? 'root' : 'refused');
    }
    // no change of args: the same file
    expect(seen.b.path).toBe(seen.a.path);
    expect(seen.b.payload.tool.args.path).toBe('a');
    // b changed the args: c sees them in a new file
    expect(seen.c.path).not.toBe(seen.b.path);
    expect(seen.c.payload.tool.args.path).toBe('b');
    // c rewrote its file (chmod, then write): d gets a new one with the envelope as it is
    expect(seen.d.path).not.toBe(seen.c.path);
    expect(seen.d.payload).toEqual(seen.c.payload);
    for (const id of ['a', 'b', 'c', 'd']) expect(existsSync(seen[id].path)).toBe(false);
    expect(readdirSync(join(s.configDir, 'hooks', 'tmp'))).toEqual([]);
  });

  it('gives each hook its payload as it should be, even after an earlier hook wrote into its own payload file', async () => {
    const s = sandbox();
    const report = (id: string) => `type: shell\nshell: 'printf "{\\"context\\": [{\\"text\\": %s}]}" "$(python3 -c "import json,sys; print(json.dumps(open(sys.argv[1]).read()))" "$CHRYS_HOOK_PAYLOAD_FILE")" > "$CHRYS_HOOK_RESULT"'`;
    s.globalHooks(`hooks:
${blocking('first', report('first'))}
${blocking('vandal', "type: shell\nshell: 'printf tampered > \"$CHRYS_HOOK_PAYLOAD_FILE\"'")}
${blocking('after-vandal', report('after-vandal'))}
${blocking('deleter', "type: shell\nshell: 'rm \"$CHRYS_HOOK_PAYLOAD_FILE\"'")}
${blocking('after-deleter', report('after-deleter'))}
`);
    const { decision } = await s.fire(EVENT_TEXT);
    expect(decision.hooks.map((h: any) => h.status)).toEqual(['ok', 'ok', 'ok', 'ok', 'ok']);
    const payloads = decision.contexts.map((c: any) => c.text);
    expect(payloads).toHaveLength(3);
    for (const p of payloads) expect(p).toContain('"n":1.0');
    expect(new Set(payloads).size).toBe(1);
    expect(readdirSync(join(s.configDir, 'hooks', 'tmp'))).toEqual([]);
  });

  it('kills a hanging hook and the child it forked when the timeout passes', async () => {
    const s = sandbox();
    s.globalHooks(`hooks:\n${blocking('hang', "type: shell\nshell: 'sleep 300 & echo $! > child.pid; echo $$ > leader.pid; wait'", 'mode: blocking\ntimeout_seconds: 0.5')}\n`);
    const { decision } = await s.fire(EVENT);
    expect(decision.hooks).toMatchObject([{ id: 'hang', status: 'timeout', reason: expect.stringContaining('timed out') }]);
    expect(decision.hooks[0].duration_ms).toBeLessThan(10_000);
    expect(decision.warnings).toMatchObject([{ code: 'hook_timeout' }]);
    for (const f of ['child.pid', 'leader.pid']) {
      const pid = Number(readFileSync(join(s.workspace, f), 'utf8'));
      expect(isAlive(pid), `${f} ${pid} is still alive`).toBe(false);
    }
  });

  it('escalates to SIGKILL for a hook that ignores SIGTERM', async () => {
    const s = sandbox();
    s.globalHooks(`hooks:\n${blocking('stubborn', "type: shell\nshell: 'trap \"\" TERM; echo $$ > leader.pid; while :; do sleep 0.1; done'", 'mode: blocking\ntimeout_seconds: 0.3')}\n`);
    const { decision } = await s.fire(EVENT);
    expect(decision.hooks).toMatchObject([{ status: 'timeout' }]);
    expect(isAlive(Number(readFileSync(join(s.workspace, 'leader.pid'), 'utf8')))).toBe(false);
  });
});
