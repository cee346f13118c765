// The part of `fire` that needs hooks files (CONTRACT §6): load both layers;
// run the blocking chain, matching each hook against the envelope as modified
// so far; hand the non-blocking hooks to the worker or queue them; drain.

import { type Hook, settingValues } from '../core/config.js';
import { type Chain, type Decision, type HookStatus, applyOutcome } from '../core/decide.js';
import { type KillSwitches, skipReason } from '../core/kill-switch.js';
import { stringField } from '../core/envelope.js';
import { type EventName, eventSpecFor } from '../core/events.js';
import { AGENT_PROTOCOL_KEY } from '../core/protocols/inbound.js';
import { type JsonObject, isJsonObject, stringifyJson } from '../core/json.js';
import { matchHook } from '../core/match.js';
import { newJob, writeJob } from '../outbox/job.js';
import { retryPolicy } from '../outbox/retry.js';
import { ensureOutbox } from '../outbox/store.js';
import { type HookContext, resolveInvocation } from '../run/invocation.js';
import { newRunId } from '../run/logs.js';
import { TempFiles } from '../run/runtime.js';
import { runHook } from '../run/spawn.js';
import { recordRun } from '../state/history.js';
import { OnceGuard } from '../state/once.js';
import { cancelRuns, liveRuns, registerRun, sessionDir, waitForRuns } from '../state/sessions.js';
import type { FireOptions } from './fire.js';
import type { Trace, TraceVerdict } from './trace.js';
import { type PlannedFiring, planFiring } from './fire-plan.js';
import type { WorkerRun } from './worker.js';
import { startWorker } from './worker-launch.js';
import { reportWorkerFailure } from './worker-failure.js';
import { matchFailed } from './match-failure.js';

/** Loads the config and runs the event's hooks: the part of `fire` that needs hooks files. */
export async function fireWithConfig(input: JsonObject, event: EventName, opts: FireOptions & { workspace: string; switches: KillSwitches }, planned?: PlannedFiring): Promise<Decision> {
  let envelope = input;
  const workspace = opts.workspace;
  const { decision, config, plan } = planned ?? (await planFiring(event, opts));
  const trace = opts.trace;
  const drains = event === 'after_turn' || event === 'session_end';
  if (plan.blocking.length === 0 && plan.nonBlocking.length === 0 && !drains) return decision;

  const ctx: HookContext = {
    configDir: config.configDir,
    workspace,
    sessionId: stringField(envelope, 'session_id'),
    profile: stringField(envelope, 'profile'),
  };
  const temp = new TempFiles(config.configDir);
  const once = new OnceGuard(config.configDir, ctx.sessionId);
  const tool = isJsonObject(envelope.tool) ? envelope.tool : undefined;
  const agentProtocol = typeof envelope[AGENT_PROTOCOL_KEY] === 'string' ? (envelope[AGENT_PROTOCOL_KEY] as string) : undefined;
  const chain: Chain = { decision, args: tool?.args, argsModified: false, spec: eventSpecFor(event, agentProtocol), ...(trace ? { applied: [] } : {}) };
  const skipped = (hook: Hook, reason: string, status: 'skipped' | 'not_run' = 'skipped'): void => reportUnrun(decision, hook, status, reason, trace);
  const noMatch = (hook: Hook, reason: string): void => {
    trace?.hooks.push({ id: hook.id, source: hook.source, mode: hook.execution.mode, verdict: 'no_match', detail: reason });
  };
  // The envelope as JSON, written again only when a hook changed the args.
  let payload: string | undefined;

  try {
    for (const hook of plan.blocking) {
      if (decision.blocked) {
        if (matchHook(hook, envelope).verdict !== 'no_match') skipped(hook, notRunReason(decision), 'not_run');
        continue;
      }
      const verdict = matchHook(hook, envelope);
      if (verdict.verdict === 'no_match') {
        noMatch(hook, verdict.reason);
        continue;
      }
      const skip = skipReason(hook, opts.switches) ?? (verdict.verdict === 'skipped' ? verdict.reason : undefined);
      if (skip) {
        skipped(hook, skip);
        continue;
      }
      if (verdict.verdict === 'error') {
        decision.hooks.push(matchFailed(chain, hook, verdict.reason));
        continue;
      }
      const onceSkip = once.claim(hook);
      if (onceSkip) {
        skipped(hook, onceSkip);
        continue;
      }
      payload ??= stringifyJson(envelope);
      const record = await runHook(hook, ctx, resolveInvocation(hook, ctx), payload, temp, { timeoutMs: hook.execution.timeout_seconds * 1000 });
      if (chain.applied) chain.applied = [];
      const report = applyOutcome(chain, hook, record);
      decision.hooks.push(report);
      trace?.hooks.push({ id: hook.id, source: hook.source, mode: hook.execution.mode, verdict: 'ran', detail: report.reason ?? report.status, duration_ms: record.durationMs, applied: chain.applied ?? [] });
      recordRun(config.configDir, hook, { status: report.status, session_id: ctx.sessionId, exit_code: report.exit_code, duration_ms: report.duration_ms });
      if (chain.argsModified) {
        envelope = withArgs(envelope, chain.args);
        payload = undefined;
      }
    }
    if (chain.argsModified) decision.args = chain.args ?? null;

    const handoff: WorkerRun[] = [];
    for (const hook of plan.nonBlocking) {
      const verdict = matchHook(hook, envelope);
      if (verdict.verdict === 'no_match') {
        noMatch(hook, verdict.reason);
        continue;
      }
      const switchSkip = skipReason(hook, opts.switches);
      if (decision.blocked) skipped(hook, notRunReason(decision), 'not_run');
      else if (switchSkip) skipped(hook, switchSkip);
      else if (verdict.verdict === 'skipped') skipped(hook, verdict.reason);
      else if (verdict.verdict === 'error') decision.hooks.push(matchFailed(chain, hook, verdict.reason));
      else startNonBlocking(hook, { envelope, ctx, once, decision, handoff, sessionDir: ctx.sessionId ? sessionDir(config.configDir, ctx.sessionId) : undefined, trace });
    }
    if (handoff.length > 0) {
      const settings = settingValues(config.settings);
      const notStarted = startWorker({ ctx, maxParallel: settings.max_parallel_hooks, runs: handoff, retry: retryPolicy(settings) }, temp);
      if (notStarted) reportWorkerFailure(decision, handoff, notStarted);
    }
    await drainSession(event, ctx, settingValues(config.settings).shutdown_grace_seconds);
  } finally {
    decision.warnings.push(...temp.warnings, ...once.warnings);
    temp.cleanup();
  }
  return decision;
}

