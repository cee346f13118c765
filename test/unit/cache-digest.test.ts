// A sealed code cache on real files: the digest is the documented FNV-1a
// over 64-bit words (checked against a BigInt reference), a spoilt body is
// caught wherever the byte is, and what comes back is V8's data byte for byte.
import { mkdtempSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DIGEST_MODULE_HEX, canSealCaches, openSealedCache, sealCache } from '../../src/cli/cache-digest.js';

const MASK = (1n << 64n) - 1n;
const PRIME = 0x100000001b3n;
/** The digest as docs and comments define it, written the slow, plain way. */
function reference(data: Uint8Array): bigint {
  const padded = Buffer.alloc(Math.ceil(data.length / 64) * 64);
  padded.set(data);
  let h = 0xcbf29ce484222325n;
  for (let i = 0; i < padded.length; i += 8) h = ((h ^ padded.readBigUInt64LE(i)) * PRIME) & MASK;
  return ((h ^ BigInt(data.length)) * PRIME) & MASK;
}
/** Bytes that differ from call to call but not from run to run. */
function bytes(length: number, seed: number): Buffer {
  const out = Buffer.alloc(length);
  let x = seed * 2654435761 + 1;
  for (let i = 0; i < length; i++) {
    x = (Math.imul(x, 1103515245) + 12345) >>> 0;
    out[i] = x >>> 24;
  }
  return out;
}
const dir = (): string => mkdtempSync(join(tmpdir(), 'chrys-seal-'));

/** The module of cache-digest.ts's comment, assembled from named opcodes (the source holds its bytes). */
function assembledModule(): string {
  const uleb128 = (n: number): number[] => (n < 0x80 ? [n] : [(n & 0x7f) | 0x80, ...uleb128(n >>> 7)]);
  const ascii = (text: string): number[] => [...text].map((c) => c.charCodeAt(0));
  const section = (id: number, bytes: number[]): number[] => [id, ...uleb128(bytes.length), ...bytes];
  const [AT, LENGTH, END, H, PRIME] = [0, 1, 2, 3, 4];
  const op = { block: 0x02, loop: 0x03, end: 0x0b, br: 0x0c, brIf: 0x0d, get: 0x20, set: 0x21, i64Load: 0x29, i32Const: 0x41, i64Const: 0x42, i32GeU: 0x4f, i32Add: 0x6a, i64Mul: 0x7e, i64Xor: 0x85, i64ExtendI32U: 0xad, void: 0x40 };
  const [i32, i64] = [0x7f, 0x7e];
  const FNV_OFFSET = [0xa5, 0xc6, 0x88, 0xa1, 0xc8, 0x9c, 0xa7, 0xf9, 0x4b]; // signed LEB128 of 0xcbf29ce484222325
  const FNV_PRIME = [0xb3, 0x83, 0x80, 0x80, 0x80, 0x20]; // signed LEB128 of 0x100000001b3
  const step = (offset: number): number[] => [op.get, H, op.get, AT, op.i64Load, 3, offset, op.i64Xor, op.get, PRIME, op.i64Mul, op.set, H];
  const body = [
    2, 1, i32, 2, i64,
    op.get, AT, op.get, LENGTH, op.i32Add, op.set, END,
    op.i64Const, ...FNV_OFFSET, op.set, H,
    op.i64Const, ...FNV_PRIME, op.set, PRIME,
    op.block, op.void, op.loop, op.void,
    op.get, AT, op.get, END, op.i32GeU, op.brIf, 1,
    ...[0, 8, 16, 24, 32, 40, 48, 56].flatMap(step),
    op.get, AT, op.i32Const, 0xc0, 0x00, op.i32Add, op.set, AT, // signed LEB128 of 64
    op.br, 0, op.end, op.end,
    op.get, H, op.get, LENGTH, op.i64ExtendI32U, op.i64Xor, op.get, PRIME, op.i64Mul,
    op.end,
  ];
  return Buffer.from([
    0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00,
    ...section(1, [1, 0x60, 2, i32, i32, 1, i64]),
    ...section(3, [1, 0]),
    ...section(5, [1, 0x00, 1]),
    ...section(7, [2, 6, ...ascii('memory'), 0x02, 0, 6, ...ascii('digest'), 0x00, 0]),
    ...section(10, [1, ...uleb128(body.length), ...body]),
  ]).toString('hex');
}

describe('sealed code caches', () => {
  it('can seal here (WebAssembly runs)', () => {
    expect(canSealCaches()).toBe(true);
  });

  it('holds the bytes of the module its comment describes', () => {
    expect(DIGEST_MODULE_HEX).toBe(assembledModule());
  });

  it.each([0, 1, 7, 8, 9, 63, 64, 65, 100, 65_471, 65_536, 200_001])('a %i-byte cache is its digest, then its data, and reads back as the data', (length) => {
    const data = bytes(length, length);
    const sealed = sealCache(data);
    expect(sealed.length).toBe(8 + length);
    expect(sealed.readBigUInt64LE(0)).toBe(reference(data));
    expect(sealed.subarray(8).equals(data)).toBe(true);
    const path = join(dir(), 'c.v8');
    writeFileSync(path, sealed);
    const opened = openSealedCache(path);
    expect(opened).toBeInstanceOf(Buffer);
    expect((opened as Buffer).equals(data)).toBe(true);
  });

  it('pads with zeros whatever an earlier, longer file left in memory', () => {
    const d = dir();
    writeFileSync(join(d, 'long.v8'), sealCache(bytes(1000, 1)));
    writeFileSync(join(d, 'short.v8'), sealCache(bytes(13, 2)));
    expect(openSealedCache(join(d, 'long.v8'))).toBeInstanceOf(Buffer);
    expect((openSealedCache(join(d, 'short.v8')) as Buffer).equals(bytes(13, 2))).toBe(true);
    expect(sealCache(bytes(13, 2)).readBigUInt64LE(0)).toBe(reference(bytes(13, 2)));
  });

  it('a flipped bit anywhere, in the data or the digest, makes the file spoilt', () => {
    const data = bytes(4099, 3);
    const sealed = sealCache(data);
    const path = join(dir(), 'c.v8');
    for (const at of [0, 7, 8, 9, 2048, 4097, sealed.length - 1]) {
      const spoilt = Buffer.from(sealed);
      spoilt[at]! ^= 0x10;
      writeFileSync(path, spoilt);
      expect(openSealedCache(path), `byte ${at}`).toBe('spoilt');
    }
  });

  it('a file cut short, one too short for a digest, or one with zeros appended is spoilt', () => {
    const sealed = sealCache(bytes(64, 4));
    const path = join(dir(), 'c.v8');
    writeFileSync(path, sealed);
    truncateSync(path, 40);
    expect(openSealedCache(path)).toBe('spoilt');
    writeFileSync(path, sealed.subarray(0, 5));
    expect(openSealedCache(path)).toBe('spoilt');
    writeFileSync(path, '');
    expect(openSealedCache(path)).toBe('spoilt');
    // Zero padding must not hide a change of length: the length is in the digest.
    writeFileSync(path, Buffer.concat([sealed, Buffer.alloc(3)]));
    expect(openSealedCache(path)).toBe('spoilt');
  });

  it('throws when the file cannot be read at all (the caller tries the next place)', () => {
    expect(() => openSealedCache(join(dir(), 'missing.v8'))).toThrow(/ENOENT/);
  });
});
