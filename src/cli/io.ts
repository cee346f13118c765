// Reading the envelope: stdin or --input, bounded so a runaway producer gets
// a clear error instead of an out-of-memory crash.

import { readFileSync } from 'node:fs';
import { ChrysError } from '../core/errors.js';
import { MAX_ENVELOPE_BYTES } from '../core/envelope.js';

export function readInput(file?: string): string {
  let buf: Buffer;
  try {
    buf = readFileSync(file ?? 0);
  } catch (e) {
    const err = e as NodeJS.ErrnoException;
    if (file === undefined && (err.code === 'EAGAIN' || err.code === 'EOF')) return '';
    throw new ChrysError('input_unreadable', `cannot read ${file ?? 'stdin'}: ${err.code ?? err.message}`, file ? 'check the --input path' : undefined);
  }
  if (buf.length > MAX_ENVELOPE_BYTES) {
    throw new ChrysError('input_too_large', `the envelope is ${buf.length} bytes, over the ${MAX_ENVELOPE_BYTES / 1024 / 1024} MiB limit`, 'send large tool results by reference (a file path) instead');
  }
  return buf.toString('utf8');
}
