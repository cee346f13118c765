// `npm run demo`: fires sample events at the bundled example config and
// prints each decision. The example workspace is trusted with --project-hooks.
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const samples = [
  ['write-env.json', 'a write to config/.env: the project hook protect-env (Python) blocks it'],
  ['run-script.json', 'a shell call (PreToolUse alias): the global bash hook rewrites its args'],
  ['prompt.json', 'a prompt: a global hook adds a system reminder'],
];
for (const [file, what] of samples) {
  process.stdout.write(`\n### ${what}\n$ chrys-hooks fire --config-dir examples/global --cwd examples/workspace --project-hooks --input examples/envelopes/${file}\n`);
  const out = execFileSync(
    process.execPath,
    ['bin/chrys-hooks', 'fire', '--config-dir', 'examples/global', '--cwd', 'examples/workspace', '--project-hooks', '--input', `examples/envelopes/${file}`],
    { cwd: root, encoding: 'utf8', env: { ...process.env, CHRYS_HOME: '' } },
  );
  process.stdout.write(out);
}
