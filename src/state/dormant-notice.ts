// `project_hooks_dormant` in fire's answer once per session, not on every
// event: an agent shows each answer's warnings, and a dormant layer says the
// same thing until the user acts. The session's state directory records what
// was said (one empty file per notice); with no session id there is no
// session to remember it in, so it is said every time. A workspace silenced
// with `untrust --ignore` is not reported at all.

import { closeSync, openSync } from 'node:fs';
import { join } from 'node:path';
import type { Decision } from '../core/decide.js';
import { ensureDir } from '../base/runtime-layout.js';
import { keyedName } from '../base/keyed-name.js';
import { sessionDir } from './sessions.js';

const DORMANT = 'project_hooks_dormant';

/** Drops from the decision the dormant notices this session already had (and those of an ignored workspace). */
export function quietDormantNotices(decision: Decision, configDir: string, sessionId: string): void {
  if (!decision.warnings.some((w) => w.code === DORMANT)) return;
  if (decision.project_trust?.ignored_at) {
    decision.warnings = decision.warnings.filter((w) => w.code !== DORMANT);
    return;
  }
  // Written only now: there is a session and a dormant layer to report (no hooks files => no files, CONTRACT §7).
  if (sessionId === '') return;
  const dir = sessionDir(configDir, sessionId);
  decision.warnings = decision.warnings.filter((w) => w.code !== DORMANT || firstTime(dir, `${w.path ?? ''}\0${w.message}`));
}

/** Whether this notice is new to the session; a record that cannot be written means it is said again. */
function firstTime(dir: string, notice: string): boolean {
  try {
    ensureDir(dir);
    closeSync(openSync(join(dir, `said-${keyedName(notice)}`), 'wx', 0o600));
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code !== 'EEXIST';
  }
}
