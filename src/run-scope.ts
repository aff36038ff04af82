/**
 * What one run holds, for everything that analyses it: the objects read, the target version,
 * discovery, and the run's memo. Analyses that several rules (or simulate and report) read are
 * computed once per run through `memo`, never kept in module-level state: a process may lint
 * many times (tests, `report`), and an analysis of one run must not leak into the next.
 */
import type { BundleWorkload } from './model/objects.js';
import type { Discovery } from './kube/discovery/discovery.js';
import type { KubeVersion } from './kube/version.js';
import type { NamespaceObject, NetworkPolicyObject, PolicyObject, SecretKeysObject, ServiceObject, WebhookConfigurationObject, WorkloadObject } from './model/objects.js';
import type { PodSecuritySettings } from './model/pod-security.js';
import type { KustomizationListing, KustomizePatch } from './parse/kustomize-patches.js';

/** A typed key for one analysis in a run's memo; declare it once, next to the analysis. */
export interface MemoKey<T> {
  readonly description: string;
  /** Carries T for the type checker only. */
  readonly phantom?: (value: T) => T;
}

export function memoKey<T>(description: string): MemoKey<T> {
  return Object.freeze({ description });
}

/** The analyses of one run, each computed on first use. */
export class RunMemo {
  readonly #values = new Map<object, unknown>();

  get<T>(key: MemoKey<T>, compute: () => T): T {
    if (this.#values.has(key)) return this.#values.get(key) as T;
    const value = compute();
    this.#values.set(key, value);
    return value;
  }

  /** A map from objects of the run to what an analysis found for each, created on first use. */
  perObject<K extends object, V>(key: MemoKey<Map<K, V>>, object: K, compute: () => V): V {
    const map = this.get(key, () => new Map<K, V>());
    if (map.has(object)) return map.get(object) as V;
    const value = compute();
    map.set(object, value);
    return value;
  }
}

/** A document the run could not read. */
export interface UnreadableDocument {
  readonly file: string;
  readonly documentIndex: number;
  /** Its text, or its kind when that was read; undefined when nothing of it is known (it could be anything). */
  readonly text: string | undefined;
}

export interface RunScope {
  readonly webhookConfigurations: readonly WebhookConfigurationObject[];
  readonly namespaces: readonly NamespaceObject[];
  /** Admission policies and their bindings. */
  readonly policies: readonly PolicyObject[];
  /**
   * Pods and workloads with pod templates, read only where a Pod Security level other than
   * privileged can apply to them (src/engine/load-run.ts); empty otherwise.
   */
  readonly workloads: readonly WorkloadObject[];
  /**
   * Pods and workloads with pod templates in the inputs that hold a webhook configuration (a
   * bundle), read there quietly whatever Pod Security says: what runs a webhook (its Service's
   * selector picks their pods). Not linted.
   */
  readonly bundleWorkloads: readonly BundleWorkload[];
  /** The bundles with a document that may be a workload but was not read so (the fast reader declined it): what runs their webhooks is not known. */
  readonly bundlesWithUnreadWorkloads: ReadonlySet<string>;
  /**
   * v1 Services, read only from the inputs that also hold a webhook configuration
   * (src/engine/load-run.ts): a Service not here may still exist, so an analysis never concludes
   * from a Service's absence. Through src/match/services.ts.
   */
  readonly services: readonly ServiceObject[];
  /** An input of the run that was not read for Services may hold one (a Service's absence from `services` then proves nothing). */
  readonly servicesOutsideBundles: boolean;
  /** NetworkPolicies, read from the inputs `services` are read from; absent when not read. */
  readonly networkPolicies?: readonly NetworkPolicyObject[];
  /** An input of the run that was not read for NetworkPolicies may hold one. */
  readonly networkPoliciesOutsideBundles?: boolean;
  /**
   * Secrets that hold private keys in the clear, read from the inputs that hold a webhook
   * configuration (as `services` are): whose keys a caBundle may trust. Nothing is concluded
   * from a key's absence.
   */
  readonly secretKeys: readonly SecretKeysObject[];
  /**
   * Documents of the run that could not be read (a syntax error, an alias bomb, a file too large
   * or not UTF-8). An analysis that concludes from an object's absence asks
   * src/match/unreadable.ts whether one of these could be that object, and says nothing if so.
   */
  readonly unreadable: readonly UnreadableDocument[];
  /** What the patches of the run's kustomizations change: those objects are named, never judged silently. */
  readonly kustomizePatches: readonly KustomizePatch[];
  /** The kustomizations of the run: which files and folders each lists. */
  readonly kustomizations: readonly KustomizationListing[];
  /** The cluster's PodSecurity admission configuration and the run's default namespace. */
  readonly podSecurity: PodSecuritySettings;
  readonly kubeVersion: KubeVersion;
  /** The target is the default (DEFAULT_KUBE_VERSION), not one the user chose with --kube-version or the config. */
  readonly kubeVersionDefaulted: boolean;
  /** The built-in APIs of the target version plus the CRDs of the run. */
  readonly discovery: Discovery;
  readonly memo: RunMemo;
}
