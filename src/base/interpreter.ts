// Which program runs a `type: script` hook, chosen by the file's extension
// (CONTRACT §2), and a PATH lookup that does not spawn anything.

import { accessSync, constants, statSync } from 'node:fs';
import { delimiter, extname, isAbsolute, join } from 'node:path';

/**
 * Absolute path of an executable on PATH, or undefined. A relative entry
 * (`node_modules/.bin`, and an empty one, which means the cwd) is skipped:
 * it resolves against the workspace the hook runs in, which would choose
 * the program that runs a trusted script.
 */
// Stryker disable next-line StringLiteral: with PATH unset, any default that holds no absolute directory finds nothing, as '' does
export function which(name: string, path = process.env.PATH ?? ''): string | undefined {
  const exts = process.platform === 'win32' ? (process.env.PATHEXT ?? '.EXE;.CMD;.BAT').split(';') : [''];
  for (const dir of path.split(delimiter)) {
    if (!isAbsolute(dir)) continue;
    for (const ext of exts) {
      const candidate = join(dir, name + ext);
      try {
        accessSync(candidate, constants.X_OK);
        if (statSync(candidate).isFile()) return candidate;
      } catch {
        // not here
      }
    }
  }
  return undefined;
}

/** Candidates in order of preference: [program, ...leading args]. */
const BY_EXTENSION: Record<string, string[][]> = {
  '.sh': [['bash'], ['sh']],
  '.bash': [['bash'], ['sh']],
  '.zsh': [['bash'], ['sh']],
  '.js': [['node']],
  '.mjs': [['node']],
  '.rb': [['ruby']],
  '.pl': [['perl']],
  '.ps1': [['pwsh', '-NoProfile', '-File'], ['powershell', '-NoProfile', '-File']],
};

/** Whether a script runs under Python: `.py`, and any other extension without an interpreter of its own (TypeScript's is tsx). */
export const isPythonScript = (scriptPath: string): boolean => {
  const ext = extname(scriptPath).toLowerCase();
  return ext !== '.ts' && !BY_EXTENSION[ext];
};

export type InterpreterChoice = { ok: true; argv: string[] } | { ok: false; wanted: string };

/**
 * The interpreter for a script, global or project alike: never resolved from,
 * or configured by, the workspace it runs in (its cwd, which may be an
 * untrusted repository, and a trusted one can still not swap the program that
 * runs its trusted scripts): no `npx` (it resolves node_modules/.bin from the
 * cwd), tsx from the global hooks directory or PATH, and uv only in script
 * mode, ignoring any project, config file and .python-version there, with the
 * Python from PATH. A hook that wants the project's environment says so with
 * `run.type: command` and an explicit argv.
 */
// Stryker disable next-line StringLiteral: with PATH unset, any default that holds no absolute directory finds nothing, as '' does
export function interpreterFor(scriptPath: string, globalHooksDir: string, path = process.env.PATH ?? ''): InterpreterChoice {
  const ext = extname(scriptPath).toLowerCase();
  if (ext === '.ts') return globalTypeScript(globalHooksDir, path);
  if (isPythonScript(scriptPath)) return globalPython(path);
  const candidates = BY_EXTENSION[ext]!;
  for (const [program, ...rest] of candidates) {
    const found = which(program!, path);
    if (found) return { ok: true, argv: [found, ...rest] };
  }
  return { ok: false, wanted: candidates.map((c) => c[0]).join(' or ') };
}

function globalPython(path: string): InterpreterChoice {
  const python = which('python3', path) ?? which('python', path);
  if (!python) return { ok: false, wanted: 'python3 or python' };
  const uv = which('uv', path);
  return { ok: true, argv: uv ? [uv, 'run', '--no-project', '--no-config', '--python', python, '--script'] : [python] };
}

/** tsx installed in the global hooks directory (node_modules/.bin), else on PATH. */
function globalTypeScript(hooksDir: string, path: string): InterpreterChoice {
  const tsx = which('tsx', join(hooksDir, 'node_modules', '.bin')) ?? which('tsx', path);
  return tsx ? { ok: true, argv: [tsx] } : { ok: false, wanted: 'tsx (in the global hooks directory or on PATH; npx is never used)' };
}
