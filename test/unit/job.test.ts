// A job as stored: its id, a new job's fields, parsing with clear errors, and
// writing that keeps unknown fields and the payload's number spelling.
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Hook } from '../../src/core/config.js';
import { JsonNumber, stringifyJson } from '../../src/core/json.js';
import { InvalidJob, newJob, newJobId, parseJob, writeJob } from '../../src/outbox/job.js';
import { ensureOutbox, jobPath } from '../../src/outbox/store.js';

const hook = { id: 'deliver', event: 'after_tool_call', source: 'project', file: '/w/.chrys/hooks/hooks.yaml' } as Hook;
const at = new Date('2026-11-30T11:30:00.123Z');

describe('newJobId', () => {
  it('starts with the creation time, so ids sort by age, and ends with 12 random hex digits', () => {
    const id = newJobId(at);
    expect(id).toMatch(/^20261130T113000123Z-[0-9a-f]{12}$/);
    expect(newJobId(at)).not.toBe(id);
    expect(newJobId(new Date('2026-11-30T11:30:00.124Z')) > id).toBe(true);
  });
});

describe('newJob', () => {
  it('records the hook, payload and creation time, never started', () => {
    const job = newJob(hook, { a: 1 as never }, at);
    expect(job).toEqual({
      job_id: expect.stringMatching(/^20261130T113000123Z-/), hook_id: 'deliver', event: 'after_tool_call', payload: { a: 1 },
      created_at: '2026-11-30T11:30:00.123Z', hook_source: 'project', hook_source_path: '/w/.chrys/hooks/hooks.yaml',
      state: 'pending', retries: 0, last_started_at: null, last_finished_at: null, exit_code: null, error: null, stderr_tail: null,
    });
    expect('due_at' in job).toBe(false);
  });

  it('carries a due time when one is given', () => {
    expect(newJob(hook, {}, at, new Date('2026-12-01T00:00:00Z')).due_at).toBe('2026-12-01T00:00:00.000Z');
  });
});

describe('parseJob', () => {
  it('reads our numeric fields as numbers, keeps the payload numbers as written and unknown fields as they were', () => {
    const job = parseJob('{"job_id": "j", "hook_id": "h", "payload": {"n": 1.0}, "retries": 2, "exit_code": 75, "extra": {"k": 1.50}}');
    expect([job.retries, job.exit_code]).toEqual([2, 75]);
    expect(job.payload.n).toBeInstanceOf(JsonNumber);
    expect(stringifyJson(job.payload)).toBe('{"n":1.0}');
    expect(stringifyJson(job.extra as never)).toBe('{"k":1.50}');
  });

  it('counts a missing or non-numeric retries as never started', () => {
    expect(parseJob('{"job_id": "j", "hook_id": "h", "payload": {}}').retries).toBe(0);
    expect(parseJob('{"job_id": "j", "hook_id": "h", "payload": {}, "retries": "3"}').retries).toBe(0);
  });

  it.each([
    ['{"job_id": ', /^not valid JSON: ./],
    ['[1, 2]', /^not a JSON object$/],
    ['{"job_id": 1, "hook_id": "h", "payload": {}}', /^job_id and hook_id must be strings$/],
    ['{"job_id": "j", "payload": {}}', /^job_id and hook_id must be strings$/],
    ['{"job_id": "j", "hook_id": "h", "payload": [1]}', /^payload must be an object$/],
    ['{"job_id": "j", "hook_id": "h"}', /^payload must be an object$/],
  ])('rejects %s as an InvalidJob saying why', (text, message) => {
    let error: unknown;
    try {
      parseJob(text);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(InvalidJob);
    expect((error as Error).message).toMatch(message);
  });
});

describe('writeJob', () => {
  it('writes the job as indented JSON under its file id, which parses back to the same job', () => {
    const configDir = mkdtempSync(join(tmpdir(), 'chrys-job-'));
    ensureOutbox(configDir);
    const job = parseJob('{"job_id": "j", "hook_id": "h", "payload": {"n": 2.50}, "retries": 1, "other_writer": "kept"}');
    writeJob(configDir, 'pending', job, 'hand-written');
    writeJob(configDir, 'pending', job);
    const text = readFileSync(jobPath(configDir, 'pending', 'hand-written'), 'utf8');
    expect(text).toBe('{\n  "job_id": "j",\n  "hook_id": "h",\n  "payload": {\n    "n": 2.50\n  },\n  "retries": 1,\n  "other_writer": "kept"\n}\n');
    expect(readFileSync(jobPath(configDir, 'pending', 'j'), 'utf8')).toBe(text);
  });
});
