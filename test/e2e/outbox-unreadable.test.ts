// An outbox that cannot be read is reported, never taken for an empty one.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { outbox, useSandbox } from '../helpers/sandbox.js';

const sandbox = useSandbox();

describe('drain-outbox on an unreadable outbox', () => {
  it('exits 74 naming the folder and what to do when pending/ is not a directory', async () => {
    const s = sandbox();
    const pending = outbox(s, 'pending');
    mkdirSync(join(pending, '..'), { recursive: true });
    writeFileSync(pending, 'a file where the folder should be');
    const r = await s.run(['drain-outbox']);
    expect(r.exitCode).toBe(74);
    expect(r.stderr).toContain(`cannot read the outbox at ${pending} (ENOTDIR)`);
    expect(r.stderr).toContain('make the outbox folders directories you own');
    expect(r.stderr).not.toMatch(/\n\s+at /); // no stack trace
    const json = await s.run(['drain-outbox', '--json']);
    expect(json.exitCode).toBe(74);
  });
});