/** A hooks[] line for a hook this process did not run itself (skipped, not run, started, queued). */
function reportUnrun(decision: Decision, hook: Hook, status: HookStatus, reason?: string, trace?: Trace): void {
  decision.hooks.push({ id: hook.id, source: hook.source, mode: hook.execution.mode, status, exit_code: null, duration_ms: null, ...(reason ? { reason } : {}) });
  trace?.hooks.push({ id: hook.id, source: hook.source, mode: hook.execution.mode, verdict: status as TraceVerdict, ...(reason ? { detail: reason } : {}) });
}

interface NonBlockingContext {
  envelope: JsonObject;
  ctx: HookContext;
  once: OnceGuard;
  decision: Decision;
  handoff: WorkerRun[];
  sessionDir: string | undefined;
  trace: Trace | undefined;
}

/** Queues (delayed durable), or hands to the worker, one matching non-blocking hook. */
function startNonBlocking(hook: Hook, c: NonBlockingContext): void {
  const report = (status: HookStatus, reason?: string): void => reportUnrun(c.decision, hook, status, reason, c.trace);
  const now = new Date();
  const delay = hook.execution.delay_seconds;
  const job = hook.execution.delivery === 'durable' ? newJob(hook, c.envelope, now, delay > 0 ? new Date(now.getTime() + delay * 1000) : undefined) : undefined;
  const onceSkip = c.once.claim(hook, job?.job_id ?? '');
  if (onceSkip) return report('skipped', onceSkip);
  let jobId: string | undefined;
  if (job) {
    try {
      ensureOutbox(c.ctx.configDir);
      writeJob(c.ctx.configDir, 'pending', job);
      jobId = job.job_id;
    } catch (e) {
      const why = (e as NodeJS.ErrnoException).code ?? (e as Error).message;
      c.decision.warnings.push({ code: 'outbox_unavailable', hook: hook.id, message: `cannot write the outbox job for hook "${hook.id}" (${why})${delay > 0 ? '; the follow-up was not queued' : '; it runs once, best effort'}` });
      if (delay > 0) return report('not_run', `outbox unavailable: ${why}`);
    }
  }
  if (delay > 0) return report('queued');
  const runId = newRunId(now);
  const run: WorkerRun = { runId, hook, payload: stringifyJson(c.envelope), ...(jobId ? { jobId } : {}) };
  if (hook.execution.mode === 'async' && c.sessionDir) {
    try {
      registerRun(c.sessionDir, { run_id: runId, hook_id: hook.id, event: hook.event, worker_pid: null, pid: null, started_at: now.toISOString() });
      run.sessionDir = c.sessionDir;
    } catch {
      // without a record the drains cannot wait for this run; it still runs
    }
  }
  c.handoff.push(run);
  report('started');
}

/** §6.3: after_turn waits for the session's async hooks; session_end waits at most the grace, then kills. */
async function drainSession(event: EventName, ctx: HookContext, graceSeconds: number): Promise<void> {
  if (!ctx.sessionId || (event !== 'after_turn' && event !== 'session_end')) return;
  const dir = sessionDir(ctx.configDir, ctx.sessionId);
  if (event === 'after_turn') {
    await waitForRuns(() => liveRuns(dir).filter((r) => r.event !== 'user_interrupt'), Infinity);
    return;
  }
  const left = await waitForRuns(() => liveRuns(dir), Date.now() + graceSeconds * 1000);
  cancelRuns(dir, left);
}

const notRunReason = (d: Decision): string => `not run: hook "${d.blocked_by?.id}" (${d.blocked_by?.source}) blocked first`;

function withArgs(envelope: JsonObject, args: unknown): JsonObject {
  const tool = isJsonObject(envelope.tool) ? envelope.tool : {};
  return { ...envelope, tool: { ...tool, args: args as JsonObject } };
}
