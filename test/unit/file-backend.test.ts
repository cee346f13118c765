// The file outbox behind `chrys-hooks outbox` (outbox/file-backend.ts): list,
// show, retry, drop and watch on a real temp config dir, each change under the
// job's real claim (a lock held here makes it `running`). readJobText is
// watched, so a test can file a job elsewhere right after drop() looked at it.
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { ChrysError } from '../../src/core/errors.js';
import { withJobLock } from '../../src/outbox/claim.js';
import { FileOutbox } from '../../src/outbox/file-backend.js';
import type { Job } from '../../src/outbox/job.js';
import { readJobText } from '../../src/outbox/store.js';
import { eventually } from '../helpers/sandbox.js';

vi.mock(import('../../src/outbox/store.js'), async (importOriginal) => {
  const real = await importOriginal();
  return { ...real, readJobText: vi.fn(real.readJobText) };
});
const realStore = await vi.importActual<typeof import('../../src/outbox/store.js')>('../../src/outbox/store.js');

const HOUR_AGO = new Date(Date.now() - 3600_000).toISOString();

function outbox() {
  const configDir = mkdtempSync(join(tmpdir(), 'chrys-file-backend-'));
  const dir = (folder: string): string => join(configDir, 'hooks', 'outbox', folder);
  const put = (folder: string, id: string, fields: Record<string, unknown> = {}, text?: string): void => {
    mkdirSync(dir(folder), { recursive: true });
    const job = { job_id: id, hook_id: 'deliver', event: 'after_turn', payload: { session_id: 's' }, created_at: HOUR_AGO, state: folder === 'failed' ? 'failed' : folder === 'done' ? 'done' : 'pending', retries: 0, last_started_at: null, last_finished_at: null, exit_code: null, error: null, stderr_tail: null, ...fields };
    writeFileSync(join(dir(folder), `${id}.json`), text ?? JSON.stringify(job));
  };
  const read = (folder: string, id: string): Job | undefined => (existsSync(join(dir(folder), `${id}.json`)) ? (JSON.parse(readFileSync(join(dir(folder), `${id}.json`), 'utf8')) as Job) : undefined);
  const files = (folder: string): string[] => (existsSync(dir(folder)) ? readdirSync(dir(folder)).filter((f) => f.endsWith('.json')).sort() : []);
  return { configDir, dir, put, read, files, box: new FileOutbox(configDir) };
}

const code = async (p: Promise<unknown>): Promise<string> => {
  try {
    await p;
  } catch (e) {
    if (e instanceof ChrysError) return `${e.code}: ${e.message}`;
    throw e;
  }
  throw new Error('did not throw');
};

