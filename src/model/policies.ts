/**
 * Read-only helpers for admission policies and their bindings: which kind binds which, who
 * binds a policy, what a binding refers to. A binding refers to its policy by name only
 * (spec.policyName); a ValidatingAdmissionPolicyBinding binds ValidatingAdmissionPolicies, a
 * MutatingAdmissionPolicyBinding MutatingAdmissionPolicies, whatever their API versions.
 */
import { formatFieldPath, type FieldPath } from '../field-path.js';
import { closest } from '../text/closest.js';
import type { PolicyObject } from './objects.js';
import type { AdmissionPolicy, AdmissionPolicyBinding, MatchResources, PolicyKind } from './types.js';

export type PolicyDefinitionKind = 'ValidatingAdmissionPolicy' | 'MutatingAdmissionPolicy';
export type PolicyBindingKind = 'ValidatingAdmissionPolicyBinding' | 'MutatingAdmissionPolicyBinding';

export const POLICY_DEFINITION_KINDS = ['ValidatingAdmissionPolicy', 'MutatingAdmissionPolicy'] as const;
export const POLICY_BINDING_KINDS = ['ValidatingAdmissionPolicyBinding', 'MutatingAdmissionPolicyBinding'] as const;

export function isBindingKind(kind: PolicyKind): kind is PolicyBindingKind {
  return kind === 'ValidatingAdmissionPolicyBinding' || kind === 'MutatingAdmissionPolicyBinding';
}

export function isBinding(object: PolicyObject): boolean {
  return isBindingKind(object.kind);
}

export function isMutatingKind(kind: PolicyKind): boolean {
  return kind.startsWith('Mutating');
}

/** The binding kind that binds policies of this kind. */
export function bindingKindFor(kind: PolicyDefinitionKind): PolicyBindingKind {
  return `${kind}Binding`;
}

/** The policy kind a binding of this kind binds. */
export function policyKindFor(kind: PolicyBindingKind): PolicyDefinitionKind {
  return kind.slice(0, -'Binding'.length) as PolicyDefinitionKind;
}

export function policySpec(object: PolicyObject): Readonly<AdmissionPolicy['spec']> {
  const spec = (object.effective as AdmissionPolicy).spec;
  return spec !== null && typeof spec === 'object' ? spec : undefined;
}

export function bindingSpec(object: PolicyObject): Readonly<AdmissionPolicyBinding['spec']> {
  const spec = (object.effective as AdmissionPolicyBinding).spec;
  return spec !== null && typeof spec === 'object' ? spec : undefined;
}

/** spec.policyName of a binding, when it is a non-empty string. */
export function policyNameOf(binding: PolicyObject): string | undefined {
  const name = bindingSpec(binding)?.policyName;
  return typeof name === 'string' && name !== '' ? name : undefined;
}

/** The policy's spec.matchConstraints or the binding's spec.matchResources, with its path. */
export function matchResourcesOf(object: PolicyObject): { readonly match: Readonly<MatchResources> | undefined; readonly path: FieldPath } {
  if (isBinding(object)) {
    const match = bindingSpec(object)?.matchResources;
    return { match: match !== null && typeof match === 'object' ? match : undefined, path: ['spec', 'matchResources'] };
  }
  const match = policySpec(object)?.matchConstraints;
  return { match: match !== null && typeof match === 'object' ? match : undefined, path: ['spec', 'matchConstraints'] };
}

export function isPolicyDefaulted(object: PolicyObject, path: FieldPath): boolean {
  return object.defaulted.has(formatFieldPath(path));
}

/** How a policy or binding is named in messages: `ValidatingAdmissionPolicy "name"`. */
export function describePolicyObject(object: PolicyObject): string {
  return `${object.kind} "${object.name ?? '(unnamed)'}"`;
}

/** The policies of `kind` in the run. */
export function policiesOfKind(objects: readonly PolicyObject[], kind: PolicyDefinitionKind): PolicyObject[] {
  return objects.filter((object) => object.kind === kind);
}

/** The bindings of `kind` in the run. */
export function bindingsOfKind(objects: readonly PolicyObject[], kind: PolicyBindingKind): PolicyObject[] {
  return objects.filter((object) => object.kind === kind);
}

/** Objects of the run by "kind/name" and bindings by "kind/policyName", built once per run. */
const indexes = new WeakMap<readonly PolicyObject[], { byName: Map<string, PolicyObject[]>; byPolicyName: Map<string, PolicyObject[]> }>();

function indexOf(objects: readonly PolicyObject[]): { byName: Map<string, PolicyObject[]>; byPolicyName: Map<string, PolicyObject[]> } {
  let index = indexes.get(objects);
  if (index === undefined) {
    index = { byName: new Map(), byPolicyName: new Map() };
    const add = (map: Map<string, PolicyObject[]>, key: string, object: PolicyObject): void => {
      const list = map.get(key);
      if (list) list.push(object);
      else map.set(key, [object]);
    };
    for (const object of objects) {
      if (object.name !== undefined) add(index.byName, `${object.kind}/${object.name}`, object);
      const policyName = isBindingKind(object.kind) ? policyNameOf(object) : undefined;
      if (policyName !== undefined) add(index.byPolicyName, `${object.kind}/${policyName}`, object);
    }
    indexes.set(objects, index);
  }
  return index;
}

/** The bindings of the run that refer to this policy (right kind, spec.policyName equal to its name). */
export function bindingsOf(policy: PolicyObject, objects: readonly PolicyObject[]): PolicyObject[] {
  if (isBinding(policy) || policy.name === undefined) return [];
  const kind = bindingKindFor(policy.kind as PolicyDefinitionKind);
  return [...(indexOf(objects).byPolicyName.get(`${kind}/${policy.name}`) ?? [])];
}

/** The policies of the run that this binding refers to (normally one; a run may hold overlays). */
export function policiesOf(binding: PolicyObject, objects: readonly PolicyObject[]): PolicyObject[] {
  const name = policyNameOf(binding);
  if (!isBindingKind(binding.kind) || name === undefined) return [];
  const kind = policyKindFor(binding.kind);
  return [...(indexOf(objects).byName.get(`${kind}/${name}`) ?? [])];
}

/**
 * For a binding whose policyName names no policy of its kind in the run: the name of the
 * policy it most likely meant (a near miss among the run's policies of that kind), if any.
 */
export function suggestedPolicyName(binding: PolicyObject, objects: readonly PolicyObject[]): string | undefined {
  const name = policyNameOf(binding);
  if (!isBindingKind(binding.kind) || name === undefined) return undefined;
  const names = [...new Set(policiesOfKind(objects, policyKindFor(binding.kind)).map((p) => p.name).filter((n): n is string => n !== undefined))];
  if (names.includes(name)) return undefined;
  return closest(name, names);
}

/**
 * For a binding whose policyName names no policy of its kind in the run: the policy of the
 * other kind with that name, when no binding of that policy's own kind binds it (a
 * ValidatingAdmissionPolicyBinding written for a MutatingAdmissionPolicy, or the reverse).
 */
export function wrongKindPolicy(binding: PolicyObject, objects: readonly PolicyObject[]): PolicyObject | undefined {
  const name = policyNameOf(binding);
  if (!isBindingKind(binding.kind) || name === undefined || policiesOf(binding, objects).length > 0) return undefined;
  const otherKind: PolicyDefinitionKind = policyKindFor(binding.kind) === 'ValidatingAdmissionPolicy' ? 'MutatingAdmissionPolicy' : 'ValidatingAdmissionPolicy';
  return policiesOfKind(objects, otherKind).find((policy) => policy.name === name && bindingsOf(policy, objects).length === 0);
}
