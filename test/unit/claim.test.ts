// The job claim: one holder at a time across processes, released after the
// run, and taken over once a dead holder's lock is stale. The contenders are
// real node processes running withJobLock (bundled from src/ with esbuild).
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import lockfile from 'proper-lockfile';
import { beforeAll, describe, expect, it } from 'vitest';
import { withJobLock } from '../../src/outbox/claim.js';
import { jobPath } from '../../src/outbox/store.js';
import { eventually } from '../helpers/sandbox.js';

/** The lock library's floor: the shortest stale time a test can use. */
const SHORT_STALE_MS = 2000;

const lockDir = (configDir: string, jobId: string): string => join(configDir, 'hooks', 'outbox', 'locks', `${jobId}.lock`);
const tempDir = (): string => mkdtempSync(join(tmpdir(), 'chrys-claim-'));

// A process that claims a job and, once it holds it, writes `<marks>/<name>.held`,
// then runs until `<marks>/release` appears; it prints its Claim as JSON.
const HOLDER = `
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { withJobLock } from ${JSON.stringify(fileURLToPath(new URL('../../src/outbox/claim.ts', import.meta.url)))};
const [configDir, jobId, marks, name, staleMs] = process.argv.slice(2);
const until = (done) => new Promise((resolve) => { const t = setInterval(() => { if (done()) { clearInterval(t); resolve(); } }, 20); });
withJobLock(configDir, jobId, async () => {
  writeFileSync(join(marks, name + '.held'), '');
  await until(() => existsSync(join(marks, 'release')));
  return name;
}, Number(staleMs)).then((claim) => process.stdout.write(JSON.stringify(claim)));
`;
let holderScript: string;

beforeAll(async () => {
  holderScript = join(tempDir(), 'holder.cjs');
  await build({ stdin: { contents: HOLDER, resolveDir: tempDir(), loader: 'ts' }, bundle: true, platform: 'node', format: 'cjs', outfile: holderScript, logLevel: 'silent' });
});

interface Holder {
  child: ChildProcess;
  /** Resolves with what the process printed once it exits. */
  done: Promise<{ out: string; signal: NodeJS.Signals | null }>;
}

function startHolder(configDir: string, jobId: string, marks: string, name: string, staleMs = 10_000): Holder {
  const child = spawn(process.execPath, [holderScript, configDir, jobId, marks, name, String(staleMs)], { stdio: ['ignore', 'pipe', 'inherit'] });
  let out = '';
  child.stdout!.on('data', (c: Buffer) => (out += c.toString()));
  return { child, done: new Promise((resolve) => child.once('close', (_code, signal) => resolve({ out, signal }))) };
}

