// node:crypto, loaded on first use. Requiring it costs a few milliseconds of
// every process that does (its JavaScript builds the whole crypto API), and
// `fire` with only global hooks needs none of it: its state-file names are
// hashed by keyed-name.ts, and its temp names need no secret (run/runtime.ts).
// Everything else that hashes a file or needs unguessable bytes comes here.

// Not imported as `createRequire`: bundles whose banner declares that name (the tests') would clash.
import { createRequire as requireFrom } from 'node:module';

type Crypto = typeof import('node:crypto');
let crypto: Crypto | undefined;
// process.getBuiltinModule works the same in the ES module CLI, the CommonJS
// fire path and any other bundle; Node before 20.16 lacks it.
const load = (): Crypto => (crypto ??= process.getBuiltinModule?.('node:crypto') ?? (requireFrom(import.meta.url)('node:crypto') as Crypto));

/** The SHA-256 of `data`, in hex. */
export const sha256Hex = (data: string | Uint8Array): string => load().createHash('sha256').update(data).digest('hex');

/** `bytes` random bytes from the system's CSPRNG, in hex: for names another user must not guess. */
export const randomHex = (bytes: number): string => load().randomBytes(bytes).toString('hex');
