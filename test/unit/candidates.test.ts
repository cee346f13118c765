// Reading pending/ for a drain pass: each file a job, or why it is not one.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { READS_PER_TURN, readCandidates } from '../../src/outbox/candidates.js';
import { outboxDir } from '../../src/outbox/store.js';

const jobText = (id: string): string => JSON.stringify({ job_id: id, hook_id: 'h', payload: {} });

function pending(): { configDir: string; dir: string } {
  const configDir = mkdtempSync(join(tmpdir(), 'chrys-candidates-'));
  const dir = outboxDir(configDir, 'pending');
  mkdirSync(dir, { recursive: true });
  return { configDir, dir };
}

describe('readCandidates', () => {
  it('parses each job file, in the order given, and says why a file is not a job', async () => {
    const { configDir, dir } = pending();
    writeFileSync(join(dir, 'b.json'), jobText('b'));
    writeFileSync(join(dir, 'a.json'), '{"job_id": "a", "hook_id": "h", "payload": {}, "retries": 2}');
    writeFileSync(join(dir, 'junk.json'), 'hello');
    writeFileSync(join(dir, 'list.json'), '[]');
    const got = await readCandidates(configDir, ['b', 'a', 'junk', 'list']);
    expect(got.map((c) => ('job' in c ? [c.fileId, c.job.job_id, c.job.retries] : [c.fileId, c.invalid]))).toEqual([
      ['b', 'b', 0], ['a', 'a', 2], ['junk', expect.stringMatching(/^not valid JSON: /)], ['list', 'not a JSON object'],
    ]);
  });

  it('marks a FIFO, a directory or a symlink as not a regular file, without opening it', async () => {
    const { configDir, dir } = pending();
    writeFileSync(join(dir, 'real.json'), jobText('real'));
    execFileSync('mkfifo', [join(dir, 'fifo.json')]);
    mkdirSync(join(dir, 'dir.json'));
    symlinkSync(join(dir, 'real.json'), join(dir, 'link.json'));
    expect(await readCandidates(configDir, ['fifo', 'dir', 'link'])).toEqual([
      { fileId: 'fifo', invalid: 'not a regular file' }, { fileId: 'dir', invalid: 'not a regular file' }, { fileId: 'link', invalid: 'not a regular file' },
    ]);
  });

  it('leaves out a file finished by someone else meanwhile', async () => {
    const { configDir, dir } = pending();
    writeFileSync(join(dir, 'here.json'), jobText('here'));
    expect((await readCandidates(configDir, ['gone', 'here'])).map((c) => c.fileId)).toEqual(['here']);
    expect(await readCandidates(configDir, [])).toEqual([]);
  });

  it('reads only the files it is given, not the others in pending/', async () => {
    const { configDir, dir } = pending();
    for (const id of ['given', 'other']) writeFileSync(join(dir, `${id}.json`), jobText(id));
    expect((await readCandidates(configDir, ['given'])).map((c) => c.fileId)).toEqual(['given']);
  });

  it('reads every one of many files, keeping their order, and lets the event loop run between batches', async () => {
    const { configDir, dir } = pending();
    const ids = Array.from({ length: READS_PER_TURN + 1 }, (_, i) => `j${String(i).padStart(3, '0')}`);
    for (const id of ids) writeFileSync(join(dir, `${id}.json`), jobText(id));
    const last = ids.at(-1)!;
    // Run by the event loop: before the last file is read only if the reading gave the loop a turn.
    setImmediate(() => rmSync(join(dir, `${last}.json`)));
    const read = await readCandidates(configDir, ids);
    expect(read.map((c) => ('job' in c ? c.job.job_id : c.invalid))).toEqual(ids.slice(0, -1));
  });
});
