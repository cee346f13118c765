// connect.ts reads a driver's rejection however odd: no prototype, fields that are no strings, codes that
// name Object.prototype's keys.
import { describe, expect, it } from 'vitest';
import { isUnreachable, outboxError, unreachable } from '../../src/outbox/pg/connect.js';

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
  it('a host with an IPv6 and an IPv4 address: the AggregateError\'s attempts say why, its empty message does not', () => {
    const refused = (address: string) => Object.assign(new Error(`connect ECONNREFUSED ${address}:5432`), { code: 'ECONNREFUSED' });
    // What Node's net (autoSelectFamily) rejects with when every address of the name refuses.
    const e = Object.assign(new AggregateError([refused('::1'), refused('127.0.0.1'), refused('127.0.0.1')], ''), { code: 'ECONNREFUSED' });
    const error = unreachable(URL, e);
    expect(error.code).toBe('outbox_unreachable');
    expect(error.message).toContain('(connect ECONNREFUSED ::1:5432; connect ECONNREFUSED 127.0.0.1:5432)');
    expect(error.message).not.toContain('secret');
  });
  it('an error with an empty message and no attempts: its code, else its name', () => {
    expect(unreachable(URL, Object.assign(new Error(''), { code: 'ECONNRESET' })).message).toMatch(/\(ECONNRESET\)$/);
    expect(outboxError(URL, new Error('')).message).toBe('PostgreSQL outbox: Error');
  });
});
