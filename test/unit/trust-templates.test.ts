// `trust` refuses a project hook whose program depends on a template
// (core/trust-templates.ts): which fields count, and which one is named.
import { describe, expect, it } from 'vitest';
import { testHook } from '../helpers/hook.js';
import type { Run } from '../../src/core/config.js';
import { templatedProgramField } from '../../src/core/trust-templates.js';

const common = { env: {}, cwd: '' };
const of = (run: Run) => templatedProgramField(testHook({ run }));

describe('templatedProgramField', () => {
  it('names a template in a script path', () => {
    expect(of({ type: 'script', path: 'hooks/${profile}.sh', args: [], ...common })).toEqual({ field: 'run.path', value: 'hooks/${profile}.sh' });
  });

  it('names a template in the program of a command, not in its other words', () => {
    expect(of({ type: 'command', argv: ['${session_id}', 'x'], args: [], ...common })).toEqual({ field: 'run.argv[0]', value: '${session_id}' });
    expect(of({ type: 'command', argv: ['node', '${session_id}'], args: ['${profile}'], ...common })).toBeUndefined();
    expect(of({ type: 'command', argv: [], args: [], ...common })).toBeUndefined();
  });

  it('names a template in the working directory, after the program', () => {
    expect(of({ type: 'shell', shell: 'echo ${x}', env: {}, cwd: 'dirs/${profile}' })).toEqual({ field: 'run.cwd', value: 'dirs/${profile}' });
    expect(of({ type: 'script', path: 'a/${x}.sh', args: [], env: {}, cwd: '${y}' })).toEqual({ field: 'run.path', value: 'a/${x}.sh' });
    expect(of({ type: 'command', argv: ['node'], args: [], env: {}, cwd: 'w/${y}/z' })).toEqual({ field: 'run.cwd', value: 'w/${y}/z' });
  });

  it('takes literal fields, a bare $ and unclosed braces as no template', () => {
    expect(of({ type: 'script', path: 'hooks/a.sh', args: ['${x}'], env: { A: '${x}' }, cwd: 'sub' })).toBeUndefined();
    expect(of({ type: 'script', path: 'a$b{c}.sh', args: [], ...common })).toBeUndefined();
    expect(of({ type: 'script', path: 'a${b.sh', args: [], ...common })).toBeUndefined();
    expect(of({ type: 'script', path: 'a${}b.sh', args: [], ...common })).toEqual({ field: 'run.path', value: 'a${}b.sh' });
  });
});
