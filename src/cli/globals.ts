// The global options every command receives, from commander's or the fast
// parser's camelCase option record.

import type { GlobalOptions } from '../config/locations.js';
import { readInput } from './io.js';

export interface CliGlobals extends GlobalOptions {
  color: boolean;
  readInput: (file?: string) => string;
}

export function globalsFrom(opts: Record<string, unknown>): CliGlobals {
  return {
    ...(typeof opts.configDir === 'string' ? { configDir: opts.configDir } : {}),
    ...(typeof opts.cwd === 'string' ? { cwd: opts.cwd } : {}),
    ...(typeof opts.projectHooks === 'boolean' ? { projectHooks: opts.projectHooks } : {}),
    color: opts.color !== false && !process.env.NO_COLOR && Boolean(process.stdout.isTTY),
    readInput,
  };
}
