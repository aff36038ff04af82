/**
 * Which webhooks of a configuration intercept what the system's own components write in
 * kube-system: pods, leases, endpoints, workloads (src/kube/kube-system-resources.ts), through a
 * namespaceSelector that selects kube-system, an objectSelector the system's objects can satisfy
 * (src/match/kube-system.ts) and matchConditions that let the system's requests through.
 *
 * `matches-kube-system` reports these webhooks; `critical-resources` leaves their kube-system
 * writes to it when it runs (one cause, one finding). Both read this analysis, computed once per
 * object and run.
 */
import { firstResourceMatch, KUBE_SYSTEM_DELETED, resourceMatches, KUBE_SYSTEM_WRITTEN, type BuiltinGroup, type BuiltinMatch } from '../kube/kube-system-resources.js';
import type { ResourceInfo } from '../kube/discovery/discovery.js';
import type { WebhookConfigurationObject } from '../model/objects.js';
import type { LabelSelector } from '../model/types.js';
import { webhooksOf, type WebhookEntry } from '../model/webhooks.js';
import { memoKey, type RunScope } from '../run-scope.js';
import { systemObjectLabels } from './kube-system.js';
import { namespaceLabels } from './namespaces.js';
import { selectorHasPlaceholder, selectorMatches } from './selector.js';
import { systemRequestOutcome } from './system-requests.js';

export const KUBE_SYSTEM = 'kube-system';

/** Operations the system's components perform; CONNECT (exec, attach, port-forward) is people's. */
const SYSTEM_OPERATIONS = new Set(['*', 'CREATE', 'UPDATE', 'DELETE']);
/** Subresources reached only by CONNECT. */
const CONNECT_SUBRESOURCES = new Set(['exec', 'attach', 'portforward', 'proxy']);
/**
 * Subresources written by people only: `kubectl debug` adds ephemeral containers (an UPDATE of
 * pods/ephemeralcontainers); no control-plane component or add-on does.
 */
export const PEOPLES_SUBRESOURCES: ReadonlySet<string> = new Set(['ephemeralcontainers']);
/** Entries of a rule's resources that the system may write (not a CONNECT subresource, nor one only people write). */
const systemWritable = (resource: string): boolean => {
  const subresource = resource.split('/')[1] ?? '';
  return !CONNECT_SUBRESOURCES.has(subresource) && !PEOPLES_SUBRESOURCES.has(subresource);
};

export interface KubeSystemInterception {
  readonly entry: WebhookEntry;
  /** The index of the first rule that intercepts a system write there (one that creates or updates, if any does). */
  readonly rule: number;
  /** The first system-written resource that rule names. */
  readonly match: BuiltinMatch;
  /** Whether that rule names every resource of every group (`apiGroups: ["*"]`, `resources: ["*"]`). */
  readonly everything: boolean;
  /** Every intercepting rule lists only DELETE: the system's creates and updates pass. */
  readonly deleteOnly: boolean;
  /** Creates or updates of kube-system Pods (not evictions) are intercepted: what GKE calls unsafe. */
  readonly pods: boolean;
  /** Creates or updates of kube-system Leases (leader election) are intercepted. */
  readonly leases: boolean;
  /** Deletes of kube-system Pods are intercepted (the kubelet's final delete of a terminated pod). */
  readonly podDeletes: boolean;
  /** Every system write intercepted there is an eviction: made by people and drains, not by the control plane. */
  readonly evictionsOnly: boolean;
  /**
   * Every create or update it may intercept there is of a Deployment, StatefulSet or Job object
   * (not a subresource): people and installers write those (and a CronJob there its Jobs, whose
   * runs then wait); the control plane writes their status and scale, and the ReplicaSets,
   * ControllerRevisions and Pods that keep them running.
   */
  readonly installerWritesOnly: boolean;
}


/** The writes GKE's unsafe-webhook insight names in kube-system: Pods and Leases. */
const PODS: Readonly<Record<string, BuiltinGroup>> = { '': { versions: ['v1'], namespacedResources: ['pods'] } };
const LEASES: Readonly<Record<string, BuiltinGroup>> = { 'coordination.k8s.io': { versions: ['v1'], namespacedResources: ['leases'] } };

/** Per object and run: the analysis is read by two rules. */
const INTERCEPTIONS = memoKey<Map<WebhookConfigurationObject, readonly KubeSystemInterception[]>>('kube-system interceptions per configuration');

export function kubeSystemInterceptions(object: WebhookConfigurationObject, context: RunScope): readonly KubeSystemInterception[] {
  return context.memo.perObject(INTERCEPTIONS, object, () => analyse(object, context));
}

/** A system write as messages name it: `pods (core)`, `leases (coordination.k8s.io)`, `all apps resources`. */
export function describeResource(match: Pick<BuiltinMatch, 'group' | 'resource' | 'subresource'>): string {
  const group = match.group === '' ? 'core' : match.group;
  return match.resource === '*' ? `all ${group} resources` : `${match.resource}${match.subresource ? `/${match.subresource}` : ''} (${group})`;
}

