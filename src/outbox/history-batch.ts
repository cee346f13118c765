// A drain's run history, appended per hook in batches rather than one
// synchronous append per job, so the event loop stays free for spawning.

import type { Hook } from '../core/config.js';
import { type RunEntry, recordRuns } from '../state/history.js';

const FLUSH_AT = 64;

export class HistoryBatch {
  private readonly pending = new Map<Hook, (Omit<RunEntry, 'at'> & { at: Date })[]>();
  private count = 0;
  private timer: NodeJS.Timeout | undefined;
  constructor(private readonly configDir: string) {}

  add(hook: Hook, entry: Omit<RunEntry, 'at'>): void {
    const list = this.pending.get(hook) ?? [];
    if (list.length === 0) this.pending.set(hook, list);
    list.push({ ...entry, at: new Date() });
    if (++this.count >= FLUSH_AT) this.flush();
    // A watcher may idle for long: what ran is in the history within a second.
    else this.timer ??= setTimeout(() => this.flush(), 1000).unref();
  }

  flush(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    for (const [hook, entries] of this.pending) recordRuns(this.configDir, hook, entries);
    this.pending.clear();
    this.count = 0;
  }
}
