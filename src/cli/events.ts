// `chrys-hooks events`: the event catalogue, for people and for tools.

import { AGENT_NAMES, aliasSummary, commonFields, eventCatalogue, fieldSummary } from '../core/event-catalogue.js';
import { EXIT } from '../core/errors.js';
import type { CliGlobals } from './globals.js';
import type { CommandResult } from './output.js';
import { paint } from './render.js';

export async function runEvents(_args: string[], opts: Record<string, unknown>, globals: CliGlobals): Promise<CommandResult> {
  const events = eventCatalogue();
  if (opts.json) return { stdout: JSON.stringify({ common_fields: commonFields(), agents: AGENT_NAMES, events }, null, 2), exitCode: EXIT.ok };
  const k = paint(globals.color);
  const lines = [`${k.bold('every envelope')}: ${commonFields().map((f) => f.name).join(', ')}`, ''];
  for (const e of events) {
    lines.push(`${k.bold(e.event)}  ${e.can_block ? k.red('can block') : e.can_block_via_agent ? k.yellow('can block via --protocol') : k.gray('cannot block')}`);
    lines.push(`  decision keys: ${e.decision_keys.join(', ')}`);
    const fields = fieldSummary(e.fields);
    if (fields.length) lines.push(`  payload:       ${fields.join(', ')}`);
    const aliases = aliasSummary(e.aliases);
    if (aliases) lines.push(`  aliases:       ${aliases}`);
  }
  return { stdout: lines.join('\n'), exitCode: EXIT.ok };
}
