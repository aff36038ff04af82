/**
 * Pod Security Admission over a run: the policy of each namespace (its Namespace manifest's labels
 * over the configured defaults, and the configured exemptions), where workloads need reading at
 * all, and each workload's verdict per mode, as the PodSecurity admission plugin decides it
 * (k8s.io/pod-security-admission admission/admission.go: ValidatePod, ValidatePodController,
 * EvaluatePod). Per-run results go through the run's memo.
 */
import { isRecord } from '../json.js';
import { isAtLeast, type KubeVersion } from '../kube/version.js';
import { namespaceNamed } from '../match/namespaces.js';
import type { NamespaceObject, WorkloadObject } from '../model/objects.js';
import { DEFAULT_NAMESPACE, PSA_MODES, type PodSecurityConfiguration, type PodSecuritySettings, type PsaLevel, type PsaMode, type PsaVersion } from '../model/pod-security.js';
import type { FieldPath } from '../field-path.js';
import { memoKey, type RunScope } from '../run-scope.js';
import { DEFAULT_POD_SECURITY_CONFIGURATION } from './config.js';
import { evaluatePod, NEWEST_POLICY_MINOR, podPassesAll, type PodObjectKind, type PodSecurityResult } from './evaluate.js';
import { formatLevelVersion } from './labels.js';
import { effectivePolicy, isExemptRuntimeClass, resolvePsaVersion, type EffectivePolicy } from './namespace-policy.js';
import { podTemplateOf, psaWorkloadOf, type PodTemplateLocation, type PsaWorkload } from './workloads.js';

/** No configuration file, and the namespace kubectl uses when none is given. */
export const DEFAULT_POD_SECURITY_SETTINGS: PodSecuritySettings = {
  config: DEFAULT_POD_SECURITY_CONFIGURATION,
  defaultNamespace: DEFAULT_NAMESPACE,
  defaultNamespaceGiven: false,
};

/** The PodSecurity admission plugin is on by default from 1.23 (beta; GA in 1.25); before, it does nothing. */
export function podSecurityEnabled(kubeVersion: KubeVersion): boolean {
  return isAtLeast(kubeVersion, 1, 23);
}

/** A Namespace manifest's labels as written (values of any type: PolicyToEvaluate decides what it reads). */
function writtenLabels(namespace: NamespaceObject): Readonly<Record<string, unknown>> {
  const written = namespace.written;
  const metadata = isRecord(written) && isRecord(written.metadata) ? written.metadata : undefined;
  return metadata !== undefined && isRecord(metadata.labels) ? metadata.labels : {};
}

export interface NamespacePodSecurity {
  readonly name: string;
  readonly policy: EffectivePolicy;
  /** The Namespace manifest whose labels apply; undefined when the run has none (the configured defaults apply). */
  readonly manifest: NamespaceObject | undefined;
}

/** Whether the policy checks pods at all: the namespace is not exempt and some mode's level is not privileged. */
export function checksPods(policy: EffectivePolicy): boolean {
  return !policy.exempt && PSA_MODES.some((mode) => policy[mode].level !== 'privileged');
}

/** The policy of `name` from a Namespace manifest (or none) and the configuration. */
export function namespacePodSecurity(name: string, manifest: NamespaceObject | undefined, config: PodSecurityConfiguration): NamespacePodSecurity {
  return { name, policy: effectivePolicy(manifest === undefined ? undefined : writtenLabels(manifest), config, name), manifest };
}

const NAMESPACE_POLICIES = memoKey<Map<string, NamespacePodSecurity>>('Pod Security policy per namespace');

/** The policy of a namespace in this run (its first Namespace manifest, as the other analyses read it). */
export function namespacePolicyIn(scope: Pick<RunScope, 'namespaces' | 'memo' | 'podSecurity'>, name: string): NamespacePodSecurity {
  const cache = scope.memo.get(NAMESPACE_POLICIES, () => new Map<string, NamespacePodSecurity>());
  let found = cache.get(name);
  if (found === undefined) {
    found = namespacePodSecurity(name, namespaceNamed(scope, name), scope.podSecurity.config);
    cache.set(name, found);
  }
  return found;
}

/**
 * Which workloads a run must read, decided before reading (the manifests' Namespaces are not
 * known yet): `none` when the plugin is off (before 1.23), `every` when the configured defaults
 * check pods (any namespace without labels is checked), else `labelled`: only workloads in
 * namespaces whose manifests' labels set a level other than privileged (CheckedNamespaces).
 */
