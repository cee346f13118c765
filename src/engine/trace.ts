// What `fire --explain` (or CHRYS_HOOKS_DEBUG=1) shows: the sources and the
// trust verdict, then each hook in chain order with its verdict, duration and
// what it applied. The engine collects it; the CLI prints it on stderr.

import type { Layer, Mode } from '../core/config.js';
import type { ProjectTrust } from '../core/trust.js';
import type { Source } from '../config/load.js';

export type TraceVerdict = 'ran' | 'no_match' | 'skipped' | 'not_run' | 'started' | 'queued';

export interface HookTrace {
  id: string;
  source: Layer;
  mode: Mode;
  verdict: TraceVerdict;
  /** The failing clause, the skip or not-run reason, or how the run ended. */
  detail?: string;
  duration_ms?: number;
  /** Result keys that took effect. */
  applied?: string[];
  /** How match.command matched: the simple commands parsed and which one matched (or why it failed closed). */
  command?: string;
}

export interface Trace {
  sources: Source[];
  trust: ProjectTrust | undefined;
  hooks: HookTrace[];
}

export const newTrace = (): Trace => ({ sources: [], trust: undefined, hooks: [] });
