/**
 * PodSecurity in the admission path: the built-in validating admission plugin that checks Pods
 * (enforce rejects; warn and audit report) and the pod templates of workloads (warn and audit
 * only: their Pods are checked when they are created), and validates the Pod Security labels of
 * Namespaces (k8s.io/pod-security-admission admission/admission.go Validate, ValidateNamespace,
 * ValidatePod, ValidatePodController).
 *
 * It runs in the validating phase, so it sees the object after the mutating webhooks and
 * policies; in the API server's plugin order it comes before ValidatingAdmissionPolicy and
 * ValidatingAdmissionWebhook (kube-apiserver AllOrderedPlugins), and the validating phase stops at
 * the first plugin that rejects: a Pod PodSecurity rejects reaches no validating policy or webhook.
 */
import type { KubeVersion } from '../kube/version.js';
import type { Labels } from '../match/selector.js';
import type { NamespaceObject } from '../model/objects.js';
import type { PodSecuritySettings, PsaMode } from '../model/pod-security.js';
import { formatFieldError } from '../validate/field-error.js';
import { podForbiddenMessage, violatesMessage, wouldViolateMessage } from '../psa/message.js';
import { formatLevelVersion, policyFromLabels } from '../psa/labels.js';
import { effectivePolicy, isExemptRuntimeClass } from '../psa/namespace-policy.js';
import { checksPods, modeText, namespacePodSecurity, podSecurityEnabled, podSecurityVerdict, type NamespacePodSecurity } from '../psa/run-policy.js';
import { isSignificantPodUpdate, psaRequestCheck } from '../psa/workloads.js';
import type { SimulatedRequest } from './request-flags.js';

export type PodSecurityOutcome =
  /** The plugin lets the request through without a check (and why). */
  | { readonly outcome: 'not-checked'; readonly reason: string }
  /** Checked, but the object is not known (no --object): what it is checked against. */
  | { readonly outcome: 'depends'; readonly reason: string }
  /** The request is rejected: the API server's status and message. */
  | { readonly outcome: 'rejected'; readonly status: '403 Forbidden' | '422 Invalid'; readonly message: string }
  | {
      readonly outcome: 'admitted';
      /** Warnings the client gets (kubectl prints them): `would violate PodSecurity …`. */
      readonly warnings: readonly string[];
      /** The audit annotation pod-security.kubernetes.io/audit-violations, when audit is violated. */
      readonly audit: string | null;
      /** For workloads: what happens to the Pods they create. */
      readonly pods?: string;
    };

export interface PodSecurityStep {
  /** What the plugin checks in this request. */
  readonly checks: 'pod' | 'pod-template' | 'namespace';
  /** The namespace's policy as `enforce restricted:v1.35, warn …, audit …`, or null for a Namespace request. */
  readonly policy: string | null;
  /** Where that policy comes from. */
  readonly policyFrom: string | null;
  readonly result: PodSecurityOutcome;
}

const MODES: readonly PsaMode[] = ['enforce', 'warn', 'audit'];

function policyText(namespace: NamespacePodSecurity): string {
  return MODES.map((mode) => `${mode} ${formatLevelVersion(namespace.policy[mode])}`).join(', ');
}

function policyFrom(namespace: NamespacePodSecurity, labelsFrom: 'flag' | 'manifest' | 'automatic', settings: PodSecuritySettings): string {
  const defaults = settings.config.origin.kind === 'built-in' ? "the plugin's built-in defaults (no --pod-security-config)" : `the defaults of ${settings.config.origin.file}`;
  if (namespace.policy.exempt) return `namespace ${namespace.name} is exempt (exemptions.namespaces of ${settings.config.origin.kind === 'built-in' ? 'the configuration' : settings.config.origin.file})`;
  if (labelsFrom === 'automatic') return `no Namespace manifest in the run: ${defaults}`;
  return `${labelsFrom === 'flag' ? 'the labels of --namespace-labels' : "the labels of the namespace's manifest"}, over ${defaults}`;
}

export interface PodSecurityInput {
  readonly settings: PodSecuritySettings;
  readonly kubeVersion: KubeVersion;
  /** The labels of the request's namespace as the simulation resolved them, and where from. */
  readonly namespaceLabels: { readonly labels: Labels; readonly source: 'flag' | 'manifest' | 'automatic' } | null;
  readonly namespaces: readonly NamespaceObject[];
}

