// The words of a `run.shell` command as the shell would split them, quotes
// removed, for `trust` to find the files a shell hook names. Only literal
// words are meaningful: a word with a variable, a command substitution or a
// glob left in it names something trust cannot see.

const OPERATORS = new Set([';', '&', '|', '(', ')', '<', '>', '\n']);

/** Splits on blanks and shell operators, honouring single quotes, double quotes and backslashes. */
export function shellWords(command: string): string[] {
  const words: string[] = [];
  let word = '';
  let inWord = false;
  let quote: "'" | '"' | undefined;
  const end = (): void => {
    if (inWord) words.push(word);
    word = '';
    inWord = false;
  };
  for (let i = 0; i < command.length; i++) {
    const c = command[i]!;
    if (quote) {
      if (c === quote) quote = undefined;
      else if (c === '\\' && quote === '"' && i + 1 < command.length) word += command[++i];
      else word += c;
    } else if (c === "'" || c === '"') {
      quote = c;
      inWord = true;
    } else if (c === '\\' && i + 1 < command.length) {
      word += command[++i];
      inWord = true;
    } else if (c === ' ' || c === '\t' || OPERATORS.has(c)) end();
    else {
      word += c;
      inWord = true;
    }
  }
  end();
  return words;
}

/** $NAME and ${NAME} for the given variables replaced; anything else left as written. */
export function expandKnownVariables(word: string, values: Readonly<Record<string, string>>): string {
  return word.replace(/\$(?:\{(\w+)\}|(\w+))/g, (whole, braced: string | undefined, bare: string | undefined) => {
    const name = (braced ?? bare)!;
    return Object.hasOwn(values, name) ? values[name]! : whole;
  });
}

/** Whether a word still holds something the shell expands at run time. */
export const isOpaqueWord = (word: string): boolean => /[$`*?[]/.test(word);

/** A word that may name a file: it has a slash or an extension, and is not an option. */
export const isPathLike = (word: string): boolean => !word.startsWith('-') && (word.includes('/') || /\.\w+$/.test(word));
