/**
 * Decoding-level checks: what the API server's strict JSON decoder rejects before validation
 * runs. ajv is loaded and the schemas are compiled on first use only, so runs over
 * repositories without admission objects never pay for it.
 */
import type { ErrorObject, ValidateFunction } from 'ajv';
import { createRequire } from 'node:module';
import type { FieldPath } from '../field-path.js';
import { formatFieldPath } from '../field-path.js';
import type { WebhookConfigurationKind } from '../model/types.js';
import { isBase64, webhookConfigurationSchema } from './webhook-schema.js';

export interface SchemaProblem {
  readonly path: FieldPath;
  readonly message: string;
  /** Unknown fields are dropped (or rejected) without changing what the other fields mean. */
  readonly blocking: boolean;
  readonly part: 'pair' | 'key';
}

/**
 * A decode checker for a family of kinds: compiles each kind's schema with ajv on first use,
 * and turns ajv's errors into problems. `unknownFieldNote` may say where a misplaced field
 * belongs (a field of the sibling kind).
 */
export function schemaChecker<Kind extends string>(
  schemaFor: (kind: Kind) => object,
  unknownFieldNote: (parent: FieldPath, name: string) => string | undefined = () => undefined,
): (kind: Kind, written: unknown) => SchemaProblem[] {
  const validators = new Map<Kind, ValidateFunction>();
  const validatorFor = (kind: Kind): ValidateFunction => {
    let validate = validators.get(kind);
    if (validate === undefined) {
      // ajv ships CommonJS; createRequire keeps the import synchronous and lazy.
      const require = createRequire(import.meta.url);
      const Ajv = require('ajv') as typeof import('ajv').default;
      const ajv = new Ajv({ allErrors: true, strict: true, allowUnionTypes: true });
      ajv.addFormat('base64', { type: 'string', validate: isBase64 });
      validate = ajv.compile(schemaFor(kind));
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

function pointerToPath(pointer: string): (string | number)[] {
  if (pointer === '') return [];
  return pointer
    .slice(1)
    .split('/')
    .map((raw) => raw.replace(/~1/g, '/').replace(/~0/g, '~'))
    .map((segment) => (/^(0|[1-9][0-9]*)$/.test(segment) ? Number(segment) : segment));
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
      return { path: field, part: 'key', blocking: false, message: `unknown field "${formatFieldPath(field)}"${note}: the API server rejects it (kubectl validates strictly) or drops it` };
    }
    case 'type': {
      const expected = String(error.params.type).split(',').filter((t) => t !== 'null');
      const names = expected.map((t) => TYPE_NAMES[t] ?? t).join(' or ');
      const actual = valueAt(root, path);
      // YAML 1.1 (what kubectl reads) turns unquoted yes/no/on/off and numbers into non-strings.
      const hint = expected.includes('string') && (typeof actual === 'boolean' || typeof actual === 'number') ? ': quote the value' : '';
      return { path, part: 'pair', blocking: true, message: `${where} must be ${names}, but is ${describe(actual)}${hint}` };
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

export const checkWebhookConfigurationSchema = schemaChecker<WebhookConfigurationKind>(webhookConfigurationSchema, (_parent, name) =>
  name === 'reinvocationPolicy' ? 'only mutating webhooks have reinvocationPolicy' : undefined,
);
