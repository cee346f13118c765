// Every agent's protocol descriptor (src/core/protocols/agents/) against
// itself and the code that reads it: the event names invert, every table
// names only events the agent has, and the agent list is the registry's
// wherever it is spelt.
import { describe, expect, it } from 'vitest';
import { AGENTS, AGENT_IDS } from '../../src/agents/index.js';
import { COMMANDS } from '../../src/cli/spec.js';
import { EVENT_NAMES } from '../../src/core/events.js';
import { stringifyJson } from '../../src/core/json.js';
import { AGENT_PROTOCOLS, importRulesOf, protocolOf } from '../../src/core/protocols/agents/index.js';
import { envelopeToAgentInput } from '../../src/core/protocols/foreign-input.js';
import { agentEventOf, agentEvents, chrysEventOf } from '../../src/core/protocols/names.js';
import { hooksFileSchema } from '../../src/core/schema.js';

describe.each(AGENT_PROTOCOLS)('protocol descriptor %s', (agent) => {
  const d = protocolOf(agent);
  const names = agentEvents(agent);

  it('names each event once, and maps it to a Chrys event', () => {
    expect(new Set(names).size).toBe(names.length);
    for (const event of Object.values(d.events)) expect(EVENT_NAMES).toContain(event);
    for (const name of d.otherEvents) expect(chrysEventOf(agent, name), name).toBe('other');
  });

  it('sends every Chrys event it maps as one of its names, and that name back as the same event', () => {
    for (const [name, event] of Object.entries(d.events)) {
      const sent = agentEventOf(agent, event)!;
      expect(chrysEventOf(agent, sent), `${name} → ${event} → ${sent}`).toBe(event);
    }
  });

  it('says which name a Chrys event with several names is sent as', () => {
    const byEvent = new Map<string, string[]>();
    for (const [name, event] of Object.entries(d.events)) byEvent.set(event, [...(byEvent.get(event) ?? []), name]);
    for (const [event, several] of byEvent) if (several.length > 1) expect(d.sendAs, event).toHaveProperty(event);
    for (const [event, name] of Object.entries(d.sendAs)) {
      expect(EVENT_NAMES, event).toContain(event);
      expect(Object.keys(d.events), `${event} is sent as ${name}`).toContain(name);
    }
  });

  it('names only its own events in its exit-2, context and matcher tables', () => {
    const mapped = Object.keys(d.events);
    for (const name of [...d.exit2Blocks, ...d.exit2Feedback]) expect(mapped, name).toContain(name);
    expect(d.exit2Blocks.filter((n) => d.exit2Feedback.includes(n))).toEqual([]);
    for (const name of [...d.contextEvents, ...d.plainTextContext, ...Object.keys(importRulesOf(agent).matcherField), ...Object.keys(importRulesOf(agent).gateTools)]) {
      expect(names, name).toContain(name);
    }
  });

  it('takes as aliases only names that map to the same Chrys event as its own name', () => {
    for (const [alias, own] of Object.entries(d.aliases)) {
      expect(Object.keys(d.events), alias).not.toContain(alias);
      expect(chrysEventOf(agent, alias), alias).toBe(d.events[own]);
      expect(AGENT_PROTOCOLS.some((other) => protocolOf(other).events[alias] === d.events[own]), `${alias} is some agent's name`).toBe(true);
    }
  });

  it('is the one install and doctor read: the same name, file shape and events', () => {
    const install = AGENTS[agent];
    expect(install.name).toBe(d.name);
    expect(install.flat === true).toBe(d.hooksFile.flat === true);
    expect(install.commandKey).toBe(d.hooksFile.commandKey);
    for (const name of install.events) expect(Object.keys(d.events), name).toContain(name);
    for (const name of install.otherEvents) expect(names, name).toContain(name);
  });
});

describe('the agent list', () => {
  it('is the registry in install, the CLI choices and the hooks.yaml schema', () => {
    expect(AGENT_IDS).toEqual(AGENT_PROTOCOLS);
    const choices = COMMANDS.flatMap((c) => c.options).filter((o) => /^--(agent|from|protocol) /.test(o.flags) && o.choices?.includes('cursor'));
    expect(choices.length).toBeGreaterThanOrEqual(4);
    for (const o of choices) expect(o.choices, o.flags).toEqual(AGENT_PROTOCOLS);
    for (const protocol of ['chrys', ...AGENT_PROTOCOLS]) {
      const file = { hooks: [{ id: 'h', event: 'session_start', run: { type: 'shell', shell: 'true', protocol } }] };
      expect(hooksFileSchema.safeParse(file).error?.issues, protocol).toBeUndefined();
    }
  });
});

describe('a resumed session sent to a foreign hook', () => {
  const envelope = { event: 'session_restored', session_id: 's', cwd: '/w', timestamp: 'T' };
  // Gemini CLI fires SessionStart with source "resume" on a resumed session, as Claude Code does.
  it.each([
    ['claude', 'SessionStart', 'resume'],
    ['codex', 'SessionStart', 'resume'],
    ['gemini', 'SessionStart', 'resume'],
    ['copilot', undefined, 'resume'],
  ] as const)('%s: %s with source %s', (agent, name, source) => {
    const input = envelopeToAgentInput(agent, envelope, 'session_restored');
    expect(input.hook_event_name).toBe(name);
    expect(input.source).toBe(source);
  });

  it('gemini: the whole input', () => {
    expect(stringifyJson(envelopeToAgentInput('gemini', envelope, 'session_restored'))).toBe('{"session_id":"s","transcript_path":"","cwd":"/w","hook_event_name":"SessionStart","timestamp":"T","source":"resume"}');
  });
});
