// A drain's or a firing's run history, appended per hook in batches rather
// than one synchronous append per run: the event loop stays free for
// spawning, and the history directory is checked once per batch.

import type { Hook } from '../core/config.js';
import { type RunEntry, recordRunsOfHooks } from '../state/history.js';

const FLUSH_AT = 64;

export class HistoryBatch {
  private readonly pending = new Map<Hook, (Omit<RunEntry, 'at'> & { at: Date })[]>();
  private count = 0;
  private timer: NodeJS.Timeout | undefined;

  /** timer false: no flush timer (a firing flushes once, when its chain ends). */
  constructor(private readonly configDir: string, private readonly timed = true) {}

  add(hook: Hook, entry: Omit<RunEntry, 'at'>): void {
    const list = this.pending.get(hook) ?? [];
    if (list.length === 0) this.pending.set(hook, list);
    list.push({ ...entry, at: new Date() });
    if (++this.count >= FLUSH_AT) this.flush();
    // A watcher may idle for long: what ran is in the history within a second.
    else if (this.timed) this.timer ??= setTimeout(() => this.flush(), 1000).unref();
  }

  flush(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    recordRunsOfHooks(this.configDir, this.pending);
    this.pending.clear();
    this.count = 0;
  }
}
