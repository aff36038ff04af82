// Placeholder for the sources (vitest): no precompiled validators, so src/validate/schema.ts
// compiles the schemas with ajv on first use. `npm run build` writes the real module, ajv's
// standalone code for every decode schema, to dist/src/validate/precompiled.js
// (src/build/validators.ts); tsc never emits this file, so a plain tsc run cannot replace it.
export const precompiled = undefined;
export const SCHEMAS_DIGEST = undefined;
