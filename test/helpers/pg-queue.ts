// What the PostgreSQL outbox's unit tests share (test/unit/pg-queue*.test.ts):
// hooks and jobs as fire makes them, a fresh database of the file's cluster,
// a config dir, and the Chrys error a call throws.
import { existsSync, mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import type { Cluster } from '../../scripts/pg-cluster.mjs';
import type { Hook } from '../../src/core/config.js';
import { ChrysError } from '../../src/core/errors.js';
import { normaliseHooksFile } from '../../src/core/normalise.js';
import { type Job, newJob } from '../../src/outbox/job.js';
import { ensureSchema } from '../../src/outbox/pg/queue.js';

export const HOUR_AGO = new Date(Date.now() - 3600_000);

export function hook(id = 'deliver', execution: Record<string, unknown> = {}, layer: 'global' | 'project' = 'global'): Hook {
  return normaliseHooksFile({ hooks: [{ id, event: 'after_turn', run: { type: 'shell', shell: 'true' }, execution: { mode: 'async', delivery: 'durable', ...execution } }] }, layer, '/cfg/hooks/hooks.yaml').hooks[0]!;
}
export const job = (fields: Partial<Job> = {}, h = hook(), payload: Record<string, unknown> = { session_id: 's1', n: 1 }): Job => ({ ...newJob(h, payload as never, HOUR_AGO), ...fields });

/** A fresh database with the schema, and a client on it closed after the test. */
export async function db(cluster: () => Cluster, t: { onTestFinished: (fn: () => Promise<void> | void) => void }, migrate = true): Promise<{ url: string; c: pg.Client; rows: <T = Record<string, unknown>>(text: string, params?: unknown[]) => Promise<T[]> }> {
  const url = cluster().newDatabase();
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  t.onTestFinished(() => c.end());
  if (migrate) await ensureSchema(c, url);
  const rows = async <T,>(text: string, params: unknown[] = []): Promise<T[]> => (await c.query(text, params)).rows as T[];
  return { url, c, rows };
}

export const configDir = (): string => mkdtempSync(join(tmpdir(), 'chrys-pg-unit-'));
export const pendingFiles = (dir: string): string[] => {
  const p = join(dir, 'hooks', 'outbox', 'pending');
  return existsSync(p) ? readdirSync(p).filter((f) => f.endsWith('.json')).sort() : [];
};

export const chrysError = async (p: Promise<unknown>): Promise<ChrysError> => {
  try {
    await p;
  } catch (e) {
    if (e instanceof ChrysError) return e;
    throw e;
  }
  throw new Error('did not throw');
};
