// The one bounded worker pool: the detached worker runs a firing's hooks
// through it, a drain its queue of due jobs (fed by one pass after another).
// At most limit() tasks run at once; the limit is asked each time a slot frees,
// so a drain that reloads its settings between passes follows the new value.

export class TaskPool<T> {
  private readonly queue: T[] = [];
  private active = 0;
  private stopping = false;
  private failure: { error: unknown } | undefined;
  private idleWaiters: { resolve: () => void; reject: (e: unknown) => void }[] = [];

  constructor(
    private readonly run: (item: T) => Promise<void>,
    private readonly limit: () => number,
    /** Told each task's item once it ended (and its slot is free), before the next one starts. */
    private readonly onSettled?: (item: T) => void,
  ) {}

  /** Tasks running now. */
  get running(): number {
    return this.active;
  }

  /** Tasks queued and not started. */
  get waiting(): number {
    return this.queue.length;
  }

  push(...items: T[]): void {
    this.queue.push(...items);
    this.pump();
  }

  private pump(): void {
    while (!this.stopping && this.queue.length > 0 && this.active < this.limit()) this.start(this.queue.shift()!);
    if (this.isIdle()) this.wakeIdle();
  }

  private start(item: T): void {
    this.active++;
    void this.run(item)
      .catch((error: unknown) => void (this.failure ??= { error }))
      .finally(() => {
        this.active--;
        this.onSettled?.(item);
        this.pump();
      });
  }

  private isIdle(): boolean {
    return this.active === 0 && (this.queue.length === 0 || this.stopping);
  }

  private wakeIdle(): void {
    const waiters = this.idleWaiters;
    this.idleWaiters = [];
    for (const w of waiters) {
      if (this.failure) w.reject(this.failure.error);
      else w.resolve();
    }
  }

  /** Resolves when nothing runs (and, unless stopped, nothing waits); rejects with the first task that threw. */
  idle(): Promise<void> {
    return new Promise((resolve, reject) => {
      this.idleWaiters.push({ resolve, reject });
      if (this.isIdle()) this.wakeIdle();
    });
  }

  /** Starts nothing new; returns the tasks that were waiting, not run. */
  stop(): T[] {
    this.stopping = true;
    const dropped = this.queue.splice(0);
    if (this.isIdle()) this.wakeIdle();
    return dropped;
  }
}

/** Runs every item, at most `limit` at once; rejects (once all ended) with the first that threw. */
export async function runBounded<T>(items: readonly T[], limit: number, run: (item: T) => Promise<void>): Promise<void> {
  const pool = new TaskPool(run, () => limit);
  pool.push(...items);
  await pool.idle();
}
