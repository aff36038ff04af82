/**
 * The blast-radius report's data: per webhook, what it intercepts, which namespaces it selects
 * (the run's Namespaces and the system namespaces), its effective settings and the lint
 * findings about it; then the critical-resources matrix (./critical.ts).
 */
import { rules } from '../../rules/index.js';
import type { Finding } from '../engine/finding.js';
import { lintRun, loadOptions, loadRun, runScope } from '../engine/lint.js';
import type { KubeVersion } from '../kube/version.js';
import { compareNames } from '../match/candidates.js';
import { namespaceLabels } from '../match/namespaces.js';
import { namespaceSelectorApplies } from '../match/scope.js';
import { isEmptySelector, selectorMatches } from '../match/selector.js';
import type { LabelSelector } from '../model/types.js';
import { webhooksOf } from '../model/webhooks.js';
import { prepareCel } from '../cel/library.js';
import { criticalCell, criticalTargets, type CriticalCell, type CriticalTarget } from './critical.js';
import type { PodSecuritySettings } from '../model/pod-security.js';
import { podSecurityReport, type PodSecurityReport } from './pod-security.js';

/** Namespaces whose loss (of writes) hurts the cluster itself. */
export const SYSTEM_NAMESPACES = ['kube-system', 'kube-node-lease', 'kube-public', 'default'] as const;

export interface InterceptRow {
  readonly operations: readonly string[];
  readonly apiGroups: readonly string[];
  readonly apiVersions: readonly string[];
  readonly resources: readonly string[];
  readonly scope: string;
}

export interface NamespaceSelection {
  /** False when the webhook's rules match only cluster-scoped resources: the namespaceSelector never applies. */
  readonly applies: boolean;
  readonly run: readonly { readonly name: string; readonly selected: boolean }[];
  readonly system: readonly { readonly name: string; readonly selected: boolean }[];
}

export interface ReportFinding {
  readonly ruleId: string;
  readonly severity: string;
  readonly message: string;
  readonly file: string;
  readonly line: number;
}

export interface WebhookReport {
  readonly configuration: string;
  readonly kind: 'MutatingWebhookConfiguration' | 'ValidatingWebhookConfiguration';
  readonly webhook: string;
  readonly file: string;
  readonly intercepts: readonly InterceptRow[];
  readonly namespaceSelector: string;
  readonly objectSelector: string;
  readonly namespaces: NamespaceSelection;
  readonly failurePolicy: string;
  readonly timeoutSeconds: number;
  /** null for validating webhooks. */
  readonly reinvocationPolicy: string | null;
  readonly matchPolicy: string;
  readonly sideEffects: string | null;
  readonly matchConditions: readonly string[];
  readonly findings: readonly ReportFinding[];
  /** One cell per critical target, in the order of `BlastRadiusReport.critical.targets`. */
  readonly critical: readonly CriticalCell[];
}

export interface BlastRadiusReport {
  readonly kubeVersion: string;
  readonly webhooks: readonly WebhookReport[];
  /** Findings about a configuration as a whole (no webhook), by "kind/name". */
  readonly configurationFindings: Readonly<Record<string, readonly ReportFinding[]>>;
  readonly critical: { readonly targets: readonly CriticalTarget[] };
  /** Configurations that do not decode (run lint). */
  readonly notDecodable: readonly string[];
  /** Per namespace in the run: its Pod Security levels, and the workloads enforce rejects (./pod-security.ts). */
  readonly podSecurity: PodSecurityReport;
}

/** A label selector as one line: `{}` (everything), `a=b, c NotIn (x, y)`. */
export function selectorText(selector: LabelSelector | undefined): string {
  if (isEmptySelector(selector)) return '{} (everything)';
  const parts = Object.entries(selector?.matchLabels ?? {}).map(([key, value]) => `${key}=${value ?? ''}`);
  for (const requirement of selector?.matchExpressions ?? []) {
    if (requirement === null) continue;
    const values = requirement.values ?? [];
    parts.push(values.length > 0 ? `${requirement.key} ${requirement.operator} (${values.join(', ')})` : `${requirement.key} ${requirement.operator}`);
  }
  return parts.join(', ');
}

function toReportFinding(finding: Finding): ReportFinding {
  return { ruleId: finding.ruleId, severity: finding.severity, message: finding.message, file: finding.file, line: finding.line };
}

