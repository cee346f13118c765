// drain-outbox --watch as a unit: a Watcher over a real config dir, with real
// hook processes and small intervals. Every wait is on an event (a file, a
// callback), bounded by a deadline; nothing asserts how long anything took.
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Warning } from '../../src/core/diagnostics.js';
import type { JobReport } from '../../src/outbox/summary.js';
import { type WatchOptions, Watcher } from '../../src/outbox/watch.js';
import { type Sandbox, eventually, hookYaml, jobs, outbox, useSandbox } from '../helpers/sandbox.js';

const sandbox = useSandbox();

/** A durable hook `deliver` running `shell`, with fast retries unless `settings` say otherwise. */
function deliver(s: Sandbox, shell: string, settings: Record<string, number> = {}): void {
  const all = { outbox_retry_age_seconds: 0, outbox_retry_delay_seconds: 1, ...settings };
  const lines = Object.entries(all).map(([k, v]) => `  ${k}: ${v}\n`).join('');
  s.globalHooks(`settings:\n${lines}hooks:\n${hookYaml({ id: 'deliver', event: 'after_tool_call', run: `type: shell\nshell: '${shell}'`, execution: 'mode: async\ndelivery: durable' })}\n`);
}

/** Writes a pending job as a writer does: a temp file, then a rename. */
function pendingJob(s: Sandbox, id: string, fields: Record<string, unknown> = {}): void {
  const dir = outbox(s, 'pending');
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, `${id}.json.1.tmp`), JSON.stringify({
    job_id: id, hook_id: 'deliver', event: 'after_tool_call', payload: { event: 'after_tool_call', session_id: '' },
    created_at: new Date(Date.now() - 3600_000).toISOString(), hook_source: 'global', hook_source_path: join(s.configDir, 'hooks', 'hooks.yaml'),
    state: 'pending', retries: 0, last_started_at: null, last_finished_at: null, exit_code: null, error: null, stderr_tail: null, ...fields,
  }));
  renameSync(join(dir, `${id}.json.1.tmp`), join(dir, `${id}.json`));
}

interface Watching {
  watcher: Watcher;
  /** Resolves with run()'s result: how many jobs were left pending. */
  done: Promise<number>;
  ready: Promise<{ pending: string; watching: boolean }>;
  reports: JobReport[];
  warnings: Warning[];
}

function startWatch(s: Sandbox, opts: Partial<WatchOptions> = {}): Watching {
  const reports: JobReport[] = [];
  const warnings: Warning[] = [];
  let ready!: (info: { pending: string; watching: boolean }) => void;
  const readyP = new Promise<{ pending: string; watching: boolean }>((r) => (ready = r));
  const watcher = new Watcher({
    configDir: s.configDir, cwd: s.workspace, intervalSeconds: 3600,
    onJob: (r) => reports.push(r), onWarning: (w) => warnings.push(w), onReady: ready, ...opts,
  });
  return { watcher, done: watcher.run(), ready: readyP, reports, warnings };
}

async function stopped(w: Watching): Promise<number> {
  w.watcher.stop();
  return w.done;
}

