// Non-blocking hooks through the worker, drains, prompt files and detached hooks (CONTRACT §6.2, §6.3).
// What a firing shows at once is a golden scenario (test/golden/nonblocking/); here what
// the worker does after fire has returned.
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { eventually, hookYaml, isAlive, read, useSandbox } from '../helpers/sandbox.js';

const sandbox = useSandbox();
const TOOL = { event: 'after_tool_call', session_id: 'sess', tool: { name: 'x' } };
/** A shell hook that waits (bounded, 60 s) for a file named `go` in the workspace's parent, then runs `then`. */
const gated = (then: string): string => `for i in $(seq 1 1200); do [ -e ../go ] && break; sleep 0.05; done; ${then}`;

describe('fire: non-blocking hooks', () => {
  it('hands async and fire_and_forget hooks to a worker and returns before they finish', async () => {
    const s = sandbox();
    s.globalHooks(`hooks:
${hookYaml({ id: 'bg-async', event: 'after_tool_call', run: `type: shell\nshell: '${gated('echo async > ../async.txt')}'`, execution: 'mode: async' })}
${hookYaml({ id: 'bg-ff', event: 'after_tool_call', run: `type: shell\nshell: '${gated('echo ff > ../ff.txt')}'`, execution: 'mode: fire_and_forget' })}
`);
    const { decision } = await s.fire(TOOL);
    expect(decision.hooks).toMatchObject([
      { id: 'bg-async', mode: 'async', status: 'started', exit_code: null },
      { id: 'bg-ff', mode: 'fire_and_forget', status: 'started' },
    ]);
    // fire has returned while both hooks still wait for ../go
    expect(existsSync(join(s.root, 'async.txt'))).toBe(false);
    writeFileSync(join(s.root, 'go'), '');
    await eventually(() => read(join(s.root, 'async.txt')) && read(join(s.root, 'ff.txt')), 30_000, 'both hooks to run');
  });

  it('discards non-blocking decisions, runs them with the payload, and logs their output owner-only', async () => {
    const s = sandbox();
    s.globalHooks(`hooks:\n${hookYaml({ id: 'logger', event: 'after_tool_call', run: `type: shell\nshell: 'echo "hello from $CHRYS_HOOK_ID"; echo oops >&2; echo "{\\"action\\":\\"block\\"}" > "$CHRYS_HOOK_RESULT"'`, execution: 'mode: async' })}\n`);
    const { decision } = await s.fire(TOOL);
    expect(decision.blocked).toBe(false);
    const logs = join(s.configDir, 'hooks', 'logs');
    const log = await eventually(() => existsSync(logs) && readdirSync(logs).find((f) => f.endsWith('-logger.log')), 30_000, 'the log');
    const text = await eventually(() => read(join(logs, log)), 5000);
    expect(text).toContain('hello from logger');
    expect(text).toContain('decision_ignored: hook "logger" is async: its decision (action) is ignored');
    expect(text).toContain('oops');
    expect(statSync(join(logs, log)).mode & 0o777).toBe(0o600);
    expect(statSync(logs).mode & 0o777).toBe(0o700);
  });

  it('runs at most max_parallel_hooks at a time', async () => {
    const s = sandbox();
    // Overlap is proven by each hook waiting (bounded) for the other's start marker, not inferred from
    // timing. p1 and p2 (the first two in chain order) must run together; p2 then holds its slot for up
    // to 1 s while p3 may not start; p3 must find p1 or p2 finished; p1 holds until p3 has started.
    const waitFor = (peer: string, tries: number, missing: string): string =>
      `for i in $(seq 1 ${tries}); do [ -e ../start-${peer} ] && break; sleep 0.05; done; [ -e ../start-${peer} ] || ${missing}`;
    const violation = (what: string): string => `echo "${what}" >> ../violations`;
    const body: Record<string, string> = {
      p1: `${waitFor('p2', 600, violation('p1 ran without p2'))}; ${waitFor('p3', 600, violation('p3 never started'))}`,
      p2: `${waitFor('p1', 600, violation('p2 ran without p1'))}; ${waitFor('p3', 20, 'true')}`,
      p3: `[ -e ../done-p1 ] || [ -e ../done-p2 ] || ${violation('p3 started while p1 and p2 ran')}`,
    };
    const shell = (id: string): string => `touch ../start-${id}; ${body[id]}; touch ../done-${id}`;
    s.globalHooks(`settings:\n  max_parallel_hooks: 2\nhooks:\n${['p1', 'p2', 'p3'].map((id) => hookYaml({ id, event: 'after_tool_call', run: `type: shell\nshell: '${shell(id)}'`, execution: 'mode: async' })).join('\n')}\n`);
    await s.fire(TOOL);
    const violations = join(s.root, 'violations');
    await eventually(() => existsSync(violations) || ['p1', 'p2', 'p3'].every((id) => existsSync(join(s.root, `done-${id}`))), 60_000, 'three runs');
    expect(read(violations)).toBeUndefined();
  });

  it('enforces the timeout in the worker and records it in the history', async () => {
    const s = sandbox();
    s.globalHooks(`hooks:\n${hookYaml({ id: 'slow', event: 'after_tool_call', run: "type: shell\nshell: 'echo $$ > ../slow.pid; sleep 60'", execution: 'mode: fire_and_forget\ntimeout_seconds: 0.3' })}\n`);
    await s.fire(TOOL);
    const run = await eventually(() => {
      const list = JSON.parse(requireSync(s, ['list', '--json']));
      return list.hooks[0].last_run ?? undefined;
    }, 30_000, 'a recorded run');
    expect(run.status).toBe('timeout');
    expect(isAlive(Number(read(join(s.root, 'slow.pid'))))).toBe(false);
  });

  it('hands hooks to the worker even when the runtime tmp dir cannot be created', async () => {
    const s = sandbox();
    s.globalHooks(`hooks:\n${hookYaml({ id: 'bg', event: 'after_tool_call', run: "type: shell\nshell: 'echo ran > ../ran'", execution: 'mode: async' })}\n`);
    writeFileSync(join(s.configDir, 'hooks', 'tmp'), 'a file where the tmp dir should be');
    const { decision } = await s.fire(TOOL);
    expect(decision.hooks).toMatchObject([{ id: 'bg', status: 'started' }]);
    expect(decision.warnings).toMatchObject([{ code: 'runtime_dir_unwritable' }]);
    await eventually(() => read(join(s.root, 'ran')), 30_000, 'the hook to run');
  });
});

