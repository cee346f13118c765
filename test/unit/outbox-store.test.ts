import { mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ChrysError, EXIT } from '../../src/core/errors.js';
import { jobPath, listJobs, outboxDir, readJobText } from '../../src/outbox/store.js';

const fresh = (): string => mkdtempSync(join(tmpdir(), 'chrys-store-'));

/** A config dir whose outbox/pending is a file: readdir and open below it fail with ENOTDIR, as root too. */
function pendingIsAFile(): string {
  const configDir = fresh();
  const pending = outboxDir(configDir, 'pending');
  mkdirSync(join(pending, '..'), { recursive: true });
  writeFileSync(pending, 'not a folder');
  return configDir;
}

const unreadable = (path: string) => expect.objectContaining({ code: 'outbox_unreadable', exitCode: EXIT.ioError, message: expect.stringContaining(path) });

describe('listJobs', () => {
  it('lists job ids oldest first, skipping dot files and other names', async () => {
    const configDir = fresh();
    mkdirSync(outboxDir(configDir, 'pending'), { recursive: true });
    for (const name of ['2-b.json', '1-a.json', '.hidden.json', 'note.txt']) writeFileSync(join(outboxDir(configDir, 'pending'), name), '{}');
    expect(listJobs(configDir, 'pending')).toEqual(['1-a', '2-b']);
  });

  it('is empty when the folder does not exist', async () => {
    expect(listJobs(fresh(), 'pending')).toEqual([]);
  });

  it('reports a folder it cannot read instead of calling the outbox empty', async () => {
    const configDir = pendingIsAFile();
    const dir = outboxDir(configDir, 'pending');
    expect(() => listJobs(configDir, 'pending')).toThrow(ChrysError);
    expect(() => listJobs(configDir, 'pending')).toThrow(unreadable(dir));
  });

  it('says why by the error code, and what to do about it', () => {
    const configDir = pendingIsAFile();
    const dir = outboxDir(configDir, 'pending');
    expect(() => listJobs(configDir, 'pending')).toThrow(expect.objectContaining({
      message: `cannot read the outbox at ${dir} (ENOTDIR)`,
      hint: 'make the outbox folders directories you own (0700) and its job files readable, then run the command again',
    }));
  });
});

describe('readJobText', () => {
  it('reads a job file, and is undefined for one that is gone or is a symlink', async () => {
    const configDir = fresh();
    mkdirSync(outboxDir(configDir, 'pending'), { recursive: true });
    writeFileSync(jobPath(configDir, 'pending', 'j1'), '{"job_id":"j1"}');
    symlinkSync(jobPath(configDir, 'pending', 'j1'), jobPath(configDir, 'pending', 'link'));
    expect(readJobText(configDir, 'pending', 'j1')).toBe('{"job_id":"j1"}');
    for (const id of ['gone', 'link']) expect(readJobText(configDir, 'pending', id)).toBeUndefined();
  });

  it('is undefined for a directory in a job file\'s place', async () => {
    const configDir = fresh();
    mkdirSync(jobPath(configDir, 'pending', 'd'), { recursive: true });
    expect(readJobText(configDir, 'pending', 'd')).toBeUndefined();
  });

  it('reports a job it cannot read instead of calling it gone', async () => {
    const configDir = pendingIsAFile();
    const path = jobPath(configDir, 'pending', 'j1');
    expect(() => readJobText(configDir, 'pending', 'j1')).toThrow(unreadable(path));
  });
});
