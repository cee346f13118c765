// Outbox upkeep: requeueing failed jobs, pruning old done ones, listing deferred ones.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { failedJobs, pruneDone, requeueFailed, waitingJobs } from '../../src/outbox/maintenance.js';
import { type Folder, jobPath, outboxDir } from '../../src/outbox/store.js';

afterEach(() => {
  vi.useRealTimers();
});

const DAY = 86_400_000;
const daysAgo = (n: number): string => new Date(Date.now() - n * DAY).toISOString();

function configWith(folder: Folder, files: Record<string, string | object>): string {
  const configDir = mkdtempSync(join(tmpdir(), 'chrys-maintenance-'));
  mkdirSync(outboxDir(configDir, folder), { recursive: true });
  for (const [name, content] of Object.entries(files)) writeFileSync(join(outboxDir(configDir, folder), name), typeof content === 'string' ? content : JSON.stringify(content));
  return configDir;
}
const job = (id: string, fields: object = {}): object => ({ job_id: id, hook_id: 'h', payload: {}, state: 'failed', retries: 3, error: 'max_retries', ...fields });

describe('requeueFailed', () => {
  it('moves failed jobs back to pending with a fresh start count, and reports a file it cannot parse', () => {
    const configDir = configWith('failed', { 'a.json': job('a', { custom: 'kept' }), 'b.json': 'not json' });
    const before = Date.now();
    expect(requeueFailed({ configDir })).toEqual([{ job_id: 'a', requeued: true }, { job_id: 'b', requeued: false, error: expect.stringMatching(/^not valid JSON: /) }]);
    const requeued = JSON.parse(readFileSync(jobPath(configDir, 'pending', 'a'), 'utf8'));
    expect(requeued).toMatchObject({ job_id: 'a', state: 'pending', retries: 0, error: null, custom: 'kept' });
    expect(Date.parse(requeued.requeued_at)).toBeGreaterThanOrEqual(before - 1000);
    expect(readdirSync(outboxDir(configDir, 'failed'))).toEqual(['b.json']);
  });

  it('makes a requeued job due at once: its due_at goes, and its requeued_at is after its last start', () => {
    const configDir = configWith('failed', { 'a.json': job('a', { due_at: daysAgo(-1), last_started_at: daysAgo(0), error: 'max_retries' }) });
    requeueFailed({ configDir });
    const requeued = JSON.parse(readFileSync(jobPath(configDir, 'pending', 'a'), 'utf8'));
    expect(requeued).not.toHaveProperty('due_at');
    expect(Date.parse(requeued.requeued_at)).toBeGreaterThanOrEqual(Date.parse(requeued.last_started_at));
  });

  it('leaves a FIFO or symlink in failed/ (the drain moved it there from pending/) and says it is not a regular file', () => {
    const configDir = configWith('failed', { 'a.json': job('a') });
    execFileSync('mkfifo', [jobPath(configDir, 'failed', 'fifo')]);
    symlinkSync(jobPath(configDir, 'failed', 'a'), jobPath(configDir, 'failed', 'link'));
    expect(requeueFailed({ configDir })).toEqual([
      { job_id: 'a', requeued: true },
      { job_id: 'fifo', requeued: false, error: 'not a regular file; left in failed/' },
      { job_id: 'link', requeued: false, error: 'not a regular file; left in failed/' },
    ]);
    expect(readdirSync(outboxDir(configDir, 'failed')).sort()).toEqual(['fifo.json', 'link.json']);
  });

  it('has nothing to requeue without a failed/ folder', () => {
    expect(requeueFailed({ configDir: mkdtempSync(join(tmpdir(), 'chrys-maintenance-')) })).toEqual([]);
  });
});

describe('pruneDone', () => {
  it('deletes done jobs finished more than `days` ago, and keeps newer ones', () => {
    const configDir = configWith('done', {
      'old.json': job('old', { last_finished_at: daysAgo(10) }),
      'new.json': job('new', { last_finished_at: daysAgo(1) }),
      'notes.txt': 'not a job',
    });
    expect(pruneDone({ configDir }, 7)).toEqual(['old']);
    expect(readdirSync(outboxDir(configDir, 'done')).sort()).toEqual(['new.json', 'notes.txt']);
  });

  it('goes by the file time when a job has no finish time or cannot be parsed', () => {
    const configDir = configWith('done', {
      'unfinished-old.json': job('u1'), 'unfinished-new.json': job('u2'), 'garbage-old.json': '{', 'bad-date.json': job('d', { last_finished_at: 'soon' }),
    });
    const old = new Date(Date.now() - 30 * DAY);
    for (const name of ['unfinished-old.json', 'garbage-old.json', 'bad-date.json']) utimesSync(join(outboxDir(configDir, 'done'), name), old, old);
    expect(pruneDone({ configDir }, 7).sort()).toEqual(['bad-date', 'garbage-old', 'unfinished-old']);
    expect(existsSync(jobPath(configDir, 'done', 'unfinished-new'))).toBe(true);
  });

  it('keeps a job finished exactly `days` ago: only older ones go', () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date('2026-12-08T12:00:00.000Z'));
    const configDir = configWith('done', {
      'edge.json': job('edge', { last_finished_at: '2026-12-01T12:00:00.000Z' }),
      'older.json': job('older', { last_finished_at: '2026-12-01T11:59:59.999Z' }),
    });
    expect(pruneDone({ configDir }, 7)).toEqual(['older']);
    expect(readdirSync(outboxDir(configDir, 'done'))).toEqual(['edge.json']);
  });

  it('prunes nothing without a done/ folder', () => {
    expect(pruneDone({ configDir: mkdtempSync(join(tmpdir(), 'chrys-maintenance-')) }, 0)).toEqual([]);
  });
});