describe('fire: drains', () => {
  it('after_turn waits for the session\'s async hooks, but not for those from user_interrupt', async () => {
    const s = sandbox();
    s.globalHooks(`hooks:
${hookYaml({ id: 'slow-async', event: 'after_tool_call', run: "type: shell\nshell: 'sleep 0.5; echo done > ../async-done'", execution: 'mode: async' })}
${hookYaml({ id: 'interrupt-async', event: 'user_interrupt', run: `type: shell\nshell: '${gated('echo done > ../interrupt-done')}'`, execution: 'mode: async' })}
${hookYaml({ id: 'turn-async', event: 'after_turn', run: "type: shell\nshell: 'sleep 0.2; echo done > ../turn-done'", execution: 'mode: async' })}
`);
    await s.fire({ event: 'user_interrupt', session_id: 'sess' });
    await s.fire(TOOL);
    const { decision } = await s.fire({ event: 'after_turn', session_id: 'sess' });
    expect(decision.hooks).toMatchObject([{ id: 'turn-async', status: 'started' }]);
    expect(read(join(s.root, 'async-done'))).toBe('done\n');
    expect(read(join(s.root, 'turn-done'))).toBe('done\n'); // its own async hooks included
    expect(existsSync(join(s.root, 'interrupt-done'))).toBe(false);
    writeFileSync(join(s.root, 'go'), '');
    await eventually(() => read(join(s.root, 'interrupt-done')), 30_000, 'the interrupt hook');
  });

  it('after_turn does not wait for another session, nor for fire_and_forget hooks', async () => {
    const s = sandbox();
    s.globalHooks(`hooks:
${hookYaml({ id: 'async-in-A', event: 'sub_agent_start', run: `type: shell\nshell: '${gated('echo x > ../a')}'`, execution: 'mode: async' })}
${hookYaml({ id: 'ff-in-B', event: 'after_tool_call', run: `type: shell\nshell: '${gated('echo x > ../b')}'`, execution: 'mode: fire_and_forget' })}
`);
    await s.fire({ event: 'sub_agent_start', session_id: 'A' });
    await s.fire({ ...TOOL, session_id: 'B' });
    await s.fire({ event: 'after_turn', session_id: 'B' });
    expect(existsSync(join(s.root, 'a'))).toBe(false);
    expect(existsSync(join(s.root, 'b'))).toBe(false);
    writeFileSync(join(s.root, 'go'), '');
    await eventually(() => read(join(s.root, 'a')) && read(join(s.root, 'b')), 30_000, 'the gated hooks');
  });

  it('session_end waits at most shutdown_grace_seconds, then kills the rest; durable jobs stay pending', async () => {
    const s = sandbox();
    // The hook would finish by itself after 3 s: a grace of 0.5 s must kill it first
    // (a grace read as the 5 s default would let it finish and file the job as done).
    s.globalHooks(`settings:\n  shutdown_grace_seconds: 0.5\nhooks:\n${hookYaml({ id: 'stuck', event: 'after_tool_call', run: "type: shell\nshell: 'echo $$ > ../stuck.pid; sleep 3; echo done > ../finished'", execution: 'mode: async\ndelivery: durable' })}\n`);
    await s.fire(TOOL);
    const pid = Number(await eventually(() => read(join(s.root, 'stuck.pid')), 30_000, 'the hook to start'));
    await s.fire({ event: 'session_end', session_id: 'sess' });
    await eventually(() => !isAlive(pid), 5000, 'the hook to be killed');
    expect(read(join(s.root, 'finished'))).toBeUndefined();
    const pending = join(s.configDir, 'hooks', 'outbox', 'pending');
    const job = await eventually(() => {
      const f = readdirSync(pending).find((n) => n.endsWith('.json'));
      const j = f && JSON.parse(readFileSync(join(pending, f), 'utf8'));
      return j && j.state === 'pending' && j.error === 'cancelled' ? j : undefined;
    }, 30_000, 'the job to be filed back as pending');
    expect(job).toMatchObject({ hook_id: 'stuck', retries: 1, error: 'cancelled' });
  });
});

