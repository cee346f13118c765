// Reading a file a hooks layer depends on (a hooks file, a trusted script)
// without ever hanging `fire`: opened non-blocking, so a FIFO or a device
// cannot stall the open, then checked by fstat to be a regular file within a
// size cap before a byte is read.

import { closeSync, constants, fstatSync, lstatSync, openSync, readFileSync, type Stats } from 'node:fs';

export const MAX_FILE_BYTES = 16 * 1024 * 1024;

export type RegularRead = { ok: true; data: Buffer } | { ok: false; missing: boolean; problem: string };

/** The file's bytes, or why it cannot be one; `follow: false` refuses a symbolic link as the last component. */
export function readRegularFile(path: string, follow = true): RegularRead {
  let fd: number;
  try {
    fd = openSync(path, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0) | (follow ? 0 : (constants.O_NOFOLLOW ?? 0)));
  } catch (e) {
    return openFailure(path, e as NodeJS.ErrnoException);
  }
  try {
    const stat = fstatSync(fd);
    if (stat.isDirectory()) return { ok: false, missing: false, problem: 'it is a directory, not a file' };
    if (!stat.isFile()) return { ok: false, missing: false, problem: `it is ${kindOf(stat)}, not a regular file` };
    if (stat.size > MAX_FILE_BYTES) return { ok: false, missing: false, problem: `it is larger than ${MAX_FILE_BYTES / 1024 / 1024} MiB` };
    return { ok: true, data: readFileSync(fd) };
  } catch (e) {
    return { ok: false, missing: false, problem: (e as Error).message };
  } finally {
    closeSync(fd);
  }
}

function openFailure(path: string, e: NodeJS.ErrnoException): RegularRead {
  if (e.code === 'ENOENT') {
    const dangling = isSymlink(path);
    return { ok: false, missing: !dangling, problem: dangling ? 'it is a symbolic link to a file that does not exist' : 'no such file' };
  }
  const problem =
    e.code === 'ELOOP' ? 'it is a symbolic link'
    : e.code === 'EISDIR' ? 'it is a directory, not a file'
    : e.code === 'EACCES' ? 'permission denied'
    : e.message;
  return { ok: false, missing: false, problem };
}

function isSymlink(path: string): boolean {
  try {
    return lstatSync(path).isSymbolicLink();
  }
  // Stryker disable next-line BlockStatement: the caller reads the answer as a condition, where undefined is false
  catch {
    return false;
  }
}

function kindOf(stat: Stats): string {
  if (stat.isFIFO()) return 'a named pipe (FIFO)';
  if (stat.isSocket()) return 'a socket';
  if (stat.isCharacterDevice() || stat.isBlockDevice()) return 'a device';
  return 'a special file';
}
