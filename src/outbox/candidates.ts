// Reading pending/ for a drain pass: each job file parsed, or why it is not a job.

import { InvalidJob, parseJob } from './job.js';
import type { Candidate } from './select.js';
import { isOddJobFile, readJobTextAsync } from './store.js';

const READ_CONCURRENCY = 16;

/** Reads and parses job files, a few at a time, off the event loop. */
export async function readCandidates(configDir: string, ids: readonly string[]): Promise<Candidate[]> {
  const out = new Array<Candidate | undefined>(ids.length);
  let next = 0;
  const worker = async (): Promise<void> => {
    for (let i = next++; i < ids.length; i = next++) {
      // A FIFO, a directory or a symlink is never opened as a job: it is moved aside.
      if (isOddJobFile(configDir, 'pending', ids[i]!)) {
        out[i] = { fileId: ids[i]!, invalid: 'not a regular file' };
        continue;
      }
      const text = await readJobTextAsync(configDir, 'pending', ids[i]!);
      if (text === undefined) continue; // finished by someone else meanwhile
      try {
        out[i] = { fileId: ids[i]!, job: parseJob(text) };
      } catch (e) {
        if (!(e instanceof InvalidJob)) throw e;
        out[i] = { fileId: ids[i]!, invalid: e.message };
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(READ_CONCURRENCY, ids.length) }, worker));
  return out.filter((c): c is Candidate => c !== undefined);
}