export function initialReach(settings: PodSecuritySettings, kubeVersion: KubeVersion): 'none' | 'every' | 'labelled' {
  if (!podSecurityEnabled(kubeVersion)) return 'none';
  return checksPods(effectivePolicy(undefined, settings.config, '')) ? 'every' : 'labelled';
}

/**
 * The namespaces whose pods are checked, learned as a run's Namespace manifests are read (the
 * first manifest of each name decides, as namespacePolicyIn reads them). The list only grows, so
 * a prefix of it is what was known at an earlier point of the reading.
 */
export class CheckedNamespaces {
  readonly names: string[] = [];
  readonly #checked = new Set<string>();
  /** The run's default namespace is checked: a workload that names no namespace may be there. */
  every = false;
  /** Each name's policy, from its first Namespace manifest: final once seen. */
  readonly #first = new Map<string, NamespacePodSecurity>();

  constructor(private readonly settings: PodSecuritySettings) {}

  add(namespace: NamespaceObject): void {
    if (this.#first.has(namespace.name)) return;
    const policy = namespacePodSecurity(namespace.name, namespace, this.settings.config);
    this.#first.set(namespace.name, policy);
    if (!checksPods(policy.policy)) return;
    this.names.push(namespace.name);
    this.#checked.add(namespace.name);
    if (namespace.name === this.settings.defaultNamespace) this.every = true;
  }

  /** Whether a Namespace manifest read so far makes the pods of `name` checked. */
  has(name: string): boolean {
    return this.#checked.has(name);
  }

  /**
   * The policy of the namespace a workload is in (`undefined`: it names none, so the default
   * one), when it can no longer change: its first manifest was read, or (`complete`: every file
   * was read) there is none and the configured defaults apply. Undefined while it can.
   */
  finalPolicy(namespace: string | undefined, complete: boolean): NamespacePodSecurity | undefined {
    const name = namespace ?? this.settings.defaultNamespace;
    return this.#first.get(name) ?? (complete ? namespacePodSecurity(name, undefined, this.settings.config) : undefined);
  }
}

/** What one mode of the policy makes of a pod. */
export interface ModeVerdict {
  readonly mode: PsaMode;
  readonly level: PsaLevel;
  /** As labelled (or configured): the API server's messages quote it (`restricted:latest`). */
  readonly version: PsaVersion;
  /** The policy version's minor whose checks ran: latest and versions past the target are the target's, capped at the newest checks. */
  readonly minor: number;
  readonly result: PodSecurityResult;
  /**
   * Which object was evaluated: a Pod as the API server prepares it; for a workload's `enforce`,
   * the Pods it creates (also `pod`); for its `warn` and `audit`, the template as written.
   */
  readonly evaluatedAs: PodObjectKind;
}

export type NotChecked =
  /** Before 1.23 the plugin is off. */
  | 'disabled'
  /** exemptions.namespaces lists the namespace. */
  | 'exempt-namespace'
  /** exemptions.runtimeClasses lists the pod's runtimeClassName. */
  | 'exempt-runtime-class'
  /** No pod template to check (a ReplicationController without one, or a template that is not a mapping). */
  | 'no-template';

export interface PodSecurityVerdict {
  readonly entry: PsaWorkload;
  readonly namespace: NamespacePodSecurity;
  readonly template: PodTemplateLocation | undefined;
  readonly notChecked: NotChecked | undefined;
  /** Each mode whose level is not privileged, in the order enforce, warn, audit. */
  readonly modes: readonly ModeVerdict[];
}

const MODE_ORDER: readonly PsaMode[] = ['enforce', 'warn', 'audit'];

/** What keeps an object of a kind the plugin evaluates from being checked, if anything. */
function notCheckedWhy(template: PodTemplateLocation | undefined, namespace: NamespacePodSecurity, config: PodSecurityConfiguration, kubeVersion: KubeVersion): NotChecked | undefined {
  if (!podSecurityEnabled(kubeVersion)) return 'disabled';
  if (namespace.policy.exempt) return 'exempt-namespace';
  if (template === undefined) return 'no-template';
  if (isExemptRuntimeClass(template.spec, config)) return 'exempt-runtime-class';
  return undefined;
}

/** Each mode whose level is not privileged, in MODE_ORDER, with the policy minor whose checks run. */
function checkedModes(namespace: NamespacePodSecurity, kubeVersion: KubeVersion): { readonly mode: PsaMode; readonly level: PsaLevel; readonly version: PsaVersion; readonly minor: number }[] {
  return MODE_ORDER.flatMap((mode) => {
    const { level, version } = namespace.policy[mode];
    return level === 'privileged' ? [] : [{ mode, level, version, minor: Math.min(resolvePsaVersion(version, kubeVersion).minor, NEWEST_POLICY_MINOR) }];
  });
}

/**
 * The plugin's verdict on an object of a kind it evaluates (undefined for other kinds) in a
 * namespace with the given policy. Evaluations are shared between modes with the same level and
 * version, as the plugin shares them.
 */
export function podSecurityVerdict(
  object: { readonly kind: string | undefined; readonly apiVersion: string | undefined; readonly written: unknown },
  namespace: NamespacePodSecurity,
  config: PodSecurityConfiguration,
  kubeVersion: KubeVersion,
): PodSecurityVerdict | undefined {
  const entry = psaWorkloadOf(object.kind, object.apiVersion);
  if (entry === undefined) return undefined;
  const template = podTemplateOf(object.kind, object.apiVersion, object.written);
  const notChecked = notCheckedWhy(template, namespace, config, kubeVersion);
  if (notChecked !== undefined || template === undefined) return { entry, namespace, template, notChecked, modes: [] };
  const results = new Map<string, PodSecurityResult>();
  const modes = checkedModes(namespace, kubeVersion).map(({ mode, level, version, minor }): ModeVerdict => {
    const evaluatedAs: PodObjectKind = entry.enforced || mode === 'enforce' ? 'pod' : 'template';
    const key = `${level}:${minor}:${evaluatedAs}`;
    let result = results.get(key);
    if (result === undefined) {
      result = evaluatePod(level, { minor }, template.metadata, template.spec, { object: evaluatedAs });
      results.set(key, result);
    }
    return { mode, level, version, minor, result, evaluatedAs };
  });
  return { entry, namespace, template, notChecked: undefined, modes };
}

/**
 * Whether podSecurityVerdict would find nothing to report: the object is not checked, or every
 * mode allows it (undefined for kinds the plugin does not evaluate). The same answer for less work:
 * no messages, each level and version evaluated once (podPassesAll).
 */
export function podSecurityPasses(
  object: { readonly kind: string | undefined; readonly apiVersion: string | undefined; readonly written: unknown },
  namespace: NamespacePodSecurity,
  config: PodSecurityConfiguration,
  kubeVersion: KubeVersion,
): boolean | undefined {
  if (psaWorkloadOf(object.kind, object.apiVersion) === undefined) return undefined;
  const template = podTemplateOf(object.kind, object.apiVersion, object.written);
  if (notCheckedWhy(template, namespace, config, kubeVersion) !== undefined || template === undefined) return true;
  return podPassesAll(checkedModes(namespace, kubeVersion), template.metadata, template.spec);
}

/** The namespace a workload is in: its own, else the run's default one (`assumed`). */
export function workloadNamespace(workload: Pick<WorkloadObject, 'namespace'>, settings: PodSecuritySettings): { readonly name: string; readonly assumed: boolean } {
  return workload.namespace !== undefined ? { name: workload.namespace, assumed: false } : { name: settings.defaultNamespace, assumed: true };
}

const VERDICTS = memoKey<Map<WorkloadObject, PodSecurityVerdict | undefined>>('Pod Security verdict per workload');

/** A workload's verdict in this run, computed once (the rule and the report both read it). */
export function workloadVerdict(scope: Pick<RunScope, 'namespaces' | 'memo' | 'podSecurity' | 'kubeVersion'>, workload: WorkloadObject): PodSecurityVerdict | undefined {
  return scope.memo.perObject(VERDICTS, workload, () =>
    podSecurityVerdict(workload, namespacePolicyIn(scope, workloadNamespace(workload, scope.podSecurity).name), scope.podSecurity.config, scope.kubeVersion),
  );
}

/** A path relative to the pod (`['spec', 'containers', 0, …]`, `['metadata', …]`) as a path of the object holding it. */
export function objectPathOf(template: PodTemplateLocation, podPath: FieldPath): FieldPath {
  const [first, ...rest] = podPath;
  if (first === 'metadata') return [...template.metadataPath, ...rest];
  if (first === 'spec') return [...template.specPath, ...rest];
  return [...template.specPath.slice(0, -1), ...podPath];
}

/** `restricted:latest`: the level and version as labelled, as the API server quotes them. */
export function modeText(mode: Pick<ModeVerdict, 'level' | 'version'>): string {
  return formatLevelVersion(mode);
}
