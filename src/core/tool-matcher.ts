// Claude Code's (and Gemini CLI's) tool matcher semantics, for
// `match.tool_name_regex` and for `import`: a matcher made only of letters,
// digits, `_`, `-`, space, `,` and `|` is an exact name or a list of names;
// anything else is an unanchored JavaScript RegExp; `*` or empty matches all.

export type ToolMatcher =
  | { kind: 'all' }
  | { kind: 'names'; names: string[] }
  | { kind: 'regex'; regex: RegExp };

const PLAIN = /^[A-Za-z0-9_\- ,|]+$/;

/** Compiles a matcher, or says why its regex does not compile. */
export function compileToolMatcher(source: string): { ok: true; matcher: ToolMatcher } | { ok: false; error: string } {
  const trimmed = source.trim();
  if (trimmed === '' || trimmed === '*') return { ok: true, matcher: { kind: 'all' } };
  if (PLAIN.test(source)) {
    const names = source.split(/[|,]/).map((n) => n.trim()).filter(Boolean);
    return { ok: true, matcher: names.length === 0 ? { kind: 'all' } : { kind: 'names', names } };
  }
  try {
    return { ok: true, matcher: { kind: 'regex', regex: new RegExp(source) } };
  } catch (e) {
    return { ok: false, error: (e as Error).message };
  }
}

export function toolMatches(matcher: ToolMatcher, name: string | undefined): boolean {
  if (matcher.kind === 'all') return true;
  if (name === undefined) return false;
  return matcher.kind === 'names' ? matcher.names.includes(name) : matcher.regex.test(name);
}
