// A durable job as stored in the outbox. Field names are Chrys's own, so an
// existing Chrys outbox drains too; fields we do not know survive a rewrite.

import { randomHex } from '../base/lazy-crypto.js';
import type { Hook, Layer } from '../core/config.js';
import { type Json, type JsonObject, JsonNumber, isJsonObject, parseJson, stringifyJson } from '../core/json.js';
import { type Folder, jobPath, writeAtomic } from './store.js';

export interface Job {
  job_id: string;
  hook_id: string;
  event: string;
  payload: JsonObject;
  created_at: string;
  hook_source?: Layer;
  hook_source_path?: string;
  state: 'pending' | 'running' | 'done' | 'failed';
  retries: number;
  last_started_at: string | null;
  last_finished_at: string | null;
  exit_code: number | null;
  error: string | null;
  stderr_tail: string | null;
  due_at?: string;
  /** Unknown fields from other writers, kept as they were. */
  [extra: string]: unknown;
}

/** Sortable by creation time: 20261130T113000123Z-1a2b3c4d5e6f. */
export function newJobId(now = new Date()): string {
  return `${now.toISOString().replace(/[-:.]/g, '')}-${randomHex(6)}`;
}

export function newJob(hook: Hook, payload: JsonObject, now: Date, dueAt?: Date): Job {
  return {
    job_id: newJobId(now),
    hook_id: hook.id,
    event: hook.event,
    payload,
    created_at: now.toISOString(),
    hook_source: hook.source,
    hook_source_path: hook.file,
    state: 'pending',
    retries: 0,
    last_started_at: null,
    last_finished_at: null,
    exit_code: null,
    error: null,
    stderr_tail: null,
    ...(dueAt ? { due_at: dueAt.toISOString() } : {}),
  };
}

/**
 * A job made due at once: no due_at, and a requeued_at that its last start
 * (if any) predates, so the retry age does not hold it either (select.ts). A
 * failed job also gets a fresh start count, for after its hook was fixed.
 */
export function requeued(job: Job, now: Date, freshStarts: boolean): Job {
  const { due_at: _due, ...rest } = job;
  return { ...rest, state: 'pending', error: null, requeued_at: now.toISOString(), ...(freshStarts ? { retries: 0 } : {}) };
}

export class InvalidJob extends Error {}

/** Parses a job file; the payload keeps its numbers' spelling. */
export function parseJob(text: string): Job {
  let value: Json;
  try {
    value = parseJson(text);
  } catch (e) {
    throw new InvalidJob(`not valid JSON: ${(e as Error).message}`);
  }
  if (!isJsonObject(value)) throw new InvalidJob('not a JSON object');
  const job = plainTopLevel(value);
  if (typeof job.job_id !== 'string' || typeof job.hook_id !== 'string') throw new InvalidJob('job_id and hook_id must be strings');
  if (!isJsonObject(value.payload)) throw new InvalidJob('payload must be an object');
  job.payload = value.payload;
  job.retries = typeof job.retries === 'number' ? job.retries : 0;
  return job as Job;
}

const NUMERIC_FIELDS = new Set(['retries', 'exit_code']);

// Our numeric fields become plain numbers; everything else stays lossless, unknown fields included.
function plainTopLevel(value: JsonObject): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) out[k] = v instanceof JsonNumber && NUMERIC_FIELDS.has(k) ? v.toNumber() : v;
  return out;
}

/** Writes a job file; `fileId` is the file's name, which a hand-written job's job_id may not match. */
export function writeJob(configDir: string, folder: Folder, job: Job, fileId = job.job_id): void {
  writeAtomic(jobPath(configDir, folder, fileId), stringifyJson(job as unknown as Json, 2) + '\n');
}
