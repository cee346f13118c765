// Run logs under <config_dir>/hooks/logs/: their names, their text, owner-only
// writes that never overwrite, and the seven-day prune of our own files only.
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ProcessOutcome } from '../../src/core/outcome.js';
import { LOG_COPY_CHARS, LOG_RETENTION_MS, formatLog, logCopy, logName, logsDir, newRunId, pruneLogs, writeLog } from '../../src/run/logs.js';
import { toRecord } from '../../src/run/spawn.js';
import { testHook } from '../helpers/hook.js';

const temp = (): string => mkdtempSync(join(tmpdir(), 'chrys-logs-'));

const outcome = (over: Partial<ProcessOutcome> = {}): ProcessOutcome => ({
  argv: ['x'], cwd: '/w', exitCode: 0, signal: null, timedOut: false, cancelled: false, killedFromOutside: false,
  stdout: '', stderr: '', stdoutTruncated: false, stderrTruncated: false, stdoutTail: '', stderrTail: '', durationMs: 12, resultFile: { state: 'empty' }, ...over,
});

describe('run ids and log names', () => {
  it('starts a run id with the time in base 36, then 8 random hex digits', () => {
    const at = new Date(1_700_000_000_000);
    const id = newRunId(at);
    expect(id).toMatch(new RegExp(`^${at.getTime().toString(36)}-[0-9a-f]{8}$`));
    expect(newRunId(at)).not.toBe(id);
    expect(newRunId()).toMatch(/^[0-9a-z]+-[0-9a-f]{8}$/);
  });

  it('names a log after the run and the hook id, made safe and at most 80 characters of it', () => {
    expect(logName('r1', 'fmt.py-v2_x')).toBe('r1-fmt.py-v2_x.log');
    expect(logName('r1', 'a b//c')).toBe('r1-a_b_c.log');
    expect(logName('r1', '../up')).toBe('r1-.._up.log');
    expect(logName('r1', 'x'.repeat(100))).toBe(`r1-${'x'.repeat(80)}.log`);
  });

  it('keeps the logs in hooks/logs of the config dir', () => {
    expect(logsDir('/c')).toBe(join('/c', 'hooks', 'logs'));
  });
});

