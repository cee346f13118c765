// `validate` of the user settings file. chrys-hooks reads one key of it,
// `project.hooks_enabled`; the file is shared with the agent, so other
// top-level keys are the agent's and are left alone, while a key that looks
// like a misspelt `project` or `hooks_enabled` is reported: a typo there
// leaves project hooks off without a word.

import type { Diagnostic } from '../core/diagnostics.js';
import { closest } from '../core/events.js';
import { UnreadableFile, parseConfigText, readText } from './read.js';

const PROJECT_KEYS = ['hooks_enabled'] as const;

export async function lintSettingsFile(path: string): Promise<Diagnostic[]> {
  const out: Diagnostic[] = [];
  const at = (pos: { line: number; column: number }, severity: Diagnostic['severity'], code: Diagnostic['code'], message: string, hint?: string): void => {
    out.push({ path, ...pos, severity, code, message, ...(hint ? { hint } : {}) });
  };
  let text: string;
  try {
    text = readText(path);
  } catch (e) {
    if (e instanceof UnreadableFile) at({ line: 1, column: 1 }, 'error', 'unreadable_file', `cannot read the file: ${e.message}`);
    else throw e;
    return out;
  }
  const file = await parseConfigText(path, text);
  for (const s of file.syntaxErrors) at(s.position, 'error', 'syntax_error', s.message, s.hint);
  const data = file.data;
  if (data === undefined || data === null) return out;
  if (typeof data !== 'object' || Array.isArray(data)) {
    at({ line: 1, column: 1 }, 'error', 'invalid_type', 'a settings file must be a mapping, such as project: { hooks_enabled: true }');
    return out;
  }
  for (const key of Object.keys(data)) {
    if (key === 'project') continue;
    const nearProject = closest(key, ['project']);
    const nearFlag = closest(key, PROJECT_KEYS);
    if (nearProject || nearFlag) {
      const hint = nearProject ? 'did you mean "project"?' : 'did you mean "project.hooks_enabled"?';
      at(file.locate([key], 'key'), 'warning', 'settings_unknown_key', `unknown key "${key}": chrys-hooks reads only project.hooks_enabled, so project hooks stay off`, hint);
    }
  }
  const project = (data as Record<string, unknown>).project;
  if (project === undefined || project === null) return out;
  if (typeof project !== 'object' || Array.isArray(project)) {
    at(file.locate(['project'], 'value'), 'error', 'invalid_type', 'project must be a mapping, such as { hooks_enabled: true }');
    return out;
  }
  for (const [key, value] of Object.entries(project)) {
    if (key === 'hooks_enabled') {
      if (typeof value !== 'boolean') at(file.locate(['project', key], 'value'), 'error', 'invalid_type', `project.hooks_enabled must be true or false, not ${JSON.stringify(value)}`, 'project hooks stay off until it is fixed');
      continue;
    }
    const near = closest(key, PROJECT_KEYS);
    at(file.locate(['project', key], 'key'), 'warning', 'settings_unknown_key', `unknown key "project.${key}"`, near ? `did you mean "project.${near}"?` : 'the only key chrys-hooks reads here is hooks_enabled');
  }
  return out;
}
