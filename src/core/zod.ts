// The parts of zod/mini that the hooks-file schema uses. The build bundles
// this module, not the whole library, as the schema's cold file
// (scripts/build.mjs): a CommonJS require of zod/mini would keep every export.

export { array, boolean, enum, gt, gte, int, literal, lte, minLength, number, optional, record, refine, strictObject, string, union, unknown } from 'zod/mini';
export type { core, infer } from 'zod/mini';
