// "Not yet": a durable hook asks to be run again later by exiting with status
// 75 (EX_TEMPFAIL) or by writing {"retry_after_seconds": N} to its result file.
// Pure: reads a finished run, returns the delay it asks for.

import type { Warning } from '../core/diagnostics.js';
import { JsonNumber, stringifyJson } from '../core/json.js';
import type { RunRecord } from '../run/spawn.js';

export const EX_TEMPFAIL = 75;
/** retry_after_seconds is clamped to 0 ..= this (seven days, the log retention). */
export const MAX_RETRY_AFTER_SECONDS = 7 * 86_400;

export interface RetryPolicy {
  /** Seconds until a deferred job is due again (outbox_retry_delay_seconds). */
  delaySeconds: number;
  /** outbox_max_retries: a deferral once this many starts are spent fails the job. */
  maxRetries: number;
}

export const retryPolicy = (settings: { outbox_retry_delay_seconds: number; outbox_max_retries: number }): RetryPolicy => ({
  delaySeconds: settings.outbox_retry_delay_seconds,
  maxRetries: settings.outbox_max_retries,
});

export interface RetryRequest {
  delaySeconds: number;
  /** Why the run was deferred, for the job file and the log. */
  reason: string;
  warning?: Warning;
}

/** The retry a finished run asks for, or undefined when it is done or failed for good. */
export function retryRequest(record: RunRecord, hookId: string, defaultDelaySeconds: number): RetryRequest | undefined {
  if (record.status === 'failed' && record.signal === null && record.exitCode === EX_TEMPFAIL) {
    return { delaySeconds: defaultDelaySeconds, reason: `exited with status ${EX_TEMPFAIL} (not yet)` };
  }
  if (record.status !== 'ok' || record.result.kind !== 'json' || !Object.hasOwn(record.result.value, 'retry_after_seconds')) return undefined;
  const raw = record.result.value.retry_after_seconds;
  const asked = raw instanceof JsonNumber ? raw.toNumber() : Number.NaN;
  const reason = (n: number): string => `asked to be retried after ${n} s`;
  const warn = (what: string, used: number): Warning => ({
    code: 'retry_after_invalid',
    hook: hookId,
    message: `hook "${hookId}" wrote retry_after_seconds ${what}; retrying after ${used} s (the range is 0 to ${MAX_RETRY_AFTER_SECONDS})`,
  });
  if (!Number.isFinite(asked)) {
    return { delaySeconds: defaultDelaySeconds, reason: reason(defaultDelaySeconds), warning: warn(`${stringifyJson(raw ?? null)}, which is not a number`, defaultDelaySeconds) };
  }
  const clamped = Math.min(MAX_RETRY_AFTER_SECONDS, Math.max(0, asked));
  if (clamped !== asked) return { delaySeconds: clamped, reason: reason(clamped), warning: warn(String(asked), clamped) };
  return { delaySeconds: asked, reason: reason(asked) };
}
