import type { PolicyObject } from '../src/model/objects.js';
import { bindingKindFor, bindingsOf, bindingsOfKind, isBinding, suggestedPolicyName, wrongKindPolicy, type PolicyDefinitionKind } from '../src/model/policies.js';
import { defineObjectRule, type RuleContext, type Violation } from '../src/rule.js';

type MessageId = 'unbound';

/**
 * A policy that no binding of the run binds. Only when the run holds at least one binding of
 * the matching kind: a repository may keep its policies and bindings in separate folders, and
 * linting one of them must not report every policy. A policy that a dangling binding most
 * likely meant (a near miss of its name, or its exact name in a binding of the wrong kind) is
 * left to binding-without-policy, which reports the mistake where it is.
 */
function checkPolicyObject(object: PolicyObject, context: RuleContext): Violation<MessageId>[] {
  if (isBinding(object) || object.name === undefined) return [];
  const bindingKind = bindingKindFor(object.kind as PolicyDefinitionKind);
  const bindings = bindingsOfKind(context.policies, bindingKind);
  if (bindings.length === 0) return [];
  if (bindingsOf(object, context.policies).length > 0) return [];
  // The same problem seen from the binding's side: a typo in its policyName, or a binding of the wrong kind.
  if (bindings.some((binding) => wrongKindPolicy(binding, context.policies) === undefined && suggestedPolicyName(binding, context.policies) === object.name)) return [];
  if (
    context.policies.some((binding) => {
      const meant = isBinding(binding) ? wrongKindPolicy(binding, context.policies) : undefined;
      return meant !== undefined && meant.kind === object.kind && meant.name === object.name;
    })
  )
    return [];
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
        'no {{bindingKind}} in the run has policyName "{{name}}", so {{kind}} "{{name}}" {{effect}}: a policy takes effect only through a binding',
    },
    help: 'Add a binding whose spec.policyName is the policy\'s name (or delete the policy if it is no longer used).',
  },
  checkPolicy: checkPolicyObject,
});
