// Reading the envelope: stdin or --input, bounded so a runaway producer gets
// a clear error instead of an out-of-memory crash. Reading stops one byte
// past the limit, and a non-blocking stdin (EAGAIN) is waited on, not taken
// for an empty one.

import { closeSync, openSync, readSync } from 'node:fs';
import { ChrysError } from '../core/errors.js';
import { MAX_ENVELOPE_BYTES } from '../core/envelope.js';

const CHUNK = 64 * 1024;
const EAGAIN_WAIT_MS = 5;
const pause = new Int32Array(new SharedArrayBuffer(4));

export function readInput(file?: string): string {
  let fd = 0;
  try {
    if (file !== undefined) fd = openSync(file, 'r');
    return readBounded(fd).toString('utf8');
  } catch (e) {
    if (e instanceof ChrysError) throw e;
    const err = e as NodeJS.ErrnoException;
    if (file === undefined && err.code === 'EOF') return '';
    throw new ChrysError('input_unreadable', `cannot read ${file ?? 'stdin'}: ${err.code ?? err.message}`, file ? 'check the --input path' : undefined);
  } finally {
    if (file !== undefined && fd !== 0) closeSync(fd);
  }
}

/** Everything up to EOF, or input_too_large as soon as the limit is passed. */
function readBounded(fd: number): Buffer {
  const chunks: Buffer[] = [];
  let total = 0;
  for (;;) {
    const buf = Buffer.allocUnsafe(Math.min(CHUNK, MAX_ENVELOPE_BYTES + 1 - total));
    let n: number;
    try {
      n = readSync(fd, buf, 0, buf.length, null);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EAGAIN') throw e;
      Atomics.wait(pause, 0, 0, EAGAIN_WAIT_MS); // a non-blocking pipe with nothing in it yet
      continue;
    }
    if (n === 0) return Buffer.concat(chunks, total);
    chunks.push(buf.subarray(0, n));
    total += n;
    if (total > MAX_ENVELOPE_BYTES) {
      throw new ChrysError('input_too_large', `the envelope is over the ${MAX_ENVELOPE_BYTES / 1024 / 1024} MiB limit`, 'send large tool results by reference (a file path) instead');
    }
  }
}
