// Splits a byte stream into lines without ever holding more than `limit`
// bytes of one line: a longer line is dropped as it arrives and reported by
// its size, so a runaway producer cannot exhaust memory.

export type Line = { text: string } | { tooLarge: number };

export class LineSplitter {
  private parts: Buffer[] = [];
  private size = 0;
  private overflow = false;
  constructor(private readonly limit: number) {}

  /** The lines this chunk completes. */
  push(chunk: Buffer): Line[] {
    const lines: Line[] = [];
    let start = 0;
    for (let nl = chunk.indexOf(10, start); nl !== -1; nl = chunk.indexOf(10, start)) {
      this.add(chunk.subarray(start, nl));
      lines.push(this.take());
      start = nl + 1;
    }
    if (start < chunk.length) this.add(chunk.subarray(start));
    return lines;
  }

  /** At end of input: the last line, if it had no newline. */
  end(): Line[] {
    return this.size > 0 || this.overflow ? [this.take()] : [];
  }

  private add(bytes: Buffer): void {
    this.size += bytes.length;
    if (this.size > this.limit) {
      this.overflow = true;
      this.parts = [];
    } else if (bytes.length > 0) {
      this.parts.push(bytes);
    }
  }

  private take(): Line {
    const line: Line = this.overflow ? { tooLarge: this.size } : { text: Buffer.concat(this.parts, this.size).toString('utf8') };
    this.parts = [];
    this.size = 0;
    this.overflow = false;
    return line;
  }
}
