// The blocking chain of one `fire` (CONTRACT §6): load both layers, match
// each hook against the envelope as modified so far, run it, fold its outcome.

import type { Hook } from '../core/config.js';
import { type Chain, type Decision, applyOutcome, emptyDecision } from '../core/decide.js';
import { FIRE_LOAD_WARNINGS } from '../core/diagnostics.js';
import { stringField } from '../core/envelope.js';
import type { EventName } from '../core/events.js';
import { type JsonObject, isJsonObject, stringifyJson } from '../core/json.js';
import { matchHook } from '../core/match.js';
import { planEvent } from '../core/plan.js';
import { loadConfig } from '../config/load.js';
import type { FireOptions } from './fire.js';
import type { HookContext } from '../run/invocation.js';
import { resolveInvocation } from '../run/invocation.js';
import { TempFiles } from '../run/runtime.js';
import { runHook } from '../run/spawn.js';
import { recordRun } from '../state/history.js';
import { OnceGuard } from '../state/once.js';

/** Loads the config and runs the event's hooks: the part of `fire` that needs hooks files. */
export async function fireWithConfig(input: JsonObject, event: EventName, opts: FireOptions & { workspace: string }): Promise<Decision> {
  let envelope = input;
  const workspace = opts.workspace;
  const decision = emptyDecision(event);
  const config = await loadConfig(opts);
  decision.warnings.push(...config.warnings.filter((w) => FIRE_LOAD_WARNINGS.has(w.code) && (w.event === undefined || w.event === event)));
  const plan = planEvent(config.hooks, event);
  if (plan.blocking.length === 0 && plan.nonBlocking.length === 0) return decision;

  const ctx: HookContext = {
    configDir: config.configDir,
    workspace,
    sessionId: stringField(envelope, 'session_id'),
    profile: stringField(envelope, 'profile'),
  };
  const temp = new TempFiles(config.configDir);
  const once = new OnceGuard(config.configDir, ctx.sessionId);
  const tool = isJsonObject(envelope.tool) ? envelope.tool : undefined;
  const chain: Chain = { decision, args: tool?.args, argsModified: false };
  const skipped = (hook: Hook, reason: string, status: 'skipped' | 'not_run' = 'skipped'): void => {
    decision.hooks.push({ id: hook.id, source: hook.source, mode: hook.execution.mode, status, exit_code: null, duration_ms: null, reason });
  };

  try {
    for (const hook of plan.blocking) {
      if (decision.blocked) {
        if (matchHook(hook, envelope).verdict !== 'no_match') skipped(hook, notRunReason(decision), 'not_run');
        continue;
      }
      const verdict = matchHook(hook, envelope);
      if (verdict.verdict === 'no_match') continue;
      if (verdict.verdict === 'skipped') {
        skipped(hook, verdict.reason);
        continue;
      }
      const onceSkip = once.claim(hook);
      if (onceSkip) {
        skipped(hook, onceSkip);
        continue;
      }
      const record = await runHook(hook, ctx, resolveInvocation(hook, ctx), stringifyJson(envelope), temp, { timeoutMs: hook.execution.timeout_seconds * 1000 });
      const report = applyOutcome(chain, hook, record);
      decision.hooks.push(report);
      recordRun(config.configDir, hook, { status: report.status, at: new Date().toISOString(), session_id: ctx.sessionId, exit_code: report.exit_code, duration_ms: report.duration_ms });
      if (chain.argsModified) envelope = withArgs(envelope, chain.args);
    }
    if (chain.argsModified) decision.args = chain.args ?? null;

    for (const hook of plan.nonBlocking) {
      const verdict = matchHook(hook, envelope);
      if (verdict.verdict === 'no_match') continue;
      if (decision.blocked) skipped(hook, notRunReason(decision), 'not_run');
      else if (verdict.verdict === 'skipped') skipped(hook, verdict.reason);
      else {
        skipped(hook, `${hook.execution.mode} hooks are not supported yet; make the hook blocking to run it`, 'not_run');
        decision.warnings.push({ code: 'mode_not_supported', hook: hook.id, message: `hook "${hook.id}" was not run: ${hook.execution.mode} mode is not supported yet` });
      }
    }
  } finally {
    decision.warnings.push(...temp.warnings, ...once.warnings);
    temp.cleanup();
  }
  return decision;
}

const notRunReason = (d: Decision): string => `not run: hook "${d.blocked_by?.id}" (${d.blocked_by?.source}) blocked first`;

function withArgs(envelope: JsonObject, args: unknown): JsonObject {
  const tool = isJsonObject(envelope.tool) ? envelope.tool : {};
  return { ...envelope, tool: { ...tool, args: args as JsonObject } };
}
