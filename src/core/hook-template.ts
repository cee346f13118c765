// The ${...} placeholders of a hook's run settings and the values they take
// for one firing: pure text, shared by the runner, `resolve` and the trust
// check, which must all read a setting the same way.

export interface HookContext {
  configDir: string;
  workspace: string;
  sessionId: string;
  profile: string;
}

/** ${workspace_cwd}, ${chrys_home}, ${session_id}, ${profile}, replaced in one pass, literally; nothing else. */
export function expandTemplate(text: string, ctx: HookContext): string {
  const values: Record<string, string> = { workspace_cwd: ctx.workspace, chrys_home: ctx.configDir, session_id: ctx.sessionId, profile: ctx.profile };
  // A replacer function: its return value is never scanned for `$&`-style patterns or for placeholders again.
  return text.replace(/\$\{(workspace_cwd|chrys_home|session_id|profile)\}/g, (_, name: string) => values[name]!);
}
