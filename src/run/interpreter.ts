// Which program runs a `type: script` hook, chosen by the file's extension
// (CONTRACT §2), and a PATH lookup that does not spawn anything.

import { accessSync, constants, statSync } from 'node:fs';
import { delimiter, extname, join } from 'node:path';

/** Absolute path of an executable on PATH, or undefined. */
export function which(name: string, path = process.env.PATH ?? ''): string | undefined {
  const exts = process.platform === 'win32' ? (process.env.PATHEXT ?? '.EXE;.CMD;.BAT').split(';') : [''];
  for (const dir of path.split(delimiter)) {
    if (!dir) continue;
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
  '.py': [['uv', 'run'], ['python3'], ['python']],
  '.sh': [['bash'], ['sh']],
  '.bash': [['bash'], ['sh']],
  '.zsh': [['bash'], ['sh']],
  '.js': [['node']],
  '.mjs': [['node']],
  '.ts': [['npx', 'tsx']],
  '.rb': [['ruby']],
  '.pl': [['perl']],
  '.ps1': [['pwsh', '-NoProfile', '-File'], ['powershell', '-NoProfile', '-File']],
};

export type InterpreterChoice = { ok: true; argv: string[] } | { ok: false; wanted: string };

export function interpreterFor(scriptPath: string): InterpreterChoice {
  const candidates = BY_EXTENSION[extname(scriptPath).toLowerCase()] ?? BY_EXTENSION['.py']!;
  for (const [program, ...rest] of candidates) {
    const found = which(program!);
    if (found) return { ok: true, argv: [found, ...rest] };
  }
  return { ok: false, wanted: candidates.map((c) => c[0]).join(' or ') };
}
