/** The labels a namespace has, as far as the run can tell. */
import { isAtLeast } from '../kube/version.js';
import { NAMESPACE_NAME_LABEL } from '../model/recognize.js';
import type { RuleContext } from '../rule.js';
import type { Labels } from './selector.js';

/**
 * A Namespace manifest's labels when the run has one, else none; plus
 * `kubernetes.io/metadata.name`, which the API server sets on every Namespace from 1.21.
 */
export function namespaceLabels(context: Pick<RuleContext, 'namespaces' | 'kubeVersion'>, name: string): Labels {
  const manifest = context.namespaces.find((namespace) => namespace.name === name);
  const labels: Record<string, string> = { ...(manifest?.labels ?? {}) };
  if (isAtLeast(context.kubeVersion, 1, 21)) labels[NAMESPACE_NAME_LABEL] = name;
  else delete labels[NAMESPACE_NAME_LABEL];
  return labels;
}
