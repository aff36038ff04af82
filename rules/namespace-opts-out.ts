import { backendOf, namespaceLabelGuard } from '../src/match/namespace-guards.js';
import { rulesMatchBuiltins } from '../src/match/builtin-rules.js';
import type { FieldPath } from '../src/field-path.js';
import type { Discovery } from '../src/kube/discovery/discovery.js';
import { isAtLeast } from '../src/kube/version.js';
import { labelsOfNamespace } from '../src/match/namespaces.js';
import { matchWebhook, ruleMatches, type AdmissionRequest, type Operation } from '../src/match/request.js';
import { namespaceSelectorApplies } from '../src/match/scope.js';
import { selectorKeys, type Labels } from '../src/match/selector.js';
import type { NamespaceObject, WebhookConfigurationObject } from '../src/model/objects.js';
import { NAMESPACE_NAME_LABEL } from '../src/model/types.js';
import type { RuleWithOperations, Webhook } from '../src/model/types.js';
import { isV1beta1, webhooksOf, type WebhookEntry } from '../src/model/webhooks.js';
import { defineObjectRule, type RuleRun, type RuleMeta, type Violation } from '../src/rule.js';
import { isRecord } from '../src/json.js';
import { joinCapped, joinWords } from '../src/text/list.js';

type MessageId = 'optOut' | 'missingOptIn';

/** The docs recommend that webhooks leave kube-system alone: excluding it is not an opt-out. */
const KUBE_SYSTEM = 'kube-system';

/** A request the webhook's rules match, without its namespace. */
interface Representative {
  readonly operation: Operation;
  readonly group: string;
  readonly version: string;
  readonly resource: string;
  readonly subresource: string;
  /** The Namespace object itself (matched against its own labels) rather than an object in it. */
  readonly namespaceObject: boolean;
}

interface Candidate {
  readonly object: WebhookConfigurationObject;
  readonly entry: WebhookEntry;
  readonly request: Representative;
  /** Selector keys that whoever labels a namespace can change (not the name label, not trusted keys). */
  readonly editable: readonly string[];
  /** The namespace of the Service that serves the webhook, if it is served in-cluster. */
  readonly ownNamespace: string | undefined;
  /** Whether its rules match built-in resources (not only custom resources): a control over what runs, not a correctness check. */
  readonly builtins: boolean;
}


const FIX =
  'If the namespace must be validated, remove the label; if the exemption is deliberate, select namespaces by kubernetes.io/metadata.name in the webhook (or protect the label and pass it to --trusted-namespace-label).';

const meta = {
  id: 'namespace-opts-out',
  title: "A Namespace's labels take it out of a validating webhook that would otherwise select it",
  severity: 'warning',
  appliesTo: ['Namespace'],
  messages: {
    optOut: 'Namespace "{{namespace}}" opts out of {{webhooks}} with its {{labels}}',
    missingOptIn: 'Namespace "{{namespace}}" is not selected by the opt-in {{webhooks}}: it lacks the {{labels}} of Namespace "{{other}}"',
  },
  help: `Without the label, the webhook's namespaceSelector selects this namespace and its requests are validated, so whoever can edit the namespace's labels can switch that validation off. ${FIX}`,
  options: {
    optIn: {
      type: 'string',
      default: 'ignore',
      description:
        '`report` also reports (as info) a Namespace that lacks the label an opt-in webhook requires while another Namespace of the run has it; `ignore` (the default) does not',
    },
  },
} satisfies RuleMeta;


function resourcePart(entry: string): [string, string] {
  const slash = entry.indexOf('/');
  return slash < 0 ? [entry, ''] : [entry.slice(0, slash), entry.slice(slash + 1)];
}

/** Whether discovery knows the resource only as cluster-scoped (in every version it serves it). */
function knownClusterScoped(discovery: Discovery, group: string, resource: string): boolean {
  const known = discovery
    .versions(group)
    .map((version) => discovery.resource(group, version, resource))
    .filter((info) => info !== undefined);
  return known.length > 0 && known.every((info) => !info.namespaced);
}

