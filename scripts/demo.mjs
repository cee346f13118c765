// `npm run demo`: fires sample events at the bundled example config and
// prints each decision. The example workspace is trusted with --project-hooks.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const base = ['bin/chrys-hooks', 'fire', '--config-dir', 'examples/global', '--cwd', 'examples/workspace', '--project-hooks'];
const samples = [
  ['write-env.json', 'a write to config/.env: the project hook protect-env (Python) blocks it'],
  ['run-script.json', 'a shell call (PreToolUse alias): the global bash hook rewrites its args'],
  ['prompt.json', 'a prompt: a global hook adds a system reminder'],
  ['conversation-done.json', 'a finished conversation (Stop alias): the follow-up is queued for drain-outbox, due in 10 s'],
];
for (const [file, what] of samples) {
  const envelope = JSON.parse(readFileSync(`${root}/examples/envelopes/${file}`, 'utf8'));
  // A fresh session each run, so the once-per-session follow-up queues every time.
  envelope.session_id = `demo-${Date.now()}`;
  process.stdout.write(`\n### ${what}\n$ chrys-hooks fire --config-dir examples/global --cwd examples/workspace --project-hooks < examples/envelopes/${file}\n`);
  process.stdout.write(execFileSync(process.execPath, base, { cwd: root, encoding: 'utf8', input: JSON.stringify(envelope), env: { ...process.env, CHRYS_HOME: '' } }));
}
process.stdout.write('\nRun `bin/chrys-hooks drain-outbox --config-dir examples/global` in 15 s to deliver the follow-up.\n');