/** PodSecurity's step for this request; null when the plugin does not look at requests of this resource. */
export function podSecurityStep(request: SimulatedRequest, input: PodSecurityInput): PodSecurityStep | null {
  const check = psaRequestCheck(request);
  if (!check.checked && check.why === 'resource') return null;
  const what = check.checked ? check.what : request.group === '' && (request.resource === 'pods' || request.resource === 'namespaces') ? (request.resource === 'pods' ? 'pod' : 'namespace') : 'pod-template';
  const step = (result: PodSecurityOutcome, namespace?: NamespacePodSecurity): PodSecurityStep => ({
    checks: what,
    policy: namespace === undefined ? null : policyText(namespace),
    policyFrom: namespace === undefined ? null : policyFrom(namespace, input.namespaceLabels?.source ?? 'automatic', input.settings),
    result,
  });
  if (!podSecurityEnabled(input.kubeVersion)) return step({ outcome: 'not-checked', reason: 'the PodSecurity admission plugin is off by default before Kubernetes 1.23' });
  if (!check.checked) {
    const why = check.why === 'operation' ? `PodSecurity handles CREATE and UPDATE only, not ${request.operation}` : `PodSecurity does not check ${request.resource}/${request.subresource}`;
    return step({ outcome: 'not-checked', reason: why });
  }
  if (check.what === 'namespace') return namespaceStep(request, step);

  const name = request.namespace ?? '';
  // --namespace-labels or the run's manifest; the automatic name label alone means: no labels known.
  const labels = input.namespaceLabels === null || input.namespaceLabels.source === 'automatic' ? undefined : input.namespaceLabels.labels;
  const manifest = input.namespaceLabels?.source === 'manifest' ? input.namespaces.find((candidate) => candidate.name === name) : undefined;
  const namespace: NamespacePodSecurity =
    manifest !== undefined ? namespacePodSecurity(name, manifest, input.settings.config) : { name, policy: effectivePolicy(labels, input.settings.config, name), manifest: undefined };
  if (namespace.policy.exempt) return step({ outcome: 'not-checked', reason: `namespace ${name} is exempt in the PodSecurity configuration` }, namespace);
  if (!checksPods(namespace.policy)) return step({ outcome: 'not-checked', reason: 'every mode of the namespace is privileged: nothing to check' }, namespace);
  const object = request.object;
  const enforce = namespace.policy.enforce;
  if (object === undefined) {
    const against = what === 'pod' ? `the Pod is checked against enforce ${formatLevelVersion(enforce)}` : `the pod template is checked against warn ${formatLevelVersion(namespace.policy.warn)} and audit ${formatLevelVersion(namespace.policy.audit)} (warnings only), and its Pods against enforce ${formatLevelVersion(enforce)} when they are created`;
    const rejects = what === 'pod' && enforce.level !== 'privileged' ? ': a Pod that fails it is rejected' : '';
    return step({ outcome: 'depends', reason: `${against}${rejects}; give --object <file> to evaluate it` }, namespace);
  }
  if (check.what === 'pod' && request.operation === 'UPDATE' && request.oldObject !== undefined && !isSignificantPodUpdate(object.value, request.oldObject.value)) {
    return step({ outcome: 'not-checked', reason: 'the update changes no container image and no number of containers: PodSecurity lets it through (isSignificantPodUpdate)' }, namespace);
  }
  const verdict = podSecurityVerdict({ kind: object.kind, apiVersion: object.apiVersion, written: object.value }, namespace, input.settings.config, input.kubeVersion);
  if (verdict === undefined || verdict.template === undefined) return step({ outcome: 'not-checked', reason: 'the object has no pod template to check' }, namespace);
  if (isExemptRuntimeClass(verdict.template.spec, input.settings.config)) return step({ outcome: 'not-checked', reason: `runtimeClassName ${String(verdict.template.spec.runtimeClassName)} is exempt in the PodSecurity configuration` }, namespace);
  const of = (mode: PsaMode) => verdict.modes.find((candidate) => candidate.mode === mode);
  const enforceVerdict = of('enforce');
  const warn = of('warn');
  const audit = of('audit');
  const auditText = audit !== undefined && !audit.result.allowed ? wouldViolateMessage(audit.level, audit.version, audit.result.failures) : null;
  if (check.what === 'pod' && enforceVerdict !== undefined && !enforceVerdict.result.allowed) {
    return step({ outcome: 'rejected', status: '403 Forbidden', message: podForbiddenMessage(object.name ?? '', enforceVerdict.level, enforceVerdict.version, enforceVerdict.result.failures) }, namespace);
  }
  const warnings = warn !== undefined && !warn.result.allowed ? [wouldViolateMessage(warn.level, warn.version, warn.result.failures)] : [];
  if (check.what === 'pod') return step({ outcome: 'admitted', warnings, audit: auditText }, namespace);
  const pods =
    enforceVerdict === undefined
      ? `its Pods are checked when they are created; enforce is privileged: they are not rejected`
      : enforceVerdict.result.allowed
        ? `its Pods are checked when they are created: they pass enforce ${modeText(enforceVerdict)}`
        : `its Pods are checked when they are created, and rejected: ${violatesMessage(enforceVerdict.level, enforceVerdict.version, enforceVerdict.result.failures)}`;
  return step({ outcome: 'admitted', warnings, audit: auditText, pods }, namespace);
}

/** A Namespace CREATE or UPDATE: the Pod Security labels must parse (ValidateNamespace). */
function namespaceStep(request: SimulatedRequest, step: (result: PodSecurityOutcome) => PodSecurityStep): PodSecurityStep {
  const object = request.object;
  if (object === undefined) return step({ outcome: 'depends', reason: "the Namespace's pod-security.kubernetes.io labels are validated: an invalid level or version rejects it; give --object <file> to check them" });
  const { errors } = policyFromLabels(object.labels, { enforce: { level: 'privileged', version: 'latest' }, warn: { level: 'privileged', version: 'latest' }, audit: { level: 'privileged', version: 'latest' } });
  if (errors.length === 0) return step({ outcome: 'admitted', warnings: [], audit: null });
  // An UPDATE that keeps invalid labels already there is let through; one that changes them is not.
  const texts = errors.map(formatFieldError);
  return step({ outcome: 'rejected', status: '422 Invalid', message: `Namespace "${object.name ?? ''}" is invalid: ${texts.length === 1 ? texts[0] : `[${texts.join(', ')}]`}` });
}
