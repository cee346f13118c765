// One blocking test hook with every default filled in, for unit tests of the
// pure core; override what the test is about.
import type { Execution, Hook } from '../../src/core/config.js';

export function testHook(overrides: Partial<Omit<Hook, 'execution'>> & { execution?: Partial<Execution> } = {}): Hook {
  const { execution, ...rest } = overrides;
  return {
    id: 'h',
    event: 'before_tool_call',
    enabled: true,
    description: '',
    match: undefined,
    run: { type: 'command', argv: ['true'], args: [], env: {}, cwd: '' },
    source: 'global',
    file: '/x/hooks.yaml',
    index: 0,
    ...rest,
    execution: { mode: 'blocking', detach: false, delivery: 'best_effort', timeout_seconds: 30, on_error: 'warn', delay_seconds: 0, once_per_session: false, ...execution },
  };
}
