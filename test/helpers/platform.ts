// Runs code as if on another platform, so the branches for Windows are tested
// on any machine (the paths stay those of the machine the tests run on).

export function asPlatform<T>(platform: NodeJS.Platform, run: () => T): T {
  const real = Object.getOwnPropertyDescriptor(process, 'platform')!;
  Object.defineProperty(process, 'platform', { ...real, value: platform });
  try {
    return run();
  } finally {
    Object.defineProperty(process, 'platform', real);
  }
}
