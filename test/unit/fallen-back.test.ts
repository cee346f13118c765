// WithFallenBack (src/outbox/fallen-back.ts): the database's jobs and this
// machine's pending file jobs as one outbox. The file side is a real file
// outbox in a temp dir; the database side a table of entries, since what is
// tested is which side answers (the real pair: test/e2e/outbox-postgres.test.ts).
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ChrysError } from '../../src/core/errors.js';
import { type Change, type OutboxBackend, unknownJob } from '../../src/outbox/backend.js';
import { WithFallenBack } from '../../src/outbox/fallen-back.js';
import { FileOutbox } from '../../src/outbox/file-backend.js';
import type { JobState, OutboxEntry } from '../../src/outbox/view.js';

const job = (id: string, fields: Record<string, unknown> = {}): Record<string, unknown> => ({
  job_id: id, hook_id: 'h', event: 'after_turn', payload: { session_id: 's' }, created_at: '2026-12-01T00:00:00.000Z', state: 'pending', retries: 0, ...fields,
});

function fileOutbox(jobs: Record<string, [folder: string, fields?: Record<string, unknown>]>): FileOutbox {
  const configDir = mkdtempSync(join(tmpdir(), 'chrys-fallen-'));
  for (const [id, [folder, fields]] of Object.entries(jobs)) {
    const dir = join(configDir, 'hooks', 'outbox', folder);
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, `${id}.json`), JSON.stringify(job(id, fields)));
  }
  return new FileOutbox(configDir);
}

/** The database side: its entries, and what each call was asked. */
function database(entries: OutboxEntry[], failure?: Error): OutboxBackend & { asked: string[] } {
  const asked: string[] = [];
  const find = async (id: string): Promise<OutboxEntry> => {
    asked.push(id);
    if (failure) throw failure;
    const e = entries.find((x) => x.id === id);
    if (!e) throw unknownJob(id);
    return e;
  };
  const change = (outcome: Change['outcome']) => async (id: string): Promise<Change> => ({ job_id: (await find(id)).id, outcome, from: 'pending' });
  return {
    asked,
    list: async (state?: JobState) => entries.filter((e) => state === undefined || e.folder === state),
    show: find,
    retry: change('requeued'),
    drop: change('dropped'),
    retryFailed: async () => [{ job_id: 'db-failed', outcome: 'requeued', from: 'failed' }],
    watch: () => ({ close: () => {} }),
    liveOutput: () => ({ next: async () => [], close: () => {} }),
  };
}

const inDb = (id: string, folder: OutboxEntry['folder'] = 'pending'): OutboxEntry => ({ id, folder, job: job(id) as never });

describe('WithFallenBack', () => {
  it('lists the database\'s jobs, then the file outbox\'s pending and deferred ones, marked; never its failed or done ones', async () => {
    const files = fileOutbox({ 'f-pending': ['pending'], 'f-deferred': ['pending', { error: 'deferred' }], 'f-failed': ['failed'], 'f-done': ['done'] });
    const both = new WithFallenBack(database([inDb('db-1'), inDb('db-2', 'failed')]), files);
    const all = await both.list();
    expect(all.map((e) => [e.id, e.fallenBack === true])).toEqual([['db-1', false], ['db-2', false], ['f-deferred', true], ['f-pending', true]]);
    expect((await both.list('pending')).map((e) => e.id)).toEqual(['db-1', 'f-pending']);
    expect((await both.list('deferred')).map((e) => e.id)).toEqual(['f-deferred']);
    expect((await both.list('failed')).map((e) => e.id)).toEqual(['db-2']);
    expect((await both.list('done')).map((e) => e.id)).toEqual([]);
  });

  it('show, retry and drop ask the database first, and the file outbox only for a pending job the database does not know', async () => {
    const files = fileOutbox({ 'f-1': ['pending'], 'f-failed': ['failed'] });
    const db = database([inDb('db-1')]);
    const both = new WithFallenBack(db, files);
    expect(await both.show('db-1')).toEqual(inDb('db-1'));
    expect(await both.show('f-1')).toMatchObject({ id: 'f-1', folder: 'pending', fallenBack: true });
    expect(await both.retry('f-1')).toMatchObject({ job_id: 'f-1', outcome: 'requeued' });
    expect(await both.drop('f-1')).toMatchObject({ job_id: 'f-1', outcome: 'dropped' });
    await expect(both.show('f-1')).rejects.toMatchObject({ code: 'unknown_job' });
    // A failed file job is not one a drain would move in: the database's answer stands.
    await expect(both.drop('f-failed')).rejects.toMatchObject({ code: 'unknown_job' });
    expect(db.asked).toEqual(['db-1', 'f-1', 'f-1', 'f-1', 'f-1', 'f-failed']);
  });

  it('a database that fails otherwise fails the action: it is never taken for an unknown job', async () => {
    const down = new ChrysError('outbox_unreachable', 'cannot use the PostgreSQL outbox');
    const both = new WithFallenBack(database([], down), fileOutbox({ 'f-1': ['pending'] }));
    await expect(both.show('f-1')).rejects.toBe(down);
    await expect(both.drop('f-1')).rejects.toBe(down);
  });

  it('retries the database\'s failed jobs only', async () => {
    const both = new WithFallenBack(database([]), fileOutbox({ 'f-failed': ['failed'] }));
    expect(await both.retryFailed()).toEqual([{ job_id: 'db-failed', outcome: 'requeued', from: 'failed' }]);
  });
});
