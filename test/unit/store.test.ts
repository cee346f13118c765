// The outbox on disk: where each folder is, atomic writes, listing, reading
// without following links or blocking on FIFOs, and moves between folders.
import { execFileSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  FOLDERS, ensureOutbox, isOddJobFile, jobPath, listJobs, locksDir, moveJob, outboxDir,
  readJobText, tightenOutbox, writeAtomic, writeAtomicAsync,
} from '../../src/outbox/store.js';

const tempDir = (): string => mkdtempSync(join(tmpdir(), 'chrys-store-'));
const mode = (path: string): number => statSync(path).mode & 0o777;

/** A config dir whose pending/ holds the given files (name -> text). */
function pendingWith(files: Record<string, string>): string {
  const configDir = tempDir();
  mkdirSync(outboxDir(configDir, 'pending'), { recursive: true });
  for (const [name, text] of Object.entries(files)) writeFileSync(join(outboxDir(configDir, 'pending'), name), text);
  return configDir;
}

describe('outbox locations', () => {
  it('puts pending/, done/, failed/ and locks/ under <config>/hooks/outbox, one <job>.json per job', () => {
    expect(FOLDERS).toEqual(['pending', 'done', 'failed']);
    expect(outboxDir('/c', 'done')).toBe('/c/hooks/outbox/done');
    expect(jobPath('/c', 'failed', 'j1')).toBe('/c/hooks/outbox/failed/j1.json');
    expect(locksDir('/c')).toBe('/c/hooks/outbox/locks');
  });

  it('creates every folder 0700 on ensureOutbox', () => {
    const configDir = tempDir();
    ensureOutbox(configDir);
    for (const dir of [...FOLDERS.map((f) => outboxDir(configDir, f)), locksDir(configDir)]) expect([dir, mode(dir)]).toEqual([dir, 0o700]);
  });
});

describe('tightenOutbox', () => {
  const folders = (configDir: string): string[] => [...FOLDERS.map((f) => outboxDir(configDir, f)), locksDir(configDir)];

  it('tightens every outbox folder that exists to 0700 (a pre-made 0755 one included)', () => {
    const configDir = tempDir();
    for (const dir of folders(configDir)) {
      mkdirSync(dir, { recursive: true });
      chmodSync(dir, 0o755);
    }
    tightenOutbox(configDir);
    expect(folders(configDir).map((dir) => [dir, mode(dir)])).toEqual(folders(configDir).map((dir) => [dir, 0o700]));
  });

  it('makes no folder that is not there, and leaves a file where a folder should be to listJobs to report', () => {
    const configDir = tempDir();
    tightenOutbox(configDir);
    expect(existsSync(join(configDir, 'hooks'))).toBe(false);
    mkdirSync(join(configDir, 'hooks', 'outbox'), { recursive: true });
    writeFileSync(outboxDir(configDir, 'pending'), 'a file');
    tightenOutbox(configDir);
    expect(readdirSync(join(configDir, 'hooks', 'outbox'))).toEqual(['pending']);
  });

  it('refuses a symlink in a folder\'s place: outbox_unreadable, naming the folder and why', () => {
    const configDir = tempDir();
    const elsewhere = join(tempDir(), 'elsewhere');
    mkdirSync(elsewhere, { mode: 0o755 });
    chmodSync(elsewhere, 0o755);
    mkdirSync(join(configDir, 'hooks', 'outbox'), { recursive: true });
    symlinkSync(elsewhere, outboxDir(configDir, 'done'));
    const done = outboxDir(configDir, 'done');
    expect(() => tightenOutbox(configDir)).toThrow(expect.objectContaining({ code: 'outbox_unreadable', message: `cannot read the outbox at ${done} (ESYMLINK)` }));
    expect(mode(elsewhere)).toBe(0o755);
  });
});

describe.each([
  ['writeAtomic', async (path: string, text: string) => writeAtomic(path, text)],
  ['writeAtomicAsync', (path: string, text: string) => writeAtomicAsync(path, text)],
  ['writeAtomicAsync (not durable)', (path: string, text: string) => writeAtomicAsync(path, text, false)],
] as const)('%s', (_name, write) => {
  it('writes the whole text with mode 0600, replacing the file, and leaves no temp file', async () => {
    const dir = tempDir();
    const path = join(dir, 'job.json');
    writeFileSync(path, 'old and longer text', { mode: 0o644 });
    await write(path, '{"new": true}\n');
    expect(readFileSync(path, 'utf8')).toBe('{"new": true}\n');
    expect(mode(path)).toBe(0o600);
    expect(readdirSync(dir)).toEqual(['job.json']);
  });

  it('fails when the target cannot be replaced, and removes its temp file', async () => {
    const dir = tempDir();
    mkdirSync(join(dir, 'job.json'));
    await expect(write(join(dir, 'job.json'), 'text')).rejects.toThrow();
    expect(readdirSync(dir)).toEqual(['job.json']);
  });
});

