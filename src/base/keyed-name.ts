// The file name of a per-key record under state/ (cache entries, history,
// once stamps, session dirs): the first 32 hex digits of the SHA-256 of the
// key's parts joined by NUL. Users' disks already hold files named this way,
// so the scheme must not change (test/unit/keyed-name.test.ts pins it).
//
// The hash is @noble/hashes' JavaScript SHA-256, not node:crypto's: `fire`
// names a cache entry and a history file on every call, and these keys are a
// few dozen bytes, which this hashes in well under a millisecond, where
// loading node:crypto costs several (docs/performance.md).

import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToHex } from '@noble/hashes/utils.js';

const utf8 = new TextEncoder();

export const keyedName = (...parts: readonly string[]): string => bytesToHex(sha256(utf8.encode(parts.join('\0')))).slice(0, 32);
