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
// of 220 bytes because start-up is what it costs: checking a 400 KB cache took
// about 0.5 ms this way (compiling the module included), 3–5 ms as a
// JavaScript loop (cold code), and loading node:crypto alone 4–7 ms.

import { closeSync, constants, fstatSync, openSync, readSync } from 'node:fs';

/**
 * The module, as bytes: a literal, because building it at start-up from
 * named opcodes cost about 0.7 ms of every `fire` (test/unit/cache-digest.test.ts
 * assembles it that way and checks these bytes). It reads eight words a
 * turn: at one word a turn the loop ran long enough for V8 to recompile it
 * with TurboFan in the background (3 MB and a core's time) on every `fire`
 * after an edit. In the text format:
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
export const DIGEST_MODULE_HEX =
  '0061736d0100000001070160027f7f017e030201000503010001071302066d656d6f727902000664696765737400000aad0101aa0102017f027e200020016a21' +
  '0242a5c688a1c89ca7f94b210342b38380808020210402400340200020024f0d01200320002903008520047e2103200320002903088520047e21032003200029' +
  '03108520047e2103200320002903188520047e2103200320002903208520047e2103200320002903288520047e2103200320002903308520047e210320032000' +
  '2903388520047e2103200041c0006a21000c000b0b20032001ad8520047e0b';
const TURN_BYTES = 64;

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
    const { exports } = new WebAssembly.Instance(new WebAssembly.Module(Buffer.from(DIGEST_MODULE_HEX, 'hex')));
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
 * not match (or it is too short to hold one, or no regular file); throws when
 * it cannot be read.
 * The file is read straight into the module's memory, and the data returned
 * is a view of it, valid until the next call here: hand it to V8 at once.
 */
export function openSealedCache(path: string): Buffer | 'spoilt' {
  const d = instance();
  if (!d) throw new Error('no WebAssembly to check a code cache with');
  // Non-blocking: a FIFO in the cache's place must not hold the run up (it is then no regular file, so spoilt).
  const fd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK);
  try {
    const stat = fstatSync(fd);
    const size = stat.size;
    if (!stat.isFile() || size < DIGEST_BYTES || size > MAX_CACHE_BYTES) return 'spoilt';
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
