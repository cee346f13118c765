// `chrys-hooks list`: the merged, ordered hook chain with sources and warnings.

import { EXIT } from '../core/errors.js';
import { lookupEvent, type EventName } from '../core/events.js';
import { ChrysError } from '../core/errors.js';
import { type ListedHook, listHooks } from '../engine/inspect.js';
import { type DeferredJob, waitingJobs } from '../outbox/maintenance.js';
import type { CliGlobals } from './globals.js';
import type { CommandResult } from './output.js';
import { invalidFileLines } from './notices.js';
import { type Paint, describeTrust, paint, renderSources, renderWarnings, table } from './render.js';
import { printable } from '../core/printable.js';
import { type AgentProtocol, agentEvents, chrysEventOf } from '../core/protocols/names.js';

export function eventOption(opts: Record<string, unknown>): EventName | undefined {
  if (typeof opts.event !== 'string') return undefined;
  const found = lookupEvent(opts.event);
  if (!found.ok) throw new ChrysError('unknown_event', `unknown event "${opts.event}"`, found.suggestion ? `did you mean "${found.suggestion}"?` : undefined);
  return found.event;
}

/** --protocol: --event is the agent's event name, mapped as fire --protocol maps it; without --event, every event the agent fires. */
function protocolEvents(protocol: AgentProtocol, flag: unknown): EventName[] {
  if (typeof flag === 'string') {
    const event = chrysEventOf(protocol, flag);
    if (!event) throw new ChrysError('unknown_event', `${protocol} event "${flag}" is not one chrys-hooks knows`, `${protocol} events: ${agentEvents(protocol).join(', ')}`);
    return protocol === 'gemini' && event === 'after_tool_call' ? ['after_tool_call', 'tool_error'] : [event];
  }
  const events = new Set(agentEvents(protocol).map((e) => chrysEventOf(protocol, e)!));
  if (protocol === 'gemini') events.add('tool_error');
  return [...events];
}

export async function runList(_args: string[], opts: Record<string, unknown>, globals: CliGlobals): Promise<CommandResult> {
  const protocol = typeof opts.protocol === 'string' ? (opts.protocol as AgentProtocol) : undefined;
  const events = protocol ? protocolEvents(protocol, opts.event) : undefined;
  const event = events ? (events.length === 1 ? events[0] : undefined) : eventOption(opts);
  const listed = await listHooks({ ...globals, ...(event ? { event } : {}), stats: Boolean(opts.stats) });
  const { config } = listed;
  const hooks = events ? listed.hooks.filter((h) => events.includes(h.event as EventName)) : listed.hooks;
  const waiting = waitingJobs(config.configDir);
  const ofListed = (j: DeferredJob): boolean => (!event && !events) || hooks.some((h) => h.id === j.hook_id);
  const queued = waiting.queued.filter(ofListed);
  const deferred = waiting.deferred.filter(ofListed);
  if (opts.json) {
    return { stdout: JSON.stringify({ sources: config.sources, project_trust: config.projectTrust, warnings: config.warnings, hooks, queued, deferred }, null, 2), exitCode: EXIT.ok };
  }
  const k = paint(globals.color);
  const lines = [...invalidFileLines(config.warnings).map((l) => k.red(l)), k.bold('sources'), ...renderSources(config.sources, k)];
  if (config.sources.some((src) => src.layer === 'project' && src.state !== 'missing' && src.state !== 'same-file')) lines.push(`  ${k.gray(`project hooks ${describeTrust(config.projectTrust)}`)}`);
  if (config.warnings.length) lines.push('', k.bold('warnings'), ...renderWarnings(config.warnings, k));
  lines.push('');
  if (hooks.length === 0) {
    lines.push(event ? `no hooks for ${event}` : events ? `no hooks for the events ${protocol} fires` : 'no hooks');
  } else if (opts.stats) {
    lines.push(...statsTable(hooks, k));
  } else {
    const rows = [['#', 'id', 'source', 'event', 'mode', 'match', 'enabled', 'last run'].map((h) => k.bold(h))];
    for (const h of hooks) {
      const last = h.last_run ? `${h.last_run.status} ${h.last_run.at}` : '-';
      rows.push([String(h.position), printable(h.id), h.source, h.event, h.mode, printable(h.match), h.skipped ? k.yellow('skipped') : h.enabled ? 'yes' : k.gray('no'), last]);
    }
    lines.push(...table(rows));
  }
  if (queued.length) {
    lines.push('', k.bold('queued jobs (delay_seconds, not started yet)'));
    lines.push(...table([['job', 'hook', 'due'].map((h) => k.bold(h)), ...queued.map((j) => [printable(j.job_id), printable(j.hook_id), printable(j.due_at)])]));
  }
  if (deferred.length) {
    lines.push('', k.bold('deferred jobs (the hook said "not yet")'));
    lines.push(...table([['job', 'hook', 'due', 'starts', 'why'].map((h) => k.bold(h)), ...deferred.map((j) => [printable(j.job_id), printable(j.hook_id), printable(j.due_at), String(j.retries), printable(j.reason ?? '-')])]));
  }
  return { stdout: lines.join('\n'), exitCode: EXIT.ok };
}

const ms = (v: number | null): string => (v === null ? '-' : `${v} ms`);

function statsTable(hooks: ListedHook[], k: Paint): string[] {
  const rows = [['#', 'id', 'source', 'event', 'runs', 'failures', 'timeouts', 'p50', 'p95', 'last status'].map((h) => k.bold(h))];
  for (const h of hooks) {
    const s = h.stats!;
    rows.push([String(h.position), printable(h.id), h.source, h.event, String(s.runs), String(s.failures), String(s.timeouts), ms(s.p50_ms), ms(s.p95_ms), s.last_status ?? '-']);
  }
  return [...table(rows), k.gray('from the run history (the last 200-400 runs per hook)')];
}
