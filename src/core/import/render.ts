// An import plan written as a Chrys hooks.yaml. Every string is written as a
// JSON string, which is a valid YAML double-quoted scalar, so commands keep
// their quoting byte for byte. Comments hold text from the imported file (an
// event key, a matcher): a line break in it would end the comment and start a
// live YAML line, so each comment line is made printable.

import { printable } from '../printable.js';
import type { ImportPlan, ImportedHook } from './convert.js';

const q = (s: string): string => JSON.stringify(s);
const comment = (text: string, indent: string): string => `${indent}# ${printable(text)}`;

/** `header` lines become comment lines; every other note is one comment line, whatever it holds. */
export function renderHooksYaml(plan: ImportPlan, header: readonly string[]): string {
  const lines = [...header.map((h) => comment(h, '')), 'version: 1'];
  for (const s of plan.skipped) lines.push(comment(`not imported: ${s}`, ''));
  if (plan.hooks.length === 0) {
    lines.push('hooks: []');
    return lines.join('\n') + '\n';
  }
  lines.push('hooks:');
  for (const hook of plan.hooks) lines.push(...renderHook(hook));
  return lines.join('\n') + '\n';
}

function renderHook(h: ImportedHook): string[] {
  const out = h.notes.map((n) => comment(n, '  '));
  out.push(`  - id: ${q(h.id)}`, `    event: ${h.event}`, `    description: ${q(h.description)}`);
  if (!h.enabled) out.push('    enabled: false');
  if (h.match) {
    out.push('    match:');
    if (h.match.tool_name !== undefined) out.push(`      tool_name: ${q(h.match.tool_name)}`);
    if (h.match.tool_names) out.push(`      tool_names: [${h.match.tool_names.map(q).join(', ')}]`);
    if (h.match.tool_name_regex !== undefined) out.push(`      tool_name_regex: ${q(h.match.tool_name_regex)}`);
    const fields = Object.entries(h.match.fields ?? {});
    if (fields.length > 0) out.push('      fields:', ...fields.map(([k, v]) => `        ${q(k)}: [${v.map(q).join(', ')}]`));
    // Cursor's shell gates match the full command line.
    if (h.match.command_regex !== undefined) out.push('      args:', `        command: { regex: ${q(h.match.command_regex)} }`);
  }
  out.push('    run:');
  if (h.run.type === 'shell') out.push('      type: shell', `      shell: ${q(h.run.shell)}`);
  else out.push('      type: command', `      argv: [${h.run.argv.map(q).join(', ')}]`);
  const env = Object.entries(h.env);
  if (env.length > 0) out.push('      env:', ...env.map(([k, v]) => `        ${q(k)}: ${q(v)}`));
  out.push(`      protocol: ${h.protocol}`);
  out.push('    execution:', `      mode: ${h.mode}`);
  if (h.timeoutSeconds !== undefined) out.push(`      timeout_seconds: ${h.timeoutSeconds}`);
  out.push(`      on_error: ${h.onError}`);
  return out;
}
