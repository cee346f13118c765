// A `serve --stdio` child driven from the benchmark: sequential round trips
// (one request, wait for its answer) and a pipelined burst for events/s.
import { spawn } from 'node:child_process';

export class Server {
  constructor(bin, args) {
    this.child = spawn(process.execPath, [bin, 'serve', '--stdio', ...args], { stdio: ['pipe', 'pipe', 'inherit'] });
    this.pending = [];
    this.buffered = '';
    this.child.stdout.setEncoding('utf8');
    this.child.stdout.on('data', (text) => {
      this.buffered += text;
      let nl;
      while ((nl = this.buffered.indexOf('\n')) !== -1) {
        const line = this.buffered.slice(0, nl);
        this.buffered = this.buffered.slice(nl + 1);
        this.pending.shift()(line);
      }
    });
  }

  request(line) {
    return new Promise((resolve) => {
      this.pending.push(resolve);
      this.child.stdin.write(line + '\n');
    });
  }

  /** Milliseconds of each of `count` sequential round trips. */
  async roundTrips(line, count) {
    const times = [];
    for (let i = 0; i < count; i++) {
      const start = process.hrtime.bigint();
      const answer = await this.request(line);
      times.push(Number(process.hrtime.bigint() - start) / 1e6);
      if (answer.includes('"error"')) throw new Error(`serve answered an error: ${answer}`);
    }
    return times;
  }

  /** Requests per second with `count` requests in flight at once. */
  async eventsPerSecond(line, count) {
    const start = process.hrtime.bigint();
    const answers = [];
    for (let i = 0; i < count; i++) answers.push(new Promise((resolve) => this.pending.push(resolve)));
    this.child.stdin.write(`${line}\n`.repeat(count));
    await Promise.all(answers);
    return count / (Number(process.hrtime.bigint() - start) / 1e9);
  }

  async close() {
    const exited = new Promise((resolve) => this.child.on('exit', resolve));
    this.child.stdin.end();
    return exited;
  }
}