describe('FileOutbox.list and show', () => {
  it('lists every job, folder by folder, oldest first, skipping files that are not jobs', async () => {
    const o = outbox();
    o.put('pending', 'b');
    o.put('pending', 'a', { error: 'deferred', due_at: new Date(Date.now() + 60_000).toISOString() });
    o.put('pending', 'bad', {}, 'not json');
    o.put('done', 'c');
    o.put('failed', 'd', { error: 'exit_1' });
    const all = await o.box.list();
    expect(all.map((e) => [e.folder, e.id])).toEqual([['pending', 'a'], ['pending', 'b'], ['done', 'c'], ['failed', 'd']]);
    expect(all[0]!.job.error).toBe('deferred');
  });

  it('lists one state: deferred and pending are both read from pending/ and told apart', async () => {
    const o = outbox();
    o.put('pending', 'p');
    o.put('pending', 'q', { error: 'deferred' });
    o.put('done', 'c');
    o.put('failed', 'd');
    expect((await o.box.list('pending')).map((e) => e.id)).toEqual(['p']);
    expect((await o.box.list('deferred')).map((e) => e.id)).toEqual(['q']);
    expect((await o.box.list('done')).map((e) => e.id)).toEqual(['c']);
    expect((await o.box.list('failed')).map((e) => e.id)).toEqual(['d']);
  });

  it('reads only the folder of the state asked for: an unreadable other folder does not stop it', async () => {
    const o = outbox();
    o.put('pending', 'p');
    o.put('pending', 'q', { error: 'deferred' });
    for (const folder of ['done', 'failed']) writeFileSync(o.dir(folder), 'a file where a folder should be');
    expect((await o.box.list('pending')).map((e) => e.id)).toEqual(['p']);
    expect((await o.box.list('deferred')).map((e) => e.id)).toEqual(['q']);
    expect(await code(o.box.list())).toMatch(/^outbox_unreadable: cannot read the outbox at .*\/done \(ENOTDIR\)$/);
  });

  it('lists nothing for an outbox that was never made', async () => {
    expect(await outbox().box.list()).toEqual([]);
  });

  it('shows a job from any folder by its file id', async () => {
    const o = outbox();
    o.put('done', 'x', { exit_code: 0 });
    const e = await o.box.show('x');
    expect(e).toMatchObject({ id: 'x', folder: 'done', job: { job_id: 'x', exit_code: 0 } });
  });

  it('shows the pending copy first when a job is in two folders', async () => {
    const o = outbox();
    o.put('pending', 'x');
    o.put('failed', 'x');
    expect((await o.box.show('x')).folder).toBe('pending');
  });

  it('refuses an unknown id, one that is not a job, and one that could name another path', async () => {
    const o = outbox();
    o.put('pending', 'bad', {}, '[]');
    mkdirSync(join(o.configDir, 'hooks', 'outbox'), { recursive: true });
    writeFileSync(join(o.configDir, 'hooks', 'outbox', 'escape.json'), JSON.stringify({ job_id: 'e', hook_id: 'h', payload: {} }));
    expect(await code(o.box.show('nope'))).toBe('unknown_job: no job "nope" in the outbox');
    expect(await code(o.box.show('bad'))).toBe('unknown_job: no job "bad" in the outbox');
    expect(await code(o.box.show('../escape'))).toMatch(/^unknown_job: /);
    expect(await code(o.box.show('.hidden'))).toMatch(/^unknown_job: /);
    expect(await code(o.box.show(''))).toMatch(/^unknown_job: /);
  });

  it('says where to find the job ids when it refuses one, and which jobs can be changed when it refuses a done one', async () => {
    const o = outbox();
    o.put('done', 'd');
    await expect(o.box.show('nope')).rejects.toMatchObject({ code: 'unknown_job', hint: 'run `chrys-hooks outbox list` for the job ids' });
    await expect(o.box.drop('d')).rejects.toMatchObject({ code: 'refused', hint: 'only pending, deferred and failed jobs can be' });
  });

  it('takes ids with dots, dashes and underscores', async () => {
    const o = outbox();
    o.put('pending', '20261204T120000000Z-ab_c.d');
    expect((await o.box.show('20261204T120000000Z-ab_c.d')).id).toBe('20261204T120000000Z-ab_c.d');
    o.put('pending', '_x');
    expect((await o.box.show('_x')).id).toBe('_x');
  });
});

