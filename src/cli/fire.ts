// `chrys-hooks fire`: envelope in, one decision object out (CONTRACT §7).

import { EXIT } from '../core/errors.js';
import { type Json, stringifyJson } from '../core/json.js';
import { fire } from '../engine/fire.js';
import type { CliGlobals } from './globals.js';
import { fireNotices } from './notices.js';
import type { CommandResult } from './output.js';

export async function runFire(_args: string[], opts: Record<string, unknown>, globals: CliGlobals): Promise<CommandResult> {
  const input = globals.readInput(typeof opts.input === 'string' ? opts.input : undefined);
  const decision = await fire(input, { ...globals, ...(typeof opts.event === 'string' ? { event: opts.event } : {}) });
  return {
    stdout: stringifyJson(decision as unknown as Json, 2),
    stderr: fireNotices(decision.warnings),
    exitCode: opts.exitCode && decision.blocked ? EXIT.blocked : EXIT.ok,
  };
}
