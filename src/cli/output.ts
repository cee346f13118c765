// Writing a command's result or error: the one format for both the commander
// path and the `fire` fast path.

import { ChrysError } from '../core/errors.js';

export interface CommandResult {
  /** Text for stdout (a trailing newline is added if missing). */
  stdout?: string;
  /** Human lines for stderr, written after stdout. */
  stderr?: string[];
  exitCode: number;
}

/** Commands whose failures are also reported as a JSON error object on stdout. */
const JSON_ERRORS = new Set(['fire']);

export function emit(result: CommandResult): number {
  if (result.stdout !== undefined) process.stdout.write(result.stdout.endsWith('\n') ? result.stdout : result.stdout + '\n');
  for (const line of result.stderr ?? []) process.stderr.write(`${line}\n`);
  return result.exitCode;
}

export function reportError(e: unknown, command: string): number {
  const error = e instanceof ChrysError ? e : new ChrysError('internal', `internal error: ${(e as Error)?.message ?? String(e)}`, 'please report this with the command you ran');
  if (JSON_ERRORS.has(command)) {
    process.stdout.write(JSON.stringify({ error: { code: error.code, message: error.message, ...(error.hint ? { hint: error.hint } : {}) } }) + '\n');
  }
  process.stderr.write(`chrys-hooks${command ? ` ${command}` : ''}: ${error.message}${error.hint ? ` (${error.hint})` : ''}\n`);
  if (!(e instanceof ChrysError) && process.env.CHRYS_HOOKS_DEBUG) process.stderr.write(`${(e as Error)?.stack}\n`);
  return error.exitCode;
}
