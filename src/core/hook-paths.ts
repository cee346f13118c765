// A relative path in a hook (a script, a trusted file) is relative to the
// hooks file that declares it, never to the cwd the hook runs in.

import { dirname, isAbsolute, resolve } from 'node:path';
import type { Hook } from './config.js';

export const hookDir = (hook: Hook): string => dirname(hook.file);
export const resolveFromHookFile = (hook: Hook, path: string): string => (isAbsolute(path) ? path : resolve(hookDir(hook), path));
