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
