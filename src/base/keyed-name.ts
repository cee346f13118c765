// The file name of a per-key record under state/ (cache entries, history,
// once stamps, session dirs): the first 32 hex digits of the SHA-256 of the
// key's parts joined by NUL. Users' disks already hold files named this way,
// so the scheme must not change (test/unit/keyed-name.test.ts pins it).

import { createHash } from 'node:crypto';

export const keyedName = (...parts: readonly string[]): string => createHash('sha256').update(parts.join('\0')).digest('hex').slice(0, 32);
