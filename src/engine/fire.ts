// Orchestrates one `fire`: envelope in, decision out. Returns data, never prints.
// With no hooks files it answers after two directory look-ups, without
// importing the YAML parser, zod, the runner or node:crypto.

import { type Decision, emptyDecision } from '../core/decide.js';
import { completeEnvelope, parseEnvelope } from '../core/envelope.js';
import { discover } from '../config/discover.js';
import { type GlobalOptions, workspaceOf } from '../config/locations.js';

export interface FireOptions extends GlobalOptions {
  event?: string;
}

export async function fire(input: string, opts: FireOptions): Promise<Decision> {
  const parsed = parseEnvelope(input, opts.event);
  const envelopeCwd = typeof parsed.envelope.cwd === 'string' ? parsed.envelope.cwd : undefined;
  const workspace = workspaceOf(opts, envelopeCwd);
  const envelope = completeEnvelope(parsed.envelope, parsed.event, workspace, new Date());
  const found = discover({ ...opts, workspace });
  if (!found.globalPath && !found.projectPath) return emptyDecision(parsed.event);
  // Only now load the config reader, the runner and node:crypto / child_process.
  const { fireWithConfig } = await import('./fire-chain.js');
  return fireWithConfig(envelope, parsed.event, { ...opts, workspace });
}
