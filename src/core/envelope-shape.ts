// Fields of the envelope with the wrong type for the event: `tool` that is
// not an object, `tool.args` that is a string, `text` that is a number. The
// envelope still fires (the hooks get it untouched), but a tool filter or a
// hook reading the field would silently see nothing, so each one is named.

import type { Warning } from './diagnostics.js';
import { COMMON_FIELDS, type EventName, type FieldType, eventSpec } from './events.js';
import { type Json, type JsonObject, JsonNumber, isJsonObject } from './json.js';

function typeOf(v: Json): FieldType | 'list' | 'null' {
  // Stryker disable next-line ConditionalExpression,StringLiteral: envelopeShapeWarnings skips null fields before asking their type
  if (v === null) return 'null';
  if (v instanceof JsonNumber) return 'number';
  if (Array.isArray(v)) return 'list';
  // Stryker disable next-line ConditionalExpression: an object that gets past this line has typeof 'object' as well
  if (isJsonObject(v)) return 'object';
  return typeof v as 'string' | 'boolean';
}

const A: Record<string, string> = { string: 'a string', number: 'a number', boolean: 'true or false', object: 'an object', list: 'a list' };

/** One `envelope_shape` warning per field present with the wrong type (null counts as absent). */
export function envelopeShapeWarnings(envelope: JsonObject, event: EventName): Warning[] {
  const warnings: Warning[] = [];
  for (const field of [...COMMON_FIELDS, ...eventSpec(event).fields]) {
    const value = fieldAt(envelope, field.name);
    if (value === undefined || value === null) continue;
    const actual = typeOf(value);
    if (actual === field.type) continue;
    const consequence = field.name === 'tool' || field.name.startsWith('tool.') ? '; tool filters cannot match it' : '';
    warnings.push({ code: 'envelope_shape', message: `envelope field "${field.name}" must be ${A[field.type]} for ${event}, not ${A[actual]}${consequence}` });
  }
  return warnings;
}

/** The value at a dotted path, or undefined when a parent is missing or not an object. */
function fieldAt(envelope: JsonObject, path: string): Json | undefined {
  let cur: Json | undefined = envelope;
  for (const part of path.split('.')) {
    if (!isJsonObject(cur) || !Object.hasOwn(cur, part)) return undefined;
    cur = cur[part];
  }
  return cur;
}
