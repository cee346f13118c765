// The bundled examples do what the README says, on a copy of examples/.
import { execa } from 'execa';
import { cpSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useSandbox } from '../helpers/sandbox.js';

const sandbox = useSandbox();

describe('examples/', () => {
  it('blocks .env writes, rewrites shell args, reminds on prompts, and queues a follow-up that drain-outbox delivers once', async () => {
    const s = sandbox();
    // Without the runtime folders a local `npm run demo` may have left behind.
    const runtime = /[\\/]hooks[\\/](tmp|state|logs|outbox)$/;
    cpSync(resolve('examples'), join(s.root, 'examples'), { recursive: true, filter: (src) => !runtime.test(src) });
    const config = join(s.root, 'examples', 'global');
    const work = join(s.root, 'examples', 'workspace');
    const fireRaw = async (file: string) => {
      const r = await s.runRaw(['fire', '--config-dir', config, '--cwd', work, '--project-hooks', '--input', join(s.root, 'examples', 'envelopes', file)]);
      expect(r.exitCode, r.stderr).toBe(0);
      return r.stdout;
    };
    const fire = async (file: string) => JSON.parse(await fireRaw(file));
    expect(await fire('write-env.json')).toMatchObject({ blocked: true, blocked_by: { id: 'protect-env', source: 'project' }, reason: expect.stringContaining('config/.env') });
    const rewrittenText = await fireRaw('run-script.json');
    expect(JSON.parse(rewrittenText).args).toEqual({ command: './scripts/migrate.sh', timeout: 1, dry_run: true });
    // The envelope's spelling of 1.0 survives the rewrite (JSON.parse would hide it).
    expect(rewrittenText).toContain('"timeout": 1.0,');
    expect((await fire('prompt.json')).system_reminders).toEqual([expect.stringContaining('House rules')]);

    const queued = await fire('conversation-done.json');
    expect(queued.hooks).toMatchObject([{ id: 'post-task-follow-up', status: 'queued' }]);
    expect((await fire('conversation-done.json')).hooks).toMatchObject([{ status: 'skipped' }]);
    const pending = join(config, 'hooks', 'outbox', 'pending');
    const [file] = readdirSync(pending);
    const job = JSON.parse(readFileSync(join(pending, file!), 'utf8'));
    expect(Date.parse(job.due_at) - Date.parse(job.created_at)).toBe(10_000);

    const drain = async () => JSON.parse((await s.runRaw(['drain-outbox', '--json', '--config-dir', config])).stdout);
    expect((await drain()).skipped.not_due).toBe(1);
    // Ten seconds pass (without making the test wait them).
    const past = (ms: number) => new Date(Date.now() - ms).toISOString();
    writeFileSync(join(pending, file!), JSON.stringify({ ...job, created_at: past(20_000), due_at: past(10_000) }));
    expect(await drain()).toMatchObject({ ran: 1, done: 1 });
    expect(await drain()).toMatchObject({ considered: 0 });
    const followUps = readFileSync(join(config, 'hooks', 'logs', 'follow-ups.jsonl'), 'utf8').trim().split('\n');
    expect(followUps).toHaveLength(1);
    expect(JSON.parse(followUps[0]!)).toMatchObject({ session_id: 'demo-session', prompt: expect.stringContaining('The task is finished') });
  });
});

describe('npm run demo', () => {
  it('prints commands that, pasted into a shell, give the decisions it printed', async () => {
    const s = sandbox();
    const copy = join(s.root, 'checkout');
    const runtime = /[\\/]hooks[\\/](tmp|state|logs|outbox)$/;
    for (const dir of ['bin', 'dist', 'scripts', 'examples']) cpSync(resolve(dir), join(copy, dir), { recursive: true, filter: (src) => !runtime.test(src) });
    cpSync(resolve('package.json'), join(copy, 'package.json'));
    const env = { PATH: process.env.PATH ?? '', HOME: s.home };
    const demo = await execa(process.execPath, ['scripts/demo.mjs'], { cwd: copy, env, extendEnv: false });
    const sections = demo.stdout.split('\n### ').slice(1);
    expect(sections).toHaveLength(4);
    for (const section of sections) {
      const [, command, ...output] = section.split('\n');
      expect(command).toMatch(/^\$ bin\/chrys-hooks fire .* < examples\/envelopes\/[\w-]+\.json$/);
      const printed = JSON.parse(output.join('\n').split('\nIn 15 s')[0]!);
      const pasted = await execa('bash', ['-c', command!.slice(2)], { cwd: copy, env, extendEnv: false });
      const decision = JSON.parse(pasted.stdout);
      for (const key of ['event', 'blocked', 'reason', 'args', 'system_reminders']) expect(decision[key], `${command} ${key}`).toEqual(printed[key]);
    }
    expect(sections[0]).toContain('"blocked": true');
    expect(demo.stdout).toContain('$ bin/chrys-hooks drain-outbox --config-dir examples/global');
  });
});
