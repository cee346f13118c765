// The script a detached worker runs as `node <script> __worker <spec>`. Not
// process.argv[1]: under the in-process API that is the agent's own script.
// In the bundle it is dist/cli.js, next to or one level above this chunk.

import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

let found: string | undefined;

export function cliEntry(): string {
  if (found) return found;
  for (const candidate of ['./cli.js', '../cli.js']) {
    const path = fileURLToPath(new URL(candidate, import.meta.url));
    if (existsSync(path)) return (found = path);
  }
  // Running from source (tests): the entry that started us.
  return (found = process.argv[1]!);
}