/**
 * The namespaceSelector requirement meant to exclude kube-system that does not (its key, and its
 * index in matchExpressions): `NotIn [kube-system]` on a label key kube-system does not carry
 * (`name`, a convention some clusters add by hand) selects it, as a NotIn on a missing label
 * does. matches-kube-system names the key, and its finding covers editable-namespace-selector's
 * on that requirement (one cause: the key, whose fix, kubernetes.io/metadata.name, also takes
 * away the opt-out).
 */
export function unexcludedRequirement(selector: LabelSelector | null | undefined, labels: Readonly<Record<string, string>>): { readonly key: string; readonly index: number } | undefined {
  const index = (selector?.matchExpressions ?? []).findIndex(
    (each) => each !== null && each.operator === 'NotIn' && (each.values ?? []).includes(KUBE_SYSTEM) && typeof each.key === 'string' && !Object.prototype.hasOwnProperty.call(labels, each.key),
  );
  return index < 0 ? undefined : { key: selector!.matchExpressions![index]!.key, index };
}

/** What discovery knows of a table resource (at the table's first version of its group). */
function servedResource(write: BuiltinMatch, table: Readonly<Record<string, BuiltinGroup>>, context: Pick<RunScope, 'discovery'>): ResourceInfo | undefined {
  const version = table[write.group]?.versions[0];
  return version === undefined ? undefined : context.discovery.resource(write.group, version, write.resource);
}

/** Whether the API serves the write's subresource for its resource (`''` and `*` always count). */
function served(write: BuiltinMatch, table: Readonly<Record<string, BuiltinGroup>>, context: Pick<RunScope, 'discovery'>): boolean {
  if (write.subresource === '' || write.subresource === '*') return true;
  return servedResource(write, table, context)?.subresources.has(write.subresource) ?? true;
}

/** Writes of one rule whose matchConditions are evaluated; past them, the rule is taken as called. */
const MAX_WRITES_JUDGED = 128;

/**
 * The requests a matched entry stands for: itself, or for a subresource `*` (`pods/*`) each
 * subresource the API serves for it that the system writes (not CONNECT, not `log`, not
 * ephemeral containers), evictions included.
 */
function concreteWrites(match: BuiltinMatch, table: Readonly<Record<string, BuiltinGroup>>, context: Pick<RunScope, 'discovery'>): BuiltinMatch[] {
  if (match.subresource !== '*') return [match];
  const resource = servedResource(match, table, context);
  const subresources = [...(resource?.subresources ?? [])].filter((subresource) => !resource!.connect.has(subresource) && subresource !== 'log' && !PEOPLES_SUBRESOURCES.has(subresource));
  return subresources.length === 0 ? [match] : subresources.map((subresource) => ({ ...match, subresource }));
}

/**
 * The matches of a rule with pods first, then leases (the writes GKE's insight names, and the
 * order the policies' findings try), then the others as the rule lists them: the message names
 * the first one called.
 */
function systemWritesFirst<T extends { readonly concrete: BuiltinMatch }>(matches: readonly T[]): T[] {
  const rank = ({ concrete }: T): number => (concrete.group === '' && concrete.resource === 'pods' ? 0 : concrete.group === 'coordination.k8s.io' && concrete.resource === 'leases' ? 1 : 2);
  return [...matches].sort((a, b) => rank(a) - rank(b));
}

