import { ChrysError } from '../core/errors.js';
import type { CliGlobals } from './globals.js';
import type { CommandResult } from './output.js';

export async function runDrain(_args: string[], _opts: Record<string, unknown>, _globals: CliGlobals): Promise<CommandResult> {
  throw new ChrysError('usage', 'not implemented yet');
}
