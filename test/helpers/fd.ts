// Whether code closed the files it opened: open() hands out the lowest free
// descriptor, so one left open moves the number the next open gets.
import { closeSync, openSync, readdirSync, readlinkSync } from 'node:fs';

/** The descriptor the next open would get. */
export const lowestFreeFd = (): number => {
  const fd = openSync(process.execPath, 'r');
  closeSync(fd);
  return fd;
};

/**
 * The files under `dir` this process holds open, by the paths /proc gives
 * (a deleted one ends in " (deleted)"). By path, not by number: threads of a
 * test run share one descriptor table, so another file's test moves the lowest
 * free number at any time.
 */
export const heldUnder = (dir: string): string[] =>
  readdirSync('/proc/self/fd').flatMap((fd) => {
    try {
      const target = readlinkSync(`/proc/self/fd/${fd}`);
      return target.startsWith(dir) ? [target] : [];
    } catch {
      return []; // closed since the listing
    }
  });