function analyse(object: WebhookConfigurationObject, context: RunScope): KubeSystemInterception[] {
  const labels = namespaceLabels(context, KUBE_SYSTEM);
  return webhooksOf(object).flatMap((entry): KubeSystemInterception[] => {
    const { webhook } = entry;
    // A placeholder in a selector (`${NAMESPACE}`) leaves what it selects unknown: say nothing.
    if (selectorHasPlaceholder(webhook.namespaceSelector) || selectorHasPlaceholder(webhook.objectSelector)) return [];
    if (selectorMatches(webhook.namespaceSelector, labels) !== true) return [];
    // An opt-in objectSelector (a label of the webhook's own) exempts the system's objects.
    if (selectorMatches(webhook.objectSelector, systemObjectLabels(webhook.objectSelector)) !== true) return [];
    let first: { rule: number; match: BuiltinMatch; everything: boolean; rank: number } | undefined;
    let deleteOnly = true;
    let pods = false;
    let leases = false;
    let podDeletes = false;
    let evictionsOnly = true;
    for (const [j, rule] of (webhook.rules ?? []).entries()) {
      if (rule === null || rule.scope === 'Cluster') continue;
      const operations = rule.operations ?? [];
      if (!operations.some((operation) => SYSTEM_OPERATIONS.has(operation))) continue;
      const writable = (rule.resources ?? []).filter(systemWritable);
      // A DELETE-only rule meets only what the system itself deletes there.
      const ruleDeleteOnly = operations.every((operation) => operation === 'DELETE');
      const groups = rule.apiGroups ?? [];
      const versions = rule.apiVersions ?? [];
      const table = ruleDeleteOnly ? KUBE_SYSTEM_DELETED : KUBE_SYSTEM_WRITTEN;
      // matchConditions that exclude system users or kube-system let those writes through; one that
      // cannot be decided from what is known of them (src/match/system-requests.ts) may call it.
      // Each write the rule names is judged (conditions may test the resource or subresource).
      // Evictions come from people and drains, not from the control plane: another write the rule
      // names and the conditions let in is the one to judge and show.
      const conditions = webhook.matchConditions ?? [];
      let called: BuiltinMatch | undefined;
      let systemCalled: BuiltinMatch | undefined;
      // Conditions that read nothing of what is written (no resource, kind or object) decide alike
      // for every resource of a group: one evaluation each (the run's CEL budget is shared).
      const resourceBlind = conditions.every((condition) => !/resource|Resource|kind|Kind|bject/.test(condition?.expression ?? 'resource'));
      // The requesters of a write follow from its group and subresource (the scheduler's and
      // Fargate's binding): resource-blind conditions are judged once per pair.
      const byWriters = new Map<string, ReturnType<typeof systemRequestOutcome>>();
      const seen = new Set<string>();
      let judged = 0;
      for (const { shown, concrete } of systemWritesFirst(resourceMatches(table, groups, versions, writable))) {
        for (const write of concreteWrites(concrete, table, context)) {
          // The same write named twice (`pods` and `*`), or a subresource the API does not serve
          // for it (`configmaps/approval`), adds nothing to judge.
          const id = `${write.group}/${write.resource}/${write.subresource}`;
          if (seen.has(id) || !served(write, table, context)) continue;
          seen.add(id);
          const eviction = write.subresource === 'eviction';
          if (eviction ? called !== undefined : systemCalled !== undefined) continue;
          const writers = `${write.group}/${write.subresource}`;
          let outcome: ReturnType<typeof systemRequestOutcome>;
          if (conditions.length === 0) outcome = 'called';
          else if (resourceBlind && byWriters.has(writers)) outcome = byWriters.get(writers)!;
          // Past this many, the rest are not judged: taken as called (said, never dropped).
          else if (judged >= MAX_WRITES_JUDGED) outcome = 'unknown';
          else {
            judged++;
            outcome = systemRequestOutcome(context, conditions, write, operations);
            byWriters.set(writers, outcome);
          }
          if (outcome === 'skipped') continue;
          called ??= shown;
          if (!eviction) systemCalled ??= shown;
        }
        if (systemCalled !== undefined) break;
      }
      // A rule of subresources the API does not serve: judged by its first, as written.
      const first0 = seen.size === 0 ? firstResourceMatch(table, groups, versions, writable) : undefined;
      if (first0 !== undefined && systemRequestOutcome(context, conditions, first0, operations) !== 'skipped') called ??= first0;
      const match = systemCalled ?? called;
      if (match === undefined) continue;
      const everything = groups.includes('*') && writable.some((resource) => resource === '*' || resource === '*/*');
      const ruleEvictionsOnly = systemCalled === undefined;
      // Shown: the first rule that creates or updates (else a DELETE-only one), beyond evictions if one is.
      const rank = (ruleDeleteOnly ? 2 : 0) + (ruleEvictionsOnly ? 1 : 0);
      if (first === undefined || rank < first.rank) first = { rule: j, match, everything, rank };
      evictionsOnly &&= ruleEvictionsOnly;
      const writes = operations.some((operation) => operation !== 'DELETE' && operation !== 'CONNECT');
      const notEvictions = writable.filter((resource) => resource.split('/')[1] !== 'eviction');
      if (writes) {
        deleteOnly = false;
        pods ||= firstResourceMatch(PODS, groups, versions, notEvictions) !== undefined;
        leases ||= firstResourceMatch(LEASES, groups, versions, notEvictions) !== undefined;
      }
      if (operations.includes('DELETE') || operations.includes('*')) podDeletes ||= firstResourceMatch(PODS, groups, versions, notEvictions) !== undefined;
    }
    if (first === undefined) return [];
    // Every entry of every rule that creates or updates in namespaces names a Deployment,
    // StatefulSet or Job object, whatever its matchConditions let in: any other (in the table or not:
    // PVCs, ResourceClaims the controllers write too) keeps the error (s37b B-2).
    const installerWritesOnly = (webhook.rules ?? []).every((rule) => {
      if (rule === null || rule.scope === 'Cluster') return true;
      const operations = rule.operations ?? [];
      if (!operations.some((operation) => operation !== 'DELETE' && operation !== 'CONNECT')) return true;
      // (Jobs too: a CronJob there makes them, and its runs wait while the webhook is down; nothing running stops.)
      return (rule.apiGroups ?? []).every((group) => group === 'apps' || group === 'batch' || group === '*') && (rule.resources ?? []).filter(systemWritable).every((resource) => resource === 'deployments' || resource === 'statefulsets' || resource === 'jobs');
    });
    return [{ entry, rule: first.rule, match: first.match, everything: first.everything, deleteOnly, pods, leases, podDeletes, evictionsOnly, installerWritesOnly: installerWritesOnly && !deleteOnly }];
  });
}
