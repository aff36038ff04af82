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

/** `Deployment "api" (deploy.yaml)`, and the old object of an UPDATE; null without --object. */
export function describeObject(path: AdmissionPath): string | null {
  const { object, oldObject, namespaceAssumed } = path.request;
  if (object === undefined) return null;
  const name = (o: typeof object): string => `${o.kind} ${o.name === undefined ? '(no name)' : `"${o.name}"`} from ${o.file}`;
  const role = path.request.operation === 'DELETE' ? 'the object deleted: ' : '';
  const assumed = namespaceAssumed === true ? `; it names no namespace, so ${path.request.namespace ?? ''} (kubectl's default; --namespace sets another)` : '';
  return `${role}${name(object)}${oldObject !== undefined ? `, before the update: ${name(oldObject)}` : ''}${assumed}`;
}

export const POD_SECURITY_TITLE = 'PodSecurity (built-in validating admission plugin: after the mutations, before the validating policies and webhooks)';

/** The PodSecurity step in lines of text (each a sentence, input strings not yet escaped). */
export function podSecurityLines(path: AdmissionPath): string[] {
  const step = path.podSecurity;
  if (step === null) return [];
  const evaluated = step.result.outcome === 'rejected' || step.result.outcome === 'admitted';
  const mutated = evaluated && path.request.object !== undefined && path.mutating.some((entry) => entry.called);
  const lines = [step.checks === 'pod' ? 'checks the Pod: enforce rejects it, warn and audit report' : step.checks === 'pod-template' ? "checks the pod template: warn and audit only (a workload is never rejected by it); its Pods are checked when they are created" : "checks the Namespace's Pod Security labels"];
  if (step.policy !== null) lines.push(`policy: ${step.policy} (${step.policyFrom ?? ''})`);
  const result = step.result;
  switch (result.outcome) {
    case 'not-checked':
      lines.push(`not checked: ${result.reason}`);
      break;
    case 'depends':
      lines.push(`depends on the object: ${result.reason}`);
      break;
    case 'rejected':
      lines.push(`REJECTED (${result.status}): ${result.message}`, 'the request stops here: no validating policy or webhook is called, nothing is stored');
      break;
    case 'admitted':
      lines.push(result.warnings.length === 0 && result.audit === null ? 'admitted: no violation' : 'admitted');
      for (const warning of result.warnings) lines.push(`warning to the client: ${warning}`);
      if (result.audit !== null) lines.push(`audit annotation pod-security.kubernetes.io/audit-violations: ${result.audit}`);
      if (result.pods !== undefined) lines.push(result.pods);
      break;
  }
  if (mutated) lines.push('evaluated on the object as given: the mutating webhooks above run first and may change it (a sidecar they add is checked too)');
  return lines;
}

/** PodSecurity rejects the request: the validating policies and webhooks are not reached. */
export function rejectedByPodSecurity(path: AdmissionPath): boolean {
  return path.podSecurity?.result.outcome === 'rejected';
}

/** What to say when no webhook or policy is called: PodSecurity may still reject the request. */
export function nothingCalledText(path: AdmissionPath): string {
  const result = path.podSecurity?.result;
  if (result?.outcome === 'rejected') return 'no webhook or policy is called; PodSecurity rejects the request (above)';
  if (result?.outcome === 'depends' && path.podSecurity?.checks !== 'pod-template') return 'no webhook or policy is called; PodSecurity can still reject the request (above)';
  return 'nothing is called: no webhook or policy can delay or reject this request';
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

/** With --object: what a called policy's validations make of the object; null otherwise. */
export function validationText(entry: PathEntry): string | null {
  const verdict = entry.detail.validation;
  if (verdict === undefined) return null;
  const actions = entry.detail.validationActions ?? [];
  switch (verdict.outcome) {
    case 'pass':
      return 'with this object: every validation holds';
    case 'depends':
      return `with this object: depends on: ${verdict.expressions.join(' && ')}`;
    case 'fail': {
      const what = actions.includes('Deny')
        ? `the request is rejected: ValidatingAdmissionPolicy '${entry.configuration}' with binding '${entry.webhook ?? ''}' denied request: ${verdict.message}`
        : `not rejected (validationActions ${actions.join(', ') || '(none)'}): ${verdict.message}`;
      return `with this object: ${verdict.failed === 1 ? 'a validation fails' : `${verdict.failed} validations fail`}; ${what}`;
    }
  }
}