describe('FileOutbox.retry', () => {
  it('makes a pending job due at once, keeping its start count', async () => {
    const o = outbox();
    o.put('pending', 'p', { retries: 2, due_at: new Date(Date.now() + 600_000).toISOString(), error: 'deferred' });
    expect(await o.box.retry('p')).toEqual({ job_id: 'p', outcome: 'requeued', from: 'deferred' });
    const job = o.read('pending', 'p')!;
    expect(job.due_at).toBeUndefined();
    expect(job.retries).toBe(2);
    expect(job.error).toBeNull();
    expect(typeof job.requeued_at).toBe('string');
  });

  it('moves a failed job back to pending with a fresh start count', async () => {
    const o = outbox();
    o.put('failed', 'f', { retries: 5, error: 'max_retries' });
    expect(await o.box.retry('f')).toEqual({ job_id: 'f', outcome: 'requeued', from: 'failed' });
    expect(o.files('failed')).toEqual([]);
    expect(o.read('pending', 'f')).toMatchObject({ retries: 0, state: 'pending', error: null });
  });

  it('refuses a done job', async () => {
    const o = outbox();
    o.put('done', 'd');
    expect(await code(o.box.retry('d'))).toBe('refused: job "d" is done; it cannot be retried');
    expect(o.files('done')).toEqual(['d.json']);
  });

  it('leaves a job whose claim is held as it is, and says running', async () => {
    const o = outbox();
    o.put('failed', 'f', { retries: 5 });
    const held = await withJobLock(o.configDir, 'f', () => o.box.retry('f'));
    expect(held).toEqual({ claimed: true, value: { job_id: 'f', outcome: 'running', from: 'failed' } });
    expect(o.files('failed')).toEqual(['f.json']);
    expect(o.read('failed', 'f')!.retries).toBe(5);
  });

  it('retries every failed job and nothing else', async () => {
    const o = outbox();
    o.put('failed', 'f1');
    o.put('failed', 'f2');
    o.put('failed', 'junk', {}, '{');
    o.put('pending', 'p', { retries: 1 });
    expect(await o.box.retryFailed()).toEqual([
      { job_id: 'f1', outcome: 'requeued', from: 'failed' },
      { job_id: 'f2', outcome: 'requeued', from: 'failed' },
    ]);
    expect(o.files('pending')).toEqual(['f1.json', 'f2.json', 'p.json']);
    expect(o.files('failed')).toEqual(['junk.json']);
    expect(o.read('pending', 'p')!.requeued_at).toBeUndefined();
  });
});

describe('FileOutbox.drop', () => {
  it('removes a pending or a failed job for good', async () => {
    const o = outbox();
    o.put('pending', 'p');
    o.put('failed', 'f');
    expect(await o.box.drop('p')).toEqual({ job_id: 'p', outcome: 'dropped', from: 'pending' });
    expect(await o.box.drop('f')).toEqual({ job_id: 'f', outcome: 'dropped', from: 'failed' });
    expect([...o.files('pending'), ...o.files('failed')]).toEqual([]);
  });

  it('refuses a done job, and keeps one whose claim is held', async () => {
    const o = outbox();
    o.put('done', 'd');
    o.put('pending', 'p', { error: 'deferred' });
    expect(await code(o.box.drop('d'))).toBe('refused: job "d" is done; it cannot be dropped');
    const held = await withJobLock(o.configDir, 'p', () => o.box.drop('p'));
    expect(held).toEqual({ claimed: true, value: { job_id: 'p', outcome: 'running', from: 'deferred' } });
    expect(o.files('pending')).toEqual(['p.json']);
  });

  it('says unknown_job when the job was filed elsewhere between the look and the claim', async () => {
    const o = outbox();
    o.put('pending', 'p');
    // drop() looks the job up, then takes its claim: a drain files the job in between.
    vi.mocked(readJobText).mockClear();
    vi.mocked(readJobText).mockImplementationOnce((...args) => {
      const text = realStore.readJobText(...args);
      mkdirSync(o.dir('done'), { recursive: true });
      renameSync(join(o.dir('pending'), 'p.json'), join(o.dir('done'), 'p.json'));
      return text;
    });
    expect(await code(o.box.drop('p'))).toBe('unknown_job: no job "p" in the outbox');
    expect(readJobText).toHaveBeenCalledTimes(2);
    expect(o.files('done')).toEqual(['p.json']);
  });
});

describe('FileOutbox.watch', () => {
  it('calls back when pending/ changes, and not once closed', async () => {
    const o = outbox();
    o.put('pending', 'p');
    let changes = 0;
    const w = o.box.watch(() => changes++);
    try {
      o.put('pending', 'q');
      await eventually(() => changes > 0, 10_000, 'a change');
    } finally {
      w.close();
    }
  });
});
