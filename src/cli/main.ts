// The full CLI program (commander): runs one command and returns its exit
// code, which its caller sets (bin/chrys-hooks through start.ts, or
// src/cli/index.ts). Commands are loaded lazily so `fire` pays only for what
// it uses.

import { Command, CommanderError, Option } from 'commander';
import { ChrysError, EXIT } from '../core/errors.js';
import { type CliGlobals, globalsFrom } from './globals.js';
import { type CommandResult, afterStdoutWrites, emit, guardStdout, reportError } from './output.js';
import { COMMANDS, GLOBAL_OPTIONS, type OptionSpec } from './spec.js';
import { usageHint } from './usage-hint.js';
import { VERSION } from '../version.js';


type Runner = (args: string[], opts: Record<string, unknown>, global: CliGlobals) => Promise<CommandResult>;

const RUNNERS: Record<string, () => Promise<Runner>> = {
  fire: async () => (await import('./fire.js')).runFire,
  validate: async () => (await import('./validate.js')).runValidate,
  list: async () => (await import('./list.js')).runList,
  resolve: async () => (await import('./resolve.js')).runResolve,
  'drain-outbox': async () => (await import('./drain.js')).runDrain,
  events: async () => (await import('./events.js')).runEvents,
  import: async () => (await import('./import.js')).runImport,
  trust: async () => (await import('./trust.js')).runTrust,
  untrust: async () => (await import('./trust.js')).runUntrust,
  test: async () => (await import('./test-hook.js')).runTest,
  init: async () => (await import('./init.js')).runInit,
  serve: async () => (await import('./serve.js')).runServe,
  install: async () => (await import('./install.js')).runInstall,
  uninstall: async () => (await import('./install.js')).runUninstall,
  doctor: async () => (await import('./doctor.js')).runDoctor,
  outbox: async () => (await import('./outbox.js')).runOutbox,
};

function addOption(cmd: Command, spec: OptionSpec): void {
  const opt = new Option(spec.flags, spec.description);
  if (spec.choices) opt.choices(spec.choices);
  cmd.addOption(opt);
}

/** The command whose action the last main() started ('' for help, --version, a usage error from commander). */
let commandName = '';
/** What bin/chrys-hooks keys a command's code cache by (start.ts): only a run that ran the command writes it. */
export const commandThatRan = (): string => commandName;

export async function main(argv: string[]): Promise<number> {
  // Help and --version are written by commander, before any result: guard stdout for them too.
  guardStdout();
  commandName = '';
  let result: CommandResult | undefined;
  const program = new Command('chrys-hooks')
    .description('A hook engine for coding agents: runs your hooks on agent events and prints one decision.')
    .version(VERSION, '--version')
    .exitOverride()
    // Errors are printed once, by reportError, in the contract's format.
    .configureOutput({ outputError: () => {} });
  for (const o of GLOBAL_OPTIONS) addOption(program, o);

  for (const spec of COMMANDS) {
    const cmd = program
      .command(spec.name)
      .summary(spec.summary)
      .description(spec.description)
      .exitOverride()
      .configureOutput({ outputError: () => {} });
    if (spec.args) cmd.arguments(spec.args);
    for (const o of spec.options) addOption(cmd, o);
    cmd.addHelpText('after', `\nExamples:\n${spec.examples.map((e) => `  $ ${e}`).join('\n')}\n`);
    cmd.action(async (...params: unknown[]) => {
      commandName = spec.name;
      const command = params[params.length - 1] as Command;
      const opts = command.optsWithGlobals() as Record<string, unknown>;
      // Each declared argument, in order (a variadic one is an array); commander appends the options and the command.
      const args = (spec.args ? params.slice(0, -2) : []).flat().filter((a): a is string => typeof a === 'string');
      const run = await RUNNERS[spec.name]!();
      result = await run(args, opts, globalsFrom(opts));
    });
  }

  try {
    await program.parseAsync(argv, { from: 'user' });
    if (!result) {
      // No command given.
      process.stderr.write(program.helpInformation());
      return EXIT.usage;
    }
    return emit(result);
  } catch (e) {
    if (e instanceof CommanderError) {
      if (e.code === 'commander.helpDisplayed' || e.code === 'commander.version') return afterStdoutWrites(EXIT.ok);
      // `help [command]` asked for help; otherwise it was shown because no command was given.
      if (e.code === 'commander.help') return afterStdoutWrites(argv[0] === 'help' ? EXIT.ok : EXIT.usage);
      // commander's own "(Did you mean ...?)" line is replaced by the hint.
      const message = e.message.replace(/^error: /, '').replace(/\n\(Did you mean [^)]*\)$/, '');
      const command = commandName || guessCommand(argv);
      return reportError(new ChrysError('usage', message, usageHint(message, command)), command);
    }
    return reportError(e, commandName);
  }
}

const guessCommand = (argv: string[]): string => argv.find((a) => COMMANDS.some((c) => c.name === a)) ?? '';

