// fileJob (src/outbox/run-job.ts) fsyncs what may be the one record of an
// undelivered job (pending/, failed/), file and directory, and skips it for
// done/: a power cut there costs a record, never a delivery. fsync is
// watched, and still syncs.
import { fsync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { normaliseHooksFile } from '../../src/core/normalise.js';
import { newJob } from '../../src/outbox/job.js';
import { fileJob } from '../../src/outbox/run-job.js';
import { ensureOutbox, jobPath } from '../../src/outbox/store.js';

vi.mock(import('node:fs'), async (importOriginal) => {
  const real = await importOriginal();
  return { ...real, fsync: vi.fn(real.fsync) };
});
const realFs = await vi.importActual<typeof import('node:fs')>('node:fs');

describe('fileJob', () => {
  it.each([
    ['pending', ['file', 'dir']],
    ['failed', ['file', 'dir']],
    ['done', []],
  ] as const)('filing in %s/ fsyncs %j', async (folder, expected) => {
    const configDir = mkdtempSync(join(tmpdir(), 'chrys-file-job-'));
    ensureOutbox(configDir);
    const hook = normaliseHooksFile({ hooks: [{ id: 'deliver', event: 'after_tool_call', run: { type: 'shell', shell: 'true' }, execution: { mode: 'async', delivery: 'durable' } }] }, 'global', join(configDir, 'hooks', 'hooks.yaml')).hooks[0]!;
    const job = newJob(hook, { event: 'after_tool_call' }, new Date());
    // What each fsync synced, read while its fd is open.
    const kinds: string[] = [];
    vi.mocked(fsync).mockImplementation((fd, callback) => {
      kinds.push(realFs.fstatSync(fd).isDirectory() ? 'dir' : 'file');
      realFs.fsync(fd, callback);
    });
    try {
      await fileJob(configDir, job.job_id, { ...job, state: folder }, folder);
    } finally {
      vi.mocked(fsync).mockImplementation(realFs.fsync);
    }
    expect(kinds).toEqual(expected);
    expect(JSON.parse(readFileSync(jobPath(configDir, folder, job.job_id), 'utf8'))).toMatchObject({ job_id: job.job_id, state: folder });
  });
});
