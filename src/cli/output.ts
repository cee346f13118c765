// Writing a command's result or error: the one format for both the commander
// path and the `fire` fast path.

import { ChrysError, EXIT, asChrysError, errorObject } from '../core/errors.js';
import { printable } from '../core/printable.js';
import { writeAllSync } from './sync-write.js';

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
  process.stdout.on('error', (e: NodeJS.ErrnoException) => stdoutFailure(e.code ?? e.message));
}

function stdoutFailure(why: string): void {
  if (!stdoutFailed) process.stderr.write(`chrys-hooks: cannot write to stdout: ${why}\n`);
  stdoutFailed = true;
  process.exitCode = EXIT.ioError;
}

/**
 * `code`, or the I/O error exit once what was written to stdout before (by
 * commander: help, --version) has failed: waits for those writes to finish,
 * so the answer does not depend on when the stream reports its error.
 */
export async function afterStdoutWrites(code: number): Promise<number> {
  await new Promise<void>((done) => {
    if (process.stdout.destroyed) done();
    else process.stdout.write('', () => done());
  });
  return stdoutFailed ? EXIT.ioError : code;
}

export interface EmitOptions {
  /**
   * Write stdout with fs.writeSync(1), creating no stream unless the pipe is
   * full (the fire path: nothing else has written to stdout before).
   */
  sync?: boolean;
}

export function emit(result: CommandResult, opts: EmitOptions = {}): number {
  if (result.stdout !== undefined) {
    const text = result.stdout.endsWith('\n') ? result.stdout : result.stdout + '\n';
    if (opts.sync) writeStdoutSync(text);
    else writeStdoutStream(text);
  } else if (!opts.sync) guardStdout();
  for (const line of result.stderr ?? []) process.stderr.write(`${line}\n`);
  return stdoutFailed ? EXIT.ioError : result.exitCode;
}

function writeStdoutStream(text: string | Buffer): void {
  guardStdout();
  writing = true;
  process.stdout.write(text, () => {
    writing = false;
  });
}

/** fs.writeSync(1); what a full non-blocking pipe did not take goes through the stream, which waits for it. */
function writeStdoutSync(text: string): void {
  const r = writeAllSync(1, text);
  if (r.done) return;
  if ('error' in r) stdoutFailure(r.error);
  else writeStdoutStream(r.rest);
}

export function reportError(e: unknown, command: string, opts: EmitOptions = {}): number {
  const error = asChrysError(e);
  if (JSON_ERRORS.has(command)) {
    const text = JSON.stringify(errorObject(error)) + '\n';
    if (opts.sync) writeStdoutSync(text);
    else writeStdoutStream(text);
  } else if (!opts.sync) guardStdout();
  process.stderr.write(`chrys-hooks${command ? ` ${command}` : ''}: ${printable(error.message)}${error.hint ? ` (${printable(error.hint)})` : ''}\n`);
  if (!(e instanceof ChrysError) && process.env.CHRYS_HOOKS_DEBUG) process.stderr.write(`${(e as Error)?.stack}\n`);
  return stdoutFailed ? EXIT.ioError : error.exitCode;
}
