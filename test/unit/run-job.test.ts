// Running one durable job under its claim, with real hook processes: the start
// is counted first, and the job is filed as done, failed, deferred or left pending.
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { Hook } from '../../src/core/config.js';
import { normaliseHooksFile } from '../../src/core/normalise.js';
import { withJobLock } from '../../src/outbox/claim.js';
import { type Job, newJob, writeJob } from '../../src/outbox/job.js';
import { type JobRunOptions, fileJob, jobRunHistoryStatus, runDurableJob, unstartedSince } from '../../src/outbox/run-job.js';
import { liveLogPath } from '../../src/run/live-log.js';
import { ensureOutbox, jobPath, locksDir } from '../../src/outbox/store.js';
import { TempFiles } from '../../src/run/runtime.js';
import { eventually, isAlive } from '../helpers/sandbox.js';

const children: ChildProcess[] = [];
afterEach(() => {
  for (const c of children.splice(0)) {
    try {
      process.kill(-c.pid!, 'SIGKILL');
    } catch {
      // already gone
    }
  }
});

interface Outbox {
  configDir: string;
  /** A scratch directory the hooks write into. */
  marks: string;
  hook: (shell: string, execution?: object) => Hook;
  /** Writes a pending job for `hook`; returns its id. */
  pending: (hook: Hook, fields?: Partial<Job>) => string;
  read: (folder: 'pending' | 'done' | 'failed', id: string) => Job | undefined;
  run: (id: string, hook: Hook, opts?: JobRunOptions) => ReturnType<typeof runDurableJob>;
}

function outbox(): Outbox {
  const configDir = mkdtempSync(join(tmpdir(), 'chrys-run-job-'));
  const marks = join(configDir, 'marks');
  mkdirSync(marks);
  ensureOutbox(configDir);
  const temp = new TempFiles(configDir);
  return {
    configDir,
    marks,
    hook: (shell, execution = {}) => normaliseHooksFile({ hooks: [{ id: 'deliver', event: 'after_tool_call', run: { type: 'shell', shell }, execution: { mode: 'async', delivery: 'durable', ...execution } }] }, 'global', join(configDir, 'hooks', 'hooks.yaml')).hooks[0]!,
    pending: (hook, fields = {}) => {
      const job = { ...newJob(hook, { event: 'after_tool_call', session_id: 's1', n: 1 as never }, new Date(Date.now() - 3600_000)), ...fields };
      writeJob(configDir, 'pending', job);
      return job.job_id;
    },
    read: (folder, id) => (existsSync(jobPath(configDir, folder, id)) ? JSON.parse(readFileSync(jobPath(configDir, folder, id), 'utf8')) : undefined),
    run: (id, hook, opts) => runDurableJob(configDir, id, hook, { configDir, workspace: marks, sessionId: 's1', profile: '' }, temp, opts),
  };
}

