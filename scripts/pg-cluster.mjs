// A throw-away PostgreSQL cluster for the outbox's tests and benches: initdb
// in a temp dir, pg_ctl start on 127.0.0.1 at a free port, a password login
// (so a wrong password can be tested), torn down by stop(). PostgreSQL refuses
// to run as root, so as root the cluster runs as the `postgres` system user
// (made by Debian's package; CHRYS_PG_USER names another), through runuser.
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chmodSync, chownSync, existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** The directory holding initdb and pg_ctl: $CHRYS_PG_BIN, else the newest /usr/lib/postgresql/N/bin; undefined when none. */
export function findPgBin() {
  if (process.env.CHRYS_PG_BIN) return process.env.CHRYS_PG_BIN;
  const root = '/usr/lib/postgresql';
  if (!existsSync(root)) return undefined;
  const versions = readdirSync(root).filter((v) => existsSync(join(root, v, 'bin', 'initdb'))).sort((a, b) => Number(b) - Number(a));
  return versions[0] === undefined ? undefined : join(root, versions[0], 'bin');
}

function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

function userIds(name) {
  const out = execFileSync('id', ['-u', name], { encoding: 'utf8' }).trim();
  return { uid: Number(out), gid: Number(execFileSync('id', ['-g', name], { encoding: 'utf8' }).trim()) };
}

/**
 * Starts a cluster. `durable: false` turns fsync off (tests); the bench keeps it on.
 * Returns { url, port, password, dir, stop(), restart(), pgStop(), pgStart() }.
 */
export async function startCluster({ durable = false } = {}) {
  const bin = findPgBin();
  if (!bin) throw new Error('no PostgreSQL binaries (initdb, pg_ctl): install Debian\'s postgresql package or set CHRYS_PG_BIN');
  const dir = mkdtempSync(join(tmpdir(), 'chrys-pg-'));
  chmodSync(dir, 0o700);
  const asRoot = process.getuid?.() === 0;
  const owner = asRoot ? userIds(process.env.CHRYS_PG_USER ?? 'postgres') : undefined;
  const run = (cmd, args) => {
    const argv = asRoot ? ['runuser', '-u', process.env.CHRYS_PG_USER ?? 'postgres', '--', join(bin, cmd), ...args] : [join(bin, cmd), ...args];
    return execFileSync(argv[0], argv.slice(1), { cwd: dir, stdio: ['ignore', 'pipe', 'pipe'], encoding: 'utf8' });
  };
  const password = randomBytes(12).toString('hex');
  const pwfile = join(dir, 'pw');
  writeFileSync(pwfile, password + '\n', { mode: 0o600 });
  if (owner) {
    chownSync(dir, owner.uid, owner.gid);
    chownSync(pwfile, owner.uid, owner.gid);
  }
  const data = join(dir, 'data');
  run('initdb', ['-D', data, '-U', 'chrys', '--auth=scram-sha-256', `--pwfile=${pwfile}`, '-E', 'UTF8', '--no-sync', '--locale=C']);
  rmSync(pwfile);
  const port = await freePort();
  const options = `-p ${port} -h 127.0.0.1 -k ${dir} -c max_connections=200${durable ? '' : ' -c fsync=off -c synchronous_commit=off -c full_page_writes=off'}`;
  const pgStart = () => run('pg_ctl', ['-D', data, '-w', '-t', '60', '-l', join(dir, 'log'), '-o', options, 'start']);
  const pgStop = (mode = 'fast') => run('pg_ctl', ['-D', data, '-w', '-m', mode, 'stop']);
  pgStart();
  const env = { ...process.env, PGPASSWORD: password };
  execFileSync(join(bin, 'createdb'), ['-h', '127.0.0.1', '-p', String(port), '-U', 'chrys', 'chrys'], { env, stdio: 'pipe' });
  let stopped = false;
  let databases = 0;
  return {
    /** A fresh, empty database in the cluster (one per test keeps tests apart). */
    newDatabase: () => {
      const name = `chrys_${++databases}`;
      execFileSync(join(bin, 'createdb'), ['-h', '127.0.0.1', '-p', String(port), '-U', 'chrys', name], { env, stdio: 'pipe' });
      return `postgres://chrys:${password}@127.0.0.1:${port}/${name}`;
    },
    url: `postgres://chrys:${password}@127.0.0.1:${port}/chrys`,
    port,
    password,
    dir,
    pgStart,
    pgStop,
    /** A database restart: the server goes away and comes back on the same port. */
    restart: () => {
      pgStop('fast');
      pgStart();
    },
    stop: () => {
      if (stopped) return;
      stopped = true;
      try {
        pgStop('immediate');
      } catch {
        // already stopped
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
