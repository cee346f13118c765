// The chrys-hooks entries of an agent's hook file, found and edited by text
// (core/jsonc-edit.ts). An entry is ours when its command runs
// `chrys-hooks fire` (by any path to the binary), wherever it sits in the file.

import { basename } from 'node:path';
import { type JsoncMember, type JsoncNode, JsoncError, lineColOf, memberOf, parseJsonc } from '../core/jsonc.js';
import { appendEntry, compactJson, removeEntry, replaceNode } from '../core/jsonc-edit.js';
import { shellWords } from '../core/shell-words.js';
import type { AgentDescriptor } from './types.js';

/** A command that runs chrys-hooks fire: the binary as written, its --protocol, and whether it fails closed. */
export interface ChrysCommand {
  binary: string;
  protocol?: string;
  failClosed: boolean;
}

export function chrysCommandOf(command: string): ChrysCommand | undefined {
  let words: string[];
  try {
    words = shellWords(command);
  } catch {
    return undefined;
  }
  const at = words.findIndex((w) => basename(w) === 'chrys-hooks');
  if (at < 0 || words[at + 1] !== 'fire') return undefined;
  const rest = words.slice(at + 2);
  const flag = rest.findIndex((w) => w === '--protocol' || w.startsWith('--protocol='));
  const protocol = flag < 0 ? undefined : rest[flag]!.includes('=') ? rest[flag]!.slice('--protocol='.length) : rest[flag + 1];
  return { binary: words[at]!, ...(protocol ? { protocol } : {}), failClosed: rest.includes('--fail-closed') };
}

/** One handler of the file that runs chrys-hooks. */
export interface WiredEntry {
  event: string;
  command: string;
  chrys: ChrysCommand;
  /** Positions, for editing: the group in `hooks.<event>`, the handler in its `hooks`. */
  group: number;
  handler: number;
  /** How many handlers the group has: removing the last one removes the group. */
  handlers: number;
}

export class HookFileError extends Error {
  constructor(
    message: string,
    readonly line: number,
    readonly column: number,
  ) {
    super(message);
  }
}

interface Parsed {
  root: Extract<JsoncNode, { kind: 'object' }>;
  hooks?: JsoncMember;
}

function parse(text: string): Parsed {
  let root: JsoncNode;
  try {
    root = parseJsonc(text);
  } catch (e) {
    if (!(e instanceof JsoncError)) throw e;
    const at = lineColOf(text, e.offset);
    throw new HookFileError(e.message, at.line, at.column);
  }
  if (root.kind !== 'object') throw new HookFileError('the file must be a JSON object', 1, 1);
  const hooks = memberOf(root, 'hooks');
  if (hooks && hooks.value.kind !== 'object') {
    const at = lineColOf(text, hooks.value.start);
    throw new HookFileError('"hooks" must be an object of event names', at.line, at.column);
  }
  return { root, ...(hooks ? { hooks } : {}) };
}

/** Every chrys-hooks handler of the file, in file order; a HookFileError when it cannot be read as the agent's JSON. */
export function readWiring(text: string, shape: Shape = {}): WiredEntry[] {
  return entriesOf(parse(text), shape);
}

/** How a descriptor's file holds handlers: Claude-shaped groups, or (flat) the handlers in the event's list. */
export type Shape = Pick<AgentDescriptor, 'flat' | 'commandKey'>;

function entriesOf(p: Parsed, shape: Shape): WiredEntry[] {
  const out: WiredEntry[] = [];
  if (p.hooks?.value.kind !== 'object') return out;
  const key = shape.commandKey ?? 'command';
  for (const member of p.hooks.value.members) {
    if (member.value.kind !== 'array') continue;
    if (shape.flat) {
      member.value.items.forEach((handler, g) => {
        const command = memberOf(handler, key)?.value;
        if (command?.kind !== 'value' || typeof command.value !== 'string') return;
        const chrys = chrysCommandOf(command.value);
        if (chrys) out.push({ event: member.key, command: command.value, chrys, group: g, handler: -1, handlers: 1 });
      });
      continue;
    }
    member.value.items.forEach((group, g) => {
      const list = memberOf(group, 'hooks')?.value;
      if (list?.kind !== 'array') return;
      list.items.forEach((handler, h) => {
        const command = memberOf(handler, key)?.value;
        if (command?.kind !== 'value' || typeof command.value !== 'string') return;
        const chrys = chrysCommandOf(command.value);
        if (chrys) out.push({ event: member.key, command: command.value, chrys, group: g, handler: h, handlers: list.items.length });
      });
    });
  }
  return out;
}

const eventArray = (p: Parsed, event: string): Extract<JsoncNode, { kind: 'array' }> | undefined => {
  const v = memberOf(p.hooks?.value, event)?.value;
  return v?.kind === 'array' ? v : undefined;
};

/** The file with `descriptor`'s group for `command` appended to `hooks.<event>` (the key and `hooks` created when missing). */
export function addEntry(text: string, descriptor: AgentDescriptor, event: string, command: string): string {
  let p = parse(text);
  const group = compactJson(descriptor.group(event, command));
  if (!p.hooks) {
    if (descriptor.version !== undefined && !memberOf(p.root, 'version')) text = appendEntry(text, p.root, `"version": ${descriptor.version}`);
    p = parse(text);
    text = appendEntry(text, p.root, '"hooks": {}');
    p = parse(text);
  }
  const hooks = p.hooks!.value as Extract<JsoncNode, { kind: 'object' }>;
  const existing = memberOf(hooks, event);
  if (!existing) return appendEntry(text, hooks, `${JSON.stringify(event)}: [${group}]`);
  if (existing.value.kind !== 'array') {
    const at = lineColOf(text, existing.value.start);
    throw new HookFileError(`"hooks.${event}" must be a list`, at.line, at.column);
  }
  return appendEntry(text, existing.value, group);
}

/** The file with one chrys-hooks handler's command replaced. */
export function setCommand(text: string, entry: WiredEntry, command: string, shape: Shape = {}): string {
  const p = parse(text);
  const handler = handlerNode(p, entry);
  const node = memberOf(handler, shape.commandKey ?? 'command')!.value;
  return replaceNode(text, node, JSON.stringify(command));
}

function handlerNode(p: Parsed, entry: WiredEntry): JsoncNode {
  const group = eventArray(p, entry.event)!.items[entry.group]!;
  if (entry.handler < 0) return group;
  const list = memberOf(group, 'hooks')!.value as Extract<JsoncNode, { kind: 'array' }>;
  return list.items[entry.handler]!;
}

/**
 * The file without one chrys-hooks handler: its group goes when it held
 * only that handler, the event key when it held only that group, and
 * `hooks` when it held only that key.
 */
export function removeHandler(text: string, entry: WiredEntry): string {
  const p = parse(text);
  const events = p.hooks!.value as Extract<JsoncNode, { kind: 'object' }>;
  const array = eventArray(p, entry.event)!;
  if (entry.handler >= 0 && entry.handlers > 1) {
    const list = memberOf(array.items[entry.group], 'hooks')!.value as Extract<JsoncNode, { kind: 'array' }>;
    return removeEntry(text, list, entry.handler);
  }
  if (array.items.length > 1) return removeEntry(text, array, entry.group);
  const eventIndex = events.members.findIndex((m) => m.value === array);
  if (events.members.length > 1) return removeEntry(text, events, eventIndex);
  return removeEntry(text, p.root, p.root.members.indexOf(p.hooks!));
}
