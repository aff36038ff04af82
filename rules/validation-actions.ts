import type { PolicyObject } from '../src/model/objects.js';
import { bindingSpec } from '../src/model/policies.js';
import { defineObjectRule, type Violation } from '../src/rule.js';

const ACTIONS = new Set(['Deny', 'Warn', 'Audit']);

type MessageId = 'auditOnly' | 'warnOnly';

/**
 * A binding whose validationActions reject nothing. Lists the API server rejects (empty,
 * duplicates, unknown values, Deny with Warn) are api-validation's findings, not this rule's.
 */
function checkBinding(object: PolicyObject): Violation<MessageId>[] {
  if (object.kind !== 'ValidatingAdmissionPolicyBinding') return [];
  const actions = bindingSpec(object)?.validationActions;
  if (!Array.isArray(actions) || actions.length === 0) return [];
  if (!actions.every((action) => typeof action === 'string' && ACTIONS.has(action))) return [];
  if (new Set(actions).size !== actions.length) return [];
  if (actions.includes('Deny')) return [];
  const policy = bindingSpec(object)?.policyName;
  const data = { policy: typeof policy === 'string' && policy !== '' ? `policy "${policy}"` : 'the policy', actions: actions.join(', ') };
  return [{ messageId: actions.includes('Warn') ? 'warnOnly' : 'auditOnly', data, path: ['spec', 'validationActions'] }];
}

export const rule = defineObjectRule({
  meta: {
    id: 'validation-actions',
    title: 'A binding whose validationActions reject nothing (Audit or Warn without Deny)',
    severity: 'info',
    appliesTo: ['ValidatingAdmissionPolicyBinding'],
    messages: {
      auditOnly:
        'validationActions is [{{actions}}]: a request that fails {{policy}} is admitted, the failure only audited',
      warnOnly:
        'validationActions is [{{actions}}]: a request that fails {{policy}} is admitted with a warning',
    },
    help: 'Without Deny nothing is rejected: Audit only writes the failure to the audit log (if the cluster records audit events), and the client is not told; Warn only warns the client. Add Deny to validationActions once the policy has been observed in Warn or Audit mode (Deny and Audit may be combined; Deny and Warn may not).',
  },
  create() {
    return {
      policy: checkBinding,
    };
  },
});
