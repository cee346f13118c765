// The event catalogue behind `chrys-hooks events`, docs/events.md and the
// README's event table: every fact read from the one table in events.ts.

import { ALIAS_AGENTS, type Agent, COMMON_FIELDS, type DecisionKey, EVENT_ALIASES, EVENT_NAMES, type EventName, type PayloadField, eventSpec, eventSpecFor } from './events.js';

export const AGENT_NAMES: Record<Agent | 'other', string> = { claude: 'Claude Code', codex: 'Codex', gemini: 'Gemini CLI', cursor: 'Cursor', other: 'other spellings' };

export interface CatalogueEntry {
  event: EventName;
  can_block: boolean;
  /** Blockable when the firing came in through an agent protocol (a stop the agent lets a hook refuse). */
  can_block_via_agent: boolean;
  carries_tool: boolean;
  decision_keys: DecisionKey[];
  fields: PayloadField[];
  /** Aliases by the agent that sends them; `other` holds the spellings of other hook systems. */
  aliases: Record<Agent | 'other', string[]>;
}

export function eventCatalogue(): CatalogueEntry[] {
  return EVENT_NAMES.map((event) => {
    const spec = eventSpec(event);
    const aliases: CatalogueEntry['aliases'] = { claude: [], codex: [], gemini: [], cursor: [], other: [] };
    for (const [alias, target] of Object.entries(EVENT_ALIASES)) {
      if (target !== event) continue;
      const agents = ALIAS_AGENTS[alias] ?? ['other'];
      for (const a of agents) aliases[a].push(alias);
    }
    // Stryker disable next-line StringLiteral: any protocol name, even an empty one, gates an agent stop
    return { event, can_block: spec.gated, can_block_via_agent: eventSpecFor(event, 'claude').gated, carries_tool: spec.hasTool, decision_keys: [...spec.keys], fields: [...spec.fields], aliases };
  });
}

export const commonFields = (): PayloadField[] => [...COMMON_FIELDS];

/** `tool tool.name tool.args` -> `tool {name, args}`: nested fields folded into their parent. */
export function fieldSummary(fields: readonly PayloadField[]): string[] {
  return fields
    .filter((f) => !f.name.includes('.'))
    .map((f) => {
      const children = fields.filter((c) => c.name.startsWith(`${f.name}.`)).map((c) => c.name.slice(f.name.length + 1));
      return children.length ? `${f.name} {${children.join(', ')}}` : f.name;
    });
}

export function aliasSummary(aliases: CatalogueEntry['aliases']): string {
  return (Object.entries(aliases) as [Agent | 'other', string[]][])
    .filter(([, names]) => names.length > 0)
    .map(([agent, names]) => `${AGENT_NAMES[agent]}: ${names.join(', ')}`)
    .join('; ');
}

/** The Markdown event table shared by docs/events.md and the README. */
export function eventTableMarkdown(): string {
  const code = (s: string): string => `\`${s}\``;
  const rows = eventCatalogue().map((e) => [
    code(e.event),
    e.can_block ? 'yes' : e.can_block_via_agent ? 'via `--protocol` only' : 'no',
    e.decision_keys.map(code).join(', '),
    fieldSummary(e.fields).map(code).join(', ') || '—',
    aliasSummary(e.aliases).replace(/([A-Za-z_-]+)(?=,|;|$)/g, '`$1`') || '—',
  ]);
  const header = ['event', 'can block', 'decision keys (blocking hooks)', 'payload fields', 'aliases'];
  return [header, header.map(() => '---'), ...rows].map((r) => `| ${r.join(' | ')} |`).join('\n') + '\n';
}
