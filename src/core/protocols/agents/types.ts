// What chrys-hooks knows about one agent's hook protocol, as data: one
// descriptor per agent, one file each, registered in index.ts. Pure (fire
// reads it on every call); the same file holds the agent's import rules,
// which core/import/convert.ts applies, and src/agents/ its install and
// doctor file edits.

import type { EventName } from '../../events.js';

/** What an agent's environment variable for a hook script holds. */
export type EnvValue = 'workspace' | 'session_id';

/** The match clause an imported hook gets for one of the agent's one-tool gates. */
export interface GateMatch {
  tool_name?: string;
  tool_name_regex?: string;
}

export interface AgentProtocolDescriptor {
  /** The agent's own name, for output. */
  name: string;
  /** Every event the agent documents that has a Chrys counterpart: the agent's name to the Chrys event. */
  events: Readonly<Record<string, EventName>>;
  /** Documented events with no Chrys counterpart: they fire `other`, their name kept in hook_event_name. */
  otherEvents: readonly string[];
  /** The agent event a Chrys event is sent as, where `events` names none for it or several. */
  sendAs: Readonly<Partial<Record<EventName, string>>>;
  /** Another agent's names this protocol also accepts (Cursor's Claude-shaped names under --protocol claude), to its own name. */
  aliases: Readonly<Record<string, string>>;
  /** Where a hook's exit 2 stops the action, with stderr as the reason. */
  exit2Blocks: readonly string[];
  /** Where a hook's exit 2 comes after the action and feeds stderr back to the model: read as a block's feedback. */
  exit2Feedback: readonly string[];
  /** Where the agent reads context for the model from the answer (Claude's hookSpecificOutput.additionalContext). */
  contextEvents: readonly string[];
  /** Where a hook's plain-text stdout (not JSON) is context for the model. */
  plainTextContext: readonly string[];
  /** The environment the agent gives its hook scripts, in that order. */
  env: Readonly<Record<string, EnvValue>>;
  /** The session fields of its input where the envelope has none: SessionStart's `source` (on a resumed session too) and SessionEnd's `reason`. */
  session?: { source: string; restoredSource: string; endReason: string };
  /** How its hook file holds handlers: Claude-shaped groups, or (flat) the handlers in the event's list; the key of the command line. */
  hooksFile: { flat?: boolean; commandKey?: string };
}

/** How `import --from AGENT` reads the agent's hook config: in the agent's file, beside its descriptor. */
export interface ImportRules {
  /** The project files it reads, relative to the workspace; `dir/*.json` is every JSON file there but chrys-hooks' own. */
  files: readonly string[];
  /** The files, as the steps after an import name them. */
  label: string;
  /** Keys of `hooks` that are settings, not events. */
  settingsKeys: readonly string[];
  /**
   * The input field the agent's matcher tests on an event that is not a tool
   * event (AGENT-PROTOCOLS §1.1, §2.3, §3.3-3.4). `null`: the agent ignores a
   * matcher there, so leaving it out is exact. An event missing here: what the
   * matcher tests is not known, and the hook is imported disabled.
   */
  matcherField: Readonly<Record<string, string | null>>;
  /** The agent's default timeout in seconds, so an imported hook gets the time it had. */
  defaultTimeout: number | undefined;
  /** Its default where an event has its own. */
  eventTimeouts: Readonly<Partial<Record<EventName, number>>>;
  /** The unit of the handler's timeout. */
  timeoutUnit: 'seconds' | 'milliseconds';
  /** The handler key of the timeout. */
  timeoutKey: string;
  /** One-tool gates: they fire before_tool_call / after_tool_call for that tool only, so the import's match says so. */
  gateTools: Readonly<Record<string, GateMatch>>;
}
