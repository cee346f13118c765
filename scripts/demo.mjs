// `npm run demo`: fires sample events at the bundled example config and
// prints each decision, after the exact command (paste it to run it again).
// The example workspace is trusted with --project-hooks.
import { execFileSync } from 'node:child_process';
import { readFileSync, rmSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const args = ['fire', '--config-dir', 'examples/global', '--cwd', 'examples/workspace', '--project-hooks'];
const samples = [
  ['write-env.json', 'a write to config/.env: the project hook protect-env (Python) blocks it'],
  ['run-script.json', 'a shell call (PreToolUse alias): the global bash hook rewrites its args'],
  ['prompt.json', 'a prompt: a global hook adds a system reminder'],
  ['conversation-done.json', 'a finished conversation (Stop alias): the follow-up is queued for drain-outbox, due in 10 s'],
];
// The follow-up runs once per session; forget the demo's earlier runs so it queues every time.
rmSync(`${root}/examples/global/hooks/state/once`, { recursive: true, force: true });
for (const [file, what] of samples) {
  const envelope = `examples/envelopes/${file}`;
  process.stdout.write(`\n### ${what}\n$ bin/chrys-hooks ${args.join(' ')} < ${envelope}\n`);
  process.stdout.write(execFileSync(process.execPath, ['bin/chrys-hooks', ...args], { cwd: root, encoding: 'utf8', input: readFileSync(`${root}/${envelope}`), env: { ...process.env, CHRYS_HOME: '' } }));
}
process.stdout.write('\nIn 15 s, deliver the follow-up with:\n$ bin/chrys-hooks drain-outbox --config-dir examples/global\n');
process.stdout.write('(bin/chrys-hooks is this checkout\'s binary; install it as `chrys-hooks` on your PATH: see "Install" in README.md.)\n');
