// The one bounded pool (run/pool.ts) that the worker and the drain share.
import { describe, expect, it } from 'vitest';
import { TaskPool, runBounded } from '../../src/run/pool.js';

/** A task that ends when its gate is opened, so a test decides the order. */
function gated() {
  const gates = new Map<string, () => void>();
  const started: string[] = [];
  const run = (id: string): Promise<void> => new Promise((resolve) => {
    started.push(id);
    gates.set(id, resolve);
  });
  const open = async (id: string): Promise<void> => {
    gates.get(id)!();
    await new Promise((r) => setImmediate(r));
  };
  return { run, open, started };
}

describe('TaskPool', () => {
  it('runs at most limit() at once, in queue order, and asks the limit afresh as slots free', async () => {
    const g = gated();
    let limit = 2;
    const settled: string[] = [];
    const pool = new TaskPool(g.run, () => limit, (id) => settled.push(id));
    pool.push('a', 'b', 'c', 'd');
    expect(g.started).toEqual(['a', 'b']);
    expect([pool.running, pool.waiting]).toEqual([2, 2]);
    limit = 1;
    await g.open('a');
    expect(g.started).toEqual(['a', 'b']);
    expect(settled).toEqual(['a']);
    await g.open('b');
    expect(g.started).toEqual(['a', 'b', 'c']);
    await g.open('c');
    await g.open('d');
    await pool.idle();
    expect(settled).toEqual(['a', 'b', 'c', 'd']);
    expect([pool.running, pool.waiting]).toEqual([0, 0]);
  });

  it('is idle at once when empty, and only once the queue is done otherwise', async () => {
    const g = gated();
    const pool = new TaskPool(g.run, () => 1);
    await pool.idle();
    pool.push('a', 'b');
    let idle = false;
    void pool.idle().then(() => (idle = true));
    await g.open('a');
    expect(idle).toBe(false);
    await g.open('b');
    expect(idle).toBe(true);
  });

  it('starts nothing after stop, hands back what waited, and is idle once the running ones end', async () => {
    const g = gated();
    const pool = new TaskPool(g.run, () => 1);
    pool.push('a', 'b', 'c');
    expect(pool.stop()).toEqual(['b', 'c']);
    pool.push('d');
    let idle = false;
    void pool.idle().then(() => (idle = true));
    await new Promise((r) => setImmediate(r));
    expect(idle).toBe(false);
    await g.open('a');
    expect(idle).toBe(true);
    expect(g.started).toEqual(['a']);
  });

  it('keeps a caller already waiting for idle waiting through stop, until the running task ends', async () => {
    const g = gated();
    const pool = new TaskPool(g.run, () => 1);
    pool.push('a', 'b');
    let idle = false;
    void pool.idle().then(() => (idle = true));
    expect(pool.stop()).toEqual(['b']);
    await new Promise((r) => setImmediate(r));
    expect(idle).toBe(false);
    await g.open('a');
    expect(idle).toBe(true);
  });

  it('is idle at once when stopped with nothing running', async () => {
    const pool = new TaskPool(async () => {}, () => 1);
    pool.stop();
    pool.push('x');
    await pool.idle();
    expect(pool.waiting).toBe(1);
  });
});

describe('runBounded', () => {
  it('runs every item, never more than the limit at once', async () => {
    let now = 0;
    let peak = 0;
    const done: number[] = [];
    await runBounded([1, 2, 3, 4, 5], 2, async (n) => {
      peak = Math.max(peak, ++now);
      await new Promise((r) => setImmediate(r));
      now--;
      done.push(n);
    });
    expect(done.sort()).toEqual([1, 2, 3, 4, 5]);
    expect(peak).toBe(2);
  });

  it('rejects with the first error once every item ended', async () => {
    const done: number[] = [];
    const run = runBounded([1, 2, 3], 1, async (n) => {
      if (n !== 3) throw new Error(`task ${n}`);
      done.push(n);
    });
    await expect(run).rejects.toThrow('task 1');
    expect(done).toEqual([3]);
  });
});
