// What to do about a usage error (exit 64): the nearest command or option
// when the word looks like a typo, else where the help is.

import { closest } from '../core/events.js';
import { COMMANDS, GLOBAL_OPTIONS, flagName } from './spec.js';

export function usageHint(message: string, command: string): string {
  const help = command ? `see chrys-hooks ${command} --help` : 'see chrys-hooks --help';
  const unknownCommand = /^unknown command '([^']*)'/.exec(message);
  if (unknownCommand) {
    const near = closest(unknownCommand[1]!, COMMANDS.map((c) => c.name));
    return near ? `did you mean "${near}"? ${help}` : `commands: ${COMMANDS.map((c) => c.name).join(', ')}`;
  }
  const unknownOption = /^unknown option '([^'=]*)/.exec(message);
  if (unknownOption) {
    const options = [...(COMMANDS.find((c) => c.name === command)?.options ?? []), ...GLOBAL_OPTIONS].map(flagName);
    const near = closest(unknownOption[1]!.replace(/^--?/, ''), options.map((o) => o.slice(2)));
    return near ? `did you mean "--${near}"? ${help}` : help;
  }
  return help;
}
