// tool.canonical_args for the agents whose input inbound.ts builds its own
// tool from (Cursor's gates and Copilot CLI's toolName/toolArgs): a script
// reading canonical_args.path (docs/hook-process.md) sees the same under every
// agent, as docs/hooks-file.md "Portable argument names" says.

import { describe, expect, it } from 'vitest';
import { agentToEnvelope } from '../../src/core/protocols/inbound.js';
import { canonicalArgsOf } from '../../src/core/protocols/tool-args.js';
import { JsonNumber, type JsonObject } from '../../src/core/json.js';

const toolOf = (r: ReturnType<typeof agentToEnvelope>): JsonObject | undefined => (r.ok ? (r.envelope.tool as JsonObject) : undefined);

describe('Cursor and Copilot CLI envelopes', () => {
  it('Copilot CLI create: path and content', () => {
    const input: JsonObject = { timestamp: new JsonNumber('1767000000000'), cwd: '/w', toolName: 'create', toolArgs: JSON.stringify({ path: '/w/.env', file_text: 'TOKEN=abc' }) };
    expect(toolOf(agentToEnvelope('copilot', input, 'preToolUse'))?.canonical_args).toEqual({ path: '/w/.env', content: 'TOKEN=abc' });
  });

  it('Cursor preToolUse Shell: command', () => {
    const input: JsonObject = { hook_event_name: 'preToolUse', conversation_id: 'c', tool_name: 'Shell', tool_input: { command: 'rm -rf build', cwd: '/w' } };
    expect(toolOf(agentToEnvelope('cursor', input, 'preToolUse'))?.canonical_args).toEqual({ command: 'rm -rf build' });
  });

  it('Cursor beforeShellExecution (mapped to its Shell tool): command', () => {
    const input: JsonObject = { hook_event_name: 'beforeShellExecution', conversation_id: 'c', command: 'rm -rf build', cwd: '/w' };
    expect(toolOf(agentToEnvelope('cursor', input, 'beforeShellExecution'))?.canonical_args).toEqual({ command: 'rm -rf build' });
  });
});

// A shell tool match.command reads (SHELL_TOOLS) has its command in the portable view too.
describe('Copilot CLI powershell', () => {
  it('powershell command', () => {
    expect(canonicalArgsOf('powershell', { command: 'Remove-Item -Recurse build' })).toEqual({ command: 'Remove-Item -Recurse build' });
  });
});