describe('runDurableJob', () => {
  it('counts the start, runs the hook with the payload, keeps a log and files the job in done/', async () => {
    const o = outbox();
    const hook = o.hook(`cat > ${o.marks}/payload; echo out; echo err >&2`);
    const id = o.pending(hook);
    const before = new Date().toISOString();
    const run = await o.run(id, hook);
    expect(run).toMatchObject({ outcome: 'done', warnings: [], record: { status: 'ok', exitCode: 0 } });
    expect(JSON.parse(readFileSync(join(o.marks, 'payload'), 'utf8'))).toEqual({ event: 'after_tool_call', session_id: 's1', n: 1 });
    const filed = o.read('done', id)!;
    expect(o.read('pending', id)).toBeUndefined();
    expect(filed).toMatchObject({ job_id: id, state: 'done', retries: 1, exit_code: 0, error: null, stderr_tail: 'err\n', log_path: run.logPath });
    expect(filed.last_started_at! >= before && filed.last_finished_at! >= filed.last_started_at!).toBe(true);
    expect(run.job).toMatchObject({ state: 'done', retries: 1, last_started_at: filed.last_started_at, log_path: run.logPath });
    expect(readFileSync(run.logPath!, 'utf8')).toContain('out');
  });

  it('files a failed run in failed/ with its exit code, error and stderr tail', async () => {
    const o = outbox();
    const hook = o.hook('echo broken >&2; exit 3');
    const id = o.pending(hook, { retries: 1 });
    const run = await o.run(id, hook);
    expect(run.outcome).toBe('failed');
    expect(o.read('failed', id)).toMatchObject({ state: 'failed', retries: 2, exit_code: 3, stderr_tail: 'broken\n', error: run.record!.error ?? run.record!.status });
    expect(o.read('failed', id)!.error).toEqual(expect.any(String));
  });

  it('records no stderr tail for a quiet failure', async () => {
    const o = outbox();
    const hook = o.hook('exit 1');
    const id = o.pending(hook);
    await o.run(id, hook);
    expect(o.read('failed', id)).toMatchObject({ stderr_tail: null, exit_code: 1 });
  });

  it('defers a run that exits 75, back in pending/ due after the policy\'s delay', async () => {
    const o = outbox();
    const hook = o.hook('exit 75');
    const id = o.pending(hook);
    const before = Date.now();
    const run = await o.run(id, hook, { retry: { delaySeconds: 30, maxRetries: 3 } });
    expect(run.outcome).toBe('deferred');
    const filed = o.read('pending', id)!;
    expect(filed).toMatchObject({ state: 'pending', retries: 1, error: 'deferred', deferred_reason: 'exited with status 75 (not yet)', exit_code: 75 });
    expect(Date.parse(filed.due_at!) - before).toBeGreaterThanOrEqual(30_000 - 1000);
    expect(Date.parse(filed.due_at!) - Date.now()).toBeLessThanOrEqual(30_000);
  });

  it('defers by the default policy when given none', async () => {
    const o = outbox();
    const hook = o.hook('exit 75');
    const id = o.pending(hook);
    const before = Date.now();
    expect((await o.run(id, hook)).outcome).toBe('deferred');
    expect(Date.parse(o.read('pending', id)!.due_at!) - before).toBeGreaterThanOrEqual(60_000 - 1000);
  });

  it('fails a "not yet" that used the last start, saying why it was deferred', async () => {
    const o = outbox();
    const hook = o.hook('exit 75');
    const id = o.pending(hook, { retries: 2 });
    expect((await o.run(id, hook, { retry: { delaySeconds: 1, maxRetries: 3 } })).outcome).toBe('failed');
    expect(o.read('failed', id)).toMatchObject({ state: 'failed', retries: 3, error: 'max_retries', deferred_reason: 'exited with status 75 (not yet)' });
  });

  it('passes on the warning about a retry_after_seconds out of range', async () => {
    const o = outbox();
    const hook = o.hook('echo \'{"retry_after_seconds": -5}\' > "$CHRYS_HOOK_RESULT"');
    const id = o.pending(hook);
    const run = await o.run(id, hook, { retry: { delaySeconds: 9, maxRetries: 3 } });
    expect(run).toMatchObject({ outcome: 'deferred', warnings: [{ code: 'retry_after_invalid', hook: 'deliver' }] });
    expect(o.read('pending', id)!.deferred_reason).toBe('asked to be retried after 0 s');
    expect(readFileSync(run.logPath!, 'utf8')).toContain('retry_after_seconds');
  });

  it('leaves a cancelled run pending, its start counted', async () => {
    const o = outbox();
    const hook = o.hook(`touch ${o.marks}/ran`);
    const id = o.pending(hook);
    expect((await o.run(id, hook, { cancelled: () => true })).outcome).toBe('pending');
    expect(existsSync(join(o.marks, 'ran'))).toBe(true);
    expect(o.read('pending', id)).toMatchObject({ state: 'pending', retries: 1 });
  });

  it('leaves a cancelled run pending, not deferred, whatever its hook asked', async () => {
    const o = outbox();
    const hook = o.hook('exit 75');
    const id = o.pending(hook);
    expect((await o.run(id, hook, { cancelled: () => true })).outcome).toBe('pending');
    const job = o.read('pending', id)!;
    expect(job).toMatchObject({ state: 'pending', retries: 1 });
    expect(job.error).not.toBe('deferred');
    expect(job.due_at).toBeUndefined();
  });

  it('does not start a job it cannot read, and says why', async () => {
    const o = outbox();
    const hook = o.hook(`touch ${o.marks}/ran`);
    const pending = join(o.configDir, 'hooks', 'outbox', 'pending');
    rmSync(pending, { recursive: true });
    writeFileSync(pending, 'a file where the folder should be');
    expect(await o.run('j', hook)).toEqual({ outcome: 'pending', error: `cannot read the outbox at ${join(pending, 'j.json')} (ENOTDIR); not started`, warnings: [] });
    expect(existsSync(join(o.marks, 'ran'))).toBe(false);
  });

  it('kills a hook at its timeout', async () => {
    const o = outbox();
    const hook = o.hook('sleep 30', { timeout_seconds: 1 });
    const id = o.pending(hook);
    const run = await o.run(id, hook);
    expect(run.record).toMatchObject({ status: 'timeout' });
    expect(run.outcome).not.toBe('done');
  });

  it('notes the hook\'s process group next to the lock while it runs, and tells onSpawn', async () => {
    const o = outbox();
    // The note is written once the spawn returns: the hook waits for it (bounded).
    const hook = o.hook(`for i in $(seq 500); do ls "${locksDir(o.configDir)}"/*.pgid >/dev/null 2>&1 && break; sleep 0.01; done; cp "${locksDir(o.configDir)}"/*.pgid ${o.marks}/seen`);
    const id = o.pending(hook);
    const spawned: number[] = [];
    await o.run(id, hook, { onSpawn: (pid) => spawned.push(pid) });
    expect(spawned).toHaveLength(1);
    expect(readFileSync(join(o.marks, 'seen'), 'utf8')).toBe(String(spawned[0]));
    expect(existsSync(join(locksDir(o.configDir), `${id}.pgid`))).toBe(false);
  });

  it('does not run a job whose file is gone, or one claimed by someone else', async () => {
    const o = outbox();
    const hook = o.hook(`touch ${o.marks}/ran`);
    expect(await o.run('never-written', hook)).toEqual({ outcome: 'gone', warnings: [] });
    const id = o.pending(hook);
    const inner = await withJobLock(o.configDir, id, () => o.run(id, hook));
    expect(inner).toEqual({ claimed: true, value: { outcome: 'claimed', warnings: [] } });
    expect(existsSync(join(o.marks, 'ran'))).toBe(false);
    expect(o.read('pending', id)).toMatchObject({ retries: 0, state: 'pending' });
  });

  it('does not start a job someone else started since the caller chose it (a worker and a drain on one fresh job)', async () => {
    const o = outbox();
    const hook = o.hook(`echo ran >> ${join(o.marks, 'ran')}; exit 75`);
    const id = o.pending(hook);
    const chosen = o.read('pending', id)!;
    // The first claimant runs it; the hook says "not yet", so the job is back in pending/, due later.
    expect((await o.run(id, hook, { seen: chosen })).outcome).toBe('deferred');
    // The second claimant chose the same fresh job before that start: it must not start it again.
    expect(await o.run(id, hook, { seen: chosen })).toMatchObject({ outcome: 'claimed' });
    expect(readFileSync(join(o.marks, 'ran'), 'utf8')).toBe('ran\n');
    expect(o.read('pending', id)).toMatchObject({ retries: 1, error: 'deferred' });
    // The one that saw the job as it is now may run it.
    expect((await o.run(id, hook, { seen: o.read('pending', id)! })).outcome).toBe('deferred');
  });

  it('does not start a job requeued with a fresh start count since the caller chose it', async () => {
    const o = outbox();
    const hook = o.hook(`touch ${o.marks}/ran`);
    // Chosen fresh; meanwhile it was started, failed and requeued (`outbox retry`): the count is 0 again, the start time is not.
    const id = o.pending(hook, { retries: 0, last_started_at: new Date().toISOString() });
    expect(await o.run(id, hook, { seen: { retries: 0, last_started_at: null } })).toEqual({ outcome: 'claimed', warnings: [] });
    expect(existsSync(join(o.marks, 'ran'))).toBe(false);
  });

  it('counts the start in the job file, marked running, before the hook runs', async () => {
    const o = outbox();
    const id = o.pending(o.hook('true'));
    const hook = o.hook(`cat "${jobPath(o.configDir, 'pending', id)}" > "${o.marks}/during"`);
    const before = Date.now();
    expect((await o.run(id, hook)).outcome).toBe('done');
    const during = JSON.parse(readFileSync(join(o.marks, 'during'), 'utf8')) as Job;
    expect(during).toMatchObject({ job_id: id, state: 'running', retries: 1 });
    expect(Date.parse(during.last_started_at!)).toBeGreaterThanOrEqual(before - 1000);
  });

  it('removes the live log once the run is over, one an earlier killed start left included', async () => {
    const o = outbox();
    const hook = o.hook('echo some output');
    const id = o.pending(hook);
    const live = liveLogPath(o.configDir, id)!;
    mkdirSync(join(live, '..'), { recursive: true });
    writeFileSync(live, 'what a killed start printed');
    expect((await o.run(id, hook)).outcome).toBe('done');
    expect(existsSync(live)).toBe(false);
  });

  it('files a refused job in failed/ with the reason, without starting it', async () => {
    const o = outbox();
    const hook = o.hook(`touch ${o.marks}/ran`);
    const id = o.pending(hook);
    const seen: string[] = [];
    const run = await o.run(id, hook, { refuse: (job) => (seen.push(job.job_id), 'already ran this session') });
    expect(run).toMatchObject({ outcome: 'failed', warnings: [], job: { state: 'failed', error: 'already ran this session', retries: 0 } });
    expect(seen).toEqual([id]);
    expect(o.read('failed', id)).toMatchObject({ state: 'failed', error: 'already ran this session', retries: 0 });
    expect(existsSync(join(o.marks, 'ran'))).toBe(false);
    const allowed = o.pending(hook);
    expect((await o.run(allowed, hook, { refuse: () => undefined })).outcome).toBe('done');
  });

  it('does not start a job again while the process group of its previous run is alive', async () => {
    const o = outbox();
    const hook = o.hook(`touch ${o.marks}/ran`);
    const id = o.pending(hook);
    const previous = spawn('sleep', ['30'], { detached: true, stdio: 'ignore' });
    children.push(previous);
    await new Promise((r) => previous.once('spawn', r));
    const note = join(locksDir(o.configDir), `${id}.pgid`);
    writeFileSync(note, String(previous.pid));
    expect(await o.run(id, hook)).toEqual({ outcome: 'claimed', warnings: [] });
    expect(existsSync(join(o.marks, 'ran'))).toBe(false);
    expect(existsSync(note)).toBe(true);

    previous.kill('SIGKILL');
    await new Promise((r) => previous.once('exit', r));
    await eventually(() => !isAlive(previous.pid!), 10_000, 'the previous run to be gone');
    expect((await o.run(id, hook)).outcome).toBe('done');
    expect(existsSync(join(o.marks, 'ran'))).toBe(true);
  });

  it('ignores a process-group note that is not a pid', async () => {
    const o = outbox();
    const hook = o.hook(`touch ${o.marks}/ran`);
    for (const text of ['', 'garbage', '-1', '0', '1.5']) {
      const id = o.pending(hook);
      writeFileSync(join(locksDir(o.configDir), `${id}.pgid`), text);
      expect([text, (await o.run(id, hook)).outcome]).toEqual([text, 'done']);
    }
  });

  it('stays pending, with the reason, when the ran job cannot be filed', async () => {
    const o = outbox();
    const hook = o.hook(`touch ${o.marks}/ran`);
    const id = o.pending(hook);
    rmSync(join(o.configDir, 'hooks', 'outbox', 'done'), { recursive: true });
    writeFileSync(join(o.configDir, 'hooks', 'outbox', 'done'), 'not a folder');
    const run = await o.run(id, hook);
    expect(run).toMatchObject({ outcome: 'pending', error: expect.stringMatching(/^ran, but cannot file the job \(\w+\); it stays pending$/), record: { status: 'ok' } });
    expect(existsSync(join(o.marks, 'ran'))).toBe(true);
  });
});

