/**
 * The decode validators precompiled at build time, by kind (see precompiled.js beside this
 * file, and src/build/validators.ts, which generates dist/src/validate/precompiled.js).
 * test/build-validators.test.ts checks that the built CLI uses them and that they give the same
 * problems as compiling the schemas.
 */
import type { ValidateFunction } from 'ajv';

export declare const precompiled: Readonly<Partial<Record<string, ValidateFunction>>> | undefined;
export declare const SCHEMAS_DIGEST: string | undefined;