describe('waitingJobs', () => {
  it('lists the pending jobs that said "not yet" and the queued (delayed, never started) ones, with their due time, starts and reason', () => {
    const configDir = configWith('pending', {
      'a.json': job('a', { state: 'pending', error: 'deferred', due_at: '2026-12-01T12:00:00Z', retries: 1, deferred_reason: 'exited with status 75 (not yet)' }),
      'b.json': job('b', { state: 'pending', error: 'deferred', due_at: '2026-12-02T12:00:00Z', deferred_reason: 7 }),
      'c.json': job('c', { state: 'pending', error: null, due_at: '2026-12-01T12:00:00Z' }),
      'd.json': job('d', { state: 'pending', error: 'deferred' }),
      'e.json': 'garbage',
    });
    expect(waitingJobs(configDir).deferred).toEqual([
      { job_id: 'a', hook_id: 'h', due_at: '2026-12-01T12:00:00Z', retries: 1, reason: 'exited with status 75 (not yet)' },
      { job_id: 'b', hook_id: 'h', due_at: '2026-12-02T12:00:00Z', retries: 3, reason: null },
    ]);
    expect(waitingJobs(configDir).queued).toEqual([{ job_id: 'c', hook_id: 'h', due_at: '2026-12-01T12:00:00Z', retries: 3, reason: null }]);
  });

  it('finds no outbox, and no error, for a config dir that is not a directory (config_dir_not_found says so)', () => {
    const root = mkdtempSync(join(tmpdir(), 'chrys-maintenance-'));
    writeFileSync(join(root, 'file'), 'not a config dir');
    for (const configDir of [join(root, 'file'), join(root, 'file', 'below')]) expect(waitingJobs(configDir)).toEqual({ queued: [], deferred: [] });
  });

  it('reports an unreadable outbox in a config dir that is one', () => {
    const configDir = mkdtempSync(join(tmpdir(), 'chrys-maintenance-'));
    mkdirSync(join(outboxDir(configDir, 'pending'), '..'), { recursive: true });
    writeFileSync(outboxDir(configDir, 'pending'), 'a file where a folder should be');
    expect(() => waitingJobs(configDir)).toThrow(expect.objectContaining({ code: 'outbox_unreadable', message: expect.stringContaining(outboxDir(configDir, 'pending')) }));
  });
});

describe('failedJobs', () => {
  it('names every job in failed/ with its hook, error and finish time, and a file that is not a job', () => {
    const configDir = configWith('failed', { 'a.json': job('a', { last_finished_at: '2026-12-01T12:00:00Z' }), 'b.json': '{' });
    expect(failedJobs(configDir)).toEqual([
      { job_id: 'a', hook_id: 'h', error: 'max_retries', failed_at: '2026-12-01T12:00:00Z' },
      { job_id: 'b', hook_id: '', error: expect.stringMatching(/^invalid_job: /), failed_at: null },
    ]);
  });

  it('names a FIFO or symlink in failed/ as not a regular file, without reading it', () => {
    const configDir = configWith('failed', { 'a.json': job('a') });
    execFileSync('mkfifo', [jobPath(configDir, 'failed', 'fifo')]);
    symlinkSync(jobPath(configDir, 'failed', 'a'), jobPath(configDir, 'failed', 'link'));
    expect(failedJobs(configDir)).toEqual([
      { job_id: 'a', hook_id: 'h', error: 'max_retries', failed_at: null },
      { job_id: 'fifo', hook_id: '', error: 'invalid_job: not a regular file', failed_at: null },
      { job_id: 'link', hook_id: '', error: 'invalid_job: not a regular file', failed_at: null },
    ]);
  });

  it('gives no error or finish time for a job whose fields are not strings', () => {
    const configDir = configWith('failed', { 'a.json': job('a', { error: 75, last_finished_at: 1_700_000_000 }) });
    expect(failedJobs(configDir)).toEqual([{ job_id: 'a', hook_id: 'h', error: null, failed_at: null }]);
  });
});