const isNamespaces = (group: string, resource: string): boolean => group === '' && resource === 'namespaces';

/** The operations a rule lists, `*` standing for CREATE (then the others). */
function operationsOf(rule: RuleWithOperations): Operation[] {
  const listed = rule.operations ?? [];
  if (listed.includes('*')) return ['CREATE', 'UPDATE', 'DELETE', 'CONNECT'];
  return (['CREATE', 'UPDATE', 'DELETE', 'CONNECT'] as const).filter((operation) => listed.includes(operation));
}

/** Stands for "any resource of the group" when a rule names `*` in a group discovery does not know. */
const ANY_RESOURCE = '*';

/** Namespaced resources that stand for "anything" when a rule names wildcards, most familiar first. */
const PREFERRED: readonly [string, string, string][] = [
  ['', 'v1', 'pods'],
  ['apps', 'v1', 'deployments'],
  ['', 'v1', 'configmaps'],
];

/**
 * The first namespaced request (a resource with a namespace) the rule matches: the resources it
 * names, in order, or (for wildcards) a served namespaced resource that fits them.
 */
function namespacedRequest(rule: RuleWithOperations, discovery: Discovery): Representative | undefined {
  const operations = operationsOf(rule);
  const fits = (request: Omit<Representative, 'namespaceObject'>): boolean => ruleMatches(rule, { ...request, namespace: 'namespace' });
  for (const entry of rule.resources ?? []) {
    const [resource, subresource] = resourcePart(entry);
    for (const group of rule.apiGroups ?? []) {
      for (const version of rule.apiVersions ?? []) {
        if (resource !== '*' && group !== '*' && version !== '*') {
          if (isNamespaces(group, resource) || knownClusterScoped(discovery, group, resource)) continue;
          for (const operation of operations) {
            const request = { operation, group, version, resource, subresource: subresource === '*' ? '' : subresource };
            if (fits(request)) return { ...request, namespaceObject: false };
          }
          continue;
        }
        const served = [
          ...PREFERRED.map(([g, v, r]) => discovery.resource(g, v, r)).filter((info) => info !== undefined),
          ...discovery.allResources(),
        ].filter((info) => info.namespaced);
        for (const info of served) {
          for (const sub of subresource === '' ? [''] : ['', ...info.subresources]) {
            for (const operation of operations) {
              const request = { operation, group: info.group, version: info.version, resource: info.resource, subresource: sub };
              if (fits(request)) return { ...request, namespaceObject: false };
            }
          }
        }
        // Resources discovery does not know (custom ones without their CRD in the run) may be namespaced.
        const concreteGroup = group === '*' ? '' : group;
        const known =
          resource === '*'
            ? discovery.knowsGroup(concreteGroup)
            : isNamespaces(concreteGroup, resource) || discovery.allResources().some((info) => info.resource === resource && (group === '*' || info.group === group));
        // Known resources were tried above.
        if (known) continue;
        for (const operation of operations) {
          const request = {
            operation,
            group: concreteGroup,
            version: version === '*' ? (discovery.versions(concreteGroup)[0] ?? 'v1') : version,
            resource: resource === '*' ? ANY_RESOURCE : resource,
            subresource: subresource === '*' ? '' : subresource,
          };
          if (fits(request)) return { ...request, namespaceObject: false };
        }
      }
    }
  }
  return undefined;
}

/** A namespaced request the webhook's rules match; else the Namespace object itself, if they match that. */
function representative(webhook: Readonly<Webhook>, discovery: Discovery): Representative | undefined {
  const rules = (webhook.rules ?? []).filter((rule): rule is RuleWithOperations => rule !== null && typeof rule === 'object');
  for (const rule of rules) {
    if (rule.scope === 'Cluster') continue;
    const request = namespacedRequest(rule, discovery);
    if (request !== undefined) return request;
  }
  for (const rule of rules) {
    for (const operation of operationsOf(rule).filter((op) => op !== 'CONNECT')) {
      const request = { operation, group: '', version: 'v1', resource: 'namespaces', subresource: '' };
      if (ruleMatches(rule, { ...request, namespace: 'namespace' })) return { ...request, namespaceObject: true };
    }
  }
  return undefined;
}

