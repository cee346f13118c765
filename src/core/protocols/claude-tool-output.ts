// A Chrys `replace_result` as Claude Code's PostToolUse
// `hookSpecificOutput.updatedToolOutput`, which replaces what the model sees
// of a tool's result. Claude Code 2.1.x checks the value against the tool's
// own output schema and, when it does not fit (a plain string for Bash),
// keeps the original output: so the replacement is built in the shape of the
// `tool_response` the agent sent. Only shapes proven against the real agent
// are built; for any other tool there is no replacement in place.

import { type Json, type JsonObject, JsonNumber, isJsonObject } from '../json.js';

/** `updatedToolOutput` holding `text` for this tool's output, or undefined where its shape is not known. */
export function claudeToolOutput(toolName: Json | undefined, response: Json | undefined, text: string): JsonObject | undefined {
  // Bash: the model is shown stdout, then stderr; both replaced, so nothing of the original is left.
  if (toolName === 'Bash') return { stdout: text, stderr: '', interrupted: false, isImage: false };
  // Read of a text file: the model is shown file.content, numbered from startLine.
  if (toolName === 'Read' && isJsonObject(response) && response.type === 'text' && isJsonObject(response.file)) {
    const lines = text.split('\n').length;
    return { ...response, file: { ...response.file, content: text, numLines: new JsonNumber(String(lines)) } };
  }
  return undefined;
}
