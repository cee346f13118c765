// `chrys-hooks outbox migrate --to postgres|files`: the pending jobs, moved
// to the named backend (migrate.ts), with the count of what moved and of what
// stayed because a drainer is running it.

import { ChrysError, EXIT } from '../core/errors.js';
import type { CommandResult } from './output.js';
import { outboxChoice } from '../outbox/pg/choice.js';
import { withClient } from '../outbox/pg/connect.js';
import { absorbFileJobs, moveToFiles } from '../outbox/pg/migrate.js';
import { ensureSchema } from '../outbox/pg/queue.js';

export async function migrateOutbox(configDir: string, to: unknown, json: boolean): Promise<CommandResult> {
  if (to !== 'postgres' && to !== 'files') throw new ChrysError('usage', `outbox migrate needs --to postgres or --to files${to === undefined ? '' : `, not "${String(to)}"`}`, 'for example `chrys-hooks outbox migrate --to postgres`');
  const choice = await outboxChoice(configDir, process.env);
  if (choice.backend !== 'postgres') {
    throw new ChrysError('outbox_config_invalid', 'outbox migrate needs the PostgreSQL outbox configured: outbox.backend: postgres and outbox.url_env in the user settings', 'set them (the URL in the environment), then run it again; the other side is always the file outbox');
  }
  const result = await withClient(choice.url, async (c) => {
    await ensureSchema(c, choice.url);
    return to === 'postgres' ? { moved: await absorbFileJobs(configDir, c, choice.hostId), running: 0 } : moveToFiles(configDir, c);
  });
  const out = { to, moved: result.moved, left_running: result.running };
  if (json) return { stdout: JSON.stringify(out, null, 2), exitCode: EXIT.ok };
  const text = `moved ${result.moved} pending job${result.moved === 1 ? '' : 's'} to ${to === 'postgres' ? 'PostgreSQL' : 'the file outbox'}` + (result.running ? `; ${result.running} running job${result.running === 1 ? '' : 's'} left where ${result.running === 1 ? 'it is' : 'they are'} (run it again once the drain filed them)` : '');
  return { stdout: text, exitCode: result.running ? EXIT.findings : EXIT.ok };
}
