// The human trace of `fire --explain`: sources and trust, each hook in chain
// order with its verdict, duration and what it applied, then the outcome.

import type { Decision } from '../core/decide.js';
import type { HookTrace, Trace } from '../engine/trace.js';
import { describeTrust } from './render.js';
import { printable } from '../core/printable.js';

const VERDICT: Record<HookTrace['verdict'], string> = {
  ran: 'ran',
  no_match: 'no match',
  skipped: 'skipped',
  not_run: 'not run',
  started: 'started in the background',
  queued: 'queued in the outbox',
};

function hookLine(h: HookTrace, n: number): string {
  const head = `  ${n}. ${printable(h.id)} (${h.source}, ${h.mode}): ${VERDICT[h.verdict]}`;
  if (h.verdict !== 'ran') return h.detail ? `${head}: ${printable(h.detail)}` : head;
  const applied = h.applied?.length ? `applied ${h.applied.join(', ')}` : 'applied nothing';
  return `${head} in ${h.duration_ms} ms, ${printable(h.detail ?? '')}; ${applied}`;
}

export function renderTrace(trace: Trace, d: Decision): string {
  const lines = [`chrys-hooks fire --explain: ${d.event}`];
  if (trace.sources.length === 0) lines.push('  no hooks loaded (no hooks files, or CHRYS_HOOKS=0 with no global file)');
  for (const s of trace.sources) lines.push(`  source ${s.layer.padEnd(7)} ${s.state.padEnd(9)} ${printable(s.path)}`);
  if (trace.trust) lines.push(`  project hooks ${describeTrust(trace.trust)}`);
  if (trace.hooks.length === 0 && trace.sources.length > 0) lines.push(`  no hooks for ${d.event}`);
  trace.hooks.forEach((h, i) => {
    lines.push(hookLine(h, i + 1));
    if (h.command) lines.push(`     command: ${printable(h.command)}`);
  });
  for (const w of d.warnings) lines.push(`  warning ${w.code}: ${printable(w.message)}`);
  lines.push(d.blocked ? `  decision: blocked by ${printable(d.blocked_by?.id ?? '')} (${d.blocked_by?.source}): ${printable(d.reason ?? '')}` : `  decision: not blocked${d.args !== null ? ', args modified' : ''}`);
  return lines.join('\n');
}
