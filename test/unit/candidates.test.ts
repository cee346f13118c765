// Reading pending/ for a drain pass: each file a job, or why it is not one.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readCandidates } from '../../src/outbox/candidates.js';
import { outboxDir } from '../../src/outbox/store.js';

const jobText = (id: string): string => JSON.stringify({ job_id: id, hook_id: 'h', payload: {} });

function pending(): { configDir: string; dir: string } {
  const configDir = mkdtempSync(join(tmpdir(), 'chrys-candidates-'));
  const dir = outboxDir(configDir, 'pending');
  mkdirSync(dir, { recursive: true });
  return { configDir, dir };
}

describe('readCandidates', () => {
  it('parses each job file, in the order given, and says why a file is not a job', () => {
    const { configDir, dir } = pending();
    writeFileSync(join(dir, 'b.json'), jobText('b'));
    writeFileSync(join(dir, 'a.json'), '{"job_id": "a", "hook_id": "h", "payload": {}, "retries": 2}');
    writeFileSync(join(dir, 'junk.json'), 'hello');
    writeFileSync(join(dir, 'list.json'), '[]');
    const got = readCandidates(configDir, ['b', 'a', 'junk', 'list']);
    expect(got.map((c) => ('job' in c ? [c.fileId, c.job.job_id, c.job.retries] : [c.fileId, c.invalid]))).toEqual([
      ['b', 'b', 0], ['a', 'a', 2], ['junk', expect.stringMatching(/^not valid JSON: /)], ['list', 'not a JSON object'],
    ]);
  });

  it('marks a FIFO, a directory or a symlink as not a regular file, without opening it', () => {
    const { configDir, dir } = pending();
    writeFileSync(join(dir, 'real.json'), jobText('real'));
    execFileSync('mkfifo', [join(dir, 'fifo.json')]);
    mkdirSync(join(dir, 'dir.json'));
    symlinkSync(join(dir, 'real.json'), join(dir, 'link.json'));
    expect(readCandidates(configDir, ['fifo', 'dir', 'link'])).toEqual([
      { fileId: 'fifo', invalid: 'not a regular file' }, { fileId: 'dir', invalid: 'not a regular file' }, { fileId: 'link', invalid: 'not a regular file' },
    ]);
  });

  it('leaves out a file finished by someone else meanwhile', () => {
    const { configDir, dir } = pending();
    writeFileSync(join(dir, 'here.json'), jobText('here'));
    expect(readCandidates(configDir, ['gone', 'here']).map((c) => c.fileId)).toEqual(['here']);
    expect(readCandidates(configDir, [])).toEqual([]);
  });

  it('reads only the files it is given, not the others in pending/', () => {
    const { configDir, dir } = pending();
    // `undefined.json` too: what a read past the end of the list would look for.
    for (const id of ['given', 'other', 'undefined']) writeFileSync(join(dir, `${id}.json`), jobText(id));
    expect(readCandidates(configDir, ['given']).map((c) => c.fileId)).toEqual(['given']);
  });

  it('reads every one of many files, keeping their order', () => {
    const { configDir, dir } = pending();
    const ids = Array.from({ length: 40 }, (_, i) => `j${String(i).padStart(2, '0')}`);
    for (const id of ids) writeFileSync(join(dir, `${id}.json`), jobText(id));
    expect(readCandidates(configDir, ids).map((c) => ('job' in c ? c.job.job_id : c.invalid))).toEqual(ids);
  });
});