describe('a detached durable job (detach: true): delivered by its launch', () => {
  it('is done once the process started: not waited for, its log kept, history "started"', async () => {
    const o = outbox();
    const hook = o.hook(`while [ ! -e ${o.marks}/go ]; do sleep 0.02; done; echo late > ${o.marks}/late`, { mode: 'fire_and_forget', detach: true });
    const id = o.pending(hook);
    const run = await o.run(id, hook);
    expect(run).toMatchObject({ outcome: 'done', launched: { pid: expect.any(Number) }, warnings: [], logPath: expect.any(String) });
    expect(run.record).toBeUndefined();
    expect(jobRunHistoryStatus(run)).toBe('started');
    expect(o.read('done', id)).toMatchObject({ job_id: id, state: 'done', retries: 1 });
    expect(o.read('pending', id)).toBeUndefined();
    // It runs on after the job was filed, in a group of its own.
    expect(isAlive(run.launched!.pid)).toBe(true);
    writeFileSync(join(o.marks, 'go'), '');
    await eventually(() => existsSync(join(o.marks, 'late')));
  });

  it('is failed, with the launch error and its end time, when the process cannot start', async () => {
    const o = outbox();
    const hook = normaliseHooksFile({ hooks: [{ id: 'deliver', event: 'after_tool_call', run: { type: 'command', argv: [join(o.marks, 'missing')] }, execution: { mode: 'fire_and_forget', delivery: 'durable', detach: true } }] }, 'global', join(o.configDir, 'hooks', 'hooks.yaml')).hooks[0]!;
    const id = o.pending(hook);
    const run = await o.run(id, hook);
    expect(run).toMatchObject({ outcome: 'failed', record: { status: 'launch_error' }, warnings: [] });
    expect(run.launched).toBeUndefined();
    expect(jobRunHistoryStatus(run)).toBe('launch_error');
    const filed = o.read('failed', id)!;
    expect(filed).toMatchObject({ state: 'failed', retries: 1, error: run.record!.error });
    expect(filed.error).toContain('missing');
    expect(Date.parse(filed.last_finished_at!)).toBeGreaterThan(0);
  });

  it('stays pending, saying it started, when the launched job cannot be filed', async () => {
    const o = outbox();
    const hook = o.hook(`touch ${o.marks}/ran`, { mode: 'fire_and_forget', detach: true });
    const id = o.pending(hook);
    rmSync(join(o.configDir, 'hooks', 'outbox', 'done'), { recursive: true });
    writeFileSync(join(o.configDir, 'hooks', 'outbox', 'done'), 'not a folder');
    const run = await o.run(id, hook);
    expect(run).toMatchObject({ outcome: 'pending', launched: { pid: expect.any(Number) }, error: expect.stringMatching(/^started, but cannot file the job \(\w+\); it stays pending$/) });
    await eventually(() => existsSync(join(o.marks, 'ran')));
  });

  it('stays pending, saying it could not start, when the failed launch cannot be filed', async () => {
    const o = outbox();
    const hook = normaliseHooksFile({ hooks: [{ id: 'deliver', event: 'after_tool_call', run: { type: 'command', argv: [join(o.marks, 'missing')] }, execution: { mode: 'fire_and_forget', delivery: 'durable', detach: true } }] }, 'global', join(o.configDir, 'hooks', 'hooks.yaml')).hooks[0]!;
    const id = o.pending(hook);
    rmSync(join(o.configDir, 'hooks', 'outbox', 'failed'), { recursive: true });
    writeFileSync(join(o.configDir, 'hooks', 'outbox', 'failed'), 'not a folder');
    const run = await o.run(id, hook);
    expect(run).toMatchObject({ outcome: 'pending', record: { status: 'launch_error' }, error: expect.stringMatching(/^could not start, but cannot file the job \(\w+\); it stays pending$/) });
  });
});

