// The JSONC editor: append and remove are exact inverses, and nothing
// outside the entry moves.
import { describe, expect, it } from 'vitest';
import { memberOf, parseJsonc } from '../../src/core/jsonc.js';
import { appendEntry, compactJson, indentUnit, removeEntry, replaceNode } from '../../src/core/jsonc-edit.js';

const containerAt = (text: string, key: string) => {
  const v = memberOf(parseJsonc(text), key)!.value;
  if (v.kind === 'value') throw new Error('not a container');
  return v;
};

describe('appendEntry / removeEntry', () => {
  const cases: [string, string, string][] = [
    ['multi-line array', '{\n  "a": [\n    1\n  ]\n}\n', '{\n  "a": [\n    1,\n    2\n  ]\n}\n'],
    ['a trailing comment stays with its entry', '{\n  "a": [\n    1 // one\n  ]\n}\n', '{\n  "a": [\n    1, // one\n    2\n  ]\n}\n'],
    ['inline array', '{ "a": [1] }', '{ "a": [1, 2] }'],
    ['empty array', '{\n  "a": []\n}', '{\n  "a": [\n    2\n  ]\n}'],
    ['CRLF', '{\r\n  "a": [\r\n    1\r\n  ]\r\n}\r\n', '{\r\n  "a": [\r\n    1,\r\n    2\r\n  ]\r\n}\r\n'],
  ];
  for (const [name, before, after] of cases) {
    it(`${name}: appends, and removing it gives the text back`, () => {
      const added = appendEntry(before, containerAt(before, 'a'), '2');
      expect(added).toBe(after);
      const list = containerAt(added, 'a');
      const back = removeEntry(added, list, (list.kind === 'array' ? list.items : []).length - 1);
      expect(back).toBe(name === 'empty array' ? '{\n  "a": []\n}' : before);
    });
  }

  it('appends a member to an empty object and collapses it back to {}', () => {
    const added = appendEntry('{}\n', parseJsonc('{}\n') as never, '"hooks": {}');
    expect(added).toBe('{\n  "hooks": {}\n}\n');
    expect(removeEntry(added, parseJsonc(added) as never, 0)).toBe('{}\n');
  });

  it('removes a first or middle entry with its own comma, keeping its neighbours', () => {
    const text = '[\n  1,\n  2, // two\n  3\n]';
    const list = parseJsonc(text) as Extract<ReturnType<typeof parseJsonc>, { kind: 'array' }>;
    expect(removeEntry(text, list, 0)).toBe('[\n  2, // two\n  3\n]');
    expect(removeEntry('[1, 2, 3]', parseJsonc('[1, 2, 3]') as never, 1)).toBe('[1, 3]');
  });

  it('uses the indentation of the file', () => {
    const text = '{\n\t"a": {\n\t\t"x": 1\n\t}\n}';
    expect(appendEntry(text, containerAt(text, 'a'), '"y": 2')).toBe('{\n\t"a": {\n\t\t"x": 1,\n\t\t"y": 2\n\t}\n}');
  });

  it('compactJson writes the agents\' one-line style', () => {
    expect(compactJson({ matcher: '*', hooks: [{ type: 'command', command: 'x' }], e: {}, l: [] })).toBe('{ "matcher": "*", "hooks": [{ "type": "command", "command": "x" }], "e": {}, "l": [] }');
  });
});

describe('appendEntry: where the new entry goes', () => {
  const top = (text: string) => parseJsonc(text) as Extract<ReturnType<typeof parseJsonc>, { kind: 'array' | 'object' }>;
  const cases: [string, string, string][] = [
    ['a tab before a trailing line comment', '[\n  1\t// one\n]', '[\n  1,\t// one\n  2\n]'],
    ['a trailing line comment in a CRLF file', '[\r\n  1 // one\r\n]', '[\r\n  1, // one\r\n  2\r\n]'],
    ['block comments that close on the line', '[\n  1 /* a */ /* b */\n]', '[\n  1, /* a */ /* b */\n  2\n]'],
    ['a block comment opening with "/*/"', '[\n  1 /*/ a */\n]', '[\n  1, /*/ a */\n  2\n]'],
    ['a block comment that runs onto the next line', '[\n  1 /* a\n  b */\n]', '[\n  1, \n  2/* a\n  b */\n]'],
    ['the closing bracket on the last entry\'s line', '[\n  1] /* end */', '[\n  1,\n  2] /* end */'],
    ['a trailing comma', '[\n  1,\n]', '[\n  1,\n  2\n]'],
    ['a trailing comma, inline', '[1,]', '[1, 2]'],
    ['an empty container with a space inside', '{\n  "a": [ ]\n}', '{\n  "a": [\n    2\n  ]\n}'],
    ['an empty container holding a comment', '{\n  "a": [ /* none */ ]\n}', '{\n  "a": [\n    2 /* none */ ]\n}'],
  ];
  for (const [name, before, after] of cases) {
    it(`after ${name}`, () => {
      const node = before.startsWith('{') ? containerAt(before, 'a') : top(before);
      expect(appendEntry(before, node, '2')).toBe(after);
    });
  }

  it('indents one level by the first indented line of the file, else by two spaces', () => {
    expect(indentUnit('{\n    "a": 1\n}')).toBe('    ');
    expect(indentUnit('{\n\t"a": 1\n}')).toBe('\t');
    expect(indentUnit('{ "a": 1 }')).toBe('  ');
  });
});

describe('removeEntry: what goes with the entry', () => {
  const top = (text: string) => parseJsonc(text) as Extract<ReturnType<typeof parseJsonc>, { kind: 'array' }>;

  it('takes the trailing comma of an only entry, leaving an empty container', () => {
    expect(removeEntry('[1,]', top('[1,]'), 0)).toBe('[]');
  });

  it('keeps a comment left in the container after its only entry goes', () => {
    const text = '[\n  // keep\n  1\n]';
    expect(removeEntry(text, top(text), 0)).toBe('[\n  // keep\n]');
  });

  it('takes the own trailing comma of a last entry, not the one before it', () => {
    expect(removeEntry('[1, 2,]', top('[1, 2,]'), 1)).toBe('[1, ]');
  });

  it('takes the tabs after the comma of an inline entry', () => {
    expect(removeEntry('[1,\t2]', top('[1,\t2]'), 0)).toBe('[2]');
  });

  it('refuses an index past the last entry', () => {
    expect(() => removeEntry('[1]', top('[1]'), 5)).toThrow(RangeError);
    expect(() => removeEntry('[1]', top('[1]'), 5)).toThrow('no entry 5');
  });
});

describe('replaceNode and compactJson', () => {
  it('replaceNode rewrites one value and keeps the text around it', () => {
    const text = '{ "a": "x", "b": 1 }';
    expect(replaceNode(text, memberOf(parseJsonc(text), 'a')!.value, '"yy"')).toBe('{ "a": "yy", "b": 1 }');
  });

  it('compactJson separates array items with a comma and a space', () => {
    expect(compactJson([1, [2, 3]])).toBe('[1, [2, 3]]');
  });
});
