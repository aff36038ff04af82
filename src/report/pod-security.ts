/**
 * The report's Pod Security section: per namespace in the run (each Namespace manifest, and each
 * namespace a workload of the run is in), its effective enforce, warn and audit levels and
 * versions and where they come from, and the workloads that enforce rejects (a Pod is rejected;
 * a workload is admitted and the Pods it creates are rejected). Workloads are read only where a
 * level other than privileged can apply (src/engine/load-run.ts), which covers every one enforce
 * can reject.
 */
import { compareNames } from '../match/candidates.js';
import type { PodSecurityConfiguration, PsaMode } from '../model/pod-security.js';
import { podForbiddenMessage, violatesMessage } from '../psa/message.js';
import { formatLevelVersion } from '../psa/labels.js';
import { namespacePolicyIn, podSecurityEnabled, workloadNamespace, workloadVerdict, type NamespacePodSecurity } from '../psa/run-policy.js';
import type { RunScope } from '../run-scope.js';

export interface ModeRow {
  /** `restricted:v1.35`, as labelled. */
  readonly policy: string;
  /** `label`, `default` (the configuration's), `fallback` (a label the plugin cannot parse), or `enforce` (warn follows enforce's label). */
  readonly from: 'label' | 'default' | 'fallback' | 'enforce';
}

export interface RejectedWorkload {
  readonly kind: string;
  readonly name: string | null;
  readonly file: string;
  readonly line: number;
  /** The API server's message (a Pod), or the one the Pods a workload creates are rejected with. */
  readonly message: string;
  /** The workload names no namespace: it was taken to be in the run's default namespace. */
  readonly namespaceAssumed: boolean;
}

export interface NamespaceRow {
  readonly name: string;
  /** The Namespace manifest's file; null when the run has none (the configured defaults apply). */
  readonly file: string | null;
  /** Listed in the configuration's exemptions.namespaces: nothing in it is checked. */
  readonly exempt: boolean;
  readonly modes: Readonly<Record<PsaMode, ModeRow>>;
  readonly rejected: readonly RejectedWorkload[];
}

export interface PodSecurityReport {
  /** The PodSecurity admission plugin is on (Kubernetes 1.23 and later). */
  readonly enabled: boolean;
  /** Where the defaults and exemptions come from: the file given, or the plugin's built-in configuration. */
  readonly configuration: string;
  readonly defaults: Readonly<Record<PsaMode, string>>;
  readonly exemptions: PodSecurityConfiguration['exemptions'];
  /** The namespace of workloads that name none (`--namespace`, else default). */
  readonly defaultNamespace: string;
  readonly namespaces: readonly NamespaceRow[];
}

function configurationText(config: PodSecurityConfiguration): string {
  const origin = config.origin;
  if (origin.kind === 'built-in') return 'built-in (no --pod-security-config)';
  if (origin.kind === 'standalone') return `${origin.file} (PodSecurityConfiguration ${origin.apiVersion})`;
  const entry = origin.plugin === undefined ? 'no PodSecurity plugin entry: built-in defaults' : origin.via === 'path' ? `plugins[${origin.plugin}].path ${origin.referencedFile ?? ''}` : `plugins[${origin.plugin}]`;
  return `${origin.file} (AdmissionConfiguration, ${entry})`;
}

function modeRows(namespace: NamespacePodSecurity): Readonly<Record<PsaMode, ModeRow>> {
  const row = (mode: PsaMode): ModeRow => {
    const resolved = namespace.policy[mode];
    return { policy: formatLevelVersion(resolved), from: resolved.inheritedFromEnforce ? 'enforce' : resolved.source };
  };
  return { enforce: row('enforce'), warn: row('warn'), audit: row('audit') };
}

export function podSecurityReport(scope: RunScope): PodSecurityReport {
  const { config } = scope.podSecurity;
  const rejectedIn = new Map<string, RejectedWorkload[]>();
  const names = new Set(scope.namespaces.map((namespace) => namespace.name));
  for (const workload of scope.workloads) {
    const where = workloadNamespace(workload, scope.podSecurity);
    names.add(where.name);
    const verdict = workloadVerdict(scope, workload);
    const enforce = verdict?.modes.find((mode) => mode.mode === 'enforce');
    if (verdict === undefined || enforce === undefined || enforce.result.allowed) continue;
    const message = verdict.entry.enforced
      ? podForbiddenMessage(workload.name ?? '', enforce.level, enforce.version, enforce.result.failures)
      : `admitted, but the Pods it creates are rejected: ${violatesMessage(enforce.level, enforce.version, enforce.result.failures)}`;
    const list = rejectedIn.get(where.name) ?? [];
    list.push({ kind: workload.kind, name: workload.name ?? null, file: workload.manifest.file.path, line: workload.manifest.locate([]).line, message, namespaceAssumed: where.assumed });
    rejectedIn.set(where.name, list);
  }
  const namespaces = [...names].sort(compareNames).map((name): NamespaceRow => {
    const namespace = namespacePolicyIn(scope, name);
    return { name, file: namespace.manifest?.manifest.file.path ?? null, exempt: namespace.policy.exempt, modes: modeRows(namespace), rejected: rejectedIn.get(name) ?? [] };
  });
  return {
    enabled: podSecurityEnabled(scope.kubeVersion),
    configuration: configurationText(config),
    defaults: { enforce: formatLevelVersion(config.defaults.enforce), warn: formatLevelVersion(config.defaults.warn), audit: formatLevelVersion(config.defaults.audit) },
    exemptions: config.exemptions,
    defaultNamespace: scope.podSecurity.defaultNamespace,
    namespaces,
  };
}

/** One line per mode for the outputs: `enforce restricted:v1.35 (label)`. */
export function modesText(row: NamespaceRow): string {
  return (['enforce', 'warn', 'audit'] as const).map((mode) => `${mode} ${row.modes[mode].policy} (${row.modes[mode].from === 'enforce' ? 'follows enforce' : row.modes[mode].from})`).join(', ');
}
