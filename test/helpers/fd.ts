// Whether code closed the files it opened: open() hands out the lowest free
// descriptor, so one left open moves the number the next open gets.
import { closeSync, openSync } from 'node:fs';

/** The descriptor the next open would get. */
export const lowestFreeFd = (): number => {
  const fd = openSync(process.execPath, 'r');
  closeSync(fd);
  return fd;
};
