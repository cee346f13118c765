// A unified diff of two texts, line by line, for `install --dry-run`: what
// would change in the agent's file, in the format `patch` and reviewers read.
// Settings files are small, so a plain longest-common-subsequence table does.

const CONTEXT = 3;

type Op = { kind: ' ' | '-' | '+'; line: string };

function ops(a: string[], b: string[]): Op[] {
  const n = a.length;
  const m = b.length;
  const lcs: Uint32Array[] = Array.from({ length: n + 1 }, () => new Uint32Array(m + 1));
  for (let i = n - 1; i >= 0; i--) for (let j = m - 1; j >= 0; j--) lcs[i]![j] = a[i] === b[j] ? lcs[i + 1]![j + 1]! + 1 : Math.max(lcs[i + 1]![j]!, lcs[i]![j + 1]!);
  const out: Op[] = [];
  let i = 0;
  let j = 0;
  while (i < n || j < m) {
    if (i < n && j < m && a[i] === b[j]) {
      out.push({ kind: ' ', line: a[i++]! });
      j++;
    } else if (j < m && (i === n || lcs[i]![j + 1]! > lcs[i + 1]![j]!)) out.push({ kind: '+', line: b[j++]! });
    else out.push({ kind: '-', line: a[i++]! });
  }
  return out;
}

const splitLines = (s: string): string[] => (s === '' ? [] : s.replace(/\n$/, '').split('\n'));

/** `--- old` / `+++ new` and its hunks; empty when the texts are equal. */
export function unifiedDiff(before: string, after: string, oldName: string, newName: string): string {
  if (before === after) return '';
  const all = ops(splitLines(before), splitLines(after));
  const lines = [`--- ${oldName}`, `+++ ${newName}`];
  let k = 0;
  while (k < all.length) {
    if (all[k]!.kind === ' ') {
      k++;
      continue;
    }
    const start = Math.max(0, k - CONTEXT);
    let end = k;
    // Extend the hunk while the next change is within two contexts.
    for (;;) {
      while (end < all.length && all[end]!.kind !== ' ') end++;
      let next = end;
      while (next < all.length && all[next]!.kind === ' ') next++;
      if (next < all.length && next - end <= 2 * CONTEXT) end = next;
      else break;
    }
    const stop = Math.min(all.length, end + CONTEXT);
    const hunk = all.slice(start, stop);
    const oldStart = all.slice(0, start).filter((o) => o.kind !== '+').length;
    const newStart = all.slice(0, start).filter((o) => o.kind !== '-').length;
    const oldLen = hunk.filter((o) => o.kind !== '+').length;
    const newLen = hunk.filter((o) => o.kind !== '-').length;
    lines.push(`@@ -${oldLen ? oldStart + 1 : oldStart},${oldLen} +${newLen ? newStart + 1 : newStart},${newLen} @@`);
    lines.push(...hunk.map((o) => `${o.kind}${o.line}`));
    k = stop;
  }
  return lines.join('\n');
}
