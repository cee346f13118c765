// Which outbox a config dir uses, from the `outbox` section of the user
// settings (<config_dir>/settings.yaml): the global tree only, never a project
// file, so no workspace can send its follow-ups elsewhere. The connection
// string is read from the environment variable the section names, never
// from a file, and never shown (redact.ts).

import { hostname } from 'node:os';
import { findFirst, SETTINGS_FILE_NAMES } from '../../config/locations.js';
import { UnreadableFile, parseConfigText, readText } from '../../config/read.js';
import { ChrysError } from '../../core/errors.js';
import { withholdEnv } from '../../base/withheld-env.js';

export type OutboxChoice = { backend: 'files' } | { backend: 'postgres'; url: string; urlEnv: string; hostId: string };

const KEYS = ['backend', 'url_env', 'host_id'] as const;
const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;
const HOST_ID = /^[\w.-]{1,200}$/;

const invalid = (path: string, message: string, hint: string): ChrysError => new ChrysError('outbox_config_invalid', `${path}: ${message}`, hint);

/** The outbox of this config dir; throws outbox_config_invalid naming the field. */
export async function outboxChoice(configDir: string, env: NodeJS.ProcessEnv = process.env): Promise<OutboxChoice> {
  const path = findFirst(configDir, SETTINGS_FILE_NAMES);
  if (!path) return { backend: 'files' };
  let data: unknown;
  try {
    const file = await parseConfigText(path, readText(path));
    if (file.syntaxErrors.length > 0) throw invalid(path, file.syntaxErrors[0]!.message, 'fix the user settings file');
    data = file.data;
  } catch (e) {
    if (e instanceof UnreadableFile) throw invalid(path, `cannot read it (${e.message})`, 'make the user settings file readable');
    throw e;
  }
  const section = (data as { outbox?: unknown } | null | undefined)?.outbox;
  if (section === undefined || section === null) return { backend: 'files' };
  if (typeof section !== 'object' || Array.isArray(section)) throw invalid(path, 'outbox must be a mapping', 'for example outbox: {backend: postgres, url_env: CHRYS_OUTBOX_URL}');
  const o = section as Record<string, unknown>;
  const unknown = Object.keys(o).find((k) => !(KEYS as readonly string[]).includes(k));
  if (unknown) throw invalid(path, `unknown key "outbox.${unknown}"`, `the outbox section takes ${KEYS.join(', ')}`);
  const backend = o.backend ?? 'files';
  if (backend === 'files') return { backend: 'files' };
  if (backend !== 'postgres') throw invalid(path, `outbox.backend must be files or postgres, not ${JSON.stringify(backend)}`, 'set outbox.backend: postgres or files');
  const urlEnv = o.url_env ?? 'CHRYS_OUTBOX_URL';
  if (typeof urlEnv !== 'string' || !ENV_NAME.test(urlEnv)) throw invalid(path, `outbox.url_env must name an environment variable, not ${JSON.stringify(urlEnv)}`, 'for example url_env: CHRYS_OUTBOX_URL (the URL itself belongs in the environment, never in a file)');
  const hostId = o.host_id ?? hostname();
  if (typeof hostId !== 'string' || !HOST_ID.test(hostId)) throw invalid(path, `outbox.host_id must be letters, digits, ".", "_" or "-", not ${JSON.stringify(hostId)}`, 'leave it out to use the host name');
  withholdEnv(urlEnv);
  const url = env[urlEnv]?.trim() ?? '';
  if (url === '') throw invalid(path, `outbox.backend is postgres but $${urlEnv} (outbox.url_env) is not set`, `export ${urlEnv}=postgres://USER:PASSWORD@HOST:5432/DB in the environment of every chrys-hooks process`);
  if (!/^postgres(ql)?:\/\//.test(url)) throw invalid(path, `$${urlEnv} is not a postgres:// URL`, `set ${urlEnv} to postgres://USER:PASSWORD@HOST:5432/DB`);
  try {
    new URL(url);
  } catch {
    throw invalid(path, `$${urlEnv} is not a valid URL (its value is not shown: it may hold a password)`, 'check its spelling; characters such as @ : / in the password must be percent-encoded');
  }
  return { backend: 'postgres', url, urlEnv, hostId };
}
