// The package version, injected by the bundler (scripts/build.mjs).
declare const __VERSION__: string;
export const VERSION: string = typeof __VERSION__ === 'string' ? __VERSION__ : '0.0.0-dev';
