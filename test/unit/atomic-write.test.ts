import { lstatSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { type AtomicWriteOptions, writeFileAtomic, writeFileAtomicAsync } from '../../src/base/atomic-write.js';

const fresh = (): string => mkdtempSync(join(tmpdir(), 'chrys-atomic-'));

describe.each([
  ['sync', async (p: string, c: string, o: AtomicWriteOptions) => writeFileAtomic(p, c, o)],
  ['async', writeFileAtomicAsync],
] as const)('writeFileAtomic (%s)', (_name, write) => {
  it('replaces the file whole, 0600 unless told, and leaves no temp file', async () => {
    const dir = fresh();
    const path = join(dir, 'f.json');
    writeFileSync(path, 'old');
    await write(path, 'new', { durable: true });
    expect(readFileSync(path, 'utf8')).toBe('new');
    expect(lstatSync(path).mode & 0o777).toBe(0o600);
    expect(readdirSync(dir)).toEqual(['f.json']);
  });

  it('sets the mode it is given', async () => {
    const path = join(fresh(), 'hooks.yaml');
    await write(path, 'x', { mode: 0o644, durable: false });
    expect(lstatSync(path).mode & 0o777).toBe(0o644);
  });

  it('replaces a symlink at the target instead of writing through it', async () => {
    const dir = fresh();
    const victim = join(dir, 'victim');
    writeFileSync(victim, 'keep');
    const path = join(dir, 'f.json');
    symlinkSync(victim, path);
    await write(path, 'new', { durable: false });
    expect(readFileSync(victim, 'utf8')).toBe('keep');
    expect(lstatSync(path).isSymbolicLink()).toBe(false);
    expect(readFileSync(path, 'utf8')).toBe('new');
  });

  it('removes its temp file when the rename fails (a directory where the file should be)', async () => {
    const dir = fresh();
    const path = join(dir, 'taken');
    mkdirSync(path);
    writeFileSync(join(path, 'inside'), '');
    await expect(write(path, 'new', { durable: true })).rejects.toThrow();
    expect(readdirSync(dir).filter((n) => n.endsWith('.tmp'))).toEqual([]);
  });
});
