// Every temp dir the tests make (mkdtemp under os.tmpdir(), the sandboxes, the
// hooks' own fallbacks) goes under one directory of this run, removed when the
// run ends: tests that are killed or fail halfway leave nothing in /tmp. The
// workers inherit TMPDIR, and os.tmpdir() reads it on every call. 0755, not
// mkdtemp's 0700: some tests run a hook as another local user.
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export default function setup(): () => void {
  // Once per run, though each project of the config runs its global set-up.
  if (process.env.CHRYS_TEST_TMPDIR !== undefined) return () => {};
  const before = process.env.TMPDIR;
  const root = mkdtempSync(join(tmpdir(), 'chrys-tests-'));
  chmodSync(root, 0o755);
  process.env.TMPDIR = process.env.CHRYS_TEST_TMPDIR = root;
  return () => {
    rmSync(root, { recursive: true, force: true });
    // A watch-mode rerun sets up again from the machine's temp dir, not the removed one.
    if (before === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = before;
    delete process.env.CHRYS_TEST_TMPDIR;
  };
}
