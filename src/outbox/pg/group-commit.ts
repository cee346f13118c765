// Group commit: what many of a drainer's handlers want written goes to the
// database in one statement. The first item is written at once (an idle
// drainer adds no delay); items that arrive while a write is in flight wait
// for it and then go together in the next. Each caller's promise settles with
// the write that carried its item, so "written" still means committed.

interface Waiting<T> {
  item: T;
  resolve: () => void;
  reject: (e: unknown) => void;
}

export class GroupCommit<T> {
  private waiting: Waiting<T>[] = [];
  private writing = false;

  constructor(private readonly write: (items: readonly T[]) => Promise<void>) {}

  /** Resolves once the write that carried `item` committed; rejects with its error. */
  add(item: T): Promise<void> {
    return new Promise((resolve, reject) => {
      this.waiting.push({ item, resolve, reject });
      if (!this.writing) void this.drain();
    });
  }

  private async drain(): Promise<void> {
    this.writing = true;
    while (this.waiting.length > 0) {
      const batch = this.waiting;
      this.waiting = [];
      try {
        await this.write(batch.map((w) => w.item));
        for (const w of batch) w.resolve();
      } catch (e) {
        for (const w of batch) w.reject(e);
      }
    }
    this.writing = false;
  }
}
