// Which outbox a config dir uses (outbox/pg/choice.ts), read from a real
// settings file in a temp config dir; every refusal names its field.
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { dropWithheld } from '../../src/base/withheld-env.js';
import { ChrysError } from '../../src/core/errors.js';
import { outboxChoice } from '../../src/outbox/pg/choice.js';
import { fireOutbox } from '../../src/outbox/pg/fire-queue.js';

const URL_OK = 'postgres://chrys:pw@db.example:5432/outbox';

function configDir(settings?: string, name = 'settings.yaml'): string {
  const dir = mkdtempSync(join(tmpdir(), 'chrys-choice-'));
  if (settings !== undefined) writeFileSync(join(dir, name), settings);
  return dir;
}

async function refusal(dir: string, env: NodeJS.ProcessEnv = { CHRYS_OUTBOX_URL: URL_OK }): Promise<{ message: string; hint: string | undefined }> {
  try {
    await outboxChoice(dir, env);
  } catch (e) {
    if (!(e instanceof ChrysError)) throw e;
    expect(e.code).toBe('outbox_config_invalid');
    return { message: e.message.replace(`${dir}/`, ''), hint: e.hint };
  }
  throw new Error('not refused');
}

describe('outboxChoice', () => {
  it('is the file outbox without a settings file, an outbox section, or with backend files', async () => {
    expect(await outboxChoice(configDir(), {})).toEqual({ backend: 'files' });
    expect(await outboxChoice(configDir('settings:\n  outbox_max_retries: 3\n'), {})).toEqual({ backend: 'files' });
    expect(await outboxChoice(configDir('outbox:\n'), {})).toEqual({ backend: 'files' });
    expect(await outboxChoice(configDir(''), {})).toEqual({ backend: 'files' });
    expect(await outboxChoice(configDir('outbox:\n  backend: files\n  url_env: 9bad\n'), {})).toEqual({ backend: 'files' });
    expect(await outboxChoice(configDir('outbox: {}\n'), {})).toEqual({ backend: 'files' });
  });

  it('reads PostgreSQL from the variable url_env names, with the host id given or the host name', async () => {
    const given = configDir('outbox:\n  backend: postgres\n  url_env: MY_URL\n  host_id: box-1.a_b\n');
    expect(await outboxChoice(given, { MY_URL: `  ${URL_OK}\n` })).toEqual({ backend: 'postgres', url: URL_OK, urlEnv: 'MY_URL', hostId: 'box-1.a_b' });
    const defaults = configDir('outbox:\n  backend: postgres\n');
    expect(await outboxChoice(defaults, { CHRYS_OUTBOX_URL: 'postgresql://db/outbox' })).toEqual({ backend: 'postgres', url: 'postgresql://db/outbox', urlEnv: 'CHRYS_OUTBOX_URL', hostId: hostname() });
  });

  it('reads settings.json too, and withholds the variable from the hooks', async () => {
    const dir = configDir(JSON.stringify({ outbox: { backend: 'postgres', url_env: 'WITHHELD_URL_TEST', host_id: 'h' } }), 'settings.json');
    expect((await outboxChoice(dir, { WITHHELD_URL_TEST: URL_OK })).backend).toBe('postgres');
    expect(dropWithheld({ WITHHELD_URL_TEST: URL_OK, OTHER: '1' })).toEqual({ OTHER: '1' });
  });

  it('uses the process environment by default', async () => {
    const dir = configDir('outbox:\n  backend: postgres\n  url_env: CHRYS_CHOICE_TEST_URL\n  host_id: h\n');
    process.env.CHRYS_CHOICE_TEST_URL = URL_OK;
    try {
      expect(await outboxChoice(dir)).toMatchObject({ url: URL_OK });
    } finally {
      delete process.env.CHRYS_CHOICE_TEST_URL;
    }
  });

  it('refuses a missing, blank or malformed URL without showing it', async () => {
    const dir = configDir('outbox:\n  backend: postgres\n  url_env: OUT_URL\n');
    expect(await refusal(dir, {})).toEqual({ message: 'settings.yaml: outbox.backend is postgres but $OUT_URL (outbox.url_env) is not set', hint: 'export OUT_URL=postgres://USER:PASSWORD@HOST:5432/DB in the environment of every chrys-hooks process' });
    expect((await refusal(dir, { OUT_URL: '   ' })).message).toContain('is not set');
    expect(await refusal(dir, { OUT_URL: 'mysql://u:SECRET@db/x' })).toEqual({ message: 'settings.yaml: $OUT_URL is not a postgres:// URL', hint: 'set OUT_URL to postgres://USER:PASSWORD@HOST:5432/DB' });
    expect((await refusal(dir, { OUT_URL: 'xpostgres://db/x' })).message).toContain('is not a postgres:// URL');
    const bad = await refusal(dir, { OUT_URL: 'postgres://u:SECRET@db:port/x' });
    expect(bad).toEqual({ message: 'settings.yaml: $OUT_URL is not a valid URL (its value is not shown: it may hold a password)', hint: 'check its spelling; characters such as @ : / in the password must be percent-encoded' });
  });

  it('refuses a settings file it cannot read or parse', async () => {
    const dir = configDir();
    mkdirSync(join(dir, 'settings.yaml'));
    const unreadable = await refusal(dir);
    expect(unreadable.message).toMatch(/^settings\.yaml: cannot read it \(/);
    expect(unreadable.hint).toBe('make the user settings file readable');
    const broken = await refusal(configDir('outbox: [\n'));
    expect(broken.hint).toBe('fix the user settings file');
  });
});

describe('fireOutbox', () => {
  it('is the choice when the section is valid', async () => {
    expect(await fireOutbox(configDir())).toEqual({ choice: { backend: 'files' } });
  });

  it('falls back to the file outbox with a warning when it is not', async () => {
    const dir = configDir('outbox:\n  backend: sqlite\n');
    expect(await fireOutbox(dir)).toEqual({
      choice: { backend: 'files' },
      warning: { code: 'outbox_fallback', message: `${join(dir, 'settings.yaml')}: outbox.backend must be files or postgres, not "sqlite"; durable jobs go to the file outbox (set outbox.backend: postgres or files)` },
    });
  });
});
