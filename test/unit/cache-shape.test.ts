// A cache entry of a valid hooks file must pass the shape check that `fire`
// applies to it, or that file is parsed again on every firing.
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { isCachedFile } from '../../src/config/cache-shape.js';
import { loadHooksFile } from '../../src/config/hooks-file.js';
import { AGENT_PROTOCOLS } from '../../src/core/protocols/names.js';

describe('the hooks-file cache shape', () => {
  it.each(['chrys', ...AGENT_PROTOCOLS])('accepts the entry of a hook with run.protocol: %s', async (protocol) => {
    const dir = mkdtempSync(join(tmpdir(), 'chrys-cache-shape-'));
    const path = join(dir, 'hooks.yaml');
    writeFileSync(path, `hooks:\n  - id: h\n    event: before_tool_call\n    run:\n      type: command\n      argv: [./h.sh]\n      protocol: ${protocol}\n`);
    const cache = join(dir, 'cache');
    const load = await loadHooksFile(path, 'global', { cache });
    expect(load.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
    const [entry] = readdirSync(cache);
    const written = JSON.parse(readFileSync(join(cache, entry!), 'utf8')) as { value: unknown };
    expect(isCachedFile(written.value)).toBe(true);
  });
});
