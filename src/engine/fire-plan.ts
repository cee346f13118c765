// The first half of a firing with hooks files: load the config, add the load
// warnings that concern this event, plan the event. Most firings stop here
// (no hook of the event matches), so the runner, the worker launcher and
// the state code (fire-chain.ts) load only when a hook will run.

import type { Decision } from '../core/decide.js';
import { emptyDecision } from '../core/decide.js';
import { FIRE_LOAD_WARNINGS } from '../core/diagnostics.js';
import { type KillSwitches, killSwitchWarnings } from '../core/kill-switch.js';
import type { EventName } from '../core/events.js';
import type { JsonObject } from '../core/json.js';
import { gate } from '../core/gate.js';
import { type EventPlan, planEvent } from '../core/plan.js';
import { type LoadedConfig, type LoadOptions, loadConfig } from '../config/load.js';
import type { FireOptions } from './fire-options.js';
import { sessionDir, takeIgnored } from '../state/sessions.js';

export interface PlannedFiring {
  decision: Decision;
  config: LoadedConfig;
  plan: EventPlan;
}

/** sessionId: the decisions its non-blocking hooks wrote since its last firing (discarded) are reported here, once. */
export async function planFiring(event: EventName, opts: FireOptions & Pick<LoadOptions, 'discovered'> & { workspace: string; switches: KillSwitches }, sessionId = ''): Promise<PlannedFiring> {
  const decision = emptyDecision(event);
  const config = await loadConfig({ ...opts, cache: true });
  if (sessionId) decision.warnings.push(...takeIgnored(sessionDir(config.configDir, sessionId)));
  decision.warnings.push(...config.warnings.filter((w) => FIRE_LOAD_WARNINGS.has(w.code) && (w.event === undefined || w.event === event)));
  if (config.sources.some((src) => src.layer === 'project' && src.state !== 'missing' && src.state !== 'same-file')) decision.project_trust = config.projectTrust;
  decision.warnings.push(...killSwitchWarnings(opts.switches, config.hooks).filter((w) => w.event === undefined || w.event === event));
  if (opts.trace) Object.assign(opts.trace, { sources: config.sources, trust: decision.project_trust });
  return { decision, config, plan: planEvent(config.hooks, event) };
}

/**
 * Whether anything can happen beyond the planned decision: a drain, a trace, or a hook
 * the gate lets run or lists (skipped) against the envelope as given. When none
 * matches it, none runs, so the arguments never change and none matches later.
 */
export function firingNeedsChain(planned: PlannedFiring, envelope: JsonObject, event: EventName, opts: FireOptions & { switches: KillSwitches }): boolean {
  // --explain reports every hook's verdict, so it always walks the chain.
  if (opts.trace || event === 'after_turn' || event === 'session_end') return true;
  // The once stamp is not read here: it can only turn a run into a skip, which is listed too.
  const once = { sessionId: '', stamped: false };
  return [...planned.plan.blocking, ...planned.plan.nonBlocking].some((hook) => {
    const g = gate({ hook, envelope, switches: opts.switches, once });
    return g.run || g.status !== 'no_match';
  });
}