describe('detached hooks', () => {
  it('runs detach: true hooks in a new session with output to a log, without waiting', async () => {
    const s = sandbox();
    s.globalHooks(`hooks:\n${hookYaml({ id: 'daemon', event: 'session_start', run: `type: shell\nshell: 'ps -o sid= -p $$ > ../sid; echo $$ > ../pid; echo detached-out'`, execution: 'mode: fire_and_forget\ndetach: true' })}\n`);
    const { decision } = await s.fire({ event: 'session_start' });
    expect(decision.hooks).toMatchObject([{ id: 'daemon', status: 'started' }]);
    const sid = await eventually(() => read(join(s.root, 'sid'))?.trim() || undefined, 30_000, 'the hook');
    expect(Number(sid)).toBe(Number(await eventually(() => read(join(s.root, 'pid'))?.trim() || undefined, 5000)));
    const logs = join(s.configDir, 'hooks', 'logs');
    await eventually(() => readdirSync(logs).some((f) => f.endsWith('-daemon.log') && readFileSync(join(logs, f), 'utf8').includes('detached-out')), 30_000, 'the log');
  });
});

describe('detached hooks that cannot start', () => {
  it('records a launch error, not `started`, in the history, the log and the durable job', async () => {
    const s = sandbox();
    // A directory where the executable should be: EACCES even as root.
    const notExecutable = s.write(join(s.root, 'tool-dir', 'keep'), '').replace(/\/keep$/, '');
    s.globalHooks(`hooks:
${hookYaml({ id: 'missing', event: 'session_start', run: `type: command\nargv: ["${join(s.root, 'no-such-tool')}"]`, execution: 'mode: fire_and_forget\ndetach: true' })}
${hookYaml({ id: 'not-exec', event: 'session_start', run: `type: command\nargv: ["${notExecutable}"]`, execution: 'mode: fire_and_forget\ndelivery: durable\ndetach: true' })}
`);
    await s.fire({ event: 'session_start', session_id: 'sess' });
    const lastRun = (id: string): any => JSON.parse(requireSync(s, ['list', '--json'])).hooks.find((h: any) => h.id === id).last_run ?? undefined;
    expect(await eventually(() => lastRun('missing'), 30_000, 'the missing tool\'s run')).toMatchObject({ status: 'launch_error' });
    expect(await eventually(() => lastRun('not-exec'), 30_000, 'the directory\'s run')).toMatchObject({ status: 'launch_error' });
    const logs = join(s.configDir, 'hooks', 'logs');
    const log = (id: string): string => readFileSync(join(logs, readdirSync(logs).find((f) => f.endsWith(`-${id}.log`))!), 'utf8');
    expect(log('missing')).toContain(`command not found: ${join(s.root, 'no-such-tool')}`);
    expect(log('not-exec')).toContain('launch_error');
    const failed = join(s.configDir, 'hooks', 'outbox', 'failed');
    const [job] = readdirSync(failed).map((f) => JSON.parse(readFileSync(join(failed, f), 'utf8')));
    expect(job).toMatchObject({ hook_id: 'not-exec', state: 'failed', retries: 1 });
    expect(job.error).toContain(notExecutable);
  });
});

function requireSync(s: ReturnType<typeof sandbox>, args: string[]): string {
  return execFileSync(process.execPath, ['bin/chrys-hooks', ...args, '--config-dir', s.configDir, '--cwd', s.workspace], { encoding: 'utf8', env: s.env() });
}

describe('log retention', () => {
  it('deletes its own logs older than seven days, and nothing else', async () => {
    const s = sandbox();
    const logs = join(s.configDir, 'hooks', 'logs');
    const old = new Date(Date.now() - 8 * 86_400_000);
    const oldLog = s.write(join(logs, 'mx0aaaaa-0123abcd-old-hook.log'), 'old');
    const oldPayload = s.write(join(logs, 'mx0aaaaa-0123abcd.payload.json'), '{}');
    const recentLog = s.write(join(logs, 'mx0bbbbb-0123abcd-recent.log'), 'recent');
    const userFile = s.write(join(logs, 'follow-ups.jsonl'), 'mine');
    for (const f of [oldLog, oldPayload, userFile]) utimesSync(f, old, old);
    s.globalHooks(`hooks:\n${hookYaml({ id: 'bg', event: 'after_tool_call', run: "type: shell\nshell: 'echo ran > ../ran'", execution: 'mode: async' })}\n`);
    await s.fire(TOOL);
    await eventually(() => read(join(s.root, 'ran')), 30_000, 'the worker to run');
    expect(existsSync(oldLog)).toBe(false);
    expect(existsSync(oldPayload)).toBe(false);
    expect(existsSync(recentLog)).toBe(true);
    expect(existsSync(userFile)).toBe(true);
  });
});
