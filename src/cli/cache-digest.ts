// The digest that guards a code cache's body. V8 checks a cache's header (its
// version, flags and source length) but, in a release build, not the body: a
// body spoilt on disk under an intact header crashed the process in V8's
// deserializer (exit 133 on every run until the file was removed) or, where
// a flipped bit still decoded, ran other bytecode than was compiled. So a
// cache file is written sealed, an 8-byte digest of V8's data followed by
// the data, and a file whose digest does not match is never shown to V8.
//
// The digest guards against accidents (a spoilt disk block, a copy cut short,
// bytes flipped by hand), not against someone who can write the cache
// directory: they could as well edit the bundle beside it. It is FNV-1a over
// the body's 64-bit little-endian words, zero-padded to a multiple of 64
// bytes, then over the byte length: every step is a bijection of the state,
// so a change to any one word always shows. It runs as a WebAssembly function
// of 200 bytes because start-up is what it costs: checking a 400 KB cache took
// about 0.5 ms this way (compiling the module included), 3–5 ms as a
// JavaScript loop (cold code), and loading node:crypto alone 4–7 ms.

import { closeSync, fstatSync, openSync, readSync } from 'node:fs';

/**
 * The module, hand-assembled (eight words a turn: in one word a turn, the
 * loop ran long enough for V8 to recompile it with TurboFan in the
 * background, 3 MB and a core's time, on every `fire` after an edit):
 *
 *     (module
 *       (memory (export "memory") 1)
 *       (func (export "digest") (param $at i32) (param $length i32) (result i64)
 *         (local $end i32) (local $h i64) (local $prime i64)
 *         (local.set $end (i32.add (local.get $at) (local.get $length)))
 *         (local.set $h (i64.const 0xcbf29ce484222325))
 *         (local.set $prime (i64.const 0x100000001b3))
 *         (block (loop
 *           (br_if 1 (i32.ge_u (local.get $at) (local.get $end)))
 *           ;; eight times, for k = 0 .. 7:
 *           (local.set $h (i64.mul (i64.xor (local.get $h) (i64.load offset=8k (local.get $at))) (local.get $prime)))
 *           (local.set $at (i32.add (local.get $at) (i32.const 64)))
 *           (br 0)))
 *         (i64.mul (i64.xor (local.get $h) (i64.extend_i32_u (local.get $length))) (local.get $prime))))
 *
 * It reads whole turns of 64 bytes: the bytes past the end are the caller's to zero.
 */
const TURN_BYTES = 64;
const FNV_OFFSET = [0xa5, 0xc6, 0x88, 0xa1, 0xc8, 0x9c, 0xa7, 0xf9, 0x4b]; // signed LEB128 of 0xcbf29ce484222325
const FNV_PRIME = [0xb3, 0x83, 0x80, 0x80, 0x80, 0x20]; // signed LEB128 of 0x100000001b3
const [AT, LENGTH, END, H, PRIME] = [0, 1, 2, 3, 4];
const get = (local: number): number[] => [0x20, local];
const set = (local: number): number[] => [0x21, local];
/** $h = ($h ^ load64($at + offset)) * $prime */
const step = (offset: number): number[] => [...get(H), ...get(AT), 0x29, 3, offset, 0x85, ...get(PRIME), 0x7e, ...set(H)];
const BODY = [
  2, 1, 0x7f, 2, 0x7e, // locals: $end i32; $h, $prime i64
  ...get(AT), ...get(LENGTH), 0x6a, ...set(END),
  0x42, ...FNV_OFFSET, ...set(H),
  0x42, ...FNV_PRIME, ...set(PRIME),
  0x02, 0x40, 0x03, 0x40, // block, loop
  ...get(AT), ...get(END), 0x4f, 0x0d, 1, // leave when $at >= $end
  ...[0, 8, 16, 24, 32, 40, 48, 56].flatMap(step),
  ...get(AT), 0x41, 0xc0, 0x00, 0x6a, ...set(AT), // $at += 64 (signed LEB128: 0x40 alone would be -64)
  0x0c, 0, 0x0b, 0x0b, // again; end loop, end block
  ...get(H), ...get(LENGTH), 0xad, 0x85, ...get(PRIME), 0x7e, // ($h ^ $length) * $prime
  0x0b,
];
/** A section: its id, its size as unsigned LEB128, its bytes. */
const section = (id: number, bytes: number[]): number[] => [id, ...uleb128(bytes.length), ...bytes];
const MODULE = new Uint8Array([
  0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00, // "\0asm", version 1
  ...section(1, [1, 0x60, 2, 0x7f, 0x7f, 1, 0x7e]), // one type: (i32, i32) -> i64
  ...section(3, [1, 0]), // one function, of that type
  ...section(5, [1, 0x00, 1]), // one memory, at least one page
  ...section(7, [2, 6, ...ascii('memory'), 0x02, 0, 6, ...ascii('digest'), 0x00, 0]),
  ...section(10, [1, ...uleb128(BODY.length), ...BODY]),
]);

