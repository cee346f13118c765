// A minimal parser for the `fire` hot path, driven by the same option table
// as commander. Loading commander costs ~15 ms per call (measured, README
// "Performance"); `fire` runs on every tool call. Anything this parser does not
// fully understand (help, version, unknown or malformed options) returns
// undefined and goes to commander, which owns every error message.
// Not node:util.parseArgs: its first call loads and compiles Node's internal
// parser, ~0.7 ms (up to ~2.5 ms on a loaded machine) more than this loop on
// every `fire` (measured: median of 30 fresh processes each, first parse of a
// fire argv), and it has no --no-* negation before Node 22.4.

import { COMMANDS, GLOBAL_OPTIONS, type OptionSpec, flagName, takesValue } from './spec.js';

const camel = (flag: string): string => flag.replace(/^--(no-)?/, '').replace(/-([a-z])/g, (_, c: string) => c.toUpperCase());

/** The options of `fire` as commander would give them (camelCase keys), or undefined. */
export function parseFastFire(argv: readonly string[]): Record<string, string | boolean> | undefined {
  if (argv[0] !== 'fire') return undefined;
  const fire = COMMANDS.find((c) => c.name === 'fire')!;
  const specs = new Map<string, OptionSpec>([...GLOBAL_OPTIONS, ...fire.options].map((o) => [flagName(o), o]));
  const opts: Record<string, string | boolean> = {};
  for (let i = 1; i < argv.length; i++) {
    const arg = argv[i]!;
    const eq = arg.indexOf('=');
    const name = eq > 0 ? arg.slice(0, eq) : arg;
    const spec = specs.get(name);
    if (!spec) return undefined;
    if (takesValue(spec)) {
      const value = eq > 0 ? arg.slice(eq + 1) : argv[++i];
      if (value === undefined || (eq < 0 && value.startsWith('-'))) return undefined;
      opts[camel(name)] = value;
    } else {
      if (eq > 0) return undefined;
      opts[camel(name)] = !name.startsWith('--no-');
    }
  }
  return opts;
}
