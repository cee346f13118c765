// readRegularFile (src/base/regular-file.ts) on real files, links, FIFOs,
// sockets and devices: the bytes of a regular file within the cap, and for
// anything else the reason, without ever blocking on the open.
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, openSync, symlinkSync, truncateSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { lowestFreeFd } from '../helpers/fd.js';
import { MAX_FILE_BYTES, type RegularRead, readRegularFile } from '../../src/base/regular-file.js';

// openSync passes through, but a test can make it fail as another platform or user would.
vi.mock(import('node:fs'), async (importOriginal) => {
  const real = await importOriginal();
  return { ...real, openSync: vi.fn(real.openSync) };
});

const temp = (): string => mkdtempSync(join(tmpdir(), 'chrys-regular-'));
const refused = (problem: string) => ({ ok: false, missing: false, problem });
/** The read with its bytes counted, not listed: a failing assertion on 16 MiB would take minutes to print. */
const counted = (read: RegularRead) => (read.ok ? { ok: true, bytes: read.data.length } : read);

describe('readRegularFile', () => {
  it('reads the bytes of a regular file, through a symbolic link unless told not to follow', () => {
    const dir = temp();
    const bytes = Buffer.from([0, 1, 2, 0xff, 0x0a]);
    writeFileSync(join(dir, 'file'), bytes);
    symlinkSync(join(dir, 'file'), join(dir, 'link'));
    expect(readRegularFile(join(dir, 'file'))).toEqual({ ok: true, data: bytes });
    expect(readRegularFile(join(dir, 'link'))).toEqual({ ok: true, data: bytes });
    expect(readRegularFile(join(dir, 'file'), false)).toEqual({ ok: true, data: bytes });
  });

  it('refuses a symbolic link as the last component when not following, but not one in a directory above', () => {
    const dir = temp();
    mkdirSync(join(dir, 'real'));
    writeFileSync(join(dir, 'real', 'file'), 'x');
    symlinkSync(join(dir, 'real', 'file'), join(dir, 'link'));
    symlinkSync(join(dir, 'real'), join(dir, 'linked-dir'));
    expect(readRegularFile(join(dir, 'link'), false)).toEqual(refused('it is a symbolic link'));
    expect(readRegularFile(join(dir, 'linked-dir', 'file'), false)).toEqual({ ok: true, data: Buffer.from('x') });
  });

  it('tells a missing file from a symbolic link to one', () => {
    const dir = temp();
    symlinkSync(join(dir, 'nowhere'), join(dir, 'dangling'));
    expect(readRegularFile(join(dir, 'absent'))).toEqual({ ok: false, missing: true, problem: 'no such file' });
    expect(readRegularFile(join(dir, 'no-dir', 'absent'))).toEqual({ ok: false, missing: true, problem: 'no such file' });
    expect(readRegularFile(join(dir, 'dangling'))).toEqual(refused('it is a symbolic link to a file that does not exist'));
    expect(readRegularFile(join(dir, 'dangling'), false)).toEqual(refused('it is a symbolic link'));
  });

  it('refuses a directory', () => {
    expect(readRegularFile(temp())).toEqual(refused('it is a directory, not a file'));
  });

  it('refuses a FIFO without waiting for a writer', () => {
    const fifo = join(temp(), 'fifo');
    execFileSync('mkfifo', [fifo]);
    // Were the open to block, this writer would release it after 3 s: the test then fails on the time, not by hanging.
    const releaser = spawn(process.execPath, ['-e', `setTimeout(() => require('fs').openSync(${JSON.stringify(fifo)}, 'w'), 3000)`], { stdio: 'ignore' });
    try {
      const started = Date.now();
      expect(readRegularFile(fifo)).toEqual(refused('it is a named pipe (FIFO), not a regular file'));
      expect(Date.now() - started).toBeLessThan(2000);
    } finally {
      releaser.kill();
    }
  });

  it('refuses a device', () => {
    expect(readRegularFile('/dev/null')).toEqual(refused('it is a device, not a regular file'));
  });

  it('refuses a socket, which cannot be opened', async () => {
    const socket = join(temp(), 'sock');
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(socket, resolve));
    try {
      expect(readRegularFile(socket)).toMatchObject({ ok: false, missing: false });
    } finally {
      server.close();
    }
  });

  it(`reads a file of ${MAX_FILE_BYTES} bytes and refuses one byte more`, () => {
    const dir = temp();
    const atCap = join(dir, 'at-cap');
    const over = join(dir, 'over');
    writeFileSync(atCap, '');
    truncateSync(atCap, MAX_FILE_BYTES);
    writeFileSync(over, '');
    truncateSync(over, MAX_FILE_BYTES + 1);
    expect(counted(readRegularFile(atCap))).toEqual({ ok: true, bytes: MAX_FILE_BYTES });
    expect(counted(readRegularFile(over))).toEqual(refused('it is larger than 16 MiB'));
  });

  it('passes on the message of an open error it has no words for', () => {
    const file = join(temp(), 'file');
    writeFileSync(file, '');
    expect(readRegularFile(join(file, 'below'))).toEqual(refused(`ENOTDIR: not a directory, open '${join(file, 'below')}'`));
  });

  it('names the open errors this machine may not raise: a directory on Windows, permission denied (root may read anything)', () => {
    const path = join(temp(), 'file');
    writeFileSync(path, 'x');
    const failOpen = (code: string): void => {
      vi.mocked(openSync).mockImplementationOnce(() => {
        throw Object.assign(new Error(`${code}: open '${path}'`), { code });
      });
    };
    failOpen('EISDIR');
    expect(readRegularFile(path)).toEqual(refused('it is a directory, not a file'));
    failOpen('EACCES');
    expect(readRegularFile(path)).toEqual(refused('permission denied'));
  });

  it.skipIf(!existsSync('/proc/self/mem'))('reports a read that fails after the checks', () => {
    // A regular file by fstat, but its offset 0 is never mapped, so the first read fails.
    expect(readRegularFile('/proc/self/mem')).toEqual(refused('EIO: i/o error, read'));
  });

  it('closes the file whatever it finds', () => {
    const dir = temp();
    writeFileSync(join(dir, 'file'), 'x');
    writeFileSync(join(dir, 'big'), '');
    truncateSync(join(dir, 'big'), MAX_FILE_BYTES + 1);
    execFileSync('mkfifo', [join(dir, 'fifo')]);
    const before = lowestFreeFd();
    for (const name of ['file', 'big', 'fifo', '.']) readRegularFile(join(dir, name));
    readRegularFile('/dev/null');
    expect(lowestFreeFd()).toBe(before);
  });
});