/** The validating webhooks of the run whose namespaceSelector an editable label can decide. */
function candidates(run: RuleRun): Candidate[] {
  const trusted = new Set([...(isAtLeast(run.kubeVersion, 1, 21) ? [NAMESPACE_NAME_LABEL] : []), ...run.trustedNamespaceLabels]);
  const found: Candidate[] = [];
  for (const object of run.webhookConfigurations) {
    if (object.kind !== 'ValidatingWebhookConfiguration' || !object.decodable) continue;
    // v1beta1 configurations are not served from 1.22 (removed-api-version): they select nothing.
    if (isV1beta1(object) && isAtLeast(run.kubeVersion, 1, 22)) continue;
    for (const entry of webhooksOf(object)) {
      const { webhook } = entry;
      // A label that a webhook of the same backend or a Deny-bound policy guards on every Namespace write is the guard's to allow.
      const backend = backendOf(webhook);
      const editable = [...new Set(selectorKeys(webhook.namespaceSelector).map(({ key }) => key))].filter((key) => !trusted.has(key) && namespaceLabelGuard(run, key, backend) === undefined);
      if (editable.length === 0) continue;
      // Rules that match only cluster-scoped objects never consult the namespaceSelector.
      if (!namespaceSelectorApplies(webhook.rules, run.discovery)) continue;
      const request = representative(webhook, run.discovery);
      if (request === undefined) continue;
      const namespace = webhook.clientConfig?.service?.namespace;
      found.push({ object, entry, request, editable, ownNamespace: typeof namespace === 'string' ? namespace : undefined, builtins: rulesMatchBuiltins(webhook.rules, run.discovery) });
    }
  }
  return found;
}

/** Whether the webhook's namespaceSelector lets the representative request in this namespace through. */
function selects(candidate: Candidate, namespace: string, labels: Labels, discovery: Discovery): boolean {
  const { request } = candidate;
  const admission: AdmissionRequest = {
    operation: request.operation,
    group: request.group,
    version: request.version,
    resource: request.resource,
    subresource: request.subresource,
    namespace,
    namespaceLabels: labels,
    // A Namespace CREATE/UPDATE is matched against the incoming object's own labels.
    ...(request.namespaceObject ? { objectLabels: labels, oldObjectLabels: labels } : {}),
  };
  const outcome = matchWebhook(candidate.entry.webhook, admission, discovery);
  return !(outcome.called === false && outcome.reason === 'namespace-selector');
}

function without(labels: Labels, keys: readonly string[]): Record<string, string> {
  const out: Record<string, string> = { ...labels };
  for (const key of keys) delete out[key];
  return out;
}

function describeRequest(request: Representative): string {
  const resource = `${request.resource}${request.subresource ? `/${request.subresource}` : ''}`;
  const group = request.group === '' ? request.version : `${request.group}/${request.version}`;
  if (request.namespaceObject) return `${request.operation} of the Namespace itself`;
  if (request.resource === ANY_RESOURCE) return `${request.operation} of ${group} resources`;
  return `${request.operation} ${resource} (${group})`;
}

/** A list for the message (capped: the first ones, then how many more) or for the help (all). */
function quoteList(items: readonly string[], all = false): string {
  const quoted = items.map((item) => `"${item}"`);
  return all ? joinWords(quoted) : joinCapped(quoted, 2, { width: 60 });
}

function labelPhrase(labels: readonly [string, string][], all = false): string {
  const shown = labels.map(([key, value]) => (value === ANY_VALUE ? `"${key}" (any value)` : value === '' ? `"${key}" (empty value)` : `"${key}=${value}"`));
  const list = all ? joinWords(shown) : joinCapped(shown, 2, { width: 50 });
  return `${labels.length === 1 ? 'label' : 'labels'} ${list}`;
}

