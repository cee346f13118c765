// writeFileAtomic and its async twin (src/base/atomic-write.ts): the file is
// replaced whole through a temp file, fsynced first when durable, with its
// mode, never through a symlink, and a failure leaves the old file and no
// temp file behind.
import { execFileSync } from 'node:child_process';
import { fsync, fsyncSync, lstatSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, renameSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildSync } from 'esbuild';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { lowestFreeFd } from '../helpers/fd.js';
import { type AtomicWriteOptions, writeFileAtomic, writeFileAtomicAsync } from '../../src/base/atomic-write.js';

// The calls pass through; the tests watch their order, and one makes a rename fail.
vi.mock(import('node:fs'), async (importOriginal) => {
  const real = await importOriginal();
  return { ...real, fsync: vi.fn(real.fsync), fsyncSync: vi.fn(real.fsyncSync), renameSync: vi.fn(real.renameSync) };
});
const realFs = await vi.importActual<typeof import('node:fs')>('node:fs');

const fresh = (): string => mkdtempSync(join(tmpdir(), 'chrys-atomic-'));
const tempFilesIn = (dir: string): string[] => readdirSync(dir).filter((n) => n.endsWith('.tmp'));

/** How a failed fsync reads: a directory on a filesystem without it (EINVAL), a file on a failing disk (EIO). */
const failure = (kind: string): Error => (kind === 'dir' ? Object.assign(new Error('EINVAL: invalid argument, fsync'), { code: 'EINVAL' }) : Object.assign(new Error('EIO: i/o error, fsync'), { code: 'EIO' }));

beforeEach(() => {
  vi.clearAllMocks();
});

describe.each([
  {
    name: 'sync',
    write: async (p: string, c: string, o: AtomicWriteOptions) => writeFileAtomic(p, c, o),
    fsync: vi.mocked(fsyncSync),
    /** What each fsync synced, 'file' or 'dir', from now until `done`. */
    syncedKinds: (fail?: 'file' | 'dir') => {
      const kinds: string[] = [];
      vi.mocked(fsyncSync).mockImplementation((fd) => {
        const kind = realFs.fstatSync(fd).isDirectory() ? 'dir' : 'file';
        kinds.push(kind);
        if (kind === fail) throw failure(kind);
        realFs.fsyncSync(fd);
      });
      return { kinds, done: () => void vi.mocked(fsyncSync).mockImplementation(realFs.fsyncSync) };
    },
    rename: vi.mocked(renameSync),
    removeDirBeforeRename: (dir: string) =>
      vi.mocked(renameSync).mockImplementationOnce((from, to) => {
        rmSync(dir, { recursive: true });
        realFs.renameSync(from, to);
      }),
  },
  {
    // Only the fsyncs leave the thread (fs.fsync with a callback); the rest is as the sync twin.
    name: 'async',
    write: writeFileAtomicAsync,
    fsync: vi.mocked(fsync),
    syncedKinds: (fail?: 'file' | 'dir') => {
      const kinds: string[] = [];
      vi.mocked(fsync).mockImplementation((fd, callback) => {
        const kind = realFs.fstatSync(fd).isDirectory() ? 'dir' : 'file';
        kinds.push(kind);
        if (kind === fail) return callback(failure(kind));
        realFs.fsync(fd, callback);
      });
      return { kinds, done: () => void vi.mocked(fsync).mockImplementation(realFs.fsync) };
    },
    rename: vi.mocked(renameSync),
    removeDirBeforeRename: (dir: string) =>
      vi.mocked(renameSync).mockImplementationOnce((from, to) => {
        rmSync(dir, { recursive: true });
        realFs.renameSync(from, to);
      }),
  },
])('writeFileAtomic ($name)', ({ write, fsync, syncedKinds, rename: renameCall, removeDirBeforeRename }) => {
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

  it('writes a temp file next to the target, fsyncs it before the rename and the directory after it when durable, and neither otherwise', async () => {
    const dir = fresh();
    const path = join(dir, 'f.json');
    const synced = syncedKinds();
    try {
      await write(path, 'kept', { durable: true });
    } finally {
      synced.done();
    }
    expect(synced.kinds).toEqual(['file', 'dir']);
    expect(renameCall).toHaveBeenCalledTimes(1);
    const [from, to] = renameCall.mock.calls[0]!;
    expect(to).toBe(path);
    expect(String(from)).toMatch(new RegExp(`^${path.replaceAll('.', '\\.')}\\.${process.pid}\\.[0-9a-f]{8}\\.tmp$`));
    expect(fsync.mock.invocationCallOrder[0]).toBeLessThan(renameCall.mock.invocationCallOrder[0]!);
    expect(fsync.mock.invocationCallOrder[1]).toBeGreaterThan(renameCall.mock.invocationCallOrder[0]!);
    vi.clearAllMocks();
    await write(path, 'cache', { durable: false });
    expect(fsync).not.toHaveBeenCalled();
    expect(renameCall).toHaveBeenCalledTimes(1);
    expect(readFileSync(path, 'utf8')).toBe('cache');
  });

  it('has written the file when its directory cannot be synced (a filesystem without it): no error, no temp file, no fd left', async () => {
    const dir = fresh();
    const path = join(dir, 'f.json');
    const before = lowestFreeFd();
    const synced = syncedKinds('dir');
    try {
      await write(path, 'kept', { durable: true });
    } finally {
      synced.done();
    }
    expect(synced.kinds).toEqual(['file', 'dir']);
    expect(readFileSync(path, 'utf8')).toBe('kept');
    expect(readdirSync(dir)).toEqual(['f.json']);
    expect(lowestFreeFd()).toBe(before);
  });

  it('fails when the file cannot be synced, leaving the old file, no temp file and no fd', async () => {
    const dir = fresh();
    const path = join(dir, 'f.json');
    writeFileSync(path, 'old');
    const before = lowestFreeFd();
    const synced = syncedKinds('file');
    try {
      await expect(write(path, 'new', { durable: true })).rejects.toMatchObject({ code: 'EIO' });
    } finally {
      synced.done();
    }
    expect(synced.kinds).toEqual(['file']);
    expect(readFileSync(path, 'utf8')).toBe('old');
    expect(readdirSync(dir)).toEqual(['f.json']);
    expect(lowestFreeFd()).toBe(before);
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
    expect(tempFilesIn(dir)).toEqual([]);
  });

  it('reports the rename failing, not the clean-up, when the directory is removed under it', async () => {
    const dir = fresh();
    removeDirBeforeRename(dir);
    await expect(write(join(dir, 'f.json'), 'new', { durable: false })).rejects.toMatchObject({ code: 'ENOENT', syscall: 'rename' });
  });

  it('closes the temp file, whether the write succeeds or fails', async () => {
    const dir = fresh();
    mkdirSync(join(dir, 'taken'));
    writeFileSync(join(dir, 'taken', 'inside'), '');
    const before = lowestFreeFd();
    await write(join(dir, 'f.json'), 'new', { durable: true });
    await write(join(dir, 'f.json'), 'newer', { durable: false });
    await expect(write(join(dir, 'taken'), 'new', { durable: false })).rejects.toThrow();
    expect(lowestFreeFd()).toBe(before);
  });
});

