// The dry-run diff: which lines the longest-common-subsequence walk keeps,
// deletes and adds, and how changes group into hunks with three lines of context.
import { describe, expect, it } from 'vitest';
import { unifiedDiff } from '../../src/core/line-diff.js';

const lines = (...ls: string[]): string => ls.map((l) => `${l}\n`).join('');
/** The lines "1" to "12", with some of them replaced. */
const twelve = (replace: Record<number, string> = {}): string => lines(...Array.from({ length: 12 }, (_, i) => replace[i + 1] ?? String(i + 1)));
const diff = (before: string, after: string): string => unifiedDiff(before, after, 'old', 'new');

describe('unifiedDiff: the line operations', () => {
  it('deletes every line when the new text is empty', () => {
    expect(diff(lines('a'), '')).toBe('--- old\n+++ new\n@@ -1,1 +0,0 @@\n-a');
  });

  it('deletes the lines left over after the last common line', () => {
    expect(diff(lines('a', 'b'), lines('a'))).toBe('--- old\n+++ new\n@@ -1,2 +1,1 @@\n a\n-b');
  });

  it('adds a line before a kept first line instead of deleting and re-adding it', () => {
    expect(diff(lines('a'), lines('b', 'a'))).toBe('--- old\n+++ new\n@@ -1,1 +1,2 @@\n+b\n a');
    expect(diff(lines('a'), lines('b', 'b', 'a'))).toBe('--- old\n+++ new\n@@ -1,1 +1,3 @@\n+b\n+b\n a');
  });

  it('of two equally long matches keeps the later old line and deletes first', () => {
    expect(diff(lines('a', 'a'), lines('b', 'a'))).toBe('--- old\n+++ new\n@@ -1,2 +1,2 @@\n-a\n+b\n a');
  });

  it('replaces an unrelated line by deleting it, then adding the new ones', () => {
    expect(diff(lines('a'), lines('b', 'b'))).toBe('--- old\n+++ new\n@@ -1,1 +1,2 @@\n-a\n+b\n+b');
  });

  it('keeps the common lines of a moved block in order', () => {
    expect(diff(lines('a', 'a', 'a', 'b'), lines('b', 'a', 'a', 'a'))).toBe('--- old\n+++ new\n@@ -1,4 +1,4 @@\n+b\n a\n a\n a\n-b');
  });
});

describe('unifiedDiff: hunks', () => {
  it('shows three lines of context around a change and no more', () => {
    expect(diff(twelve(), twelve({ 2: 'X' }))).toBe('--- old\n+++ new\n@@ -1,5 +1,5 @@\n 1\n-2\n+X\n 3\n 4\n 5');
  });

  it('joins two changes six unchanged lines apart into one hunk', () => {
    expect(diff(twelve(), twelve({ 2: 'X', 9: 'Y' }))).toBe(
      '--- old\n+++ new\n@@ -1,12 +1,12 @@\n 1\n-2\n+X\n 3\n 4\n 5\n 6\n 7\n 8\n-9\n+Y\n 10\n 11\n 12',
    );
  });

  it('splits two changes seven unchanged lines apart, numbering the second hunk in each text', () => {
    expect(diff(twelve(), twelve({ 2: 'X', 10: 'Y' }))).toBe(
      '--- old\n+++ new\n@@ -1,5 +1,5 @@\n 1\n-2\n+X\n 3\n 4\n 5\n@@ -7,6 +7,6 @@\n 7\n 8\n 9\n-10\n+Y\n 11\n 12',
    );
  });

  it('numbers a later hunk by the old lines and the new lines before it', () => {
    const before = twelve();
    const added = lines('1', 'new', ...Array.from({ length: 11 }, (_, i) => String(i + 2)));
    expect(diff(before, added.replace('11\n', 'Y\n'))).toBe(
      '--- old\n+++ new\n@@ -1,4 +1,5 @@\n 1\n+new\n 2\n 3\n 4\n@@ -8,5 +9,5 @@\n 8\n 9\n 10\n-11\n+Y\n 12',
    );
    const removed = lines('1', ...Array.from({ length: 10 }, (_, i) => String(i + 3)));
    expect(diff(before, removed.replace('11\n', 'Y\n'))).toBe(
      '--- old\n+++ new\n@@ -1,5 +1,4 @@\n 1\n-2\n 3\n 4\n 5\n@@ -8,5 +7,5 @@\n 8\n 9\n 10\n-11\n+Y\n 12',
    );
  });
});

describe('unifiedDiff', () => {
  it('shows the changed lines with context and line numbers', () => {
    const before = 'a\nb\nc\nd\ne\nf\ng\nh\n';
    const after = 'a\nb\nc\nd\nE\nf\ng\nh\n';
    expect(unifiedDiff(before, after, 'x', 'x')).toBe('--- x\n+++ x\n@@ -2,7 +2,7 @@\n b\n c\n d\n-e\n+E\n f\n g\n h');
    expect(unifiedDiff('', '{}\n', '/dev/null', 'f')).toBe('--- /dev/null\n+++ f\n@@ -0,0 +1,1 @@\n+{}');
    expect(unifiedDiff('same', 'same', 'x', 'x')).toBe('');
  });
});
