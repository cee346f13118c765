// Orchestrates one `fire`: envelope in, decision out. Returns data, never prints.
// With no hooks files it answers after two directory look-ups (and a stat of
// an explicit --config-dir, so a mistyped one is reported), without
// importing the YAML parser, zod, the runner or node:crypto.

import { type Decision, emptyDecision } from '../core/decide.js';
import { completeEnvelope, parseEnvelope } from '../core/envelope.js';
import { hooksDisabledWarning, killSwitchValueWarnings, killSwitchesFrom } from '../core/kill-switch.js';
import { discover } from '../config/discover.js';
import { configDirOf, configDirProblem, workspaceOf, workspaceProblem } from '../config/locations.js';
import { resolve } from 'node:path';
import type { Warning } from '../core/diagnostics.js';
import { envelopeShapeWarnings } from '../core/envelope-shape.js';
import type { EventName } from '../core/events.js';
import type { JsonObject } from '../core/json.js';
import type { FireOptions } from './fire-options.js';
import { enclosingTrustedWorkspace, enclosingWarningMessage } from '../config/enclosing-workspace.js';
import { AGENT_CWD_KEY } from '../core/protocols/inbound.js';

export async function fire(input: string, opts: FireOptions): Promise<Decision> {
  const parsed = parseEnvelope(input, opts.event);
  return fireEnvelope(parsed.envelope, parsed.event, opts);
}

/** `fire` of an envelope already parsed (or mapped from an agent's input). */
export async function fireEnvelope(parsed: JsonObject, event: EventName, opts: FireOptions): Promise<Decision> {
  const envelopeCwd = typeof parsed.cwd === 'string' ? parsed.cwd : undefined;
  const workspace = workspaceOf(opts, envelopeCwd);
  const envelope = completeEnvelope(parsed, event, workspace, new Date());
  const found = discover({ ...opts, workspace });
  const shape = [...envelopeShapeWarnings(envelope, event), ...(await enclosingWarning(opts, found.configDir, workspace, agentCwdOf(parsed) ?? envelopeCwd))];
  const switches = opts.switches ?? killSwitchesFrom(process.env);
  if (!found.globalPath && !found.projectPath) {
    const decision = emptyDecision(event);
    if (switches.off) decision.warnings.push(hooksDisabledWarning([], switches.value));
    return withWarnings(decision, shape, configDirWarning(opts), workspaceWarning(opts), killSwitchValueWarnings(switches));
  }
  // Only now load the config reader; the runner and child_process only if a hook will run.
  const { planFiring, firingNeedsChain } = await import('./fire-plan.js');
  const withConfig = { ...opts, workspace, switches, discovered: found };
  const sessionId = typeof envelope.session_id === 'string' ? envelope.session_id : '';
  const planned = await planFiring(event, withConfig, sessionId);
  const { quietDormantNotices } = await import('../state/dormant-notice.js');
  if (!firingNeedsChain(planned, envelope, event, withConfig)) {
    quietDormantNotices(planned.decision, configDirOf(opts), sessionId);
    return withWarnings(planned.decision, shape);
  }
  const { fireWithConfig } = await import('./fire-chain.js');
  const decision = await fireWithConfig(envelope, event, withConfig, planned);
  quietDormantNotices(decision, configDirOf(opts), sessionId);
  return withWarnings(decision, shape);
}

/** The agent's own cwd, when the envelope's cwd became the session's project root (core/protocols/project-root.ts). */
const agentCwdOf = (parsed: JsonObject): string | undefined => (typeof parsed[AGENT_CWD_KEY] === 'string' ? (parsed[AGENT_CWD_KEY] as string) : undefined);

/** Whether the directory the agent works in lies inside a trusted workspace that is not this one. */
async function enclosingWarning(opts: FireOptions, configDir: string, workspace: string, cwd: string | undefined): Promise<Warning[]> {
  // With no cwd in the envelope, the workspace itself: this process's cwd need not be the agent's.
  const at = cwd === undefined ? workspace : resolve(workspace, cwd);
  const settingsEnabled = async (): Promise<boolean> => (await import('../config/load.js')).settingsTrust(configDir, []);
  const found = await enclosingTrustedWorkspace(opts, { configDir, workspace, cwd: at, settingsEnabled });
  return found ? [{ code: 'enclosing_workspace_not_loaded', path: found.projectPath, message: enclosingWarningMessage(found, at, workspace) }] : [];
}

function workspaceWarning(opts: FireOptions): Warning[] {
  const problem = workspaceProblem(opts);
  return problem ? [{ code: 'workspace_not_found', path: resolve(opts.cwd!), message: problem }] : [];
}

function configDirWarning(opts: FireOptions): Warning[] {
  const problem = configDirProblem(opts);
  return problem ? [{ code: 'config_dir_not_found', path: configDirOf(opts), message: problem }] : [];
}

/** The envelope's own warnings come first: they concern what every hook saw. */
function withWarnings(decision: Decision, ...first: Warning[][]): Decision {
  decision.warnings.unshift(...first.flat());
  return decision;
}
