/**
 * Decoding-level checks: what the API server's strict JSON decoder rejects before validation
 * runs. The built CLI uses the validators that `npm run build` precompiled from the same
 * schemas (src/build/validators.ts writes them to dist/src/validate/precompiled.js), so it
 * neither loads ajv nor compiles a schema at run time. Without them (the sources under vitest)
 * ajv is loaded and each schema compiled on first use.
 */
import type { ErrorObject, Options, ValidateFunction } from 'ajv';
import { createRequire } from 'node:module';
import type { FieldPath } from '../field-path.js';
import { formatFieldPath } from '../field-path.js';
import type { WebhookConfigurationKind } from '../model/types.js';
import { precompiled } from './precompiled.js';
import { isBase64, webhookConfigurationSchema } from './webhook-schema.js';
import { pointerToPath } from '../json.js';

/** The ajv instance the decode schemas are compiled with, at run time and at build time alike. */
export function decodeAjv(extra: Options = {}): InstanceType<typeof import('ajv').default> {
  // ajv ships CommonJS; createRequire keeps the import synchronous and lazy.
  const require = createRequire(import.meta.url);
  const Ajv = require('ajv') as typeof import('ajv').default;
  const ajv = new Ajv({ allErrors: true, strict: true, allowUnionTypes: true, ...extra });
  ajv.addFormat('base64', { type: 'string', validate: isBase64 });
  return ajv;
}

/** Where the validators come from: precompiled at build time, or compiled on first use. */
export function validatorSource(): 'precompiled' | 'compiled' {
  return precompiled === undefined ? 'compiled' : 'precompiled';
}

import type { SchemaProblem } from '../model/objects.js';

export type { SchemaProblem };

/**
 * A decode checker for a family of kinds: takes each kind's precompiled validator (or compiles
 * its schema with ajv on first use), and turns ajv's errors into problems. `unknownFieldNote`
 * may say where a misplaced field belongs (a field of the sibling kind). `ready` are the
 * precompiled validators (a test passes others, or none).
 */
export function schemaChecker<Kind extends string>(
  schemaFor: (kind: Kind) => object,
  unknownFieldNote: (parent: FieldPath, name: string) => string | undefined = () => undefined,
  ready: Readonly<Partial<Record<string, ValidateFunction>>> | undefined = precompiled,
): (kind: Kind, written: unknown) => SchemaProblem[] {
  const validators = new Map<Kind, ValidateFunction>();
  const validatorFor = (kind: Kind): ValidateFunction => {
    let validate = validators.get(kind);
    if (validate === undefined) {
      validate = ready?.[kind] ?? decodeAjv().compile(schemaFor(kind));
      validators.set(kind, validate);
    }
    return validate;
  };
  return (kind, written) => {
    const validate = validatorFor(kind);
    if (validate(written)) return [];
    const problems: SchemaProblem[] = [];
    const seen = new Set<string>();
    for (const error of validate.errors ?? []) {
      const problem = toProblem(error, written, unknownFieldNote);
      const key = `${formatFieldPath(problem.path)}\u0000${problem.message}`;
      if (seen.has(key)) continue;
      seen.add(key);
      problems.push(problem);
    }
    return problems;
  };
}


function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'a list';
  if (typeof value === 'object') return 'an object';
  if (typeof value === 'string') return `the string ${JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value)}`;
  if (typeof value === 'number') return Number.isInteger(value) ? `the number ${value}` : `the number ${value} (not a whole number)`;
  return `${typeof value} ${String(value)}`;
}

const TYPE_NAMES: Record<string, string> = {
  string: 'a string',
  integer: 'a whole number',
  array: 'a list',
  object: 'an object',
};

function valueAt(root: unknown, path: FieldPath): unknown {
  let node = root;
  for (const segment of path) {
    if (node === null || typeof node !== 'object') return undefined;
    node = (node as Record<string | number, unknown>)[segment];
  }
  return node;
}

function toProblem(error: ErrorObject, root: unknown, unknownFieldNote: (parent: FieldPath, name: string) => string | undefined): SchemaProblem {
  const path = pointerToPath(error.instancePath);
  const where = formatFieldPath(path) || 'the object';
  switch (error.keyword) {
    case 'additionalProperties': {
      const name = String(error.params.additionalProperty);
      const field = [...path, name];
      const hint = unknownFieldNote(path, name);
      const note = hint ? ` (${hint})` : '';
      return { path: field, part: 'key', blocking: false, message: `unknown field "${formatFieldPath(field)}"${note}: rejected (kubectl validates strictly) or dropped` };
    }
    case 'type': {
      const expected = String(error.params.type).split(',').filter((t) => t !== 'null');
      const names = expected.map((t) => TYPE_NAMES[t] ?? t).join(' or ');
      const actual = valueAt(root, path);
      // YAML 1.1 (what kubectl reads) turns unquoted yes/no/on/off and numbers into non-strings.
      const hint = expected.includes('string') && (typeof actual === 'boolean' || typeof actual === 'number') ? ': quote the value' : '';
      const booleanForString = expected.includes('string') && typeof actual === 'boolean';
      return { path, part: 'pair', blocking: true, message: `${where} must be ${names}, but is ${describe(actual)}${hint}`, ...(booleanForString ? { booleanForString: true as const } : {}) };
    }
    case 'minimum':
    case 'maximum':
      return { path, part: 'pair', blocking: true, message: `${where} does not fit a 32-bit integer` };
    case 'format':
      // Still a string: the other checks can read the object.
      return { path, part: 'pair', blocking: false, message: `${where} is not valid base64: the API server cannot decode it (base64-encode the PEM bundle)` };
    default:
      return { path, part: 'pair', blocking: true, message: `${where} ${error.message ?? 'is malformed'}` };
  }
}

export const webhookUnknownFieldNote = (_parent: FieldPath, name: string): string | undefined =>
  name === 'reinvocationPolicy' ? 'only mutating webhooks have reinvocationPolicy' : undefined;

export const checkWebhookConfigurationSchema = schemaChecker<WebhookConfigurationKind>(webhookConfigurationSchema, webhookUnknownFieldNote);
