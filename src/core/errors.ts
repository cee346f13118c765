// The errors a command can end with. Only the CLI entry turns them into an
// exit code and the `{"error": {...}}` object of CONTRACT §7.

export const EXIT = { ok: 0, findings: 1, blocked: 2, usage: 64, badInput: 65, unavailable: 69, internal: 70, config: 78, ioError: 74, interrupted: 130, terminated: 143 } as const;

export type ErrorCode =
  | 'usage'
  | 'invalid_json'
  | 'not_an_object'
  | 'missing_event'
  | 'unknown_event'
  | 'input_too_large'
  | 'input_unreadable'
  | 'file_exists'
  | 'not_found'
  | 'refused'
  | 'invalid_request'
  | 'unknown_protocol'
  | 'outbox_unreadable'
  | 'unknown_job'
  | 'outbox_unreachable'
  | 'outbox_config_invalid'
  | 'outbox_invalid_job'
  | 'internal';

const EXIT_OF: Record<ErrorCode, number> = {
  usage: EXIT.usage,
  invalid_json: EXIT.badInput,
  not_an_object: EXIT.badInput,
  missing_event: EXIT.badInput,
  unknown_event: EXIT.badInput,
  input_too_large: EXIT.badInput,
  input_unreadable: EXIT.badInput,
  file_exists: EXIT.findings,
  not_found: EXIT.findings,
  refused: EXIT.findings,
  invalid_request: EXIT.badInput,
  unknown_protocol: EXIT.badInput,
  outbox_unreadable: EXIT.ioError,
  unknown_job: EXIT.badInput,
  outbox_unreachable: EXIT.unavailable,
  outbox_config_invalid: EXIT.config,
  outbox_invalid_job: EXIT.badInput,
  internal: EXIT.internal,
};

export class ChrysError extends Error {
  readonly exitCode: number;
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly hint?: string,
  ) {
    super(message);
    this.exitCode = EXIT_OF[code];
  }
}

/** The `{"error": {...}}` object `fire` prints and `serve` answers a bad request with. */
export function errorObject(e: unknown): { error: { code: ErrorCode; message: string; hint?: string } } {
  const error = asChrysError(e);
  return { error: { code: error.code, message: error.message, ...(error.hint ? { hint: error.hint } : {}) } };
}

/** A ChrysError as it is; anything else is a bug, reported as `internal`. */
export function asChrysError(e: unknown): ChrysError {
  return e instanceof ChrysError ? e : new ChrysError('internal', `internal error: ${(e as Error)?.message ?? String(e)}`, 'please report this with the command you ran');
}
