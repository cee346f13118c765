// Reading pending/ for a drain pass: each job file parsed, or why it is not a job.

import { InvalidJob, parseJob } from './job.js';
import type { Candidate } from './select.js';
import { isOddJobFile, readJobText } from './store.js';

/** Reads and parses job files; one gone meanwhile (finished by someone else) is left out. */
export function readCandidates(configDir: string, ids: readonly string[]): Candidate[] {
  const out: Candidate[] = [];
  for (const fileId of ids) {
    // A FIFO, a directory or a symlink is never opened as a job: it is moved aside.
    if (isOddJobFile(configDir, 'pending', fileId)) {
      out.push({ fileId, invalid: 'not a regular file' });
      continue;
    }
    const text = readJobText(configDir, 'pending', fileId);
    if (text === undefined) continue;
    try {
      out.push({ fileId, job: parseJob(text) });
    } catch (e) {
      if (!(e instanceof InvalidJob)) throw e;
      out.push({ fileId, invalid: e.message });
    }
  }
  return out;
}
