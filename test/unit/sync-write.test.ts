// fs.writeSync(1) for the decision (src/cli/sync-write.ts, output.ts emit
// with sync): partial writes on a full non-blocking pipe, EPIPE and a full
// disk, through real pipes, /dev/full and child processes.
import { execFileSync, spawnSync } from 'node:child_process';
import { closeSync, constants, mkdtempSync, openSync, readSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildSync } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeAllSync } from '../../src/cli/sync-write.js';

let dir: string;
let bundle: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'sync-write-'));
  bundle = join(dir, 'output.cjs');
  buildSync({ entryPoints: ['src/cli/output.ts'], bundle: true, format: 'cjs', platform: 'node', outfile: bundle, logLevel: 'silent' });
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A child that emits `bytes` bytes of decision with sync writes; prints its exit code on stderr's last line. */
const emitter = (bytes: number): string =>
  `const o = require(${JSON.stringify(bundle)}); process.exitCode = o.emit({ stdout: 'x'.repeat(${bytes}), stderr: ['done'], exitCode: 3 }, { sync: true });`;

/** Runs python3 `code` with NODE, CHILD (the node -e code) set; returns its stdout as JSON. */
const py = (code: string, child: string): Record<string, unknown> =>
  JSON.parse(execFileSync('python3', ['-c', code], { encoding: 'utf8', env: { ...process.env, NODE: process.execPath, CHILD: child } }));

describe('writeAllSync', () => {
  it('writes what a full non-blocking pipe takes and hands back the rest, without spinning', () => {
    const fifo = join(dir, 'fifo');
    execFileSync('mkfifo', [fifo]);
    const r = openSync(fifo, constants.O_RDONLY | constants.O_NONBLOCK);
    const w = openSync(fifo, constants.O_WRONLY | constants.O_NONBLOCK);
    try {
      const data = Buffer.alloc(1024 * 1024, 'y');
      const out = writeAllSync(w, data);
      expect(out.done).toBe(false);
      if (out.done || !('rest' in out)) throw new Error('expected a rest');
      expect(out.rest.length).toBeGreaterThan(0);
      expect(out.rest.length).toBeLessThan(data.length);
      const got = Buffer.alloc(data.length);
      let n = 0;
      for (;;) {
        try {
          const k = readSync(r, got, n, got.length - n, null);
          if (k === 0) break;
          n += k;
        } catch {
          break; // EAGAIN: drained
        }
      }
      expect(n + out.rest.length).toBe(data.length);
    } finally {
      closeSync(w);
      closeSync(r);
    }
  });

  it('reports EPIPE when the reader is gone', () => {
    const out = py(
      `import json, os, subprocess
r, w = os.pipe()
os.close(r)
p = subprocess.run([os.environ["NODE"], "-e", os.environ["CHILD"]], stdout=w, stderr=subprocess.PIPE)
print(json.dumps({"code": p.returncode, "stderr": p.stderr.decode()}))`,
      emitter(10),
    );
    expect(out.code).toBe(74);
    expect(out.stderr).toBe('chrys-hooks: cannot write to stdout: EPIPE\ndone\n');
  });
});

describe('emit with sync writes', () => {
  it('writes a decision larger than the pipe to a non-blocking pipe whole, through the stream for the rest', () => {
    const out = py(
      `import json, os, subprocess, time
r, w = os.pipe()
os.set_blocking(w, False)
p = subprocess.Popen([os.environ["NODE"], "-e", os.environ["CHILD"]], stdout=w, stderr=subprocess.PIPE)
os.close(w)
time.sleep(0.5)
data = b""
while True:
    chunk = os.read(r, 65536)
    if not chunk:
        break
    data += chunk
err = p.stderr.read().decode()
print(json.dumps({"code": p.wait(), "bytes": len(data), "xs": data.count(b"x"), "stderr": err}))`,
      emitter(600_000),
    );
    expect(out).toEqual({ code: 3, bytes: 600_001, xs: 600_000, stderr: 'done\n' });
  });

  it('exits 74 with one line on stderr on a full disk (/dev/full)', () => {
    const full = openSync('/dev/full', 'w');
    try {
      const r = spawnSync(process.execPath, ['-e', emitter(10)], { stdio: ['ignore', full, 'pipe'], encoding: 'utf8' });
      expect(r.status).toBe(74);
      expect(r.stderr).toBe('chrys-hooks: cannot write to stdout: ENOSPC\ndone\n');
    } finally {
      closeSync(full);
    }
  });

  it('writes a small decision to a pipe without creating process.stdout', () => {
    const code = `const o = require(${JSON.stringify(bundle)}); o.emit({ stdout: '{}', exitCode: 0 }, { sync: true }); require('fs').writeSync(2, String(process.moduleLoadList.includes('NativeModule net')));`;
    const r = spawnSync(process.execPath, ['-e', code], { encoding: 'utf8' });
    expect(r.stdout).toBe('{}\n');
    expect(r.stderr).toBe('false');
  });
});
