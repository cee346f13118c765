// The event catalogue behind `chrys-hooks events` and the docs' event table.
import { describe, expect, it } from 'vitest';
import { aliasSummary, commonFields, eventCatalogue, eventTableMarkdown, fieldSummary } from '../../src/core/event-catalogue.js';
import { EVENT_NAMES } from '../../src/core/events.js';

const entry = (event: string) => eventCatalogue().find((e) => e.event === event)!;

describe('eventCatalogue', () => {
  it('lists every event once, in the table order', () => {
    expect(eventCatalogue().map((e) => e.event)).toEqual(EVENT_NAMES);
  });

  it('says what a gated tool event can do and who sends it under which name', () => {
    const e = entry('before_tool_call');
    expect(e).toMatchObject({ can_block: true, can_block_via_agent: true, carries_tool: true, decision_keys: ['action:block', 'action:modify', 'context'] });
    expect(e.fields.map((f) => f.name)).toEqual(['tool', 'tool.name', 'tool.kind', 'tool.call_id', 'tool.args']);
    expect(e.aliases).toEqual({ claude: ['PreToolUse'], codex: ['PreToolUse'], gemini: ['BeforeTool'], cursor: ['preToolUse'], other: ['PreTool', 'pre_tool'] });
  });

  it('marks a stop as blockable only through an agent protocol, and an observer as neither', () => {
    expect(entry('conversation_done')).toMatchObject({ can_block: false, can_block_via_agent: true, carries_tool: false, decision_keys: ['context'] });
    expect(entry('conversation_done').aliases).toEqual({ claude: ['Stop'], codex: ['Stop'], gemini: [], cursor: [], other: ['conversation-done'] });
    expect(entry('user_interrupt')).toMatchObject({ can_block: false, can_block_via_agent: false, fields: [], aliases: { claude: [], codex: [], gemini: [], cursor: [], other: [] } });
  });

  it('hands out copies, so a caller cannot change the table', () => {
    eventCatalogue()[0]!.decision_keys.push('permission');
    commonFields().push({ name: 'x', type: 'string' });
    expect(eventCatalogue()[0]!.decision_keys).toEqual(['context']);
    expect(commonFields().map((f) => f.name)).toEqual(['schema', 'event', 'timestamp', 'cwd', 'session_id', 'profile', 'session_kind', 'context_tokens']);
  });
});

describe('fieldSummary and aliasSummary', () => {
  it('folds dotted fields into their parent, and only those', () => {
    expect(fieldSummary([{ name: 'tool', type: 'object' }, { name: 'toolbox', type: 'string' }, { name: 'tool.name', type: 'string' }, { name: 'tool.args', type: 'object' }])).toEqual(['tool {name, args}', 'toolbox']);
    expect(fieldSummary(entry('after_tool_call').fields)).toEqual(['tool {name, kind, call_id, args}', 'result {text, duration_ms, error, failed, approval_rejected}']);
  });

  it('names the agents that send aliases, leaving out those that send none', () => {
    expect(aliasSummary(entry('conversation_done').aliases)).toBe('Claude Code: Stop; Codex: Stop; other spellings: conversation-done');
    expect(aliasSummary(entry('user_interrupt').aliases)).toBe('');
  });
});

describe('eventTableMarkdown', () => {
  it('has a header, a separator and one row per event, with a dash for nothing', () => {
    const lines = eventTableMarkdown().split('\n');
    expect(lines[0]).toBe('| event | can block | decision keys (blocking hooks) | payload fields | aliases |');
    expect(lines[1]).toBe('| --- | --- | --- | --- | --- |');
    expect(lines).toHaveLength(EVENT_NAMES.length + 3);
    expect(lines.at(-1)).toBe('');
    expect(lines).toContain('| `user_interrupt` | no | `context` | — | — |');
    expect(lines).toContain('| `conversation_done` | via `--protocol` only | `context` | — | Claude Code: `Stop`; Codex: `Stop`; other spellings: `conversation-done` |');
    expect(lines).toContain('| `before_tool_call` | yes | `action:block`, `action:modify`, `context` | `tool {name, kind, call_id, args}` | Claude Code: `PreToolUse`; Codex: `PreToolUse`; Gemini CLI: `BeforeTool`; Cursor: `preToolUse`; other spellings: `PreTool`, `pre_tool` |');
  });
});
