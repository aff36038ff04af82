import type { PolicyObject } from '../src/model/objects.js';
import { isBinding, isPolicyDefaulted, policySpec } from '../src/model/policies.js';
import { isDefaulted, isV1beta1, webhooksOf } from '../src/model/webhooks.js';
import { ALL_WEBHOOK_KINDS, defineObjectRule, type Violation } from '../src/rule.js';

type MessageId = 'failDefault' | 'ignoreDefault' | 'validatingPolicyDefault' | 'mutatingPolicyDefault';

/** What Fail does with a policy's errors, for its help. */
const POLICY_CONSEQUENCE = {
  validating: 'With Fail, an expression that errors at run time (on an object that lacks a field, say) counts as a failed validation, which bindings with Deny reject',
  mutating: 'With Fail, a mutation or matchCondition that errors at run time (on an object that lacks a field, say) rejects the request',
} as const;

const PARAMS = {
  validating: "; and a param that a binding with parameterNotFoundAction Deny cannot find rejects the request whatever the binding's validationActions",
  mutating: ', and so does a param that a binding with parameterNotFoundAction Deny cannot find',
} as const;

/** Policies (not bindings: they have no failurePolicy) that leave spec.failurePolicy to the API default, Fail in every version. */
function checkPolicyObject(object: PolicyObject): Violation<MessageId>[] {
  if (isBinding(object) || policySpec(object) === undefined) return [];
  if (!isPolicyDefaulted(object, ['spec', 'failurePolicy'])) return [];
  const params = policySpec(object)?.paramKind != null;
  return [
    {
      messageId: object.kind === 'MutatingAdmissionPolicy' ? 'mutatingPolicyDefault' : 'validatingPolicyDefault',
      data: {
        policy: object.name ?? '(unnamed)',
        params: params ? PARAMS[object.kind === 'MutatingAdmissionPolicy' ? 'mutating' : 'validating'] : '',
      },
      path: ['spec', 'failurePolicy'],
      help: `${object.kind === 'MutatingAdmissionPolicy' ? POLICY_CONSEQUENCE.mutating : POLICY_CONSEQUENCE.validating}${params ? PARAMS[object.kind === 'MutatingAdmissionPolicy' ? 'mutating' : 'validating'] : ''}. Write failurePolicy: Fail or failurePolicy: Ignore, having decided what an expression that errors should do: reject the request, or let it through unchecked.`,
    },
  ];
}

export const rule = defineObjectRule({
  meta: {
    id: 'implicit-failure-policy',
    title: 'failurePolicy is omitted, so the API default (Fail in v1) decides what an outage or an error does',
    aboutCalls: true,
    severity: 'warning',
    appliesTo: [...ALL_WEBHOOK_KINDS, 'ValidatingAdmissionPolicy', 'MutatingAdmissionPolicy'],
    messages: {
      failDefault:
        'webhook "{{webhook}}" does not set failurePolicy: the API default is Fail',
      ignoreDefault:
        'webhook "{{webhook}}" does not set failurePolicy: the v1beta1 default is Ignore (v1 defaults to Fail)',
      validatingPolicyDefault:
        'ValidatingAdmissionPolicy "{{policy}}" does not set failurePolicy: the API default is Fail',
      mutatingPolicyDefault:
        'MutatingAdmissionPolicy "{{policy}}" does not set failurePolicy: the API default is Fail',
    },
    help: 'With Fail, every request the webhook matches is rejected while it is down, slow or presents a bad certificate; with Ignore (the v1beta1 default), those requests are admitted unchecked. Write failurePolicy: Fail or failurePolicy: Ignore, having decided which outage you prefer: blocked writes or unchecked ones.',
  },
  create() {
    return {
      policy: checkPolicyObject,
      webhookConfiguration(object) {
        return webhooksOf(object)
          .filter((entry) => isDefaulted(object, [...entry.path, 'failurePolicy']))
          .map((entry) => ({
            messageId: isV1beta1(object) ? ('ignoreDefault' as const) : ('failDefault' as const),
            data: { webhook: entry.label },
            path: [...entry.path, 'failurePolicy'],
          }));
      },
    };
  },
});
