// A replace_result in the shape of Claude Code's own tool_response
// (src/core/protocols/claude-tool-output.ts): Claude Code 2.1.x keeps the
// original output when updatedToolOutput does not fit the tool's output
// schema, so only the Bash and the text-Read shapes are built.

import { describe, expect, it } from 'vitest';
import { claudeToolOutput } from '../../src/core/protocols/claude-tool-output.js';
import { type Json, type JsonObject, JsonNumber } from '../../src/core/json.js';

// Claude Code's Read of a text file answers with the lines it read and where they start.
const readResponse = (): JsonObject => ({
  type: 'text',
  file: { filePath: '/w/.env', content: 'TOKEN=abc\nB=2', numLines: new JsonNumber('2'), startLine: new JsonNumber('1'), totalLines: new JsonNumber('2') },
});

describe('Bash', () => {
  it.each<[string, Json | undefined]>([
    ['its own output', { stdout: 'SECRET-42\n', stderr: 'warning\n', interrupted: false, isImage: false }],
    ['no tool_response', undefined],
    ['a response of another shape', 'SECRET-42'],
  ])('replaces stdout and empties stderr, whatever the response (%s)', (_what, response) => {
    expect(claudeToolOutput('Bash', response, '[redacted]')).toEqual({ stdout: '[redacted]', stderr: '', interrupted: false, isImage: false });
  });
});

describe('Read of a text file', () => {
  it('replaces file.content and counts its lines, keeping where the file and the lines are', () => {
    const out = claudeToolOutput('Read', readResponse(), '[redacted]');
    expect(out).toEqual({
      type: 'text',
      file: { filePath: '/w/.env', content: '[redacted]', numLines: new JsonNumber('1'), startLine: new JsonNumber('1'), totalLines: new JsonNumber('2') },
    });
  });

  it.each([
    ['one line', 1],
    ['two\nlines', 2],
    ['a\nb\nc\nd', 4],
    ['', 1],
  ])('%j is numLines %d', (text, lines) => {
    const file = claudeToolOutput('Read', readResponse(), text)?.file as JsonObject;
    expect(file.content).toBe(text);
    expect(file.numLines).toEqual(new JsonNumber(String(lines)));
    expect(file.numLines).toBeInstanceOf(JsonNumber);
  });

  it('keeps any other field of the response and leaves the agent\'s own object as it was', () => {
    const response: JsonObject = { ...readResponse(), extra: 'kept' };
    expect(claudeToolOutput('Read', response, 'x')).toMatchObject({ type: 'text', extra: 'kept', file: { filePath: '/w/.env', content: 'x' } });
    expect((response.file as JsonObject).content).toBe('TOKEN=abc\nB=2');
  });
});

describe('no replacement where the shape is not known', () => {
  it.each<[string, Json | undefined, Json | undefined]>([
    // Read of an image or a notebook has no text content to replace.
    ['Read of an image', 'Read', { type: 'image', file: { base64: 'iVBOR', type: 'image/png', originalSize: new JsonNumber('10') } }],
    ['Read of a notebook', 'Read', { type: 'notebook', file: { filePath: '/w/n.ipynb', cells: [] } }],
    ['Read with no type', 'Read', { file: { filePath: '/w/a', content: 'x' } }],
    ['Read without file', 'Read', { type: 'text' }],
    ['Read with file as text', 'Read', { type: 'text', file: 'TOKEN=abc' }],
    ['Read with file as a list', 'Read', { type: 'text', file: ['TOKEN=abc'] }],
    ['Read with file null', 'Read', { type: 'text', file: null }],
    ['Read with the response as text', 'Read', 'TOKEN=abc'],
    ['Read with the response null', 'Read', null],
    ['Read with the response a list', 'Read', [{ type: 'text', file: {} }]],
    ['Read with no response', 'Read', undefined],
    // Other tools answer in shapes not proven against the agent, even one that looks like Read's.
    ['Write with a text-file response', 'Write', { type: 'text', file: { filePath: '/w/a', content: 'x' } }],
    ['Edit', 'Edit', { filePath: '/w/a', oldString: 'a', newString: 'b' }],
    ['Grep', 'Grep', { mode: 'content', content: 'a:1' }],
    ['an MCP tool', 'mcp__fs__read', { type: 'text', file: { content: 'x' } }],
    // Copilot CLI's shell tool is not Claude Code's Bash.
    ['bash', 'bash', { stdout: 'x' }],
    ['read', 'read', { type: 'text', file: { content: 'x' } }],
    ['no tool name', undefined, { stdout: 'x' }],
    ['a tool name that is not text', new JsonNumber('1'), { stdout: 'x' }],
  ])('%s', (_what, tool, response) => {
    expect(claudeToolOutput(tool, response, '[redacted]')).toBeUndefined();
  });
});
