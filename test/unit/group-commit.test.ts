// The drain's group commit: the first item is written at once, what arrives
// meanwhile goes in the next write, and each caller hears how its own write went.
import { describe, expect, it } from 'vitest';
import { GroupCommit } from '../../src/outbox/pg/group-commit.js';

/** A write the test ends by hand, one call at a time. */
function writer() {
  const calls: { items: readonly number[]; done: () => void; fail: (e: Error) => void }[] = [];
  const write = (items: readonly number[]): Promise<void> => new Promise((done, fail) => calls.push({ items, done, fail }));
  return { calls, write };
}

describe('GroupCommit', () => {
  it('writes the first item at once and what arrives during that write together in the next', async () => {
    const { calls, write } = writer();
    const group = new GroupCommit(write);
    const settled: number[] = [];
    const adds = [1, 2, 3].map((n) => group.add(n).then(() => settled.push(n)));
    expect(calls.map((c) => c.items)).toEqual([[1]]);
    calls[0]!.done();
    await adds[0];
    expect(settled).toEqual([1]);
    expect(calls.map((c) => c.items)).toEqual([[1], [2, 3]]);
    calls[1]!.done();
    await Promise.all(adds);
    expect(settled).toEqual([1, 2, 3]);
  });

  it('rejects the callers of a failed write only, and writes on for those after it', async () => {
    const { calls, write } = writer();
    const group = new GroupCommit(write);
    const first = group.add(1);
    const second = group.add(2);
    calls[0]!.fail(new Error('gone'));
    await expect(first).rejects.toThrow('gone');
    const third = group.add(3);
    expect(calls.map((c) => c.items)).toEqual([[1], [2]]);
    calls[1]!.done();
    await second;
    expect(calls.map((c) => c.items)).toEqual([[1], [2], [3]]);
    calls[2]!.done();
    await third;
  });

  it('starts a new write for an item that comes once it is idle', async () => {
    const { calls, write } = writer();
    const group = new GroupCommit(write);
    const one = group.add(1);
    calls[0]!.done();
    await one;
    const two = group.add(2);
    expect(calls.map((c) => c.items)).toEqual([[1], [2]]);
    calls[1]!.done();
    await two;
  });
});