function webhookPhrase(group: readonly Candidate[], all = false): string {
  return `${group.length === 1 ? 'webhook' : 'webhooks'} ${quoteList(
    group.map((candidate) => candidate.entry.label),
    all,
  )}`;
}

/** In a missing label: the selector accepts any value of the key. */
const ANY_VALUE = '\u0000any';

/** Subsets of the present keys tried, at most (beyond that, only removing all of them). */
const MAX_SUBSETS = 4096;

/**
 * The fewest of `keys` whose removal makes `selected` true: the labels whose presence makes the
 * webhook skip the namespace. Undefined when no removal does (the namespace is not selected
 * for another reason: its name, a trusted label, a label it lacks).
 */
function fewestToRemove(keys: readonly string[], selected: (removed: readonly string[]) => boolean): string[] | undefined {
  if (keys.length === 0) return undefined;
  if (2 ** keys.length > MAX_SUBSETS) return selected(keys) ? [...keys] : undefined;
  const subsets: string[][] = [];
  for (let mask = 1; mask < 2 ** keys.length; mask++) subsets.push(keys.filter((_, i) => (mask & (1 << i)) !== 0));
  subsets.sort((a, b) => a.length - b.length);
  return subsets.find((subset) => selected(subset));
}

type Selected = readonly { readonly other: NamespaceObject; readonly otherLabels: Labels }[];

/** The run's Namespaces the candidate's namespaceSelector selects, in run order (with their labels), found once per candidate. */
function selectedNamespaces(candidate: Candidate, run: RuleRun, labelsOf: (ns: NamespaceObject) => Labels, selectedCache: Map<Candidate, Selected>): Selected {
  let selected = selectedCache.get(candidate);
  if (selected === undefined) {
    selected = run.namespaces.map((other) => ({ other, otherLabels: labelsOf(other) })).filter(({ other, otherLabels }) => selects(candidate, other.name, otherLabels, run.discovery));
    selectedCache.set(candidate, selected);
  }
  return selected;
}

interface Found {
  readonly candidate: Candidate;
  readonly labels: readonly [string, string][];
  readonly other?: string;
}

/** One finding per configuration and set of labels, naming its webhooks. */
function grouped(found: readonly Found[]): Found[][] {
  const groups = new Map<string, Found[]>();
  const keys = new Map<WebhookConfigurationObject, number>();
  for (const item of found) {
    if (!keys.has(item.candidate.object)) keys.set(item.candidate.object, keys.size);
    const key = `${keys.get(item.candidate.object)}\u0000${item.labels.map(([k, v]) => `${k}=${v}`).join('\u0000')}\u0000${item.other ?? ''}`;
    groups.set(key, [...(groups.get(key) ?? []), item]);
  }
  return [...groups.values()];
}

