// The part of `fire` that needs hooks files (CONTRACT §6): load both layers;
// run the blocking chain, matching each hook against the envelope as modified
// so far; hand the non-blocking hooks to the worker or queue them; drain.

import type { OutboxChoice } from '../outbox/pg/choice.js';
import { type DurableJob, withOrigin } from '../outbox/pg/fire-queue.js';
import { type Hook, settingValues } from '../core/config.js';
import { rmSync } from 'node:fs';
import { type Chain, type Decision, type HookStatus, applyOutcome } from '../core/decide.js';
import type { Warning } from '../core/diagnostics.js';
import type { KillSwitches } from '../core/kill-switch.js';
import { type Gate, gate } from '../core/gate.js';
import { stringField } from '../core/envelope.js';
import { blockOnUnreadableResult, failClosedHook, noteFailClosedBlock } from '../core/fail-closed.js';
import { type EventName, eventSpecFor } from '../core/events.js';
import { AGENT_PROTOCOL_KEY } from '../core/protocols/inbound.js';
import { type JsonObject, isJsonObject, stringifyJson } from '../core/json.js';
import { newJob, writeJob } from '../outbox/job.js';
import { retryPolicy } from '../outbox/retry.js';
import { ensureOutbox } from '../outbox/store.js';
import type { HookContext } from '../core/hook-template.js';
import { resolveInvocation } from '../run/invocation.js';
import { newRunId } from '../run/logs.js';
import { TempFiles, fileStampOrGone } from '../run/runtime.js';
import { runHook } from '../run/spawn.js';
import { HistoryBatch } from '../outbox/history-batch.js';
import { OnceGuard } from '../state/once.js';
import { AFTER_TURN_MAX_WAIT_MS, endSession, waitForTurn } from '../state/session-drain.js';
import { registerRun, sessionDir } from '../state/sessions.js';
import type { FireOptions } from './fire-options.js';
import type { Trace, TraceVerdict } from './trace.js';
import type { PlannedFiring } from './fire-plan.js';
import type { WorkerRun } from './worker.js';
import { startWorker } from './worker-launch.js';
import { reportWorkerFailure } from './worker-failure.js';
import { matchFailed } from './match-failure.js';
import { putToolArgs } from '../core/protocols/tool-args.js';

/** Runs the event's hooks of a firing planFiring planned: the part of `fire` that needs the runner. */
export async function fireWithConfig(input: JsonObject, event: EventName, opts: FireOptions & { workspace: string; switches: KillSwitches }, planned: PlannedFiring): Promise<Decision> {
  const { decision, config, plan } = planned;
  const drains = event === 'after_turn' || event === 'session_end';
  if (plan.blocking.length === 0 && plan.nonBlocking.length === 0 && !drains) return decision;

  const ctx: HookContext = {
    configDir: config.configDir,
    workspace: opts.workspace,
    sessionId: stringField(input, 'session_id'),
    profile: stringField(input, 'profile'),
  };
  const tool = isJsonObject(input.tool) ? input.tool : undefined;
  const agentProtocol = typeof input[AGENT_PROTOCOL_KEY] === 'string' ? (input[AGENT_PROTOCOL_KEY] as string) : undefined;
  const firing: Firing = {
    envelope: input,
    ctx,
    temp: new TempFiles(config.configDir),
    once: new OnceGuard(config.configDir, ctx.sessionId),
    decision,
    chain: { decision, args: tool?.args, argsModified: false, spec: eventSpecFor(event, agentProtocol), ...(opts.trace ? { applied: [] } : {}) },
    switches: opts.switches,
    trace: opts.trace,
    failClosed: opts.failClosed === true,
    history: new HistoryBatch(config.configDir, false),
    pgJobs: [],
  };
  const settings = settingValues(config.settings);
  try {
    await runBlocking(firing, plan.blocking);
    if (firing.chain.argsModified) decision.args = firing.chain.args ?? null;
    if (plan.nonBlocking.some((h) => h.execution.delivery === 'durable')) {
      const { fireOutbox } = await import('../outbox/pg/fire-queue.js');
      const { choice, warning } = await fireOutbox(config.configDir);
      firing.outbox = choice;
      if (warning) decision.warnings.push(warning);
    }
    const handoff = startNonBlockingHooks(firing, plan.nonBlocking);
    if (firing.pgJobs.length > 0 && firing.outbox?.backend === 'postgres') {
      const { queueDurable } = await import('../outbox/pg/fire-queue.js');
      decision.warnings.push(...(await queueDurable(config.configDir, firing.outbox, firing.pgJobs)));
    }
    if (handoff.length > 0) {
      const notStarted = startWorker({ ctx, maxParallel: settings.max_parallel_hooks, runs: handoff, retry: retryPolicy(settings) }, firing.temp);
      if (notStarted) reportWorkerFailure(decision, handoff, notStarted);
    }
    decision.warnings.push(...(await drainSession(event, ctx, settings.shutdown_grace_seconds)));
  } finally {
    firing.history.flush();
    decision.warnings.push(...firing.temp.warnings, ...firing.once.warnings);
    firing.temp.cleanup();
  }
  return decision;
}

