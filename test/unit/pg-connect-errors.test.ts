// connect.ts reads a driver's rejection however odd: no prototype, fields that are no strings, codes that
// name Object.prototype's keys.
import { describe, expect, it } from 'vitest';
import { isUnreachable, outboxError } from '../../src/outbox/pg/connect.js';

const URL = 'postgres://u:secret@h/db';
describe('the PostgreSQL outbox\'s errors from whatever the driver rejects with', () => {
  it('null, undefined, a string, a number: no throw', () => {
    for (const e of [null, undefined, 'boom', 42, Symbol('s')]) expect(() => outboxError(URL, e)).not.toThrow();
  });
  it('an object with no prototype (no toString): no throw', () => {
    expect(() => outboxError(URL, Object.create(null))).not.toThrow();
  });
  it('an error whose message is not a string', () => {
    expect(() => outboxError(URL, { message: { nested: 1 } })).not.toThrow();
  });
  it('a code that is an Object.prototype key is not "unreachable"', () => {
    expect(isUnreachable({ code: 'constructor', message: 'x' })).toBe(false);
  });
});
