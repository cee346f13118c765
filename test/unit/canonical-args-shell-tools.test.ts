// The portable argument view of every shell tool match.command reads, and odd arguments a model sends,
// through the envelopes of the agents whose tool inbound.ts builds.
import { describe, expect, it } from 'vitest';
import { agentToEnvelope } from '../../src/core/protocols/inbound.js';
import { envelopeToAgentInput } from '../../src/core/protocols/foreign-input.js';
import { SHELL_TOOLS } from '../../src/core/protocols/names.js';
import { canonicalArgsOf } from '../../src/core/protocols/tool-args.js';
import { JsonNumber, type JsonObject, parseJson, stringifyJson } from '../../src/core/json.js';

const env = (r: ReturnType<typeof agentToEnvelope>): JsonObject => { if (!r.ok) throw new Error('not ok'); return r.envelope; };

describe('every shell tool (SHELL_TOOLS, docs/hooks-file.md table) has canonical_args.command', () => {
  for (const t of SHELL_TOOLS.filter((t) => t.tool !== 'beforeShellExecution')) {
    it(`${t.agent} ${t.tool}`, () => {
      expect(canonicalArgsOf(t.tool, { [t.arg]: 'rm -rf x' })).toEqual({ command: 'rm -rf x' });
    });
  }
  it('copilot run_in_terminal through the envelope', () => {
    const input: JsonObject = { timestamp: new JsonNumber('1767000000000'), cwd: '/w', toolName: 'run_in_terminal', toolArgs: JSON.stringify({ command: 'rm -rf build' }) };
    expect((env(agentToEnvelope('copilot', input, 'preToolUse')).tool as JsonObject).canonical_args).toEqual({ command: 'rm -rf build' });
  });
});

describe('odd toolArgs', () => {
  const text = (toolArgs: string): JsonObject => ({ timestamp: new JsonNumber('1767000000000'), cwd: '/w', toolName: 'bash', toolArgs });
  for (const toolArgs of ['{"__proto__": {"command": "x"}, "command": "ls"}', '{"constructor": 1, "command": ["rm", "-rf", "/"]}', '[1,2]', 'null', '"str"', '{"command": 5}']) {
    it(`${toolArgs}: no throw, same-protocol hook gets the toolArgs back unchanged, no canonical_args key in it`, () => {
      const e = env(agentToEnvelope('copilot', parseJson(toolArgs === '' ? '{}' : JSON.stringify(text(toolArgs))) as JsonObject, 'preToolUse'));
      const back = envelopeToAgentInput('copilot', parseJson(stringifyJson(e)) as JsonObject, 'before_tool_call');
      expect(JSON.stringify(back)).not.toContain('canonical_args');
      expect(JSON.parse(back.toolArgs as string)).toEqual(JSON.parse(toolArgs));
    });
  }
  it('__proto__ arg does not become a prototype', () => {
    const e = env(agentToEnvelope('copilot', parseJson(JSON.stringify(text('{"__proto__": {"command": "rm -rf /"}}'))) as JsonObject, 'preToolUse'));
    const tool = e.tool as JsonObject;
    expect(tool.canonical_args).toBeUndefined();
  });
});
