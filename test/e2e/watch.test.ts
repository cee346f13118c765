// drain-outbox --watch, "not yet" retries and job logs, through the real binary.
// Every wait is on an event (a file, a log line), bounded by a deadline.
import { type ResultPromise, execa } from 'execa';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { type TestContext, describe, expect, it } from 'vitest';
import { BIN, type Sandbox, eventually, hookYaml, jobs, lines, outbox, pendingJob, read, isAlive, sandboxFor, useSandbox } from '../helpers/sandbox.js';

const sandbox = useSandbox();

/** A durable hook `deliver` for after_tool_call, with fast retries (a "not yet" is due again in 0.2 s). */
const DELIVER = (shell: string, settings = '', execution = ''): string =>
  `settings:\n  outbox_retry_age_seconds: 0\n  outbox_retry_delay_seconds: 0.2\n${settings}hooks:\n${hookYaml({ id: 'deliver', event: 'after_tool_call', run: `type: shell\nshell: '${shell}'`, execution: `mode: async\ndelivery: durable${execution}` })}\n`;

async function drain(s: Sandbox, args: string[] = []): Promise<any> {
  const r = await s.run(['drain-outbox', '--json', ...args]);
  expect(r.exitCode, r.stderr).toBe(0);
  return JSON.parse(r.stdout);
}

interface Watch {
  proc: ResultPromise;
  /** The JSON log lines so far. */
  log: () => any[];
  /** Resolves with the first log line for which `pred` holds. */
  line: (pred: (l: any) => boolean, what: string, ms?: number) => Promise<any>;
}

/** Starts `drain-outbox --watch --json` and waits until it is watching; killed when the test `t` ends (before its sandbox goes). */
async function startWatch(t: TestContext, s: Sandbox, args: string[] = []): Promise<Watch> {
  const proc = execa(process.execPath, [BIN, 'drain-outbox', '--watch', '--json', ...args, '--config-dir', s.configDir, '--cwd', s.workspace], { env: s.env(), extendEnv: false, reject: false, cwd: s.workspace });
  let text = '';
  proc.stderr!.on('data', (c: Buffer) => (text += c.toString()));
  // Only complete lines: the last one may still be arriving.
  const log = (): any[] => text.slice(0, text.lastIndexOf('\n') + 1).split('\n').filter(Boolean).map((l) => JSON.parse(l));
  const w: Watch = { proc, log, line: (pred, what, ms = 30_000) => eventually(() => log().find(pred), ms, what) };
  t.onTestFinished(async () => {
    proc.kill('SIGKILL');
    await proc;
  });
  await w.line((l) => l.watching, 'the watcher to start');
  return w;
}

