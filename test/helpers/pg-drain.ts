// What the in-process PostgreSQL drain tests share (test/unit/pg-drain*.test.ts):
// a database of a throw-away cluster with the outbox schema, jobs as the
// outbox writes them, hooks files of durable hooks, and the drain itself.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import pg from 'pg';
import type { Job } from '../../src/outbox/job.js';
import { drainPostgres, type PgDrainOptions } from '../../src/outbox/pg/drain.js';
import { addJob, ensureSchema, listFinished, listPending, tryPendingEntry } from '../../src/outbox/pg/queue.js';
import type { Cluster } from '../../scripts/pg-cluster.mjs';
import { type Sandbox, hookYaml } from './sandbox.js';

export const HOUR_AGO = new Date(Date.now() - 3600_000).toISOString();

export interface Db {
  url: string;
  c: pg.Client;
  choice: { backend: 'postgres'; url: string; urlEnv: string; hostId: string };
  add: (j: Job, opts?: { key?: string; runAt?: string; host?: string }) => Promise<void>;
  pending: () => Promise<Job[]>;
  finished: () => Promise<[string, string, Job][]>;
}

/** A fresh database of the cluster, its schema made, closed when the test ends; this machine is `box`. */
export async function db(cluster: () => Cluster, t: { onTestFinished: (fn: () => Promise<void> | void) => void }): Promise<Db> {
  const url = cluster().newDatabase();
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  t.onTestFinished(() => c.end());
  await ensureSchema(c, url);
  return {
    url, c,
    choice: { backend: 'postgres', url, urlEnv: 'X', hostId: 'box' },
    add: (j, { key = j.job_id, runAt, host = 'box' } = {}) => addJob(c, { job: j, key, mode: 'replace', ...(runAt ? { runAt } : {}) }, host),
    pending: async () => (await listPending(c)).flatMap((r) => tryPendingEntry(r)?.job ?? []),
    finished: async () => (await listFinished(c)).map((e): [string, string, Job] => [e.id, e.folder, e.job]),
  };
}

export const durable = (id: string, shell: string, execution = ''): string =>
  hookYaml({ id, event: 'after_turn', run: `type: shell\nshell: '${shell}'`, execution: `mode: async\ndelivery: durable${execution}` });
export const hooksFile = (settings: string, ...hooks: string[]): string => `settings:\n  outbox_retry_age_seconds: 0\n${settings}hooks:\n${hooks.join('\n')}\n`;

/** A job of the hook `deliver` as fire queues it, due an hour ago. */
export function job(s: Sandbox, id: string, fields: Record<string, unknown> = {}): Job {
  return {
    job_id: id, hook_id: 'deliver', event: 'after_turn', payload: { event: 'after_turn', session_id: 'sess', cwd: s.workspace },
    created_at: HOUR_AGO, hook_source: 'global', hook_source_path: join(s.configDir, 'hooks', 'hooks.yaml'),
    state: 'pending', retries: 0, last_started_at: null, last_finished_at: null, exit_code: null, error: null, stderr_tail: null,
    ...fields,
  } as Job;
}

export const drain = (s: Sandbox, d: Db, opts: Partial<PgDrainOptions> = {}) => drainPostgres({ configDir: s.configDir, cwd: s.workspace, ...opts }, d.choice);
/** The hooks that ran, in order: the test hooks append their names to `ran`. */
export const ran = (s: Sandbox): string[] => (existsSync(join(s.root, 'ran')) ? readFileSync(join(s.root, 'ran'), 'utf8').split('\n').filter(Boolean) : []);
export const outcomes = (summary: { jobs: { job_id: string; outcome: string }[] }): [string, string][] => summary.jobs.map((j): [string, string] => [j.job_id, j.outcome]).sort((a, b) => a[0].localeCompare(b[0]));
