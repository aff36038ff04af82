import type { PolicyObject } from '../src/model/objects.js';
import { bindingKindFor, isBinding, type PolicyDefinitionKind, type PolicyIndex, wrongKindPolicy } from '../src/model/policies.js';
import { policyIndexOf } from '../src/match/bindings.js';
import { unreadableMayHold } from '../src/match/unreadable.js';
import { defineObjectRule, type RuleRun, type Violation } from '../src/rule.js';

type MessageId = 'unbound';

/**
 * A policy that no binding of the run binds. Only when the run holds at least one binding of
 * the matching kind: a repository may keep its policies and bindings in separate folders, and
 * linting one of them must not report every policy. A policy that a dangling binding most
 * likely meant (a near miss of its name, or its exact name in a binding of the wrong kind) is
 * left to binding-without-policy, which reports the mistake where it is.
 */
/**
 * What the run's bindings say about the policies they do not bind, computed once per run: per
 * binding kind, the names that dangling bindings of that kind most likely meant (near misses),
 * and the policies that bindings of the wrong kind name ("kind/name").
 */
interface Analysis {
  readonly bindingKinds: ReadonlySet<string>;
  readonly nearMisses: ReadonlyMap<string, ReadonlySet<string>>;
  readonly meantByWrongKind: ReadonlySet<string>;
}

/** What the run's bindings say about the policies they meant; computed once per run. */
function analyse(index: PolicyIndex): Analysis {
  const bindingKinds = new Set<string>();
  const nearMisses = new Map<string, Set<string>>();
  const meantByWrongKind = new Set<string>();
  for (const binding of index.objects) {
    if (!isBinding(binding)) continue;
    bindingKinds.add(binding.kind);
    const meant = wrongKindPolicy(binding, index);
    if (meant !== undefined) {
      meantByWrongKind.add(`${meant.kind}/${meant.name}`);
      continue;
    }
    const suggestion = index.suggestedPolicyName(binding);
    if (suggestion === undefined) continue;
    const names = nearMisses.get(binding.kind) ?? new Set<string>();
    names.add(suggestion);
    nearMisses.set(binding.kind, names);
  }
  return { bindingKinds, nearMisses, meantByWrongKind };
}

function checkPolicyObject(object: PolicyObject, run: RuleRun, analysisOfRun: () => Analysis): Violation<MessageId>[] {
  if (isBinding(object) || object.name === undefined) return [];
  const bindingKind = bindingKindFor(object.kind as PolicyDefinitionKind);
  const analysis = analysisOfRun();
  if (!analysis.bindingKinds.has(bindingKind)) return [];
  if (policyIndexOf(run).bindingsOf(object).length > 0) return [];
  // A binding may be in a document the run could not read: that nothing binds the policy is not known.
  if (unreadableMayHold(run, bindingKind)) return [];
  // The same problem seen from the binding's side: a typo in its policyName, or a binding of the wrong kind.
  if (analysis.nearMisses.get(bindingKind)?.has(object.name)) return [];
  if (analysis.meantByWrongKind.has(`${object.kind}/${object.name}`)) return [];
  return [
    {
      messageId: 'unbound',
      data: {
        kind: object.kind,
        name: object.name,
        bindingKind,
        effect: object.kind === 'MutatingAdmissionPolicy' ? 'mutates nothing' : 'validates nothing',
      },
      path: ['metadata', 'name'],
    },
  ];
}

export const rule = defineObjectRule({
  meta: {
    id: 'policy-without-binding',
    title: 'An admission policy that no binding in the run refers to does nothing',
    severity: 'warning',
    appliesTo: ['ValidatingAdmissionPolicy', 'MutatingAdmissionPolicy'],
    messages: {
      unbound:
        'no {{bindingKind}} in the run binds {{kind}} "{{name}}", so it {{effect}}',
    },
    help: 'A policy takes effect only through a binding whose spec.policyName is its name. Add such a binding (or delete the policy if it is no longer used).',
  },
  create(run) {
    let analysis: Analysis | undefined;
    const analysisOfRun = (): Analysis => (analysis ??= analyse(policyIndexOf(run)));
    return {
      policy: (object) => checkPolicyObject(object, run, analysisOfRun),
    };
  },
});