describe('drain-outbox --watch', () => {
  it.concurrent('runs a follow-up queued for 3 s within 1 s of its due_at', async (t) => {
    const s = sandboxFor(t);
    s.globalHooks(DELIVER('echo ran >> ../ran', '', '\ndelay_seconds: 3'));
    const w = await startWatch(t, s);
    const { decision } = await s.fire({ event: 'after_tool_call', tool: { name: 'x' } });
    expect(decision.hooks).toMatchObject([{ id: 'deliver', status: 'queued' }]);
    const done = await w.line((l) => l.outcome === 'done', 'the follow-up to be done', 20_000);
    const [job] = jobs(s, 'done');
    expect(job.job_id).toBe(done.job_id);
    const late = Date.parse(job.last_started_at) - Date.parse(job.due_at);
    expect(late).toBeGreaterThanOrEqual(0);
    expect(late).toBeLessThan(1000);
    expect(lines(join(s.root, 'ran'))).toEqual(['ran']);
  }, 40_000);

  it.concurrent('retries a hook that exits 75 ("not yet") until it succeeds', async (t) => {
    const s = sandboxFor(t);
    s.globalHooks(DELIVER('echo run >> ../runs; [ $(wc -l < ../runs) -ge 3 ] || exit 75'));
    const w = await startWatch(t, s);
    pendingJob(s, 'later');
    await w.line((l) => l.outcome === 'done', 'the third run to succeed');
    expect(lines(join(s.root, 'runs'))).toHaveLength(3);
    expect(w.log().filter((l) => l.outcome === 'deferred')).toMatchObject([{ job_id: 'later', due_at: expect.any(String) }, { job_id: 'later' }]);
    expect(jobs(s, 'done')).toMatchObject([{ job_id: 'later', retries: 3, state: 'done', error: null }]);
  }, 40_000);

  it.concurrent('fails with max_retries a hook that says "not yet" forever, after outbox_max_retries starts', async (t) => {
    const s = sandboxFor(t);
    s.globalHooks(DELIVER('echo run >> ../runs; exit 75', '  outbox_max_retries: 3\n'));
    const w = await startWatch(t, s);
    pendingJob(s, 'never');
    const failed = await w.line((l) => l.outcome === 'failed', 'the job to fail');
    expect(failed).toMatchObject({ job_id: 'never', error: 'max_retries' });
    expect(jobs(s, 'failed')).toMatchObject([{ job_id: 'never', error: 'max_retries', retries: 3 }]);
    expect(lines(join(s.root, 'runs'))).toHaveLength(3);
  }, 40_000);

  it('two watchers and a one-shot drain over 300 jobs start each job once', async (t) => {
    const s = sandboxFor(t);
    // mkdir is atomic: a second concurrent run of the same job would find its directory taken.
    s.globalHooks(DELIVER('n=$(sed -e "s/.*\\"n\\": *\\([0-9]*\\).*/\\1/" "$CHRYS_HOOK_PAYLOAD_FILE"); mkdir ../running/$n || echo $n >> ../twice; echo $n >> ../ran; rmdir ../running/$n'));
    mkdirSync(join(s.root, 'running'));
    const a = await startWatch(t, s);
    const b = await startWatch(t, s);
    for (let i = 0; i < 300; i++) pendingJob(s, `job-${String(i).padStart(3, '0')}`, { payload: { event: 'after_tool_call', n: i } });
    const once = await drain(s);
    // Counted while waiting (parsing 300 files in every poll would slow the drains it waits for); parsed once done.
    const filed = (): number => (existsSync(outbox(s, 'done')) ? readdirSync(outbox(s, 'done')).filter((f) => f.endsWith('.json')).length : 0);
    await eventually(() => filed() === 300, 60_000, 'all 300 jobs to be done');
    expect(jobs(s, 'done').filter((j) => j.state === 'done')).toHaveLength(300);
    const ran = lines(join(s.root, 'ran'));
    expect(ran).toHaveLength(300);
    expect(new Set(ran).size).toBe(300);
    expect(existsSync(join(s.root, 'twice'))).toBe(false);
    // A watcher reports a job once it has filed it in done/: its last line may come just after.
    const reported = (): number => [a, b].reduce((n, w) => n + w.log().filter((l) => l.outcome === 'done').length, 0) + once.done;
    await eventually(() => reported() >= 300, 30_000, "the watchers' reports of every job");
    expect(reported()).toBe(300);
  }, 120_000);

  it.concurrent('on SIGTERM leaves a running job pending and exits 0', async (t) => {
    const s = sandboxFor(t);
    s.globalHooks(DELIVER('echo $$ > ../hook.pid; sleep 300', '  shutdown_grace_seconds: 1\n'));
    const w = await startWatch(t, s);
    pendingJob(s, 'long');
    const hookPid = Number(await eventually(() => read(join(s.root, 'hook.pid'))?.trim() || undefined, 30_000, 'the hook to start'));
    w.proc.kill('SIGTERM');
    const r = await w.proc;
    expect(r.exitCode).toBe(0);
    expect(w.log().at(-1)).toMatchObject({ stopped: true, left_pending: 1 });
    expect(jobs(s, 'pending')).toMatchObject([{ job_id: 'long', state: 'pending', error: 'cancelled', retries: 1 }]);
    await eventually(() => !isAlive(hookPid), 10_000, 'the hook to be stopped');
  }, 40_000);

  it.concurrent('picks up a new hooks file and a recreated outbox while it runs', async (t) => {
    const s = sandboxFor(t);
    s.globalHooks('hooks: []\n');
    const w = await startWatch(t, s, ['--interval', '30']);
    pendingJob(s, 'first');
    await w.line((l) => l.outcome === 'stale_source', 'the job without a hook to fail');
    s.globalHooks(DELIVER('echo ok >> ../ran'));
    // Moved away first, then deleted: the watcher may be writing into the outbox meanwhile (rm -r would then meet
    // a folder not empty); what it writes after the move goes to the new outbox.
    const gone = join(s.root, 'outbox-gone');
    renameSync(join(s.configDir, 'hooks', 'outbox'), gone);
    rmSync(gone, { recursive: true, force: true });
    await eventually(() => existsSync(outbox(s, 'pending')), 10_000, 'the outbox to be recreated');
    pendingJob(s, 'second');
    await w.line((l) => l.outcome === 'done' && l.job_id === 'second', 'the second job to run', 20_000);
    expect(isAlive(w.proc.pid!)).toBe(true);
  }, 40_000);

  it.concurrent('runs an untrusted job as soon as its workspace is trusted, without waiting for the interval', async (t) => {
    const s = sandboxFor(t);
    s.globalHooks('settings:\n  outbox_retry_age_seconds: 0\nhooks: []\n');
    const project = s.projectHooks(`hooks:\n${hookYaml({ id: 'deliver', event: 'after_tool_call', run: "type: shell\nshell: 'echo ok >> ../ran'", execution: 'mode: async\ndelivery: durable' })}\n`);
    const w = await startWatch(t, s, ['--interval', '60']);
    pendingJob(s, 'proj', { hook_source: 'project', hook_source_path: project, payload: { event: 'after_tool_call', cwd: s.workspace } });
    const untrusted = await w.line((l) => l.outcome === 'untrusted', 'the job to be reported untrusted');
    expect(untrusted.command).toBe(`chrys-hooks trust --cwd ${s.workspace} --config-dir ${s.configDir}`);
    const trusted = await s.run(['trust', '--yes']);
    expect(trusted.exitCode, trusted.stderr).toBe(0);
    await w.line((l) => l.outcome === 'done', 'the job to run once trusted', 20_000);
    expect(lines(join(s.root, 'ran'))).toEqual(['ok']);
  }, 40_000);

  it('refuses --watch with one-shot options', async () => {
    const s = sandbox();
    const r = await s.run(['drain-outbox', '--watch', '--dry-run']);
    expect(r.exitCode).toBe(64);
    expect(r.stderr).toContain('--watch cannot be combined with --dry-run');
    expect((await s.run(['drain-outbox', '--watch', '--interval', '0'])).exitCode).toBe(64);
  });
});

