// The in-process API for Node agents: `import { fire, validate, resolve } from
// 'chrys-hooks'`. The same engine functions as the CLI, returning the objects
// the CLI prints as JSON (plain values: numbers as JSON.parse gives them).
// Loads no CLI code: nothing here prints or sets an exit code; bad input
// throws a ChrysError whose code is the CLI's error code.

import { type Decision } from '../core/decide.js';
import { checkEnvelope, parseEnvelope } from '../core/envelope.js';
import { failClosedFrom } from '../core/fail-closed.js';
import { type Json, fromPlain, stringifyJson, toPlain } from '../core/json.js';
import { replyObject } from '../core/protocols/reply.js';
import type { GlobalOptions } from '../config/locations.js';
import type { AgentProtocol } from '../core/protocols/names.js';
import { answerAgentInput, fireGuarded, isAgentProtocol } from '../engine/agent-fire.js';
import { type Resolution, resolvePlan } from '../engine/inspect.js';
import { checkProtocol } from '../engine/serve-request.js';
import { type ValidationReport, validateFiles } from '../engine/validation-report.js';

export { ChrysError, type ErrorCode } from '../core/errors.js';
export type { Decision, HookReport, HookStatus } from '../core/decide.js';
export type { AgentProtocol } from '../core/protocols/names.js';
export type { Warning, Diagnostic } from '../core/diagnostics.js';
export type { Resolution, PlannedHook } from '../engine/inspect.js';
export type { ValidationReport, ReportedDiagnostic } from '../engine/validation-report.js';

/** Where to look, as the CLI's global options: --config-dir, --cwd, --project-hooks / --no-project-hooks. */
export interface Options {
  configDir?: string;
  cwd?: string;
  projectHooks?: boolean;
}

export interface FireOptions extends Options {
  /** Wins over the envelope's `event`, as `fire --event`. */
  event?: string;
  /** The hook protocol of the envelope and the answer: `chrys` (the default), or an agent's, as `fire --protocol`. */
  protocol?: 'chrys' | AgentProtocol;
  /** As `fire --fail-closed`; also on when CHRYS_HOOKS_FAIL_CLOSED=1. */
  failClosed?: boolean;
}

/** An agent's answer: its JSON output, plus the exit status and stderr `fire --protocol` would end with. */
export type AgentAnswer = Record<string, unknown> & { exit_code: number; stderr: string };

/** An envelope as an object, or as the JSON text `fire` would read on stdin. */
export type Envelope = Record<string, unknown> | string;

/**
 * Runs the event's hooks; the decision `chrys-hooks fire` prints. With an
 * agent `protocol`, `envelope` is that agent's hook input and the result is
 * the answer `fire --protocol` prints (an object in the agent's format).
 */
export async function fire(envelope: Envelope, opts?: FireOptions & { protocol?: 'chrys' }): Promise<Decision>;
export async function fire(envelope: Envelope, opts: FireOptions & { protocol: AgentProtocol }): Promise<AgentAnswer>;
export async function fire(envelope: Envelope, opts: FireOptions = {}): Promise<Decision | AgentAnswer> {
  checkProtocol(opts.protocol);
  const protocol = opts.protocol;
  const event = isAgentProtocol(protocol) ? (opts.event ?? 'other') : opts.event;
  const fireOpts = { ...globals(opts), ...(failClosedFrom(opts.failClosed, process.env) ? { failClosed: true } : {}) };
  // As the JSON text the CLI would read, so the hooks see exactly what it would give them.
  const parse = (): ReturnType<typeof checkEnvelope> => (typeof envelope === 'string' ? parseEnvelope(envelope, event) : checkEnvelope(fromPlain(envelope) ?? null, event));
  if (isAgentProtocol(protocol)) {
    const { reply } = await answerAgentInput(protocol, () => parse().envelope, opts.event, fireOpts);
    return toPlain(replyObject(reply)) as AgentAnswer;
  }
  const parsed = parse();
  return toPlain((await fireGuarded(parsed.envelope, parsed.event, fireOpts)) as unknown as Json) as Decision;
}

/** Lints the named files (or the discovered ones); what `validate --format json` prints. `allowMissing`: as `validate --allow-missing`. */
export async function validate(files: readonly string[] = [], opts: Options & { allowMissing?: boolean } = {}): Promise<ValidationReport> {
  return validateFiles(files, { ...globals(opts), ...(opts.allowMissing ? { allowMissing: true } : {}) });
}

/** The sources, merged settings and (for an envelope or `event`) the plan; what `resolve --json` prints. Runs nothing. */
export async function resolve(envelope?: Envelope, opts: Options & { event?: string } = {}): Promise<Resolution> {
  const input = envelope === undefined ? undefined : typeof envelope === 'string' ? envelope : stringifyJson(fromPlain(envelope));
  return resolvePlan(input, { ...globals(opts), ...(opts.event !== undefined ? { event: opts.event } : {}) });
}

function globals(opts: Options): GlobalOptions {
  return {
    ...(opts.configDir !== undefined ? { configDir: opts.configDir } : {}),
    ...(opts.cwd !== undefined ? { cwd: opts.cwd } : {}),
    ...(opts.projectHooks !== undefined ? { projectHooks: opts.projectHooks } : {}),
  };
}