describe.each([
  ['listJobs', async (configDir: string, folder: 'pending' | 'done') => listJobs(configDir, folder)],
] as const)('%s', (_name, list) => {
  it('lists the job ids of a folder, sorted, leaving out temp files, dot files and other names', async () => {
    const configDir = pendingWith({ 'b.json': '', 'a.json': '', 'c.json.123.ab.tmp': '', '.hidden.json': '', 'notes.txt': '', 'json': '' });
    expect(await list(configDir, 'pending')).toEqual(['a', 'b']);
  });

  it('lists nothing for a folder that does not exist yet', async () => {
    expect(await list(tempDir(), 'done')).toEqual([]);
  });
});

describe.each([
  ['readJobText', async (configDir: string, id: string) => readJobText(configDir, 'pending', id)],
] as const)('%s', (_name, read) => {
  it('reads a job file, and nothing for one that is gone', async () => {
    const configDir = pendingWith({ 'j.json': '{"job_id": "j"}' });
    expect(await read(configDir, 'j')).toBe('{"job_id": "j"}');
    expect(await read(configDir, 'missing')).toBeUndefined();
  });

  it('reads nothing through a symlink, from a directory or from a FIFO (without blocking)', async () => {
    const configDir = pendingWith({ 'target.json': 'secret' });
    const pending = outboxDir(configDir, 'pending');
    symlinkSync(join(pending, 'target.json'), join(pending, 'link.json'));
    mkdirSync(join(pending, 'dir.json'));
    execFileSync('mkfifo', [join(pending, 'fifo.json')]);
    expect([await read(configDir, 'link'), await read(configDir, 'dir'), await read(configDir, 'fifo')]).toEqual([undefined, undefined, undefined]);
  });

  it.skipIf(!existsSync('/proc/self/fd'))('closes the file it opens, a job or not (a watcher reads pending/ for days)', async () => {
    const configDir = pendingWith({ 'j.json': '{}' });
    mkdirSync(join(outboxDir(configDir, 'pending'), 'dir.json'));
    const openFiles = (): number => readdirSync('/proc/self/fd').length;
    const before = openFiles();
    for (let i = 0; i < 50; i++) {
      await read(configDir, 'j');
      await read(configDir, 'dir');
    }
    // A leak would hold 100 more; a little slack for what the test runner opens meanwhile.
    expect(openFiles()).toBeLessThan(before + 20);
  });
});

describe('isOddJobFile', () => {
  it('tells a symlink, a directory or a FIFO from a regular file, and a missing file is not odd', () => {
    const configDir = pendingWith({ 'plain.json': '{}' });
    const pending = outboxDir(configDir, 'pending');
    symlinkSync(join(pending, 'plain.json'), join(pending, 'link.json'));
    mkdirSync(join(pending, 'dir.json'));
    execFileSync('mkfifo', [join(pending, 'fifo.json')]);
    const odd = (id: string): boolean => isOddJobFile(configDir, 'pending', id);
    expect([odd('plain'), odd('link'), odd('dir'), odd('fifo'), odd('missing')]).toEqual([false, true, true, true, false]);
  });

  it('finds nothing odd when pending/ itself is not a folder (there is no job file to move aside; reading one is an error, see outbox-store.test.ts)', () => {
    const configDir = tempDir();
    mkdirSync(join(configDir, 'hooks', 'outbox'), { recursive: true });
    writeFileSync(outboxDir(configDir, 'pending'), 'a file');
    expect(isOddJobFile(configDir, 'pending', 'j')).toBe(false);
  });
});

describe.each([
  ['moveJob', async (configDir: string, id: string) => moveJob(configDir, id, 'pending', 'done')],
] as const)('%s', (_name, move) => {
  it('moves a job file to another folder, creating it', async () => {
    const configDir = pendingWith({ 'j.json': 'text' });
    await move(configDir, 'j');
    expect(existsSync(jobPath(configDir, 'pending', 'j'))).toBe(false);
    expect(readFileSync(jobPath(configDir, 'done', 'j'), 'utf8')).toBe('text');
    expect(mode(outboxDir(configDir, 'done'))).toBe(0o700);
  });

  it('fails for a job that is not there', async () => {
    await expect(move(pendingWith({}), 'gone')).rejects.toMatchObject({ code: 'ENOENT' });
  });
});
