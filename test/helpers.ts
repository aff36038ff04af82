/** Lint YAML text in memory, the way the CLI lints stdin. */
import { rules as allRules } from '../rules/index.js';
import type { Finding } from '../src/engine/finding.js';
import { lint, type SeverityOverride } from '../src/engine/lint.js';
import { DEFAULT_KUBE_VERSION, parseKubeVersion } from '../src/kube/version.js';
import type { Rule } from '../src/rule.js';

export interface LintTextOptions {
  /** Only these rules run (default: all). */
  readonly only?: readonly string[];
  readonly kubeVersion?: string;
  readonly trustedNamespaceLabels?: readonly string[];
  readonly severityOverrides?: ReadonlyMap<string, SeverityOverride>;
  readonly ruleOptions?: ReadonlyMap<string, Readonly<Record<string, number | string>>>;
}

export function selectRules(only: readonly string[] | undefined): readonly Rule[] {
  if (only === undefined) return allRules;
  const selected = allRules.filter((rule) => only.includes(rule.meta.id));
  if (selected.length !== only.length) throw new Error(`unknown rule in ${only.join(', ')}`);
  return selected;
}

export async function lintText(text: string, options: LintTextOptions = {}): Promise<Finding[]> {
  // The other rules are turned off, as `--rule <id>=off` does: the run still knows them (a suppression naming one is not unknown).
  const selected = new Set(selectRules(options.only).map((rule) => rule.meta.id));
  const severityOverrides = new Map<string, SeverityOverride>(allRules.filter((rule) => !selected.has(rule.meta.id)).map((rule) => [rule.meta.id, 'off']));
  for (const [id, severity] of options.severityOverrides ?? []) severityOverrides.set(id, severity);
  const report = await lint({
    paths: ['-'],
    rules: allRules,
    kubeVersion: options.kubeVersion ? parseKubeVersion(options.kubeVersion) : DEFAULT_KUBE_VERSION,
    trustedNamespaceLabels: options.trustedNamespaceLabels ?? [],
    severityOverrides,
    ruleOptions: options.ruleOptions ?? new Map(),
    toolVersion: 'test',
    readStdin: () => new TextEncoder().encode(text),
  });
  return [...report.findings];
}

/**
 * One webhook entry (YAML, indented for a `webhooks:` list) with a Service clientConfig; `rules`
 * is one rule in flow style, `extra` more fields of the webhook.
 */
export function webhookEntry(name: string, rules: string, options: { readonly timeout?: number; readonly extra?: string } = {}): string {
  return `  - name: ${name}
    failurePolicy: Ignore
    sideEffects: None
    admissionReviewVersions: ["v1"]
    timeoutSeconds: ${options.timeout ?? 5}
    clientConfig:
      service: {namespace: hooks, name: hooks, path: /${name.split('.')[0]}}
    rules:
      - ${rules}
${options.extra ?? ''}`;
}

/** A webhook configuration of the given kind holding the given webhook entries. */
export function webhookConfiguration(kind: 'Mutating' | 'Validating', name: string, ...webhooks: string[]): string {
  return `apiVersion: admissionregistration.k8s.io/v1
kind: ${kind}WebhookConfiguration
metadata:
  name: ${name}
webhooks:
${webhooks.join('')}`;
}

/** A ValidatingAdmissionPolicy (failurePolicy Fail) over Pod creates and updates with one validation, and its Deny binding. */
export function podsPolicy(validation: string, conditions = ''): string {
  return `apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicy
metadata:
  name: pods
spec:
  failurePolicy: Fail
  matchConstraints:
    resourceRules:
      - {apiGroups: [""], apiVersions: ["v1"], operations: ["CREATE", "UPDATE"], resources: ["pods"]}
${conditions}  validations:
    - expression: ${JSON.stringify(validation)}
---
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicyBinding
metadata:
  name: pods
spec:
  policyName: pods
  validationActions: [Deny]
`;
}

/** A rule for CREATE of core v1 pods, in flow style. */
export const PODS_RULE = '{operations: ["CREATE"], apiGroups: [""], apiVersions: ["v1"], resources: ["pods"]}';

/** A webhook with two warnings (long-timeout, editable-object-selector) and one info (fail-open), for the CLI's output tests. */
export const WARNINGS_AND_INFO_MANIFEST = `apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingWebhookConfiguration
metadata: {name: widgets}
webhooks:
  - name: widgets.example.com
    admissionReviewVersions: ["v1"]
    sideEffects: None
    failurePolicy: Ignore
    timeoutSeconds: 30
    namespaceSelector: {matchExpressions: [{key: kubernetes.io/metadata.name, operator: NotIn, values: [kube-system]}]}
    objectSelector: {matchExpressions: [{key: team, operator: NotIn, values: [b]}]}
    clientConfig: {url: https://widgets.example.com/validate}
    rules: [{operations: ["CREATE"], apiGroups: [""], apiVersions: ["v1"], resources: ["configmaps"]}]
`;
