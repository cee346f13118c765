// An import plan written as a Chrys hooks.yaml. Every string is written as a
// JSON string, which is a valid YAML double-quoted scalar, so commands keep
// their quoting byte for byte.

import type { ImportPlan, ImportedHook } from './convert.js';

const q = (s: string): string => JSON.stringify(s);
const comment = (text: string, indent: string): string[] => text.split('\n').map((line) => `${indent}# ${line}`);

export function renderHooksYaml(plan: ImportPlan, header: string): string {
  const lines = [...comment(header, ''), 'version: 1'];
  for (const s of plan.skipped) lines.push(...comment(`not imported: ${s}`, ''));
  if (plan.hooks.length === 0) {
    lines.push('hooks: []');
    return lines.join('\n') + '\n';
  }
  lines.push('hooks:');
  for (const hook of plan.hooks) lines.push(...renderHook(hook));
  return lines.join('\n') + '\n';
}

function renderHook(h: ImportedHook): string[] {
  const out = [...h.notes.flatMap((n) => comment(n, '  '))];
  out.push(`  - id: ${q(h.id)}`, `    event: ${h.event}`, `    description: ${q(h.description)}`);
  if (!h.enabled) out.push('    enabled: false');
  if (h.match) {
    out.push('    match:');
    if (h.match.tool_name !== undefined) out.push(`      tool_name: ${q(h.match.tool_name)}`);
    if (h.match.tool_names) out.push(`      tool_names: [${h.match.tool_names.map(q).join(', ')}]`);
    if (h.match.tool_name_regex !== undefined) out.push(`      tool_name_regex: ${q(h.match.tool_name_regex)}`);
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
