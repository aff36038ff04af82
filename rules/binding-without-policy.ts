import type { PolicyObject } from '../src/model/objects.js';
import { bindingKindFor, isBindingKind, type PolicyDefinitionKind, policyKindFor, policyNameOf, wrongKindPolicy } from '../src/model/policies.js';
import { policyIndexOf } from '../src/match/bindings.js';
import { unreadableMayHold } from '../src/match/unreadable.js';
import { defineObjectRule, type RuleRun, type Violation } from '../src/rule.js';

type MessageId = 'missing' | 'wrongKind';

/**
 * A binding whose policyName names no policy of its kind in the run. Only when the run holds
 * policies of that kind at all (a repository may keep bindings and policies in separate
 * folders), or when the name is that of a policy of the other kind that nothing of its own
 * kind binds: a ValidatingAdmissionPolicyBinding cannot bind a MutatingAdmissionPolicy.
 */
function checkBinding(object: PolicyObject, run: RuleRun): Violation<MessageId>[] {
  if (!isBindingKind(object.kind)) return [];
  const name = policyNameOf(object);
  const index = policyIndexOf(run);
  if (name === undefined || index.policiesOf(object).length > 0) return [];
  const policyKind = policyKindFor(object.kind);
  // The policy may be in a document the run could not read: its absence is not known.
  if (unreadableMayHold(run, policyKind)) return [];
  const path = ['spec', 'policyName'];
  const other = wrongKindPolicy(object, index);
  if (other !== undefined) {
    const otherKind = other.kind as PolicyDefinitionKind;
    return [{ messageId: 'wrongKind', data: { binding: object.kind, policyKind, name, otherKind, otherBinding: bindingKindFor(otherKind) }, path }];
  }
  if (!index.hasObjectsOfKind(policyKind)) return [];
  const suggestion = index.suggestedPolicyName(object);
  return [
    {
      messageId: 'missing',
      data: { binding: object.kind, policyKind, name, hint: suggestion === undefined ? '' : `; did you mean "${suggestion}"?` },
      path,
    },
  ];
}

export const rule = defineObjectRule({
  meta: {
    id: 'binding-without-policy',
    title: 'A binding refers to a policy that is not in the run',
    severity: 'error',
    appliesTo: ['ValidatingAdmissionPolicyBinding', 'MutatingAdmissionPolicyBinding'],
    messages: {
      missing:
        'policyName "{{name}}" names no {{policyKind}} of the run{{hint}}',
      wrongKind:
        'policyName "{{name}}" names a {{otherKind}}, which a {{binding}} cannot bind: it binds nothing',
    },
    help: 'The binding binds nothing: the API server accepts it and waits for a policy of that name; a ValidatingAdmissionPolicyBinding binds only a ValidatingAdmissionPolicy, a MutatingAdmissionPolicyBinding only a MutatingAdmissionPolicy. Set spec.policyName to the metadata.name of the policy this binding is for, or bind a policy of the other kind with a binding of its kind.',
  },
  create(run) {
    return {
      policy: (object) => checkBinding(object, run),
    };
  },
});
