import { describe, expect, it } from 'vitest';
import { EVENT_ALIASES, EVENT_NAMES, eventSpec, eventSpecFor, lookupEvent } from '../../src/core/events.js';

describe('events', () => {
  it.each([
    ['PreToolUse', 'before_tool_call'],
    ['BeforeTool', 'before_tool_call'],
    ['preToolUse', 'before_tool_call'],
    ['PostToolUse', 'after_tool_call'],
    ['UserPromptSubmit', 'user_prompt_submit'],
    ['pre_prompt', 'user_prompt_submit'],
    ['Stop', 'conversation_done'],
    ['conversation-done', 'conversation_done'],
    ['SubagentStop', 'sub_agent_end'],
    ['compact', 'pre_compact'],
    ['startup', 'session_start'],
    ['OnError', 'error'],
  ])('alias %s is %s', (alias, canonical) => {
    expect(lookupEvent(alias)).toEqual({ ok: true, event: canonical, alias: true });
  });

  it('resolves every canonical name to itself', () => {
    for (const name of EVENT_NAMES) expect(lookupEvent(name)).toEqual({ ok: true, event: name, alias: false });
  });

  it('is case-sensitive and suggests the nearest name', () => {
    expect(lookupEvent('pretooluse')).toEqual({ ok: false, suggestion: 'PreToolUse' });
    expect(lookupEvent('before_tool_cal')).toEqual({ ok: false, suggestion: 'before_tool_call' });
    expect(lookupEvent('zzzzzzzzzz')).toEqual({ ok: false, suggestion: undefined });
  });

  it('maps every alias onto a canonical event', () => {
    for (const target of Object.values(EVENT_ALIASES)) expect(EVENT_NAMES).toContain(target);
  });

  it('gates exactly the events that can block (a blocked stop keeps the agent going)', () => {
    expect(EVENT_NAMES.filter((e) => eventSpec(e).gated).sort()).toEqual(['before_tool_call', 'permission_request', 'user_prompt_submit']);
    expect(EVENT_NAMES.filter((e) => eventSpecFor(e, 'claude').gated).sort()).toEqual(['before_tool_call', 'conversation_done', 'permission_request', 'sub_agent_end', 'user_prompt_submit']);
    expect(eventSpecFor('conversation_done', 'claude').keys).toContain('action:block');
    expect(eventSpecFor('conversation_done', undefined).keys).not.toContain('action:block');
  });
});
