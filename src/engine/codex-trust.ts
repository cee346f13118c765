// What Codex itself says about the trust of its hooks, for `doctor`: the
// `hooks/list` request of `codex app-server` (JSON-RPC over stdio, Codex
// 0.169) lists every hook it loads with its `trustStatus`. Codex skips a
// hook that is not trusted, in `codex exec` without a word, so an entry
// `install` wrote can be wired and still run nothing.
//
// chrys-hooks only reads this state, never writes it: trusting is the
// review Codex asks the user to make (its `/hooks` screen), and the hashes
// it records in config.toml are no documented setting.

import { spawn } from 'node:child_process';
import { realpathSync } from 'node:fs';
import { resolve } from 'node:path';

/** One hook as Codex lists it; `trustStatus` is `trusted`, `untrusted`, `modified` or `managed`. */
export interface CodexHook {
  key: string;
  sourcePath: string;
  eventName: string;
  command: string;
  trustStatus: string;
}

export type CodexTrust = { hooks: CodexHook[] } | { unavailable: string };

const TIMEOUT_MS = 15_000;

/** Asks the `codex` binary at `codex` which hooks it loads for `cwd`, and their trust. */
export function codexHookTrust(codex: string, cwd: string, env: NodeJS.ProcessEnv): Promise<CodexTrust> {
  return new Promise((done) => {
    const child = spawn(codex, ['app-server'], { cwd, env, stdio: ['pipe', 'pipe', 'ignore'] });
    let settled = false;
    const finish = (answer: CodexTrust): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      child.stdin.end();
      child.kill();
      done(answer);
    };
    const timer = setTimeout(() => finish({ unavailable: `\`${codex} app-server\` did not answer hooks/list within ${TIMEOUT_MS / 1000} s` }), TIMEOUT_MS);
    const send = (message: object): void => void child.stdin.write(`${JSON.stringify(message)}\n`);
    child.on('error', (e) => finish({ unavailable: `cannot run \`${codex} app-server\`: ${e.message}` }));
    child.on('exit', (code) => finish({ unavailable: `\`${codex} app-server\` exited (status ${code}) before it answered hooks/list` }));
    child.stdin.on('error', () => undefined);
    let pending = '';
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (chunk: string) => {
      pending += chunk;
      let newline: number;
      while ((newline = pending.indexOf('\n')) >= 0) {
        const line = pending.slice(0, newline);
        pending = pending.slice(newline + 1);
        let message: { id?: unknown; result?: unknown; error?: { message?: unknown } };
        try {
          message = JSON.parse(line) as typeof message;
        } catch {
          continue;
        }
        if (message.error && (message.id === 1 || message.id === 2)) return finish({ unavailable: `\`${codex} app-server\` refused ${message.id === 1 ? 'initialize' : 'hooks/list'}: ${String(message.error.message ?? 'no message')}` });
        if (message.id === 1) {
          send({ method: 'initialized' });
          send({ id: 2, method: 'hooks/list', params: { cwds: [cwd] } });
        } else if (message.id === 2) finish(hooksOf(message.result));
      }
    });
    send({ id: 1, method: 'initialize', params: { clientInfo: { name: 'chrys-hooks', version: '1' } } });
  });
}

function hooksOf(result: unknown): CodexTrust {
  const data = (result as { data?: unknown } | null)?.data;
  if (!Array.isArray(data)) return { unavailable: 'Codex answered hooks/list without a `data` list' };
  const hooks: CodexHook[] = [];
  for (const entry of data) {
    const list: unknown = (entry as { hooks?: unknown } | null)?.hooks;
    if (!Array.isArray(list)) continue;
    for (const h of list) {
      const { key, sourcePath, eventName, command, trustStatus } = (h ?? {}) as Record<string, unknown>;
      if ([key, sourcePath, eventName, command, trustStatus].every((v) => typeof v === 'string')) hooks.push({ key, sourcePath, eventName, command, trustStatus } as CodexHook);
    }
  }
  return { hooks };
}

const realOr = (p: string): string => {
  try {
    return realpathSync(p);
  } catch {
    return resolve(p);
  }
};

/**
 * The trust Codex gives one wired handler (`PreToolUse` of `file`, running
 * `command`): the worst status among the hooks Codex lists for it
 * (`modified` and `untrusted` before `trusted`), or `not_loaded` when Codex
 * lists none (its hooks switched off, or a project layer it does not trust).
 */
export function codexTrustOf(entry: { event: string; file: string; command: string }, hooks: readonly CodexHook[]): string {
  const file = realOr(entry.file);
  const statuses = hooks
    .filter((h) => h.eventName.toLowerCase() === entry.event.toLowerCase() && h.command === entry.command && realOr(h.sourcePath) === file)
    .map((h) => h.trustStatus);
  if (statuses.length === 0) return 'not_loaded';
  return statuses.find((s) => s !== 'trusted' && s !== 'managed') ?? statuses[0]!;
}
