// How `trust` reads the words of a run.shell command to find the files it names.
import { describe, expect, it } from 'vitest';
import { expandKnownVariables, isOpaqueWord, isPathLike, shellWords } from '../../src/core/shell-words.js';

describe('shellWords', () => {
  it('splits on blanks and operators, removing quotes and backslashes as the shell does', () => {
    expect(shellWords(`bash "$CLAUDE_PROJECT_DIR"/.claude/hooks/x.sh && python3 'a b.py'|tee out.log;echo\\ hi`)).toEqual([
      'bash', '$CLAUDE_PROJECT_DIR/.claude/hooks/x.sh', 'python3', 'a b.py', 'tee', 'out.log', 'echo hi',
    ]);
    expect(shellWords(`node "dir/\\"q\\".js" ""`)).toEqual(['node', 'dir/"q".js', '']);
  });

  it('expands only the named variables, leaving others for the opaque check', () => {
    const vars = { CLAUDE_PROJECT_DIR: '/w' };
    expect(expandKnownVariables('$CLAUDE_PROJECT_DIR/a.sh', vars)).toBe('/w/a.sh');
    expect(expandKnownVariables('${CLAUDE_PROJECT_DIR}/a.sh', vars)).toBe('/w/a.sh');
    expect(expandKnownVariables('$HOME/a.sh', vars)).toBe('$HOME/a.sh');
    expect(isOpaqueWord('$HOME/a.sh')).toBe(true);
    expect(isOpaqueWord('scripts/*.sh')).toBe(true);
    expect(isOpaqueWord('/w/a.sh')).toBe(false);
  });

  it('takes words with a slash or an extension as paths, never options', () => {
    expect(['a.py', 'tools/x', '--flag=a/b', '-c', 'echo'].map(isPathLike)).toEqual([true, true, false, false, false]);
  });
});

describe('shellWords, character by character', () => {
  it('ends a word at a tab and at every operator, leaving no empty words', () => {
    expect(shellWords('a\tb;c&d|e(f)g<h>i\nj   k')).toEqual(['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h', 'i', 'j', 'k']);
    expect(shellWords('  ;; ')).toEqual([]);
    expect(shellWords('')).toEqual([]);
  });

  it('keeps backslashes inside single quotes, and joins quoted parts to the word around them', () => {
    expect(shellWords(String.raw`'a\b' x''y "p"'q'r`)).toEqual([String.raw`a\b`, 'xy', 'pqr']);
    expect(shellWords(`'' ""`)).toEqual(['', '']);
  });

  it('keeps the quote of the other kind and blanks inside quotes', () => {
    expect(shellWords(`"it's a" 'say "hi"'`)).toEqual([`it's a`, 'say "hi"']);
  });

  it('keeps a trailing backslash, quoted or not, and reads an unterminated quote to the end', () => {
    expect(shellWords('a\\')).toEqual(['a\\']);
    expect(shellWords('"a\\')).toEqual(['a\\']);
    expect(shellWords('"a b')).toEqual(['a b']);
    expect(shellWords('\\ ')).toEqual([' ']);
  });
});

describe('expandKnownVariables, isOpaqueWord and isPathLike', () => {
  it('expands each known variable in a word, with any value taken literally', () => {
    expect(expandKnownVariables('$A$B/${A}x/$A_B', { A: '1', B: '$&', A_B: '3' })).toBe('1$&/1x/3');
    expect(expandKnownVariables('$toString ${A', { A: '1' })).toBe('$toString ${A');
  });

  it('takes a word as opaque when any shell expansion is left in it', () => {
    expect(['$x', '`x`', 'a*', 'a?', 'a[b]', 'a]', 'plain/path.sh'].map(isOpaqueWord)).toEqual([true, true, true, true, true, false, false]);
  });

  it('needs a whole extension at the end of a word, or a slash', () => {
    expect(['.bashrc', 'x.tar.gz', 'dir/', 'v1.2-beta', 'a.', '-x/y', 'name'].map(isPathLike)).toEqual([true, true, true, false, false, false, false]);
  });
});
