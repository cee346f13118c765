// Keeps at most `limit` bytes of a stream: the head and the tail, with a
// marker where the middle was dropped, so a hook printing megabytes cannot
// exhaust memory while the useful ends survive.

export class HeadTail {
  private head: Buffer[] = [];
  private headSize = 0;
  private tail: Buffer[] = [];
  private tailSize = 0;
  private dropped = 0;
  constructor(private readonly limit: number) {}

  push(chunk: Buffer): void {
    const half = this.limit / 2;
    if (this.headSize < half) {
      const take = chunk.subarray(0, half - this.headSize);
      this.head.push(take);
      this.headSize += take.length;
      chunk = chunk.subarray(take.length);
    }
    if (chunk.length === 0) return;
    this.tail.push(chunk);
    this.tailSize += chunk.length;
    while (this.tailSize > half && this.tail.length > 0) {
      const first = this.tail[0]!;
      const excess = this.tailSize - half;
      if (first.length <= excess) {
        this.tail.shift();
        this.tailSize -= first.length;
        this.dropped += first.length;
      } else {
        this.tail[0] = first.subarray(excess);
        this.tailSize -= excess;
        this.dropped += excess;
      }
    }
  }

  /** Whether the middle of the stream was dropped. */
  get truncated(): boolean {
    return this.dropped > 0;
  }

  text(): string {
    const head = Buffer.concat(this.head).toString('utf8');
    const tail = Buffer.concat(this.tail).toString('utf8');
    return this.dropped > 0 ? `${head}\n[... ${this.dropped} bytes dropped ...]\n${tail}` : head + tail;
  }

  /** The last `bytes` bytes, for error reasons and job files. */
  lastBytes(bytes: number): string {
    const all = Buffer.concat([...this.head, ...this.tail]);
    const from = this.dropped > 0 ? Buffer.concat(this.tail) : all;
    return from.subarray(Math.max(0, from.length - bytes)).toString('utf8').replace(/^\uFFFD+/, '');
  }
}
