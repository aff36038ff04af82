/**
 * The decode validators that `npm run build` precompiles (src/build/validators.ts →
 * dist/src/validate/precompiled.js) are current, are what the built CLI uses, and report
 * exactly what compiling the schemas at run time reports, on every admission object of the
 * fixtures and on systematic breakages of them.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { ErrorObject, ValidateFunction } from 'ajv';
import { parseAllDocuments } from 'yaml';
import { describe, expect, it } from 'vitest';
import { decodeSchemas, schemasDigest } from '../src/build/validators.js';
import { policySchema, policyUnknownFieldNote } from '../src/validate/policy-schema.js';
import { decodeAjv, schemaChecker, webhookUnknownFieldNote } from '../src/validate/schema.js';
import { webhookConfigurationSchema } from '../src/validate/webhook-schema.js';
import { POLICY_KINDS, WEBHOOK_CONFIGURATION_KINDS, type PolicyKind, type WebhookConfigurationKind } from '../src/model/types.js';
import { yamlFiles } from './yaml-files.js';

const ROOT = join(import.meta.dirname, '..');
const KINDS = [...WEBHOOK_CONFIGURATION_KINDS, ...POLICY_KINDS] as const;

interface Generated {
  precompiled: Record<string, ValidateFunction>;
  SCHEMAS_DIGEST: string;
}
const generated = (await import(pathToFileURL(join(ROOT, 'dist/src/validate/precompiled.js')).href)) as Generated;

/** Every webhook configuration, policy and binding written in the fixtures, by kind. */
function fixtureObjects(): { kind: (typeof KINDS)[number]; object: unknown }[] {
  const objects: { kind: (typeof KINDS)[number]; object: unknown }[] = [];
  for (const file of yamlFiles(join(ROOT, 'fixtures'))) {
    let documents;
    try {
      documents = parseAllDocuments(readFileSync(file, 'utf8'), { version: '1.1' });
    } catch {
      continue;
    }
    for (const document of Array.isArray(documents) ? documents : []) {
      if (document.errors.length > 0) continue;
      let object: unknown;
      try {
        object = document.toJS({ maxAliasCount: 100 });
      } catch {
        continue; // yaml-syntax fixtures
      }
      const kind = (object as { kind?: unknown } | null)?.kind;
      if ((KINDS as readonly unknown[]).includes(kind)) objects.push({ kind: kind as (typeof KINDS)[number], object });
    }
  }
  return objects;
}

const WRONG: readonly unknown[] = ['5', 5, 2 ** 40, 1.5, true, [], {}, null, 'not base64!'];

/** Copies of `object` with one value replaced by a value of another type, at every path (bounded). */
function breakages(object: unknown, limit = 400): unknown[] {
  const paths: (string | number)[][] = [];
  const walk = (node: unknown, path: (string | number)[]): void => {
    if (paths.length >= limit) return;
    paths.push(path);
    if (Array.isArray(node)) node.forEach((item, index) => walk(item, [...path, index]));
    else if (node !== null && typeof node === 'object') for (const [key, value] of Object.entries(node)) walk(value, [...path, key]);
  };
  walk(object, []);
  const results: unknown[] = [];
  paths.forEach((path, index) => {
    const replacement = WRONG[index % WRONG.length];
    const copy = structuredClone(object) as Record<string | number, unknown>;
    if (path.length === 0) return;
    let parent: Record<string | number, unknown> = copy;
    for (const segment of path.slice(0, -1)) parent = parent[segment] as Record<string | number, unknown>;
    parent[path.at(-1)!] = replacement;
    results.push(copy);
    // And an unknown field beside it.
    const extra = structuredClone(object) as Record<string | number, unknown>;
    let holder: unknown = extra;
    for (const segment of path) holder = (holder as Record<string | number, unknown>)[segment];
    if (holder !== null && typeof holder === 'object' && !Array.isArray(holder)) {
      (holder as Record<string, unknown>).unexpectedField = 1;
      results.push(extra);
    }
  });
  return results;
}

const errorsOf = (validate: ValidateFunction, value: unknown): Partial<ErrorObject>[] => {
  validate(value);
  return (validate.errors ?? []).map(({ instancePath, schemaPath, keyword, params, message }) => ({ instancePath, schemaPath, keyword, params, message }));
};

describe('precompiled decode validators', () => {
  it('are generated from the current schemas', async () => {
    expect(generated.SCHEMAS_DIGEST).toBe(schemasDigest(await decodeSchemas()));
    expect(Object.keys(generated.precompiled).sort()).toEqual([...KINDS].sort());
  });

  it('are what the built CLI uses', async () => {
    const built = (await import(pathToFileURL(join(ROOT, 'dist/src/validate/schema.js')).href)) as typeof import('../src/validate/schema.js');
    expect(built.validatorSource()).toBe('precompiled');
    // The bundle carries the generated code (esbuild drops the unused digest constant).
    const bundle = readFileSync(join(ROOT, 'standalone/admission-lint.cjs'), 'utf8');
    const line = readFileSync(join(ROOT, 'dist/src/validate/precompiled.js'), 'utf8').match(/instancePath:instancePath\+"\/webhooks\/" \+ i\d+\+"\/clientConfig\/caBundle"/)?.[0];
    expect(line).toBeDefined();
    expect(bundle.replace(/\s+/g, '')).toContain(line!.replace(/\s+/g, ''));
  });

  it('report what compiling the schemas reports, error by error and problem by problem', () => {
    const objects = fixtureObjects();
    expect(objects.length).toBeGreaterThan(50);
    for (const kind of KINDS) expect(objects.some((entry) => entry.kind === kind)).toBe(true);
    const compiled = new Map<string, ValidateFunction>();
    const schemaOf = (kind: (typeof KINDS)[number]): object =>
      (WEBHOOK_CONFIGURATION_KINDS as readonly string[]).includes(kind) ? webhookConfigurationSchema(kind as WebhookConfigurationKind) : policySchema(kind as PolicyKind);
    const checkers = {
      precompiled: {
        webhook: schemaChecker<WebhookConfigurationKind>(webhookConfigurationSchema, webhookUnknownFieldNote, generated.precompiled),
        policy: schemaChecker<PolicyKind>(policySchema, policyUnknownFieldNote, generated.precompiled),
      },
      compiled: {
        webhook: schemaChecker<WebhookConfigurationKind>(webhookConfigurationSchema, webhookUnknownFieldNote, {}),
        policy: schemaChecker<PolicyKind>(policySchema, policyUnknownFieldNote, {}),
      },
    };
    let compared = 0;
    let withProblems = 0;
    for (const { kind, object } of objects) {
      if (!compiled.has(kind)) compiled.set(kind, decodeAjv().compile(schemaOf(kind)));
      const family = (WEBHOOK_CONFIGURATION_KINDS as readonly string[]).includes(kind) ? 'webhook' : 'policy';
      for (const value of [object, ...breakages(object)]) {
        expect(errorsOf(generated.precompiled[kind]!, value)).toEqual(errorsOf(compiled.get(kind)!, value));
        const problems = (checkers.precompiled[family] as (kind: string, value: unknown) => unknown[])(kind, value);
        expect(problems).toEqual((checkers.compiled[family] as (kind: string, value: unknown) => unknown[])(kind, value));
        compared++;
        if (problems.length > 0) withProblems++;
      }
    }
    expect(compared).toBeGreaterThan(1000);
    expect(withProblems).toBeGreaterThan(500);
  });
});
