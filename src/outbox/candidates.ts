// Reading pending/ for a drain pass: each job file parsed, or why it is not a job.

import { InvalidJob, parseJob } from './job.js';
import type { Candidate } from './select.js';
import { isOddJobFile, readJobText } from './store.js';

/**
 * Files read between two turns of the event loop. The reads themselves are
 * synchronous (cheaper than a thread-pool trip each), but a backlog of tens
 * of thousands must not hold the loop for seconds: the locks of the jobs
 * running meanwhile are refreshed from it, and would go stale.
 */
export const READS_PER_TURN = 256;

/** Reads and parses job files; one gone meanwhile (finished by someone else) is left out. */
export async function readCandidates(configDir: string, ids: readonly string[]): Promise<Candidate[]> {
  const out: Candidate[] = [];
  for (const [i, fileId] of ids.entries()) {
    if (i > 0 && i % READS_PER_TURN === 0) await new Promise(setImmediate);
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