/** One firing's state as its hooks run: the envelope as modified so far and the decision being built. */
interface Firing {
  envelope: JsonObject;
  ctx: HookContext;
  temp: TempFiles;
  once: OnceGuard;
  decision: Decision;
  chain: Chain;
  switches: KillSwitches;
  trace: Trace | undefined;
  failClosed: boolean;
  /** The blocking hooks' run history, written once the chain ends. */
  history: HistoryBatch;
  /** Where durable jobs go; read only when a durable hook matches (the PostgreSQL driver loads only then). */
  outbox?: OutboxChoice;
  /** Durable jobs bound for PostgreSQL, queued in one transaction before the decision is printed. */
  pgJobs: DurableJob[];
}

/** The gate's answer for a hook at this point of the firing (core/gate.ts); `stamped` once its once-per-session claim failed. */
const gateOf = (f: Firing, hook: Hook, stamped = false): Gate =>
  gate({ hook, envelope: f.envelope, switches: f.switches, once: { sessionId: f.ctx.sessionId, stamped }, blockedBy: f.decision.blocked ? f.decision.blocked_by : undefined });

/** Reports a hook the gate did not let run: not listed (no match), listed skipped / not run, or failed (matching failed: its on_error applies). */
function reportGated(f: Firing, hook: Hook, g: Extract<Gate, { run: false }>): void {
  if (g.status === 'no_match' || g.status === 'disabled') {
    f.trace?.hooks.push({ id: hook.id, source: hook.source, mode: hook.execution.mode, verdict: 'no_match', detail: g.reason });
  } else if (g.status === 'failed') {
    const ran = guarded(f, hook);
    const report = matchFailed(f.chain, ran, g.reason);
    f.decision.hooks.push(report);
    noteFailClosedBlock(f.decision, hook, ran, report);
  } else {
    reportUnrun(f.decision, hook, g.status, g.reason, f.trace);
  }
}

/** Stamps once_per_session; when the stamp was already taken, the gate's skip for it. */
function claimOnce(f: Firing, hook: Hook, owner?: string): Extract<Gate, { run: false }> | undefined {
  if (!f.once.claim(hook, owner)) return undefined;
  const g = gateOf(f, hook, true);
  return g.run ? undefined : g;
}

/** The blocking chain: each hook matched against the envelope as modified so far; a block stops it. */
async function runBlocking(f: Firing, hooks: readonly Hook[]): Promise<void> {
  // The envelope as JSON, and the read-only file holding it that the hooks
  // share (CONTRACT §5: the envelope with args as modified so far): written
  // again only when a hook changed the args, or changed the file.
  let payload: string | undefined;
  let shared: SharedPayload | undefined;
  for (const hook of hooks) {
    const g = gateOf(f, hook);
    const refused = g.run ? claimOnce(f, hook) : g;
    if (refused) {
      reportGated(f, hook, refused);
      continue;
    }
    payload ??= stringifyJson(f.envelope);
    if (shared && (shared.payload !== payload || fileStampOrGone(shared.path) !== shared.stamp)) {
      dropShared(shared);
      shared = undefined;
    }
    shared ??= sharedPayload(f, payload);
    await runOneBlocking(f, hook, payload, g.run ? g.command?.reason : undefined, shared?.path);
    if (f.chain.argsModified) {
      f.envelope = withArgs(f.envelope, f.chain.args);
      payload = undefined;
    }
  }
}

interface SharedPayload {
  path: string;
  payload: string;
  /** The file as written (runtime.ts fileStamp): a hook that chmods and rewrites it is found out. */
  stamp: string | undefined;
}

/** The payload file for the next hooks, 0400 in the firing's temp dir; undefined (each hook then makes its own, and reports why not) if it cannot be written. */
function sharedPayload(f: Firing, payload: string): SharedPayload | undefined {
  try {
    const path = f.temp.firingFile('payload', payload, true);
    return { path, payload, stamp: fileStampOrGone(path) };
  } catch {
    return undefined;
  }
}

function dropShared(shared: SharedPayload): void {
  try {
    rmSync(shared.path, { force: true });
  } catch {
    // the firing's cleanup removes its directory
  }
}

/** Runs one blocking hook and applies its outcome to the chain, the trace and the run history. */
async function runOneBlocking(f: Firing, hook: Hook, payload: string, command: string | undefined, sharedPayloadFile: string | undefined): Promise<void> {
  const ran = guarded(f, hook);
  const record = await runHook(ran, f.ctx, resolveInvocation(ran, f.ctx), payload, f.temp, sharedPayloadFile !== undefined ? { sharedPayloadFile } : {});
  if (f.chain.applied) f.chain.applied = [];
  const warningsBefore = f.decision.warnings.length;
  const report = applyOutcome(f.chain, ran, record);
  f.decision.hooks.push(report);
  noteFailClosedBlock(f.decision, hook, ran, report);
  if (f.failClosed) blockOnUnreadableResult(f.decision, ran, record, f.decision.warnings.slice(warningsBefore));
  f.trace?.hooks.push({ id: hook.id, source: hook.source, mode: hook.execution.mode, verdict: 'ran', detail: report.reason ?? report.status, duration_ms: record.durationMs, applied: f.chain.applied ?? [], ...(command ? { command } : {}) });
  f.history.add(hook, { status: report.status, session_id: f.ctx.sessionId, exit_code: report.exit_code, duration_ms: report.duration_ms });
}