describe('Watcher', () => {
  it('says it is watching pending/ after its first pass, runs what is due, and stops with nothing left', async () => {
    const s = sandbox();
    deliver(s, 'true');
    pendingJob(s, 'a-due');
    const w = startWatch(s);
    expect(await w.ready).toEqual({ pending: outbox(s, 'pending'), watching: true });
    await eventually(() => jobs(s, 'done').length === 1, 10_000, 'the due job to run');
    expect(await stopped(w)).toBe(0);
    expect(w.reports.map((r) => [r.job_id, r.outcome])).toEqual([['a-due', 'done']]);
  });

  it('runs a job written to pending/ while it sleeps, on the file event', async () => {
    const s = sandbox();
    deliver(s, 'true');
    const w = startWatch(s);
    await w.ready;
    pendingJob(s, 'b-new');
    await eventually(() => jobs(s, 'done').length === 1, 10_000, 'the new job to run');
    expect(await stopped(w)).toBe(0);
  });

  it('looks again at the interval when no event comes, and not sooner than a far due_at asks', async () => {
    const s = sandbox();
    deliver(s, 'true');
    pendingJob(s, 'later', { due_at: new Date(Date.now() + 3600_000).toISOString() });
    const w = startWatch(s, { intervalSeconds: 0.05 });
    await eventually(() => w.reports.length >= 3, 10_000, 'three passes');
    await stopped(w);
    expect(new Set(w.reports.map((r) => r.outcome))).toEqual(new Set(['not_due']));
  });

  it('runs a deferred job again when it is due, without an event', async () => {
    const s = sandbox();
    deliver(s, 'test -e ../tried && exit 0; touch ../tried; exit 75');
    pendingJob(s, 'c-later');
    const w = startWatch(s);
    await eventually(() => jobs(s, 'done').length === 1, 10_000, 'the deferred job to run again');
    await stopped(w);
    const outcomes = w.reports.map((r) => r.outcome);
    expect([outcomes[0], outcomes.at(-1), new Set(outcomes.slice(0, -1))]).toEqual(['deferred', 'done', new Set(['deferred'])]);
  });

  it('runs a young job once it is old enough, without an event', async () => {
    const s = sandbox();
    // Young for 5 s: the first pass must see it young, and on a machine loaded by a
    // mutation run it has taken over 1 s to come (seen with an age of 1 s).
    deliver(s, 'true', { outbox_retry_age_seconds: 5 });
    pendingJob(s, 'd-young', { retries: 1, last_started_at: new Date().toISOString() });
    const w = startWatch(s);
    await eventually(() => jobs(s, 'done').length === 1, 20_000, 'the young job to run');
    await stopped(w);
    expect(w.reports.map((r) => r.outcome)).toEqual(['young', 'done']);
  });

  it.each([
    ['the hooks file', ['hooks', 'hooks.yaml']],
    ['the user settings', ['settings.yaml']],
    ['the trust record', ['hooks', 'state', 'trust.json']],
  ])('looks again at once when %s changes', async (_what, path) => {
    const s = sandbox();
    deliver(s, 'true');
    mkdirSync(join(s.configDir, 'hooks', 'state'), { recursive: true });
    pendingJob(s, 'e-later', { due_at: new Date(Date.now() + 3600_000).toISOString() });
    const w = startWatch(s);
    await w.ready;
    expect(w.reports.map((r) => r.outcome)).toEqual(['not_due']);
    const file = join(s.configDir, ...path);
    writeFileSync(file, existsSync(file) ? `${readFileSync(file, 'utf8')}\n` : '{}\n');
    await eventually(() => w.reports.length === 2, 10_000, 'a pass after the change');
    await stopped(w);
  });

  it('recreates a deleted outbox and watches the new one', async () => {
    const s = sandbox();
    deliver(s, 'true');
    const w = startWatch(s);
    await w.ready;
    rmSync(join(s.configDir, 'hooks', 'outbox'), { recursive: true });
    await eventually(() => existsSync(outbox(s, 'pending')), 10_000, 'the outbox to be recreated');
    pendingJob(s, 'f-after');
    await eventually(() => jobs(s, 'done').length === 1, 10_000, 'the job in the new outbox to run');
    expect(await stopped(w)).toBe(0);
  });

  it('warns once when it cannot create the outbox, and keeps trying at the interval', async () => {
    const s = sandbox();
    deliver(s, 'true');
    s.write(join(s.configDir, 'hooks', 'outbox'), 'a file in the way');
    const w = startWatch(s, { intervalSeconds: 0.05 });
    expect(await w.ready).toEqual({ pending: outbox(s, 'pending'), watching: false });
    rmSync(join(s.configDir, 'hooks', 'outbox'));
    await eventually(() => existsSync(outbox(s, 'pending')), 10_000, 'the outbox to be created');
    await stopped(w);
    expect(w.warnings).toMatchObject([{ code: 'outbox_watch_unavailable', path: outbox(s, 'pending'), message: expect.stringMatching(/^cannot create .* trying again every 0\.05 s$/) }]);
  });

  it('on stop, lets a running job finish within shutdown_grace_seconds', async () => {
    const s = sandbox();
    deliver(s, 'touch ../started; while [ ! -e ../release ]; do sleep 0.02; done', { shutdown_grace_seconds: 60 });
    pendingJob(s, 'g-slow');
    const w = startWatch(s);
    await eventually(() => existsSync(join(s.root, 'started')), 10_000, 'the job to start');
    w.watcher.stop();
    writeFileSync(join(s.root, 'release'), '');
    expect(await w.done).toBe(0);
    expect(jobs(s, 'done').map((j) => j.job_id)).toEqual(['g-slow']);
  });

  /** Stops the watcher while job `id` (running `shell`, which touches ../started) runs past the grace: it stays pending. */
  async function stopMidJob(id: string, shell: string): Promise<Sandbox> {
    const s = sandbox();
    deliver(s, shell, { shutdown_grace_seconds: 0 });
    pendingJob(s, id);
    const w = startWatch(s);
    await eventually(() => existsSync(join(s.root, 'started')), 10_000, 'the job to start');
    expect(await stopped(w)).toBe(1);
    expect(readdirSync(outbox(s, 'pending'))).toEqual([`${id}.json`]);
    return s;
  }

  it('on stop, stops a job still running after the grace, and leaves it pending', async () => {
    const s = await stopMidJob('h-stuck', 'touch ../started; exec sleep 30');
    expect(jobs(s, 'pending')[0]).toMatchObject({ state: 'pending', retries: 1 });
  });

  it('on stop, sends a job still running after the grace SIGTERM first, so it can clean up', async () => {
    const s = await stopMidJob('i-tidy', 'trap "touch ../termed; exit 0" TERM; touch ../started; while :; do sleep 0.02; done');
    expect(existsSync(join(s.root, 'termed'))).toBe(true);
  });

  it('on stop, kills a job that ignores SIGTERM once the kill grace is over', async () => {
    await stopMidJob('j-deaf', 'trap "" TERM; touch ../started; while :; do sleep 0.02; done');
  });
});
