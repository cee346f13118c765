// The global options every command receives, from commander's or the fast
// parser's camelCase option record.

import type { GlobalOptions } from '../config/locations.js';
import { readInput } from './io.js';

export interface CliGlobals extends GlobalOptions {
  color: boolean;
  readInput: (file?: string) => string;
}

export function globalsFrom(opts: Record<string, unknown>): CliGlobals {
  const globals = {
    ...(typeof opts.configDir === 'string' ? { configDir: opts.configDir } : {}),
    ...(typeof opts.cwd === 'string' ? { cwd: opts.cwd } : {}),
    ...(typeof opts.projectHooks === 'boolean' ? { projectHooks: opts.projectHooks } : {}),
    readInput,
  } as CliGlobals;
  // Asked only by what prints in colour: process.stdout.isTTY creates the
  // stdout stream, which `fire` (fs.writeSync, output.ts) never needs. Not
  // enumerable, so spreading the globals into an engine's options does not ask it.
  let color: boolean | undefined;
  Object.defineProperty(globals, 'color', {
    enumerable: false,
    get: () => (color ??= opts.color !== false && !process.env.NO_COLOR && Boolean(process.stdout.isTTY)),
  });
  return globals;
}