describe('unstartedSince', () => {
  const job = (retries: number, last_started_at: string | null | undefined): Job => ({ job_id: 'j', hook_id: 'h', payload: {}, retries, last_started_at }) as unknown as Job;

  it('holds while the start count and the last start are as seen (no start time being null, missing or empty alike)', () => {
    expect(unstartedSince(job(2, '2026-12-01T12:00:00.000Z'), { retries: 2, last_started_at: '2026-12-01T12:00:00.000Z' })).toBe(true);
    expect(unstartedSince(job(0, undefined), { retries: 0, last_started_at: null })).toBe(true);
    expect(unstartedSince(job(0, ''), { retries: 0, last_started_at: null })).toBe(true);
  });

  it('fails when either changed: a start counted, or a start since a requeue reset the count', () => {
    expect(unstartedSince(job(1, null), { retries: 0, last_started_at: null })).toBe(false);
    expect(unstartedSince(job(0, '2026-12-01T12:00:00.000Z'), { retries: 0, last_started_at: null })).toBe(false);
  });
});

describe('fileJob', () => {
  it('rewrites the pending file, then moves it to its folder', async () => {
    const o = outbox();
    const hook = o.hook('true');
    const id = o.pending(hook);
    await fileJob(o.configDir, id, { ...o.read('pending', id)!, state: 'done', note: 'x' }, 'done');
    expect(o.read('pending', id)).toBeUndefined();
    expect(o.read('done', id)).toMatchObject({ state: 'done', note: 'x' });
    await fileJob(o.configDir, id, { ...o.read('done', id)!, state: 'pending' }, 'pending');
    expect(o.read('pending', id)).toMatchObject({ state: 'pending' });
  });
});