describe('formatLog', () => {
  it('heads the log with the hook, its status, exit, signal and duration, then stdout and stderr', () => {
    const record = toRecord(outcome({ exitCode: 3, stdout: 'out\n', stderr: 'err\n' }));
    const hook = testHook({ id: 'fmt', source: 'project', event: 'after_tool_call', execution: { mode: 'async' } });
    expect(formatLog(hook, record)).toBe('# hook fmt (project, after_tool_call) failed exit=3 signal=- 12 ms: exited with status 3\n## stdout\nout\n\n## stderr\nerr\n\n');
  });

  it('shows a missing exit status and the signal as they are', () => {
    const record = toRecord(outcome({ exitCode: null, signal: 'SIGKILL', killedFromOutside: true }));
    expect(formatLog(testHook(), record).split('\n')[0]).toBe('# hook h (global, before_tool_call) failed exit=- signal=SIGKILL 12 ms: was killed by SIGKILL');
  });

  it('lists the decision keys a non-blocking hook returned in vain, then the notes given', () => {
    const hook = testHook({ id: 'bg', execution: { mode: 'async' } });
    const record = toRecord(outcome({ resultFile: { state: 'json', value: { action: 'block', other: 1 as never } } }));
    const lines = formatLog(hook, record, [{ code: 'hook_failed', message: 'a note' }]).split('\n');
    expect(lines[0]).toBe('# hook bg (global, before_tool_call) ok exit=0 signal=- 12 ms');
    expect(lines[1]).toMatch(/^# decision_ignored: hook "bg" is async: its decision \(action\) is ignored/);
    expect(lines[2]).toBe('# hook_failed: a note');
    expect(lines[3]).toBe('## stdout');
  });

  it('notes an error after the start on a line of its own, before the output', () => {
    const record = toRecord(outcome({ errorAfterSpawn: 'onSpawn: cannot note the pid' }));
    expect(formatLog(testHook({ execution: { mode: 'async' } }), record)).toBe('# hook h (global, before_tool_call) ok exit=0 signal=- 12 ms\n# after it started: onSpawn: cannot note the pid\n## stdout\n\n## stderr\n\n');
  });

  it('has no ignored keys for a result that is not JSON', () => {
    const record = toRecord(outcome({ resultFile: { state: 'invalid', reason: 'r' } }));
    expect(formatLog(testHook({ execution: { mode: 'async' } }), record)).toBe('# hook h (global, before_tool_call) ok exit=0 signal=- 12 ms\n## stdout\n\n## stderr\n\n');
  });
});

describe('writing a log', () => {
  it('writeLog creates hooks/logs and an owner-only file, and never overwrites one', () => {
    const config = temp();
    const path = writeLog(config, 'r-h.log', 'text');
    expect(path).toBe(join(config, 'hooks', 'logs', 'r-h.log'));
    expect(readFileSync(path!, 'utf8')).toBe('text');
    expect(statSync(path!).mode & 0o777).toBe(0o600);
    expect(statSync(join(config, 'hooks', 'logs')).mode & 0o777).toBe(0o700);
    expect(writeLog(config, 'r-h.log', 'again')).toBeUndefined();
    expect(readFileSync(path!, 'utf8')).toBe('text');
  });

  it('writeLog returns undefined when the logs directory cannot be made', () => {
    const config = temp();
    mkdirSync(join(config, 'hooks'));
    writeFileSync(join(config, 'hooks', 'logs'), 'a file, not a directory');
    expect(writeLog(config, 'r-h.log', 'text')).toBeUndefined();
  });
});

describe('pruneLogs', () => {
  const id = '1a2b3c-0123abcd';
  const setUp = (): { config: string; dir: string; age: (name: string, ms: number) => void } => {
    const config = temp();
    const dir = join(config, 'hooks', 'logs');
    mkdirSync(dir, { recursive: true });
    const age = (name: string, ms: number): void => {
      writeFileSync(join(dir, name), '');
      const at = new Date(Date.now() - ms);
      utimesSync(join(dir, name), at, at);
    };
    return { config, dir, age };
  };

  it('deletes only our own run logs and payloads older than the retention', () => {
    const { config, dir, age } = setUp();
    const old = LOG_RETENTION_MS + 3600_000;
    age(`${id}-h.log`, old);
    age(`${id}.payload.json`, old);
    age(`${id}-fresh.log`, LOG_RETENTION_MS - 3600_000);
    age('notes.log', old);
    age(`${id}-h.log.bak`, old);
    age(`Z.${id}-h.log`, old);
    age(`${id}.json`, old);
    age('1a2b3c-0123abc-h.log', old);
    pruneLogs(config);
    expect(readdirSync(dir).sort()).toEqual([`${id}-fresh.log`, `${id}-h.log.bak`, `${id}.json`, '1a2b3c-0123abc-h.log', `Z.${id}-h.log`, 'notes.log'].sort());
  });

  it('keeps a file whose time is exactly the cut-off and deletes an older one', () => {
    const { config, dir } = setUp();
    const cutOff = Math.floor(Date.now() / 1000) * 1000 - 60_000;
    for (const [name, at] of [[`${id}-edge.log`, cutOff], [`${id}-older.log`, cutOff - 1000]] as const) {
      writeFileSync(join(dir, name), '');
      utimesSync(join(dir, name), new Date(at), new Date(at));
    }
    pruneLogs(config, cutOff);
    expect(readdirSync(dir)).toEqual([`${id}-edge.log`]);
    pruneLogs(config, cutOff + 1);
    expect(readdirSync(dir)).toEqual([]);
  });

  it('keeps our files for seven days: one six days old stays, one eight days old goes', () => {
    const { config, dir, age } = setUp();
    const DAY = 86_400_000;
    age(`${id}-six.log`, 6 * DAY);
    age(`${id}-eight.log`, 8 * DAY);
    pruneLogs(config);
    expect(readdirSync(dir)).toEqual([`${id}-six.log`]);
  });

  it("deletes an old detached run's script copy, a directory, with what it holds", () => {
    const { config, dir } = setUp();
    mkdirSync(join(dir, `${id}.script`, 'scripts'), { recursive: true });
    writeFileSync(join(dir, `${id}.script`, 'scripts', 'a.sh'), 'echo\n');
    utimesSync(join(dir, `${id}.script`), new Date(0), new Date(0));
    pruneLogs(config);
    expect(readdirSync(dir)).toEqual([]);
  });

  it('passes over what it cannot delete and does nothing without a logs directory', () => {
    const { config, dir, age } = setUp();
    mkdirSync(join(dir, `${id}-a.log`));
    utimesSync(join(dir, `${id}-a.log`), new Date(0), new Date(0));
    age(`${id}-b.log`, LOG_RETENTION_MS * 2);
    pruneLogs(config);
    expect(readdirSync(dir)).toEqual([`${id}-a.log`]);
    expect(() => pruneLogs(temp())).not.toThrow();
  });
});

describe('logCopy (the part of a log a PostgreSQL drain files with the job)', () => {
  it('keeps a log that fits as it is', () => {
    const text = '# hook a (global, after_turn) ok\n## stdout\nhi\n## stderr\n\n';
    expect(logCopy(text)).toBe(text);
    expect(logCopy('x'.repeat(LOG_COPY_CHARS))).toBe('x'.repeat(LOG_COPY_CHARS));
  });

  it('cuts a longer one to the limit: its first 4 KiB, a line saying how much went, its end', () => {
    const text = `${'h'.repeat(5000)}${'m'.repeat(100_000)}${'t'.repeat(70_000)}`;
    const copy = logCopy(text);
    expect(copy.length).toBeLessThanOrEqual(LOG_COPY_CHARS);
    expect(copy.length).toBeGreaterThan(LOG_COPY_CHARS - 10);
    const [head, cut, tail] = copy.split('\n');
    expect(head).toBe('h'.repeat(4096));
    expect(tail).toBe(text.slice(text.length - tail!.length));
    expect(cut).toBe(`[... ${text.length - 4096 - tail!.length} characters cut ...]`);
  });

  it('with a small limit keeps a quarter of it as the head', () => {
    expect(logCopy('abcdefghijklmnopqrstuvwxyz0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ', 40)).toBe('abcdefghij\n[... 51 characters cut ...]\nZ');
  });

  it('never cuts through a surrogate pair, at either end', () => {
    const emoji = '\u{1F600}';
    for (const at of [4095, 4096]) {
      const text = `${'a'.repeat(at)}${emoji.repeat(40_000)}`;
      const copy = logCopy(text);
      expect(copy.length).toBeLessThanOrEqual(LOG_COPY_CHARS);
      expect(copy).not.toMatch(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/);
    }
  });
});
