/**
 * Read-only helpers for admission policies and their bindings: which kind binds which, who
 * binds a policy, what a binding refers to. A binding refers to its policy by name only
 * (spec.policyName); a ValidatingAdmissionPolicyBinding binds ValidatingAdmissionPolicies, a
 * MutatingAdmissionPolicyBinding MutatingAdmissionPolicies, whatever their API versions.
 */
import { formatFieldPath, type FieldPath } from '../field-path.js';
import { editDistance } from '../text/closest.js';
import type { PolicyObject } from './objects.js';
import type { AdmissionPolicy, AdmissionPolicyBinding, MatchResources, PolicyKind } from './types.js';

/** The annotation that keeps an object out of kustomize's output. */
const LOCAL_CONFIG = 'config.kubernetes.io/local-config';

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

/** Whether a binding can reject or change anything: any mutating binding, a validating one with Deny among its validationActions. */
export function bindingCanReject(binding: PolicyObject): boolean {
  if (binding.kind === 'MutatingAdmissionPolicyBinding') return true;
  const actions = bindingSpec(binding)?.validationActions;
  return Array.isArray(actions) && actions.includes('Deny');
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

/**
 * The edit-distance cells (characters × characters) one run may spend on "did you mean"
 * suggestions: bindings × policies × name lengths grew to minutes (4,000 of each: 64 s). Past
 * it, bindings get no suggestion; the finding itself is unchanged.
 */
export const SUGGESTION_BUDGET = 20_000_000;

/**
 * A set of policies and bindings (a run's, or the decodable ones simulate reads), indexed once:
 * objects by "kind/name", bindings by "kind/policyName", counts and names per kind, and the
 * "did you mean" suggestions with the edit-distance work spent on them.
 */
/**
 * The builds that hold a file and the names they give its objects (src/match/kustomize-names.ts):
 * a binding names its policy as a build that holds both names it.
 */
export interface BuildsOfFiles {
  buildsOf(file: string): readonly { readonly root: string; readonly prefix: string; readonly suffix: string }[];
  /** Every name objects of the file get on the way to a top build (undefined: not followed). */
  namesOnTheWay(file: string, name: string): ReadonlySet<string> | undefined;
}

/** Whether one top build holds the file through two ways (two overlays of one base). */
function includedTwice(builds: readonly { readonly root: string }[]): boolean {
  return new Set(builds.map((build) => build.root)).size !== builds.length;
}

export class PolicyIndex {
  readonly #byName = new Map<string, PolicyObject[]>();
  /** Policies by the names builds give them: `kind/root/name`. */
  readonly #byBuiltName = new Map<string, PolicyObject[]>();
  /**
   * `kind/name` of the names policies have on the way to a top build but not at its end:
   * kustomize's name references may rewrite a policyName of such a name to that policy's final name.
   */
  readonly #earlierNames = new Set<string>();
  readonly #builds: BuildsOfFiles | undefined;
  readonly #byPolicyName = new Map<string, PolicyObject[]>();
  readonly #kindCounts = new Map<string, number>();
  readonly #names = new Map<PolicyDefinitionKind, { list: string[]; set: Set<string> }>();
  readonly #suggestions = new Map<PolicyObject, string | undefined>();
  readonly #work = { cells: 0 };

  constructor(
    readonly objects: readonly PolicyObject[],
    builds?: BuildsOfFiles,
  ) {
    this.#builds = builds;
    const add = (map: Map<string, PolicyObject[]>, key: string, object: PolicyObject): void => {
      const list = map.get(key);
      if (list) list.push(object);
      else map.set(key, [object]);
    };
    for (const object of objects) {
      if (object.name !== undefined) add(this.#byName, `${object.kind}/${object.name}`, object);
      if (object.name !== undefined && !isBindingKind(object.kind)) {
        const tops = new Set<string>();
        for (const build of this.#buildsOf(object)) {
          const built = `${build.prefix}${object.name}${build.suffix}`;
          tops.add(built);
          add(this.#byBuiltName, `${object.kind}/${build.root}/${built}`, object);
        }
        for (const name of builds?.namesOnTheWay(object.manifest.file.path, object.name) ?? []) if (name !== object.name && !tops.has(name)) this.#earlierNames.add(`${object.kind}/${name}`);
      }
      const policyName = isBindingKind(object.kind) ? policyNameOf(object) : undefined;
      if (policyName !== undefined) add(this.#byPolicyName, `${object.kind}/${policyName}`, object);
      this.#kindCounts.set(object.kind, (this.#kindCounts.get(object.kind) ?? 0) + 1);
    }
  }

  /**
   * The bindings that refer to this policy (right kind, spec.policyName equal to its name, or to
   * the name every build that holds the binding gives the policy: see policiesOf).
   */
  bindingsOf(policy: PolicyObject): PolicyObject[] {
    if (isBinding(policy) || policy.name === undefined) return [];
    const kind = bindingKindFor(policy.kind as PolicyDefinitionKind);
    const found = new Set(this.#byPolicyName.get(`${kind}/${policy.name}`) ?? []);
    for (const build of this.#buildsOf(policy)) {
      for (const binding of this.#byPolicyName.get(`${kind}/${build.prefix}${policy.name}${build.suffix}`) ?? []) {
        if (this.policiesOf(binding).includes(policy)) found.add(binding);
      }
    }
    return [...found];
  }

  /**
   * The policies this binding refers to (normally one; a run may hold overlays): those of the name
   * it writes; else, when kustomize builds it, the policy that every top build holding the binding
   * names so (`policyName: app-check` for a policy written `check`, under `namePrefix: app-`). A
   * policyName that is a policy's written name is kustomize's to rewrite with that policy's name.
   */
  policiesOf(binding: PolicyObject): PolicyObject[] {
    const name = policyNameOf(binding);
    if (!isBindingKind(binding.kind) || name === undefined) return [];
    const kind = policyKindFor(binding.kind);
    const written = this.#byName.get(`${kind}/${name}`);
    const builds = this.#buildsOf(binding);
    // kustomize's name references rewrite a ValidatingAdmissionPolicyBinding's policyName with
    // its policy's new name, and not (v5.5) a MutatingAdmissionPolicyBinding's: built, that one
    // binds the policy only where the build names it so.
    if (written !== undefined && (binding.kind !== 'MutatingAdmissionPolicyBinding' || builds.length === 0)) return [...written];
    if (builds.length === 0 || this.#earlierNames.has(`${kind}/${name}`) || includedTwice(builds)) return [];
    const roots = new Set(builds.map((build) => build.root));
    const candidates = this.#byBuiltName.get(`${kind}/${builds[0]!.root}/${name}`) ?? [];
    return candidates.filter((policy) => {
      const policyBuilds = this.#buildsOf(policy);
      // Every top build that holds the binding names the policy so, and every top build that
      // holds the policy holds the binding (else that build's policy is unbound); a build that
      // holds a file twice (two overlays of one base) gives it two names.
      return (
        !includedTwice(policyBuilds) &&
        policyBuilds.every((build) => roots.has(build.root)) &&
        builds.every((build) => (this.#byBuiltName.get(`${kind}/${build.root}/${name}`) ?? []).includes(policy))
      );
    });
  }

  #buildsOf(object: PolicyObject): ReturnType<BuildsOfFiles['buildsOf']> {
    // kustomize leaves an object annotated config.kubernetes.io/local-config out of its output,
    // whatever the value but "false" ("True", "", an unquoted true: kyaml's DropLocalNodes).
    const annotations = (object.effective as { metadata?: { annotations?: Record<string, unknown> } }).metadata?.annotations;
    if (annotations != null && Object.prototype.hasOwnProperty.call(annotations, LOCAL_CONFIG) && annotations[LOCAL_CONFIG] !== 'false') return [];
    return this.#builds?.buildsOf(object.manifest.file.path) ?? [];
  }

  /** The objects of this kind and name. */
  named(kind: PolicyKind, name: string): readonly PolicyObject[] {
    return this.#byName.get(`${kind}/${name}`) ?? [];
  }

  /** Whether the set holds any object of this kind. */
  hasObjectsOfKind(kind: PolicyKind): boolean {
    return (this.#kindCounts.get(kind) ?? 0) > 0;
  }

  /**
   * For a binding whose policyName names no policy of its kind: the name of the policy it most
   * likely meant (a near miss among the policies of that kind), if any, within SUGGESTION_BUDGET.
   */
  suggestedPolicyName(binding: PolicyObject): string | undefined {
    const name = policyNameOf(binding);
    if (!isBindingKind(binding.kind) || name === undefined) return undefined;
    if (this.#suggestions.has(binding)) return this.#suggestions.get(binding);
    const names = this.#namesOfKind(policyKindFor(binding.kind));
    const suggestion = names.set.has(name) ? undefined : closestName(name, names.list, this.#work);
    this.#suggestions.set(binding, suggestion);
    return suggestion;
  }

  /** The edit-distance cells spent on suggestions so far (for tests that count work). */
  get suggestionCells(): number {
    return this.#work.cells;
  }

  /** The unique names of the policies of a kind, in order. */
  #namesOfKind(kind: PolicyDefinitionKind): { list: string[]; set: Set<string> } {
    let names = this.#names.get(kind);
    if (names === undefined) {
      const set = new Set<string>();
      for (const object of this.objects) if (object.kind === kind && object.name !== undefined) set.add(object.name);
      names = { list: [...set], set };
      this.#names.set(kind, names);
    }
    return names;
  }
}

/**
 * closest() (src/text/closest.ts) with the same answer, skipping the candidates whose length
 * alone puts them too far (the edit distance is at least the difference in length): the first
 * candidate at the smallest distance, if that distance is small enough.
 */
function closestName(word: string, candidates: readonly string[], work: { cells: number }, maxDistance = Math.max(2, Math.floor(word.length / 3))): string | undefined {
  const lower = word.toLowerCase();
  let best: string | undefined;
  let bestDistance = Infinity;
  for (const candidate of candidates) {
    const other = candidate.toLowerCase();
    const gap = Math.abs(other.length - lower.length);
    // Such a candidate can neither beat the best so far nor be close enough to be returned.
    if (gap >= bestDistance || gap > maxDistance) continue;
    const cells = lower.length * other.length;
    if (work.cells + cells > SUGGESTION_BUDGET) return undefined;
    work.cells += cells;
    const distance = editDistance(lower, other);
    if (distance < bestDistance) {
      best = candidate;
      bestDistance = distance;
    }
  }
  return bestDistance <= maxDistance ? best : undefined;
}

/**
 * For a binding whose policyName names no policy of its kind in the run: the policy of the
 * other kind with that name, when no binding of that policy's own kind binds it (a
 * ValidatingAdmissionPolicyBinding written for a MutatingAdmissionPolicy, or the reverse).
 */
export function wrongKindPolicy(binding: PolicyObject, index: PolicyIndex): PolicyObject | undefined {
  const name = policyNameOf(binding);
  if (!isBindingKind(binding.kind) || name === undefined || index.policiesOf(binding).length > 0) return undefined;
  const otherKind: PolicyDefinitionKind = policyKindFor(binding.kind) === 'ValidatingAdmissionPolicy' ? 'MutatingAdmissionPolicy' : 'ValidatingAdmissionPolicy';
  return index.named(otherKind, name).find((policy) => index.bindingsOf(policy).length === 0);
}
