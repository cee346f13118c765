// The PostgreSQL driver, loaded only when a job goes to or comes from the
// database (a firing without a durable hook never loads it), and the one place
// its errors become Chrys errors: outbox_unreachable (69), the password never shown.

import type { Client, ClientConfig, Pool } from 'pg';
import { ChrysError } from '../../core/errors.js';
import { redact, redactedUrl } from './redact.js';

type Pg = typeof import('pg');
let driver: Pg | undefined;

export async function loadPg(): Promise<Pg> {
  if (driver) return driver;
  const mod = (await import('pg')) as Pg & { default?: Pg };
  // Stryker disable next-line LogicalOperator: pg's ESM entry exports the same classes by name as on its default
  driver = mod.default ?? mod;
  return driver;
}

type Graphile = typeof import('graphile-worker');

/** graphile-worker, loaded only by a drain or a migration (bundled as CommonJS: its exports may sit on `default`). */
export async function loadGraphile(): Promise<Graphile> {
  const mod = (await import('graphile-worker')) as Graphile & { default?: Graphile };
  // Stryker disable next-line ConditionalExpression,EqualityOperator,StringLiteral,LogicalOperator: under Node the module and its default both carry run; only a bundle can hold one shape
  return typeof mod.run === 'function' ? mod : (mod.default ?? mod);
}

/** How long a connection attempt may take: a fire must not hang on a dead server. */
export const CONNECT_TIMEOUT_MS = 3000;

const config = (url: string): ClientConfig => ({ connectionString: url, connectionTimeoutMillis: CONNECT_TIMEOUT_MS, application_name: 'chrys-hooks' });

// SQLSTATEs and errnos that mean "the outbox is not there for us", as opposed to a bug.
const UNREACHABLE_STATES: Record<string, string> = {
  '28P01': 'wrong password',
  '28000': 'login refused',
  '3D000': 'no such database',
  '57P01': 'the server shut down',
  '57P03': 'the server is starting up or shutting down',
  '53300': 'too many connections',
  '08006': 'the connection failed',
  '08001': 'cannot connect',
};

// What a driver rejects with need not be an Error: a rejection with null or a string has no fields to read.
export const codeOf = (e: unknown): string | undefined => (typeof e === 'object' && e !== null && typeof (e as { code?: unknown }).code === 'string' ? (e as { code: string }).code : undefined);
// String() throws for an object with no prototype (nothing to convert it by).
const textOf = (e: unknown): string => {
  try {
    return String(e);
  } catch {
    return Object.prototype.toString.call(e);
  }
};
const messageOf = (e: unknown): string | undefined => (typeof e === 'object' && e !== null && typeof (e as { message?: unknown }).message === 'string' ? (e as { message: string }).message : undefined);
/**
 * What to tell the user about an error. A host name with both an IPv6 and an
 * IPv4 address (localhost on most machines) fails with an AggregateError
 * whose own message is empty: its attempts say what happened.
 */
const detailOf = (e: unknown): string => {
  const own = messageOf(e);
  if (own) return own;
  const attempts = typeof e === 'object' && e !== null && Array.isArray((e as { errors?: unknown }).errors) ? (e as { errors: unknown[] }).errors : [];
  const told = [...new Set(attempts.map(messageOf).filter((m): m is string => Boolean(m)))].join('; ');
  return told || codeOf(e) || textOf(e);
};

/** Whether an error means the database went away or refused us (rather than a bug in a query). */
export function isUnreachable(e: unknown): boolean {
  const code = codeOf(e);
  if (code && (Object.hasOwn(UNREACHABLE_STATES, code) || /^(E[A-Z]+)$/.test(code))) return true;
  // Stryker disable next-line StringLiteral: no pattern matches a message it lacks
  const message = messageOf(e) ?? '';
  return /timeout|terminated|Connection terminated|ECONNRESET|not queryable|Client was closed/i.test(message);
}

/** A driver error as the outbox's own: unreachable, a privilege this role lacks (SQLSTATE 42501), else a bug. */
export function outboxError(url: string, e: unknown): ChrysError {
  if (e instanceof ChrysError) return e;
  if (isUnreachable(e)) return unreachable(url, e);
  const message = redact(detailOf(e), url);
  if (codeOf(e) === '42501') return new ChrysError('outbox_unreadable', `this database role may not do what the command needs in the PostgreSQL outbox (${message})`, 'run it as the role that made the outbox, or grant what docs/outbox-postgres.md ("Roles") lists');
  return new ChrysError('internal', `PostgreSQL outbox: ${message}`, 'please report this with the command you ran');
}

export function unreachable(url: string, e: unknown): ChrysError {
  const code = codeOf(e);
  const why = redact(`${code && Object.hasOwn(UNREACHABLE_STATES, code) ? `${UNREACHABLE_STATES[code]}: ` : ''}${detailOf(e)}`, url);
  return new ChrysError('outbox_unreachable', `cannot use the PostgreSQL outbox at ${redactedUrl(url)} (${why})`, 'check that the server runs and that the URL in the variable outbox.url_env names has the right user, password and database; pending jobs are kept');
}

/** A connected client; throws outbox_unreachable. */
/**
 * How long one of fire's queries may take. A server that accepts the
 * connection but holds a lock (or hangs) must not hold the agent's tool call:
 * past it the job goes to the file outbox instead (outbox_fallback).
 */
export const FIRE_QUERY_TIMEOUT_MS = 5000;

export async function connect(url: string, opts: { queryTimeoutMs?: number } = {}): Promise<Client> {
  const pg = await loadPg();
  const bound = opts.queryTimeoutMs;
  // statement_timeout and lock_timeout end the work on the server; query_timeout stops waiting here.
  const client = new pg.Client({ ...config(url), ...(bound ? { statement_timeout: bound, lock_timeout: bound, query_timeout: bound + 1000 } : {}) });
  client.on('error', () => {}); // a server that goes away: the next query says so
  try {
    await client.connect();
  } catch (e) {
    await client.end().catch(() => {});
    throw unreachable(url, e);
  }
  return client;
}

/** json (oid 114) columns as their text: a job's numbers keep their spelling (20 digits, 1.0), as parseJob reads them. */
const JSON_OID = 114;

/** A pool for the drain and the commands; errors of idle clients are not fatal. `rawJson`: json columns come back as text. */
export async function pool(url: string, max = 4, { rawJson = false } = {}): Promise<Pool> {
  const pg = await loadPg();
  const types = { getTypeParser: ((oid: number, format?: 'text' | 'binary') => (oid === JSON_OID ? (v: string) => v : (pg.types.getTypeParser(oid, format as 'text') as (v: string) => unknown))) as typeof pg.types.getTypeParser };
  const p = new pg.Pool({ ...config(url), max, ...(rawJson ? { types } : {}) });
  p.on('error', () => {});
  p.on('connect', (c) => c.on('error', () => {})); // a server that goes away mid-drain: the query in flight says so
  return p;
}

/** Runs `fn` with a client, turning driver errors that mean "unreachable" into outbox_unreachable. */
export async function withClient<T>(url: string, fn: (client: Client) => Promise<T>): Promise<T> {
  const client = await connect(url);
  try {
    return await fn(client);
  } catch (e) {
    throw outboxError(url, e);
  } finally {
    await client.end().catch(() => {});
  }
}
