/**
 * API defaults for admission policies and bindings (facts §1.1/§1.2: v1 and v1beta1
 * defaults.go and zz_generated.defaults.go): spec.failurePolicy Fail on policies; in
 * matchConstraints and a binding's matchResources (when present) matchPolicy Equivalent,
 * empty selectors, and scope "*" on every resource rule. MutatingAdmissionPolicy's
 * reinvocationPolicy has no default (it is required).
 */
import { formatFieldPath, type FieldPath } from '../field-path.js';
import { cloneData } from './clone.js';
import type { PolicyKind } from '../model/types.js';
import type { Defaulted } from './webhooks.js';

type Json = Record<string, unknown>;

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function defaultPolicy(written: unknown, kind: PolicyKind): Defaulted {
  const effective: unknown = cloneData(written);
  const defaulted = new Set<string>();
  const defaultedPaths: FieldPath[] = [];
  const fill = (target: Json, key: string, value: unknown, path: FieldPath): void => {
    if (target[key] === undefined || target[key] === null) {
      target[key] = cloneData(value);
      defaulted.add(formatFieldPath([...path, key]));
      defaultedPaths.push([...path, key]);
    }
  };
  if (!isObject(effective) || !isObject(effective.spec)) return { effective, defaulted, defaultedPaths };
  const spec = effective.spec;
  const isBinding = kind.endsWith('Binding');
  if (!isBinding) fill(spec, 'failurePolicy', 'Fail', ['spec']);
  const matchKey = isBinding ? 'matchResources' : 'matchConstraints';
  const match = spec[matchKey];
  if (isObject(match)) {
    const at: FieldPath = ['spec', matchKey];
    fill(match, 'namespaceSelector', {}, at);
    fill(match, 'objectSelector', {}, at);
    fill(match, 'matchPolicy', 'Equivalent', at);
    for (const list of ['resourceRules', 'excludeResourceRules'] as const) {
      const rules = match[list];
      if (!Array.isArray(rules)) continue;
      rules.forEach((rule: unknown, i: number) => {
        if (isObject(rule)) fill(rule, 'scope', '*', [...at, list, i]);
      });
    }
  }
  return { effective, defaulted, defaultedPaths };
}
