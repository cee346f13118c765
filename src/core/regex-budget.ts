// Regex matching with a time budget (ReDoS): `(a+)+$` against 'a' * 50 + '!'
// backtracks for minutes, and JavaScript cannot interrupt a RegExp on the
// main thread. A pattern that a quick look proves linear enough runs
// directly; any other runs inside a vm context with a timeout, which V8 does
// interrupt mid-match (~0.7 ms to set up once, ~0.1 ms per match, measured).
// An overrun is reported as an error, never as "no match".

import { Script, createContext } from 'node:vm';

export const REGEX_BUDGET_MS = 250;

/**
 * Whether the Python pattern is proven safe to run unbounded: no back-
 * reference, no repeated group, and at most one unbounded quantifier
 * (two can already be polynomial on a long argument: `\s*\s*x`).
 */
export function provenLinear(source: string): boolean {
  let unbounded = 0;
  let inClass = false;
  // Stryker disable next-line EqualityOperator: one step past the end, c is undefined and matches no branch
  for (let i = 0; i < source.length; i++) {
    const c = source[i]!;
    if (c === '\\') {
      // Stryker disable next-line StringLiteral: the fallback only has to be no digit
      if (!inClass && /[1-9]/.test(source[i + 1] ?? '')) return false;
      i++;
      continue;
    }
    if (inClass) {
      if (c === ']') inClass = false;
      continue;
    }
    if (c === '[') {
      inClass = true;
      if (source[i + 1] === '^') i++;
      if (source[i + 1] === ']') i++;
      continue;
    }
    // Stryker disable next-line MethodExpression: endsWith('(?P=', i) finds the same back-reference one character later
    if (source.startsWith('(?P=', i)) return false;
    const quantifier = c === '*' || c === '+' || c === '?' || (c === '{' && /^\{\d*,?\d*\}/.test(source.slice(i)));
    if (!quantifier) continue;
    if (source[i - 1] === ')' && c !== '?') return false; // a repeated group; an optional one is harmless
    if (c === '*' || c === '+' || (c === '{' && /^\{\d*,\}/.test(source.slice(i)))) unbounded++;
  }
  return unbounded <= 1;
}

let sandbox: { context: ReturnType<typeof createContext>; script: Script } | undefined;

/** regex.test(value) under the budget; 'over_budget' when it ran out. */
export function testBounded(regex: RegExp, value: string, budgetMs = REGEX_BUDGET_MS): boolean | 'over_budget' {
  sandbox ??= { context: createContext({}), script: new Script('regex.lastIndex = 0, regex.test(value)') };
  sandbox.context.regex = regex;
  sandbox.context.value = value;
  try {
    return sandbox.script.runInContext(sandbox.context, { timeout: budgetMs }) === true;
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ERR_SCRIPT_EXECUTION_TIMEOUT') return 'over_budget';
    throw e;
  } finally {
    // Stryker disable next-line StringLiteral: clearing the value only lets a long argument be collected
    sandbox.context.value = '';
  }
}
