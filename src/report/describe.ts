/** Shared wording of the report outputs. */
import type { CriticalCell, CriticalMark } from './critical.js';
import type { BlastRadiusReport, InterceptRow, NamespaceSelection, WebhookReport } from './build.js';
import { modesText, type NamespaceRow, type PodSecurityReport, type RejectedWorkload } from './pod-security.js';

export const MARK_TEXT: Readonly<Record<CriticalMark, string>> = {
  blocks: 'BLOCKS',
  'can-deny': 'can deny',
  depends: 'depends',
  exempt: 'exempt',
  none: '',
};

export const MARK_LEGEND: readonly (readonly [CriticalMark, string])[] = [
  ['blocks', 'failurePolicy Fail: these writes are rejected while the webhook is down, and whenever it denies'],
  ['can-deny', 'failurePolicy Ignore: fails open when down (after its timeout), but a denial still rejects them'],
  ['depends', 'its rules match; its matchConditions decide and cannot be evaluated here'],
  ['exempt', 'never sent to webhooks in this Kubernetes version'],
];

export function markText(cell: CriticalCell): string {
  if (cell.mark === 'none' || cell.mark === 'exempt') return MARK_TEXT[cell.mark];
  return `${MARK_TEXT[cell.mark]} (${cell.operations.join(', ')})`;
}

export function resourcesText(row: InterceptRow): string {
  const groups = row.apiGroups.map((group) => (group === '' ? 'core' : group)).join(', ');
  return `${row.resources.join(', ')} in ${groups} ${row.apiVersions.join(', ')}`;
}

export function namespacesText(selection: NamespaceSelection, which: 'run' | 'system'): string {
  if (!selection.applies) return 'n/a (cluster-scoped resources only: the namespaceSelector does not apply)';
  const list = which === 'run' ? selection.run : selection.system;
  if (list.length === 0) return which === 'run' ? '(no Namespace manifests in the run)' : '';
  const selected = list.filter((ns) => ns.selected).map((ns) => ns.name);
  const not = list.filter((ns) => !ns.selected).map((ns) => ns.name);
  return `${selected.length > 0 ? selected.join(', ') : 'none'}${not.length > 0 ? ` (not: ${not.join(', ')})` : ''}`;
}

export function webhookTitle(webhook: WebhookReport): string {
  return `${webhook.kind === 'MutatingWebhookConfiguration' ? 'mutating' : 'validating'} ${webhook.configuration} / ${webhook.webhook}`;
}

/** The property rows of a webhook's table: [name, value]. */
export function propertyRows(webhook: WebhookReport): [string, string][] {
  return [
    ['file', webhook.file],
    ...webhook.intercepts.map((row, i): [string, string] => [`intercepts${webhook.intercepts.length > 1 ? ` (rule ${i + 1})` : ''}`, `${row.operations.join(', ')} × ${resourcesText(row)}; scope ${row.scope}`]),
    ...(webhook.intercepts.length === 0 ? [['intercepts', 'nothing (no rules)'] as [string, string]] : []),
    ['namespaceSelector', webhook.namespaceSelector],
    ['objectSelector', webhook.objectSelector],
    ['namespaces in the run selected', namespacesText(webhook.namespaces, 'run')],
    ['system namespaces selected', namespacesText(webhook.namespaces, 'system')],
    ['failurePolicy', webhook.failurePolicy],
    ['timeoutSeconds', String(webhook.timeoutSeconds)],
    ...(webhook.reinvocationPolicy !== null ? [['reinvocationPolicy', webhook.reinvocationPolicy] as [string, string]] : []),
    ['matchPolicy', webhook.matchPolicy],
    ['sideEffects', webhook.sideEffects ?? '(not set)'],
    ['matchConditions', webhook.matchConditions.length > 0 ? webhook.matchConditions.join('; ') : '(none)'],
  ];
}

/** The matrix's columns: the webhooks that intercept at least one critical target (the others would be empty columns). */
export function matrixColumns(report: BlastRadiusReport): { readonly webhook: WebhookReport; readonly index: number }[] {
  return report.webhooks.map((webhook, index) => ({ webhook, index })).filter(({ webhook }) => webhook.critical.some((cell) => cell.mark !== 'none'));
}

/** "3 other webhooks intercept none of them: a/b, c/d, e/f", or null when every webhook is a column. */
export function notInMatrix(report: BlastRadiusReport): string | null {
  const shown = new Set(matrixColumns(report).map(({ webhook }) => webhook));
  const rest = report.webhooks.filter((webhook) => !shown.has(webhook));
  if (rest.length === 0) return null;
  return `${rest.length} other webhook${rest.length === 1 ? '' : 's'} intercept${rest.length === 1 ? 's' : ''} none of them: ${rest.map((webhook) => `${webhook.configuration} / ${webhook.webhook}`).join(', ')}`;
}

/** The Pod Security section's heading line: where the cluster's defaults come from, and the run's default namespace. */
export function podSecurityHeading(report: PodSecurityReport): string {
  if (!report.enabled) return 'the PodSecurity admission plugin is off by default before Kubernetes 1.23: nothing is checked';
  const { defaults, exemptions } = report;
  const exempt = [
    exemptions.namespaces.length > 0 ? `namespaces ${exemptions.namespaces.join(', ')}` : '',
    exemptions.runtimeClasses.length > 0 ? `runtimeClassNames ${exemptions.runtimeClasses.join(', ')}` : '',
    exemptions.usernames.length > 0 ? `usernames ${exemptions.usernames.join(', ')}` : '',
  ].filter((part) => part !== '');
  return `configuration ${report.configuration}: defaults enforce ${defaults.enforce}, warn ${defaults.warn}, audit ${defaults.audit}${exempt.length > 0 ? `; exempt: ${exempt.join('; ')}` : ''}; workloads that name no namespace are in ${report.defaultNamespace}`;
}

/** A namespace's row: `payments (ns.yaml): enforce restricted:v1.35 (label), …`. */
export function namespaceRowText(row: NamespaceRow): string {
  const where = row.file === null ? 'no Namespace manifest in the run: the defaults' : row.file;
  return `${row.name} (${where}): ${row.exempt ? 'exempt (exemptions.namespaces): nothing in it is checked' : modesText(row)}`;
}

export function rejectedText(workload: RejectedWorkload): string {
  return `${workload.kind} ${workload.name ?? '(no name)'} (${workload.file}:${workload.line}${workload.namespaceAssumed ? ', names no namespace' : ''}): ${workload.message}`;
}