describe('withJobLock', () => {
  it('runs the function holding outbox/locks/<job>.lock (mode 0700) and removes it after', async () => {
    const configDir = tempDir();
    let seen: { exists: boolean; mode: number } | undefined;
    const claim = await withJobLock(configDir, 'job-1', async () => {
      const stat = statSync(lockDir(configDir, 'job-1'));
      seen = { exists: stat.isDirectory(), mode: stat.mode & 0o777 };
      return 42;
    });
    expect(claim).toEqual({ claimed: true, value: 42 });
    expect(seen).toEqual({ exists: true, mode: 0o700 });
    expect(existsSync(lockDir(configDir, 'job-1'))).toBe(false);
  });

  it('claims a job whose file is already gone (the caller finds that out under the claim)', async () => {
    const configDir = tempDir();
    expect(existsSync(join(configDir, 'hooks', 'outbox', 'pending', 'gone.json'))).toBe(false);
    expect(await withJobLock(configDir, 'gone', async () => 'looked')).toEqual({ claimed: true, value: 'looked' });
  });

  it('refuses a claim while it is held, and grants it again once released', async () => {
    const configDir = tempDir();
    const inner = await withJobLock(configDir, 'job', async () => withJobLock(configDir, 'job', async () => 'twice'));
    expect(inner).toEqual({ claimed: true, value: { claimed: false } });
    expect(await withJobLock(configDir, 'job', async () => 'again')).toEqual({ claimed: true, value: 'again' });
    expect(await withJobLock(configDir, 'other', async () => 'independent')).toEqual({ claimed: true, value: 'independent' });
  });

  it('releases the claim when the function throws, and passes the error on', async () => {
    const configDir = tempDir();
    await expect(withJobLock(configDir, 'job', async () => {
      throw new Error('hook exploded');
    })).rejects.toThrow('hook exploded');
    expect(existsSync(lockDir(configDir, 'job'))).toBe(false);
    expect(await withJobLock(configDir, 'job', async () => 'next')).toEqual({ claimed: true, value: 'next' });
  });

  it('reports a lock it cannot create as an error, not as a claim held by someone else', async () => {
    const configDir = tempDir();
    await expect(withJobLock(configDir, 'x'.repeat(300), async () => 'never')).rejects.toMatchObject({ code: 'ENAMETOOLONG' });
  });

  it('returns what the function gave when the lock was lost meanwhile, and leaves the lock that took its place', async () => {
    const configDir = tempDir();
    const claim = await withJobLock(configDir, 'job', async () => {
      // Released under us (as the library does once it finds the lock compromised), then taken by another claimant.
      lockfile.unlockSync(jobPath(configDir, 'pending', 'job'), { realpath: false, lockfilePath: lockDir(configDir, 'job') });
      mkdirSync(lockDir(configDir, 'job'));
      return 'ran';
    });
    expect(claim).toEqual({ claimed: true, value: 'ran' });
    expect(existsSync(lockDir(configDir, 'job'))).toBe(true);
  });

  it('lets exactly one of two processes contending for a job run it', async () => {
    const configDir = tempDir();
    const marks = tempDir();
    const holders = [startHolder(configDir, 'job', marks, 'a'), startHolder(configDir, 'job', marks, 'b')];
    // The refused one exits at once; the winner holds the claim until told to release it.
    const first = await Promise.race(holders.map((h) => h.done));
    await eventually(() => existsSync(join(marks, 'a.held')) || existsSync(join(marks, 'b.held')), 10_000, 'the winner to hold the claim');
    writeFileSync(join(marks, 'release'), '');
    const results = await Promise.all(holders.map((h) => h.done));
    const claims = results.map((r) => JSON.parse(r.out));
    expect(JSON.parse(first.out)).toEqual({ claimed: false });
    expect(claims.filter((c) => c.claimed)).toHaveLength(1);
    const winner = claims.find((c) => c.claimed).value as string;
    expect(claims).toContainEqual({ claimed: false });
    expect([existsSync(join(marks, 'a.held')), existsSync(join(marks, 'b.held'))]).toEqual([winner === 'a', winner === 'b']);
  });

  it('keeps a live holder\'s lock fresh, and takes over a dead holder\'s lock once it is stale', async () => {
    const configDir = tempDir();
    const marks = tempDir();
    const holder = startHolder(configDir, 'job', marks, 'holder', SHORT_STALE_MS);
    await eventually(() => existsSync(join(marks, 'holder.held')), 10_000, 'the holder to hold the claim');
    expect(await withJobLock(configDir, 'job', async () => 'stolen', SHORT_STALE_MS)).toEqual({ claimed: false });
    const heldSince = statSync(lockDir(configDir, 'job')).mtimeMs;
    await eventually(() => statSync(lockDir(configDir, 'job')).mtimeMs > heldSince, 10_000, 'the holder to refresh its lock');

    holder.child.kill('SIGKILL');
    expect((await holder.done).signal).toBe('SIGKILL');
    expect(existsSync(lockDir(configDir, 'job'))).toBe(true); // a killed holder cannot release
    let taken = await withJobLock(configDir, 'job', async () => 'taken over', SHORT_STALE_MS);
    for (const deadline = Date.now() + 10_000; !taken.claimed && Date.now() < deadline;) {
      await new Promise((r) => setTimeout(r, 50)); // poll interval; the deadline bounds the wait
      taken = await withJobLock(configDir, 'job', async () => 'taken over', SHORT_STALE_MS);
    }
    expect(taken).toEqual({ claimed: true, value: 'taken over' });
    expect(existsSync(lockDir(configDir, 'job'))).toBe(false);
  });
});
