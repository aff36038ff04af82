/** Shared wording of the simulate outputs. */
import { formatKubeVersion } from '../kube/version.js';
import { formatLabels } from './labels.js';
import type { AdmissionPath, PathEntry } from './path.js';

export function describeRequest(path: AdmissionPath): string {
  const { request } = path;
  const resource = `${request.resource}${request.subresource ? `/${request.subresource}` : ''}`;
  const gv = request.group === '' ? request.version : `${request.group}/${request.version}`;
  const where = request.namespace === null ? '' : request.group === '' && request.resource === 'namespaces' ? ` (Namespace ${request.namespace})` : ` in namespace ${request.namespace}`;
  return `${request.operation} ${resource} (${gv}, kind ${request.kind})${where}${request.dryRun ? ', dry run' : ''}`;
}

export function describeNamespaceLabels(path: AdmissionPath): string | null {
  const resolved = path.namespaceLabels;
  if (resolved === null) return null;
  const source = resolved.source === 'flag' ? 'from --namespace-labels' : resolved.source === 'manifest' ? `from the Namespace manifest in ${resolved.file}` : 'no Namespace manifest in the run: the automatic label only';
  return `${formatLabels(resolved.labels)} (${source})`;
}

export function describeObjectLabels(path: AdmissionPath): string | null {
  const { request } = path;
  if (request.operation === 'CONNECT' || (request.group === '' && request.resource === 'namespaces')) return null;
  return formatLabels(request.objectLabels);
}

export function kubeVersionText(path: AdmissionPath): string {
  return formatKubeVersion(path.kubeVersion);
}

export function hookName(entry: PathEntry): string {
  return entry.webhook === null ? entry.configuration : `${entry.configuration} / ${entry.webhook}`;
}

export function settings(entry: PathEntry, phase: 'mutating' | 'validating' | 'policy'): string {
  if (phase === 'policy') return `failurePolicy ${entry.failurePolicy}${entry.detail.validationActions ? `, validationActions ${entry.detail.validationActions.join(', ') || '(none)'}` : ''}`;
  return `failurePolicy ${entry.failurePolicy}, timeout ${entry.timeoutSeconds}s${phase === 'mutating' ? (entry.reinvoked ? ', reinvocation IfNeeded: may be called again' : '') : ''}`;
}

export const EXIT_NOTE = 'A simulation that ran exits 0, whatever it found.';