/** The hook as this firing runs it: under --fail-closed its failure blocks a guarded event. */
const guarded = (f: Firing, hook: Hook): Hook => (f.failClosed ? failClosedHook(hook, f.decision.event) : hook);

/** Reports or queues each matching non-blocking hook; returns the runs to hand to the worker. */
function startNonBlockingHooks(f: Firing, hooks: readonly Hook[]): WorkerRun[] {
  const handoff: WorkerRun[] = [];
  const session = f.ctx.sessionId ? sessionDir(f.ctx.configDir, f.ctx.sessionId) : undefined;
  for (const hook of hooks) {
    const g = gateOf(f, hook);
    if (!g.run) reportGated(f, hook, g);
    else startNonBlocking(hook, { firing: f, handoff, sessionDir: session });
  }
  return handoff;
}

/** A hooks[] line for a hook this process did not run itself (skipped, not run, started, queued). */
function reportUnrun(decision: Decision, hook: Hook, status: HookStatus, reason?: string, trace?: Trace): void {
  decision.hooks.push({ id: hook.id, source: hook.source, mode: hook.execution.mode, status, exit_code: null, duration_ms: null, ...(reason ? { reason } : {}) });
  trace?.hooks.push({ id: hook.id, source: hook.source, mode: hook.execution.mode, verdict: status as TraceVerdict, ...(reason ? { detail: reason } : {}) });
}

interface NonBlockingContext {
  firing: Firing;
  handoff: WorkerRun[];
  sessionDir: string | undefined;
}

/** Queues (delayed durable), or hands to the worker, one matching non-blocking hook. */
function startNonBlocking(hook: Hook, { firing: f, handoff, sessionDir }: NonBlockingContext): void {
  const c = { envelope: f.envelope, ctx: f.ctx, once: f.once, decision: f.decision, handoff, sessionDir };
  const report = (status: HookStatus, reason?: string): void => reportUnrun(c.decision, hook, status, reason, f.trace);
  const now = new Date();
  const delay = hook.execution.delay_seconds;
  const job = hook.execution.delivery === 'durable' ? newJob(hook, c.envelope, now, delay > 0 ? new Date(now.getTime() + delay * 1000) : undefined) : undefined;
  const taken = claimOnce(f, hook, job?.job_id ?? '');
  if (taken) return reportGated(f, hook, taken);
  if (job && f.outbox?.backend === 'postgres') {
    // The drain (its --watch service, woken by NOTIFY) runs it, on a machine that has its workspace.
    f.pgJobs.push({ job: withOrigin(job, hook, f.outbox.hostId, c.ctx.workspace), hook });
    return report('queued');
  }
  let jobId: string | undefined;
  if (job) {
    try {
      ensureOutbox(c.ctx.configDir);
      writeJob(c.ctx.configDir, 'pending', job);
      jobId = job.job_id;
    } catch (e) {
      const why = (e as NodeJS.ErrnoException).code ?? (e as Error).message;
      c.decision.warnings.push({ code: 'outbox_unavailable', hook: hook.id, message: `cannot write the outbox job for hook "${hook.id}" (${why})${delay > 0 ? '; the follow-up was not queued' : '; it runs once, best effort'}` });
      if (delay > 0) {
        c.once.release(hook, job.job_id); // nothing was queued: a later firing this session may still queue it
        return report('not_run', `outbox unavailable: ${why}`);
      }
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

/** §6.3: after_turn waits for the session's async hooks (bounded); session_end waits at most the grace, then kills. */
async function drainSession(event: EventName, ctx: HookContext, graceSeconds: number): Promise<Warning[]> {
  if (!ctx.sessionId || (event !== 'after_turn' && event !== 'session_end')) return [];
  const dir = sessionDir(ctx.configDir, ctx.sessionId);
  if (event === 'session_end') {
    await endSession(dir, graceSeconds * 1000);
    return [];
  }
  const left = await waitForTurn(dir);
  if (left.length === 0) return [];
  const ids = [...new Set(left.map((r) => r.hook_id))].map((id) => `"${id}"`).join(', ');
  return [{ code: 'async_hooks_still_running', message: `after_turn stopped waiting after ${AFTER_TURN_MAX_WAIT_MS / 1000} s for async hooks still running (${ids}); they run on, and session_end waits for them` }];
}

function withArgs(envelope: JsonObject, args: unknown): JsonObject {
  const tool = isJsonObject(envelope.tool) ? envelope.tool : {};
  const next: JsonObject = { ...tool, args: args as JsonObject };
  // The portable view (an agent's envelope has one) follows the arguments: a later hook must not read the
  // command an earlier one rewrote.
  if ('canonical_args' in tool) {
    if (isJsonObject(args)) putToolArgs(next, args);
    else delete next.canonical_args;
  }
  return { ...envelope, tool: next };
}
