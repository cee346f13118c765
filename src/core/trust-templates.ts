// Trust records the files a project hook runs; it can only do so when the
// fields that choose the program are literal. A `${...}` in run.path,
// run.argv[0] or run.cwd would make the executed file depend on the session
// id, the profile or an expansion the runner and `trust` might read
// differently, so `trust` refuses such a hook instead of recording a guess.

import type { Hook } from './config.js';

const TEMPLATE = /\$\{[^}]*\}/;

/** The first program-choosing field of the hook that holds a template, with its value. */
export function templatedProgramField(hook: Hook): { field: string; value: string } | undefined {
  const run = hook.run;
  const fields: [string, string][] = [];
  if (run.type === 'script') fields.push(['run.path', run.path]);
  if (run.type === 'command') fields.push(['run.argv[0]', run.argv[0] ?? '']);
  fields.push(['run.cwd', run.cwd]);
  const found = fields.find(([, value]) => TEMPLATE.test(value));
  return found ? { field: found[0], value: found[1] } : undefined;
}
