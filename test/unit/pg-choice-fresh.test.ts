// Which outbox a config dir uses (outbox/pg/choice.ts), with the module loaded
// afresh in each test: its patterns and its error maker are built when it
// loads (pg-choice.test.ts has the rest). Real settings files in temp dirs.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeEach, describe, expect, it, vi } from 'vitest';

beforeEach(() => {
  vi.resetModules();
});
const outboxChoice = async (...args: Parameters<typeof import('../../src/outbox/pg/choice.js').outboxChoice>) => (await import('../../src/outbox/pg/choice.js')).outboxChoice(...args);

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
    // A ChrysError of the module loaded for this test.
    const err = e as { code?: string; message: string; hint?: string };
    if (err.code === undefined) throw e;
    expect(err.code).toBe('outbox_config_invalid');
    return { message: err.message.replace(`${dir}/`, ''), hint: err.hint };
  }
  throw new Error('not refused');
}

describe('outboxChoice', () => {
  it('reads PostgreSQL from the variable url_env names, with the host id given or the host name', async () => {
    const given = configDir('outbox:\n  backend: postgres\n  url_env: MY_URL\n  host_id: box-1.a_b\n');
    expect(await outboxChoice(given, { MY_URL: `  ${URL_OK}\n` })).toEqual({ backend: 'postgres', url: URL_OK, urlEnv: 'MY_URL', hostId: 'box-1.a_b' });
    const defaults = configDir('outbox:\n  backend: postgres\n');
    expect(await outboxChoice(defaults, { CHRYS_OUTBOX_URL: 'postgresql://db/outbox' })).toEqual({ backend: 'postgres', url: 'postgresql://db/outbox', urlEnv: 'CHRYS_OUTBOX_URL', hostId: hostname() });
  });

  it.each([
    ['outbox: 3\n', 'settings.yaml: outbox must be a mapping', 'for example outbox: {backend: postgres, url_env: CHRYS_OUTBOX_URL}'],
    ['outbox: [postgres]\n', 'settings.yaml: outbox must be a mapping', 'for example outbox: {backend: postgres, url_env: CHRYS_OUTBOX_URL}'],
    ['outbox:\n  backend: postgres\n  url: x\n', 'settings.yaml: unknown key "outbox.url"', 'the outbox section takes backend, url_env, host_id'],
    ['outbox:\n  backend: sqlite\n', 'settings.yaml: outbox.backend must be files or postgres, not "sqlite"', 'set outbox.backend: postgres or files'],
    ['outbox:\n  backend: postgres\n  url_env: 9X\n', 'settings.yaml: outbox.url_env must name an environment variable, not "9X"', 'for example url_env: CHRYS_OUTBOX_URL (the URL itself belongs in the environment, never in a file)'],
    ['outbox:\n  backend: postgres\n  url_env: A-B\n', 'settings.yaml: outbox.url_env must name an environment variable, not "A-B"', undefined],
    ['outbox:\n  backend: postgres\n  url_env: 5\n', 'settings.yaml: outbox.url_env must name an environment variable, not 5', undefined],
    ['outbox:\n  backend: postgres\n  url_env: true\n', 'settings.yaml: outbox.url_env must name an environment variable, not true', undefined],
    ['outbox:\n  backend: postgres\n  url_env: A_\u00e9\n', 'settings.yaml: outbox.url_env must name an environment variable, not "A_\u00e9"', undefined],
    ['outbox:\n  backend: postgres\n  url_env: AB-\n', 'settings.yaml: outbox.url_env must name an environment variable, not "AB-"', undefined],
    ['outbox:\n  backend: postgres\n  host_id: "a/b"\n', 'settings.yaml: outbox.host_id must be letters, digits, ".", "_" or "-", not "a/b"', undefined],
    ['outbox:\n  backend: postgres\n  host_id: "ab/"\n', 'settings.yaml: outbox.host_id must be letters, digits, ".", "_" or "-", not "ab/"', undefined],
    ['outbox:\n  backend: postgres\n  host_id: "a b"\n', 'settings.yaml: outbox.host_id must be letters, digits, ".", "_" or "-", not "a b"', 'leave it out to use the host name'],
    ['outbox:\n  backend: postgres\n  host_id: ""\n', 'settings.yaml: outbox.host_id must be letters, digits, ".", "_" or "-", not ""', undefined],
    [`outbox:\n  backend: postgres\n  host_id: ${'h'.repeat(201)}\n`, `settings.yaml: outbox.host_id must be letters, digits, ".", "_" or "-", not "${'h'.repeat(201)}"`, undefined],
    ['outbox:\n  backend: postgres\n  host_id: 7\n', 'settings.yaml: outbox.host_id must be letters, digits, ".", "_" or "-", not 7', undefined],
  ])('refuses %j', async (settings, message, hint) => {
    const r = await refusal(configDir(settings));
    expect(r.message).toBe(message);
    if (hint !== undefined) expect(r.hint).toBe(hint);
  });

  it('takes a host id of 200 characters and a one-letter url_env', async () => {
    const dir = configDir(`outbox:\n  backend: postgres\n  url_env: _\n  host_id: ${'h'.repeat(200)}\n`);
    expect(await outboxChoice(dir, { _: URL_OK })).toMatchObject({ urlEnv: '_', hostId: 'h'.repeat(200) });
    const long = configDir('outbox:\n  backend: postgres\n  url_env: Ab_09z\n  host_id: h.-_9\n');
    expect(await outboxChoice(long, { Ab_09z: URL_OK })).toMatchObject({ urlEnv: 'Ab_09z', hostId: 'h.-_9' });
  });

});
