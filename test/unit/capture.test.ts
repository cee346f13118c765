// HeadTail, the bounded capture of a hook's stdout and stderr: the head and
// the tail survive, the middle is dropped with a marker that counts it.
import { describe, expect, it } from 'vitest';
import { HeadTail } from '../../src/run/capture.js';

const pushed = (limit: number, ...chunks: string[]): HeadTail => {
  const capture = new HeadTail(limit);
  for (const c of chunks) capture.push(Buffer.from(c));
  return capture;
};

describe('HeadTail within its limit', () => {
  it('keeps everything, in order, across chunks', () => {
    const capture = pushed(10, 'ab', 'cdef', 'ghij');
    expect(capture.text()).toBe('abcdefghij');
    expect(capture.lastBytes(3)).toBe('hij');
    expect(capture.lastBytes(100)).toBe('abcdefghij');
  });

  it('is empty before anything is pushed', () => {
    expect(pushed(10).text()).toBe('');
    expect(pushed(10).lastBytes(5)).toBe('');
  });

  it('ignores an empty chunk', () => {
    expect(pushed(4, 'ab', '', 'cd', '').text()).toBe('abcd');
  });
});

describe('HeadTail over its limit', () => {
  it('keeps the first and the last half of the limit and counts what it dropped', () => {
    const capture = pushed(6, 'abcdefghij');
    expect(capture.text()).toBe('abc\n[... 4 bytes dropped ...]\nhij');
  });

  it('drops whole chunks and the front of a chunk from the tail', () => {
    // head 'abc'; the tail keeps the last three bytes of 'de', 'fg', 'hijk'
    const capture = pushed(6, 'abcde', 'fg', 'hijk');
    expect(capture.text()).toBe('abc\n[... 5 bytes dropped ...]\nijk');
    expect(capture.lastBytes(2)).toBe('jk');
  });

  it('drops a tail chunk exactly as long as the excess', () => {
    const capture = pushed(4, 'ab', 'cd', 'ef');
    expect(capture.text()).toBe('ab\n[... 2 bytes dropped ...]\nef');
  });

  it('takes its last bytes from the tail only once the middle is gone', () => {
    const capture = pushed(6, 'abc', 'defgh');
    expect(capture.text()).toBe('abc\n[... 2 bytes dropped ...]\nfgh');
    // Not 'cfgh': the head does not run on into the tail past a gap.
    expect(capture.lastBytes(4)).toBe('fgh');
  });

  it('fills the head first even from later chunks', () => {
    const capture = pushed(8, 'a', 'b', 'cdefghijkl');
    expect(capture.text()).toBe('abcd\n[... 4 bytes dropped ...]\nijkl');
  });
});

describe('HeadTail.lastBytes and multi-byte characters', () => {
  it('drops the broken start of a character cut in two', () => {
    const capture = pushed(100, 'x\u00e9\u00e9'); // x, then two 2-byte characters
    expect(capture.lastBytes(3)).toBe('\u00e9');
    expect(capture.lastBytes(4)).toBe('\u00e9\u00e9');
    // Two continuation bytes of a 3-byte character decode to two replacement characters.
    expect(pushed(100, '\u20ac\u20ac').lastBytes(5)).toBe('\u20ac');
  });

  it('keeps a replacement character that is in the output itself, past the start', () => {
    expect(pushed(100, 'a\uFFFDb').lastBytes(100)).toBe('a\uFFFDb');
  });
});