export interface ReportOptions {
  readonly paths: readonly string[];
  readonly kubeVersion: KubeVersion;
  readonly toolVersion: string;
  readonly readStdin?: () => Uint8Array;
  /** `--pod-security-config` and `--namespace` (default: the built-in configuration, namespace default). */
  readonly podSecurity?: PodSecuritySettings;
}

export async function buildReport(options: ReportOptions): Promise<BlastRadiusReport> {
  const lintOptions = {
    rules,
    kubeVersion: options.kubeVersion,
    trustedNamespaceLabels: [],
    severityOverrides: new Map(),
    toolVersion: options.toolVersion,
    ...(options.podSecurity !== undefined ? { podSecurity: options.podSecurity } : {}),
  };
  const run = loadRun(options.paths, options.readStdin, loadOptions(lintOptions));
  const lintReport = await lintRun(run, lintOptions);
  await prepareCel();
  const context = runScope(run, options.kubeVersion);
  const { discovery } = context;
  const targets = criticalTargets();
  const sorted = run.webhookConfigurations
    .filter((object) => object.decodable)
    .map((object, i) => ({ object, i }))
    .sort((a, b) => Number(a.object.kind !== 'MutatingWebhookConfiguration') - Number(b.object.kind !== 'MutatingWebhookConfiguration') || compareNames(a.object.name ?? '', b.object.name ?? '') || a.i - b.i);
  const runNamespaces = [...new Set(run.namespaces.map((namespace) => namespace.name))].sort(compareNames);
  const webhooks: WebhookReport[] = [];
  const configurationFindings: Record<string, ReportFinding[]> = {};
  for (const { object } of sorted) {
    const about = lintReport.findings.filter((finding) => finding.object?.kind === object.kind && finding.object.name === (object.name ?? null) && finding.file === object.manifest.file.path);
    const configurationLevel = about.filter((finding) => finding.webhook === null && finding.fieldPath?.startsWith('webhooks[') !== true).map(toReportFinding);
    if (configurationLevel.length > 0) configurationFindings[`${object.kind}/${object.name ?? ''}`] = configurationLevel;
    for (const entry of webhooksOf(object)) {
      const { webhook } = entry;
      const selects = (name: string): boolean => selectorMatches(webhook.namespaceSelector, namespaceLabels(context, name)) === true;
      webhooks.push({
        configuration: object.name ?? '(no name)',
        kind: object.kind,
        webhook: entry.label,
        file: object.manifest.file.path,
        intercepts: (webhook.rules ?? [])
          .filter((rule) => rule !== null)
          .map((rule) => ({ operations: rule.operations ?? [], apiGroups: rule.apiGroups ?? [], apiVersions: rule.apiVersions ?? [], resources: rule.resources ?? [], scope: rule.scope ?? '*' })),
        namespaceSelector: selectorText(webhook.namespaceSelector),
        objectSelector: selectorText(webhook.objectSelector),
        namespaces: {
          applies: namespaceSelectorApplies(webhook.rules, discovery),
          run: runNamespaces.map((name) => ({ name, selected: selects(name) })),
          system: SYSTEM_NAMESPACES.map((name) => ({ name, selected: selects(name) })),
        },
        failurePolicy: webhook.failurePolicy ?? 'Fail',
        timeoutSeconds: webhook.timeoutSeconds ?? 10,
        reinvocationPolicy: entry.mutating ? (webhook.reinvocationPolicy ?? 'Never') : null,
        matchPolicy: webhook.matchPolicy ?? 'Equivalent',
        sideEffects: webhook.sideEffects ?? null,
        matchConditions: (webhook.matchConditions ?? []).map((condition) => `${condition?.name ?? '(no name)'}: ${condition?.expression ?? ''}`),
        findings: about.filter((finding) => finding.webhook === entry.label || (finding.webhook === null && finding.fieldPath?.startsWith(`webhooks[${entry.index}]`) === true)).map(toReportFinding),
        critical: targets.map((_, index) => criticalCell(webhook, index, context)),
      });
    }
  }
  return {
    kubeVersion: `${options.kubeVersion.major}.${options.kubeVersion.minor}`,
    webhooks,
    configurationFindings,
    critical: { targets },
    notDecodable: run.webhookConfigurations.filter((object) => !object.decodable).map((object) => `${object.kind} ${object.name ?? '(no name)'} (${object.manifest.file.path})`),
    podSecurity: podSecurityReport(context),
  };
}
