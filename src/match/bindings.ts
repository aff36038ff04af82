/** The run's policies and bindings, indexed once per run (src/model/policies.ts PolicyIndex). */
import { PolicyIndex } from '../model/policies.js';
import { kustomizeNamesOf } from './kustomize-names.js';
import { memoKey, type RunScope } from '../run-scope.js';

const POLICY_INDEX = memoKey<PolicyIndex>('the run\'s policy index');

/** The run's policies and bindings; a binding names its policy as written, or as a kustomization of the run that builds both names it. */
export function policyIndexOf(scope: Pick<RunScope, 'policies' | 'memo' | 'kustomizations' | 'kustomizePatches'>): PolicyIndex {
  return scope.memo.get(POLICY_INDEX, () => new PolicyIndex(scope.policies, kustomizeNamesOf(scope)));
}
