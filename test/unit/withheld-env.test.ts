// No hook process gets the PostgreSQL outbox's URL (it holds the password).
import { afterEach, describe, expect, it } from 'vitest';
import { withholdEnv } from '../../src/base/withheld-env.js';
import { hookProcessEnv } from '../../src/run/invocation.js';

const saved = { ...process.env };
afterEach(() => {
  for (const k of Object.keys(process.env)) if (!(k in saved)) delete process.env[k];
  Object.assign(process.env, saved);
});

describe('the environment a hook gets', () => {
  it('never holds CHRYS_OUTBOX_URL, and not the variable outbox.url_env names once it was read', () => {
    process.env.CHRYS_OUTBOX_URL = 'postgres://u:pw@db/x';
    process.env.TEAM_OUTBOX = 'postgres://u:pw2@db/x';
    process.env.DATABASE_URL = 'postgres://app:apppw@db/app';
    expect(hookProcessEnv({}, {})).not.toHaveProperty('CHRYS_OUTBOX_URL');
    expect(hookProcessEnv({}, {}).TEAM_OUTBOX).toBe('postgres://u:pw2@db/x');
    withholdEnv('TEAM_OUTBOX');
    const env = hookProcessEnv({}, {});
    expect(env).not.toHaveProperty('TEAM_OUTBOX');
    // A hook's own database is none of the outbox's business.
    expect(env.DATABASE_URL).toBe('postgres://app:apppw@db/app');
  });
});
