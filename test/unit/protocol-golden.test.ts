// Golden files for every event each agent documents (test/fixtures/protocols/<agent>/):
// <Event>.input.json -> <Event>.envelope.json (agent input onto the envelope), and
// <Event>[.variant].decision.json -> <Event>[.variant].output.json (the agent's answer,
// as JSON and in the --exit-code form). UPDATE_GOLDEN=1 rewrites the expected files.
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Decision } from '../../src/core/decide.js';
import { completeEnvelope } from '../../src/core/envelope.js';
import { type JsonObject, parseJson, stringifyJson } from '../../src/core/json.js';
import { envelopeToAgentInput } from '../../src/core/protocols/foreign-input.js';
import { agentToEnvelope } from '../../src/core/protocols/inbound.js';
import { type AgentProtocol, agentEvents } from '../../src/core/protocols/names.js';
import { decisionToReply } from '../../src/core/protocols/reply.js';

const ROOT = 'test/fixtures/protocols';
const sorted = (o: JsonObject): JsonObject => Object.fromEntries(Object.entries(o).sort(([a], [b]) => a.localeCompare(b)));
// Copilot's input names no event (its hooks file does): the fixture's name says it.
const eventOf = (input: JsonObject, name: string): string => (typeof input.hook_event_name === 'string' ? input.hook_event_name : name.split('.')[0]!);
const read = (path: string): JsonObject => parseJson(readFileSync(path, 'utf8')) as JsonObject;

function golden(path: string, actual: string): void {
  if (process.env.UPDATE_GOLDEN === '1' || !existsSync(path)) {
    if (process.env.UPDATE_GOLDEN !== '1') throw new Error(`missing golden file ${path} (run with UPDATE_GOLDEN=1 and review it)`);
    writeFileSync(path, actual + '\n');
  }
  expect(actual + '\n', path).toBe(readFileSync(path, 'utf8'));
}

describe.each(['claude', 'codex', 'gemini', 'cursor', 'copilot'] as AgentProtocol[])('the %s protocol', (protocol) => {
  const dir = join(ROOT, protocol);
  const inputs = readdirSync(dir).filter((f) => f.endsWith('.input.json')).map((f) => f.slice(0, -'.input.json'.length));
  const decisions = readdirSync(dir).filter((f) => f.endsWith('.decision.json')).map((f) => f.slice(0, -'.decision.json'.length));

  it('has a fixture for every event the agent documents', () => {
    const documented = protocol === 'codex' ? ['PreToolUse', 'PostToolUse', 'PermissionRequest', 'UserPromptSubmit', 'SessionStart', 'SessionEnd', 'Stop', 'SubagentStart', 'SubagentStop', 'PreCompact', 'PostCompact', 'Interrupt'] : agentEvents(protocol);
    for (const event of documented) expect(inputs, event).toContain(event);
  });

  it.each(inputs)('maps %s onto the envelope, and a same-protocol hook gets the input back unchanged', (name) => {
    const input = read(join(dir, `${name}.input.json`));
    const mapped = agentToEnvelope(protocol, input, eventOf(input, name));
    expect(mapped.ok).toBe(true);
    if (!mapped.ok) return;
    golden(join(dir, `${name}.envelope.json`), stringifyJson({ event: mapped.event, ...mapped.envelope, warnings: mapped.warnings as never }, 2));
    const complete = completeEnvelope(mapped.envelope, mapped.event, '/work/project', new Date('2026-12-01T00:00:00Z'));
    // The same fields and values, number spellings included; the envelope's key order comes first.
    expect(stringifyJson(sorted(envelopeToAgentInput(protocol, complete, mapped.event)))).toBe(stringifyJson(sorted(input)));
  });

  it.each(decisions)('answers the decision %s in the agent format', (name) => {
    const input = read(join(dir, `${name.split('.')[0]}.input.json`));
    const decision = read(join(dir, `${name}.decision.json`)) as unknown as Decision;
    const agentEvent = eventOf(input, name);
    const json = decisionToReply(protocol, decision, agentEvent, { input });
    const exitForm = decisionToReply(protocol, decision, agentEvent, { exitCode: true, input });
    expect(json.exitCode).toBe(0);
    golden(join(dir, `${name}.output.json`), stringifyJson({ stdout: parseJson(json.stdout), exit_code_form: exitForm.stdout === json.stdout ? 'the same' : { exit_code: exitForm.exitCode as never, stderr: exitForm.stderr, stdout: exitForm.stdout } } as never, 2));
  });
});