describe('"not yet" in one-shot drains and fire', () => {
  it('keeps a deferred job pending with its next due_at, and shows it in drain --json and list', async () => {
    const s = sandbox();
    s.globalHooks(DELIVER('echo "{\\"retry_after_seconds\\": 120}" > "$CHRYS_HOOK_RESULT"'));
    pendingJob(s, 'later');
    const first = await drain(s);
    expect(first).toMatchObject({ considered: 1, ran: 1, deferred: 1, done: 0, failed: 0, jobs: [{ job_id: 'later', outcome: 'deferred' }] });
    const dueIn = Date.parse(first.jobs[0].due_at) - Date.now();
    expect(dueIn).toBeGreaterThan(100_000);
    expect(dueIn).toBeLessThanOrEqual(120_000);
    const second = await drain(s);
    expect(second).toMatchObject({ considered: 1, ran: 0, deferred: 1, jobs: [{ outcome: 'deferred', due_at: first.jobs[0].due_at }] });
    const list = JSON.parse((await s.run(['list', '--json'])).stdout);
    expect(list.deferred).toEqual([{ job_id: 'later', hook_id: 'deliver', due_at: first.jobs[0].due_at, retries: 1, reason: 'asked to be retried after 120 s' }]);
    expect((await s.run(['list'])).stdout).toContain('deferred jobs');
  });

  it('clamps a retry_after_seconds out of range, with a warning', async () => {
    const s = sandbox();
    s.globalHooks(DELIVER('echo "{\\"retry_after_seconds\\": -5}" > "$CHRYS_HOOK_RESULT"'));
    pendingJob(s, 'odd');
    const out = await drain(s);
    expect(out.warnings).toMatchObject([{ code: 'retry_after_invalid', hook: 'deliver' }]);
    expect(Math.abs(Date.parse(out.jobs[0].due_at) - Date.now())).toBeLessThan(10_000);
  });

  it("defers in fire's worker too, and a once_per_session job is retried, not refused", async () => {
    const s = sandbox();
    s.globalHooks(DELIVER('echo run >> ../runs; [ $(wc -l < ../runs) -ge 2 ] || exit 75', '', '\nonce_per_session: true'));
    await s.fire({ event: 'after_tool_call', session_id: 's1', tool: { name: 'x' } });
    const [job] = await eventually(() => jobs(s, 'pending').find((j) => j.error === 'deferred') && jobs(s, 'pending'), 30_000, 'the worker to defer the job');
    expect(job).toMatchObject({ retries: 1, state: 'pending', deferred_reason: expect.stringContaining('75') });
    await eventually(() => Date.now() >= Date.parse(job.due_at), 5000, 'the job to be due');
    expect(await drain(s)).toMatchObject({ done: 1, failed: 0 });
    expect(lines(join(s.root, 'runs'))).toHaveLength(2);
  }, 40_000);
});

