/** The run's policies and bindings, indexed once per run (src/model/policies.ts PolicyIndex). */
import { PolicyIndex } from '../model/policies.js';
import { memoKey, type RunScope } from '../run-scope.js';

const POLICY_INDEX = memoKey<PolicyIndex>('the run\'s policy index');

export function policyIndexOf(scope: Pick<RunScope, 'policies' | 'memo'>): PolicyIndex {
  return scope.memo.get(POLICY_INDEX, () => new PolicyIndex(scope.policies));
}