export const rule = defineObjectRule({
  meta,
  create(run) {
    /** The run's candidate webhooks, found once per run. */
    let runCandidates: Candidate[] | undefined;
    const selectedCache = new Map<Candidate, Selected>();
    return {
      namespace(namespace: NamespaceObject): Violation<MessageId>[] {
        if (namespace.name === KUBE_SYSTEM) return [];
        const reportOptIn = run.options.optIn === 'report';
        const labelsOf = (ns: NamespaceObject): Labels => labelsOfNamespace(ns, ns.name, run.kubeVersion);
        const labels = labelsOf(namespace);
        const written = Object.keys(namespace.writtenLabels);
        const optOuts: Found[] = [];
        const missing: Found[] = [];
        runCandidates ??= candidates(run);
        for (const found of runCandidates) {
          // Excluding its own namespace keeps a webhook from deadlocking itself, as the docs advise.
          if (found.ownNamespace === namespace.name) continue;
          const candidate = found;
          if (selects(candidate, namespace.name, labels, run.discovery)) continue;
          const present = candidate.editable.filter((key) => Object.prototype.hasOwnProperty.call(labels, key));
          const culprits = fewestToRemove(present, (keys) => selects(candidate, namespace.name, without(labels, keys), run.discovery));
          if (culprits !== undefined) {
            culprits.sort((a, b) => written.indexOf(a) - written.indexOf(b));
            optOuts.push({ candidate, labels: culprits.map((key) => [key, labels[key]!]) });
            continue;
          }
          if (!reportOptIn) continue;
          // Opt-in: another Namespace of the run is selected; with its values of the editable keys this one would be.
          for (const { other, otherLabels } of selectedNamespaces(found, run, labelsOf, selectedCache)) {
            if (other.name === namespace.name) continue;
            const borrowed = candidate.editable.filter((key) => Object.prototype.hasOwnProperty.call(otherLabels, key));
            const adopted = { ...without(labels, present), ...Object.fromEntries(borrowed.map((key) => [key, otherLabels[key]!])) };
            if (!selects(candidate, namespace.name, adopted, run.discovery)) continue;
            const lacking = borrowed.filter((key) => labels[key] !== otherLabels[key]);
            if (lacking.length === 0) continue;
            // A key the selector only asks to exist (Exists, NotIn) takes any value: say so rather than copy one.
            const anyValue = (key: string): boolean => {
              let value = 'any-value';
              while (value === otherLabels[key] || value === labels[key]) value += '-';
              return selects(candidate, namespace.name, { ...adopted, [key]: value }, run.discovery);
            };
            missing.push({ candidate, labels: lacking.map((key) => [key, anyValue(key) ? ANY_VALUE : otherLabels[key]!]), other: other.name });
            break;
          }
        }
        const metadata = isRecord(namespace.written) && isRecord(namespace.written.metadata) ? namespace.written.metadata : {};
        const violations: Violation<MessageId>[] = [];
        for (const group of grouped(optOuts)) {
          const first = group[0]!;
          violations.push({
            messageId: 'optOut',
            data: {
              namespace: namespace.name,
              webhooks: webhookPhrase(group.map((item) => item.candidate)),
              configuration: first.candidate.object.name ?? '',
              labels: labelPhrase(first.labels),
              them: first.labels.length === 1 ? 'it' : 'them',
              request: describeRequest(first.candidate.request),
            },
            path: ['metadata', 'labels', first.labels[0]![0]],
            // Out of a check of custom resources only: a correctness check skipped, not a control over what runs.
            ...(group.every((item) => !item.candidate.builtins) ? { severity: 'info' as const } : {}),
            // Every webhook and label, the configuration and a request: what the message leaves out to stay one line.
            help: `Without its ${labelPhrase(first.labels, true)}, the namespaceSelector of ${webhookPhrase(
              group.map((item) => item.candidate),
              true,
            )} of ValidatingWebhookConfiguration "${first.candidate.object.name ?? ''}" selects this namespace (${describeRequest(first.candidate.request)} here would be validated), so whoever can edit the namespace's labels can switch that validation off. ${FIX}`,
          });
        }
        for (const group of grouped(missing)) {
          const first = group[0]!;
          const wrongValue = first.labels.find(([key]) => Object.prototype.hasOwnProperty.call(namespace.writtenLabels, key));
          const path: FieldPath = wrongValue ? ['metadata', 'labels', wrongValue[0]] : isRecord(metadata.labels) ? ['metadata', 'labels'] : ['metadata', 'name'];
          violations.push({
            messageId: 'missingOptIn',
            data: {
              namespace: namespace.name,
              webhooks: webhookPhrase(group.map((item) => item.candidate)),
              configuration: first.candidate.object.name ?? '',
              labels: labelPhrase(first.labels),
              other: first.other ?? '',
              request: describeRequest(first.candidate.request),
            },
            path,
            severity: 'info',
            help: `Without the ${labelPhrase(first.labels, true)} that Namespace "${first.other ?? ''}" of the run has, ${describeRequest(first.candidate.request)} here is not validated by the opt-in ${webhookPhrase(
              group.map((item) => item.candidate),
              true,
            )} of ValidatingWebhookConfiguration "${first.candidate.object.name ?? ''}". If the namespace should be validated, add the label; opt-in webhooks are meant to skip the namespaces that lack it.`,
          });
        }
        return violations;
      },
    };
  },
});