describe('job logs and reports', () => {
  it("keeps each run's output in an owner-only log named in the job file", async () => {
    const s = sandbox();
    s.globalHooks(DELIVER('echo to-stdout; echo to-stderr >&2'));
    pendingJob(s, 'talk');
    const out = await drain(s);
    const [job] = jobs(s, 'done');
    expect(out.jobs[0].log_path).toBe(job.log_path);
    expect(job.log_path.startsWith(join(s.configDir, 'hooks', 'logs'))).toBe(true);
    const log = readFileSync(job.log_path, 'utf8');
    expect(log).toContain('## stdout\nto-stdout');
    expect(log).toContain('## stderr\nto-stderr');
    expect(statSync(job.log_path).mode & 0o777).toBe(0o600);
  });

  it('prints the stderr tail and log of a failed job, and the command that would run an untrusted one', async () => {
    const s = sandbox();
    s.globalHooks(DELIVER('echo "endpoint said 503" >&2; exit 4'));
    const project = s.projectHooks(`hooks:\n${hookYaml({ id: 'deliver', event: 'after_tool_call', run: "type: shell\nshell: 'true'", execution: 'mode: async\ndelivery: durable' })}\n`);
    pendingJob(s, 'a-fails');
    pendingJob(s, 'b-project', { hook_source: 'project', hook_source_path: project });
    const r = await s.run(['drain-outbox']);
    expect(r.stdout).toContain('failed         a-fails  deliver  (exited with status 4)\n    | endpoint said 503\n    log: ');
    const command = `chrys-hooks trust --cwd ${s.workspace} --config-dir ${s.configDir}`;
    expect(r.stdout).toContain(`project hooks are not enabled for this drain; to run it: ${command}`);
    // The command as printed (it asks on a terminal; --yes stands in for the answer here).
    const trusted = await s.runRaw([...command.split(' ').slice(1), '--yes']);
    expect(trusted.exitCode, trusted.stderr).toBe(0);
    expect(await drain(s)).toMatchObject({ done: 1, skipped: { untrusted: 0 } });
    // Switched off on the command line, only the switch can let it run.
    pendingJob(s, 'c-project', { hook_source: 'project', hook_source_path: project });
    const off = await drain(s, ['--no-project-hooks']);
    expect(off.jobs).toMatchObject([{ job_id: 'c-project', outcome: 'untrusted', command: `chrys-hooks drain-outbox --project-hooks --config-dir ${s.configDir}` }]);
  });

  it('--dry-run moves nothing and says what would move to failed/, with counts that match the jobs', async () => {
    const s = sandbox();
    s.globalHooks(DELIVER('touch ../ran', '  outbox_max_retries: 2\n').replace('outbox_retry_age_seconds: 0', 'outbox_retry_age_seconds: 60'));
    mkdirSync(outbox(s, 'pending'), { recursive: true });
    writeFileSync(join(outbox(s, 'pending'), 'a-garbage.json'), 'hello');
    pendingJob(s, 'b-tired', { retries: 2 });
    pendingJob(s, 'c-good');
    pendingJob(s, 'd-young', { retries: 1, last_started_at: new Date().toISOString() });
    const dry = await drain(s, ['--dry-run']);
    expect(dry.jobs.map((j: any) => [j.job_id, j.outcome])).toEqual([['a-garbage', 'invalid_job'], ['b-tired', 'max_retries'], ['c-good', 'would_run'], ['d-young', 'young']]);
    expect(dry.jobs[0].error).toContain('would move to failed/');
    expect(dry).toMatchObject({ considered: 4, failed: 0, would_fail: 2, would_run: 1, ran: 0, skipped: { young: 1 } });
    expect(readdirSync(outbox(s, 'pending')).sort()).toEqual(['a-garbage.json', 'b-tired.json', 'c-good.json', 'd-young.json']);
    expect(existsSync(join(s.root, 'ran'))).toBe(false);
    const human = await s.run(['drain-outbox', '--dry-run']);
    expect(human.stdout).toContain('4 pending considered, would run 1, would file 2 as failed');
    const real = await drain(s);
    const counted = real.done + real.failed + real.deferred + real.pending + real.would_run + real.would_fail + Object.values(real.skipped as Record<string, number>).reduce((a, b) => a + b, 0);
    expect([real.considered, counted]).toEqual([real.jobs.length, real.jobs.length]);
    expect(real).toMatchObject({ done: 1, failed: 2, skipped: { young: 1 } });
  });

  it('runs a job whose due_at is not a date, with a warning', async () => {
    const s = sandbox();
    s.globalHooks(DELIVER('true'));
    pendingJob(s, 'odd', { due_at: 'soon' });
    const out = await drain(s);
    expect(out).toMatchObject({ done: 1, warnings: [{ code: 'due_at_invalid' }] });
  });

  it('prints --prune-done --json in its documented shape', async () => {
    const s = sandbox();
    const r = await s.run(['drain-outbox', '--prune-done', '7', '--json']);
    expect(JSON.parse(r.stdout)).toEqual({ days: 7, pruned: [] });
  });
});
