// The configs, envelopes and files the benchmark runs against, in a temp dir.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export const envelope = JSON.stringify({ event: 'before_tool_call', tool: { name: 'edit_file', args: { path: 'src/a.ts' } } });

const blockingHook = (i, event = 'before_tool_call', execution = '{ mode: blocking }') =>
  `  - id: h${i}\n    event: ${event}\n    match: { tool_name: edit_file }\n    run: { type: command, argv: [/bin/true] }\n    execution: ${execution}\n`;

export function makeFixtures(root) {
  const work = join(root, 'work');
  mkdirSync(work);
  const config = (name, hooks, settings = '') => {
    const dir = join(root, name);
    mkdirSync(join(dir, 'hooks'), { recursive: true });
    if (hooks.length > 0) writeFileSync(join(dir, 'hooks', 'hooks.yaml'), `${settings}hooks:\n${hooks.join('')}`);
    return dir;
  };
  const n = (count, f) => Array.from({ length: count }, (_, i) => f(i));
  const bigFile = join(root, 'h1000.yaml');
  writeFileSync(bigFile, 'hooks:\n' + n(1000, (i) =>
    `  - id: h${i}\n    event: before_tool_call\n    match:\n      tool_name: t${i}\n      args:\n        path: { regex: '\\.env$' }\n    run:\n      type: command\n      argv: [/bin/true]\n    execution:\n      mode: blocking\n      timeout_seconds: 5\n`).join(''));
  const lefthookDir = join(root, 'lefthook');
  mkdirSync(lefthookDir);
  const lefthookConfig = (name, count) => `${name}:\n  piped: true\n  commands:\n${n(count, (i) => `    c${i}:\n      run: /bin/true\n`).join('')}`;
  writeFileSync(join(lefthookDir, 'lefthook.yml'), lefthookConfig('bench1', 1) + lefthookConfig('bench10', 10));
  return {
    work,
    bigFile,
    lefthookDir,
    none: config('none', []),
    other50: config('other50', n(50, (i) => blockingHook(i, 'after_tool_call'))),
    uncached50: config('uncached50', n(50, (i) => blockingHook(i, 'after_tool_call'))),
    one: config('one', [blockingHook(0)]),
    ten: config('ten', n(10, (i) => blockingHook(i))),
    asyncBestEffort: config('async-be', [blockingHook(0, 'before_tool_call', '{ mode: async }')]),
    asyncDurable: config('async-durable', [blockingHook(0, 'before_tool_call', '{ mode: async, delivery: durable }')]),
    drain: config('drain', [blockingHook(0, 'before_tool_call', '{ mode: async, delivery: durable }')], 'settings:\n  max_parallel_hooks: 4\n  outbox_retry_age_seconds: 0\n'),
  };
}

/** 1,000 due jobs of /bin/true in the drain config's outbox. */
export function queueJobs(dir, work, count = 1000) {
  const pending = join(dir, 'hooks', 'outbox', 'pending');
  mkdirSync(pending, { recursive: true });
  const old = new Date(Date.now() - 3600_000).toISOString();
  for (let i = 0; i < count; i++) {
    const id = `job-${String(i).padStart(4, '0')}`;
    writeFileSync(join(pending, `${id}.json`), JSON.stringify({
      job_id: id, hook_id: 'h0', event: 'before_tool_call', payload: { event: 'before_tool_call', cwd: work }, created_at: old,
      hook_source: 'global', hook_source_path: join(dir, 'hooks', 'hooks.yaml'), state: 'pending', retries: 0,
      last_started_at: null, last_finished_at: null, exit_code: null, error: null, stderr_tail: null,
    }));
  }
}
