// Writing a command's result or error: the one format for both the commander
// path and the `fire` fast path.

import { ChrysError, EXIT, asChrysError, errorObject } from '../core/errors.js';
import { printable } from '../core/printable.js';

export interface CommandResult {
  /** Text for stdout (a trailing newline is added if missing). */
  stdout?: string;
  /** Human lines for stderr, written after stdout. */
  stderr?: string[];
  exitCode: number;
}

/** Commands whose failures are also reported as a JSON error object on stdout. */
const JSON_ERRORS = new Set(['fire']);

let stdoutFailed = false;
let writing = false;

/** Whether the result is being written to stdout (a signal then waits for the write to end). */
export const isWritingResult = (): boolean => writing;

/** A full disk or a closed pipe on stdout: one line on stderr and exit 74 (EX_IOERR), never a stack trace. */
export function guardStdout(): void {
  if (process.stdout.listenerCount('error') > 0) return;
  process.stdout.on('error', (e: NodeJS.ErrnoException) => {
    if (!stdoutFailed) process.stderr.write(`chrys-hooks: cannot write to stdout: ${e.code ?? e.message}\n`);
    stdoutFailed = true;
    process.exitCode = EXIT.ioError;
  });
}

export function emit(result: CommandResult): number {
  guardStdout();
  if (result.stdout !== undefined) {
    writing = true;
    process.stdout.write(result.stdout.endsWith('\n') ? result.stdout : result.stdout + '\n', () => {
      writing = false;
    });
  }
  for (const line of result.stderr ?? []) process.stderr.write(`${line}\n`);
  return stdoutFailed ? EXIT.ioError : result.exitCode;
}

export function reportError(e: unknown, command: string): number {
  const error = asChrysError(e);
  guardStdout();
  if (JSON_ERRORS.has(command)) process.stdout.write(JSON.stringify(errorObject(error)) + '\n');
  process.stderr.write(`chrys-hooks${command ? ` ${command}` : ''}: ${printable(error.message)}${error.hint ? ` (${printable(error.hint)})` : ''}\n`);
  if (!(e instanceof ChrysError) && process.env.CHRYS_HOOKS_DEBUG) process.stderr.write(`${(e as Error)?.stack}\n`);
  return stdoutFailed ? EXIT.ioError : error.exitCode;
}