function uleb128(n: number): number[] {
  const out: number[] = [];
  do {
    out.push((n & 0x7f) | (n > 0x7f ? 0x80 : 0));
    n >>>= 7;
  } while (n > 0);
  return out;
}

function ascii(text: string): number[] {
  return [...text].map((c) => c.charCodeAt(0));
}

interface Digester {
  memory: WebAssembly.Memory;
  digest: (at: number, length: number) => bigint;
}

const DIGEST_BYTES = 8;
/** Far above any bundle's cache (about 400 KB): a bigger file is no cache of ours, and is not read into memory. */
const MAX_CACHE_BYTES = 64 * 1024 * 1024;
const PAGE = 65_536;
let digester: Digester | null | undefined;

/** The module's instance, made once; null where WebAssembly cannot run (`node --jitless`). */
function instance(): Digester | null {
  if (digester !== undefined) return digester;
  try {
    const { exports } = new WebAssembly.Instance(new WebAssembly.Module(MODULE));
    digester = exports as unknown as Digester;
  } catch {
    digester = null;
  }
  return digester;
}

/** Room in the module's memory for `bytes` and the zero padding after them. */
function reserve(d: Digester, bytes: number): Uint8Array {
  const needed = Math.ceil((bytes + TURN_BYTES) / PAGE) - d.memory.buffer.byteLength / PAGE;
  if (needed > 0) d.memory.grow(needed);
  return new Uint8Array(d.memory.buffer);
}

/** The digest of `length` bytes at `at` of the module's memory, after zeroing the rest of their last turn. */
function digestAt(d: Digester, memory: Uint8Array, at: number, length: number): bigint {
  memory.fill(0, at + length, at + length + TURN_BYTES);
  return BigInt.asUintN(64, d.digest(at, length));
}

/** Whether caches can be sealed and checked here; without it no cache is read or written. */
export const canSealCaches = (): boolean => instance() !== null;

/** The file's bytes for V8's cache `data`: its digest, then the data. */
export function sealCache(data: Uint8Array): Buffer {
  const d = instance();
  if (!d) throw new Error('no WebAssembly to seal a code cache with');
  const memory = reserve(d, DIGEST_BYTES + data.length);
  memory.set(data, DIGEST_BYTES);
  const sealed = Buffer.from(memory.subarray(0, DIGEST_BYTES + data.length));
  sealed.writeBigUInt64LE(digestAt(d, memory, DIGEST_BYTES, data.length), 0);
  return sealed;
}

/**
 * The V8 data of the sealed cache at `path`, or 'spoilt' when its digest does
 * not match (or it is too short to hold one); throws when it cannot be read.
 * The file is read straight into the module's memory, and the data returned
 * is a view of it, valid until the next call here: hand it to V8 at once.
 */
export function openSealedCache(path: string): Buffer | 'spoilt' {
  const d = instance();
  if (!d) throw new Error('no WebAssembly to check a code cache with');
  const fd = openSync(path, 'r');
  try {
    const size = fstatSync(fd).size;
    if (size < DIGEST_BYTES || size > MAX_CACHE_BYTES) return 'spoilt';
    const memory = reserve(d, size);
    let read = 0;
    while (read < size) {
      const n = readSync(fd, memory, read, size - read, read);
      if (n === 0) return 'spoilt'; // cut short while being read
      read += n;
    }
    const stored = Buffer.from(memory.buffer, 0, DIGEST_BYTES).readBigUInt64LE(0);
    if (digestAt(d, memory, DIGEST_BYTES, read - DIGEST_BYTES) !== stored) return 'spoilt';
    return Buffer.from(memory.buffer, DIGEST_BYTES, read - DIGEST_BYTES);
  } finally {
    closeSync(fd);
  }
}