describe('writeFileAtomic with bytes', () => {
  it('writes them as they are', () => {
    const path = join(fresh(), 'code.bin');
    const bytes = new Uint8Array([0, 0xff, 0x0a, 0xc3, 0x28]);
    writeFileAtomic(path, bytes, { durable: false });
    expect(new Uint8Array(readFileSync(path))).toEqual(bytes);
  });
});

describe('a write the file size limit cuts short', () => {
  it('fails and leaves the old file, never a truncated one in its place', () => {
    const dir = fresh();
    const bundle = join(dir, 'atomic-write.cjs');
    buildSync({ entryPoints: ['src/base/atomic-write.ts'], bundle: true, format: 'cjs', platform: 'node', outfile: bundle, logLevel: 'silent' });
    const target = (name: string): string => {
      writeFileSync(join(dir, name), 'old');
      return join(dir, name);
    };
    const [syncTarget, asyncTarget] = [target('sync.json'), target('async.json')];
    // Past the limit a write() is cut short and the next one fails with EFBIG (node ignores SIGXFSZ).
    const child = `
      const { writeFileAtomic, writeFileAtomicAsync } = require(${JSON.stringify(bundle)});
      const big = 'x'.repeat(64 * 1024);
      let sync = 'written';
      try { writeFileAtomic(${JSON.stringify(syncTarget)}, big, { durable: true }); } catch (e) { sync = e.code; }
      writeFileAtomicAsync(${JSON.stringify(asyncTarget)}, big, { durable: true })
        .then(() => 'written', (e) => e.code)
        .then((async) => console.log(JSON.stringify({ sync, async })));`;
    const out = execFileSync('sh', ['-c', 'ulimit -f 8 && exec "$0" -e "$1"', process.execPath, child], { encoding: 'utf8' });
    expect(JSON.parse(out)).toEqual({ sync: 'EFBIG', async: 'EFBIG' });
    expect([readFileSync(syncTarget, 'utf8'), readFileSync(asyncTarget, 'utf8')]).toEqual(['old', 'old']);
    expect(tempFilesIn(dir)).toEqual([]);
  });
});
