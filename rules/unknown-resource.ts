import type { Discovery, ResourceInfo } from '../src/kube/discovery/discovery.js';
import { allGroupsKnown, describeGroups, entryTargets, groupVersion, splitEntry, type EntryTarget } from '../src/match/targets.js';
import { BUILTIN_GROUP_VERSIONS } from '../src/kube/discovery/builtin-data.js';
import type { FieldPath } from '../src/field-path.js';
import { formatKubeVersion, type KubeVersion } from '../src/kube/version.js';
import type { RuleWithOperations } from '../src/model/types.js';
import type { PolicyObject } from '../src/model/objects.js';
import { describePolicyObject, matchResourcesOf } from '../src/model/policies.js';
import { webhooksOf } from '../src/model/webhooks.js';
import { ALL_WEBHOOK_KINDS, defineObjectRule, type RuleRun, type Violation } from '../src/rule.js';
import { joinCapped, joinWords } from '../src/text/list.js';

// ─── History of the built-in APIs (for "removed in 1.22" / "served from 1.37") ───

const minorOf = (version: string): number => Number(version.split('.')[1]);

function groupHistory(group: string, at: KubeVersion): string {
  const entries = BUILTIN_GROUP_VERSIONS.filter((entry) => entry.group === group);
  const removed = entries.map((entry) => entry.removed).filter((r): r is `1.${number}` => r !== undefined && minorOf(r) <= at.minor);
  const later = entries.filter((entry) => minorOf(entry.since) > at.minor).map((entry) => entry.since);
  if (later.length > 0) return `served from ${later.sort((a, b) => minorOf(a) - minorOf(b))[0]}`;
  if (removed.length > 0) return `removed in ${removed.sort((a, b) => minorOf(b) - minorOf(a))[0]}`;
  return 'it is not among the versions served by default';
}

function groupVersionHistory(group: string, version: string, at: KubeVersion): string {
  const entry = BUILTIN_GROUP_VERSIONS.find((e) => e.group === group && e.version === version);
  if (entry === undefined) return 'it is not among the versions served by default';
  if (minorOf(entry.since) > at.minor) return `served from ${entry.since}`;
  if (entry.removed !== undefined && minorOf(entry.removed) <= at.minor) return `removed in ${entry.removed}`;
  return 'it is not among the versions served by default';
}

/** When the built-in resource was served in one of the groups, outside the target version; undefined if never. */
function resourceHistory(groups: readonly string[], resource: string, at: KubeVersion): string | undefined {
  let removed: number | undefined;
  let since: number | undefined;
  for (const entry of BUILTIN_GROUP_VERSIONS) {
    if (!groups.includes(entry.group)) continue;
    const res = entry.resources.find((r) => r.name === resource);
    if (res === undefined) continue;
    const from = Math.max(minorOf(entry.since), minorOf(res.since ?? entry.since));
    const until = Math.min(minorOf(entry.removed ?? '1.9999'), minorOf(res.removed ?? '1.9999'));
    if (from > at.minor) since = since === undefined ? from : Math.min(since, from);
    else if (until <= at.minor) removed = removed === undefined ? until : Math.max(removed, until);
  }
  if (since !== undefined) return `served from 1.${since}`;
  if (removed !== undefined) return `removed in 1.${removed}`;
  return undefined;
}

/**
 * Built-in APIs that exist but are off by default (alpha, or beta behind a feature gate or
 * --runtime-config), per the comments of builtin-data.ts: a cluster may enable them, so a rule
 * naming one is not reported.
 */
const OFF_BY_DEFAULT: Readonly<Record<string, Readonly<Record<string, readonly string[]>>>> = {
  'admissionregistration.k8s.io': {
    validatingadmissionpolicies: ['v1alpha1', 'v1beta1'],
    validatingadmissionpolicybindings: ['v1alpha1', 'v1beta1'],
    mutatingadmissionpolicies: ['v1alpha1', 'v1beta1'],
    mutatingadmissionpolicybindings: ['v1alpha1', 'v1beta1'],
  },
  'authentication.k8s.io': { selfsubjectreviews: ['v1alpha1', 'v1beta1'] },
  'certificates.k8s.io': { clustertrustbundles: ['v1alpha1', 'v1beta1'], podcertificaterequests: ['v1alpha1', 'v1beta1', 'v1'] },
  'coordination.k8s.io': { leasecandidates: ['v1alpha1', 'v1alpha2', 'v1beta1'] },
  'networking.k8s.io': { ipaddresses: ['v1alpha1', 'v1beta1'], servicecidrs: ['v1alpha1', 'v1beta1'] },
  'resource.k8s.io': Object.fromEntries(
    ['deviceclasses', 'resourceclaims', 'resourceclaimtemplates', 'resourceslices', 'devicetaintrules', 'podschedulingcontexts', 'resourceclaimparameters', 'resourceclassparameters', 'resourceclasses'].map((r) => [
      r,
      ['v1alpha2', 'v1alpha3', 'v1beta1', 'v1beta2'],
    ]),
  ),
  'scheduling.k8s.io': { workloads: ['v1alpha1'] },
  'storage.k8s.io': { volumeattributesclasses: ['v1alpha1', 'v1beta1'] },
  'storagemigration.k8s.io': { storageversionmigrations: ['v1alpha1', 'v1beta1'] },
};

/** The rule may reach this resource through an API that is off by default but can be switched on. */
function mayBeSwitchedOn(groups: readonly string[], versions: readonly string[], resource: string): boolean {
  return groups.some((group) => {
    const gated = OFF_BY_DEFAULT[group]?.[resource];
    return gated !== undefined && (versions.includes('*') || versions.some((v) => gated.includes(v)));
  });
}

// ─── Suggestions ───

function editDistance(a: string, b: string): number {
  const previous = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      current[j] = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
    previous.splice(0, previous.length, ...current);
  }
  return previous[b.length]!;
}

/** Plural forms a user may have meant for a singular name (pod → pods, ingress → ingresses, policy → policies). */
function pluralsOf(name: string): string[] {
  return [`${name}s`, `${name}es`, ...(name.endsWith('y') ? [`${name.slice(0, -1)}ies`] : [])];
}

export interface Candidate {
  readonly name: string;
  /** The kind, for "Deployment" → deployments. */
  readonly kind?: string;
}

/**
 * The name the user most likely meant. `strong` matches (case, kind, singular/plural) are safe
 * to suggest even for custom groups; an edit-distance match only when `allowTypos`.
 */
export function closestName(written: string, candidates: readonly Candidate[], allowTypos: boolean): string | undefined {
  const lower = written.toLowerCase();
  const plurals = pluralsOf(lower);
  const strong =
    candidates.find((c) => c.name === lower) ??
    candidates.find((c) => c.kind !== undefined && c.kind.toLowerCase() === lower) ??
    candidates.find((c) => plurals.includes(c.name)) ??
    candidates.find((c) => pluralsOf(c.name).includes(lower));
  if (strong !== undefined) return strong.name;
  if (!allowTypos) return undefined;
  const limit = lower.length <= 4 ? 1 : 2;
  let best: { name: string; distance: number; tie: boolean } | undefined;
  for (const candidate of candidates) {
    const distance = editDistance(lower, candidate.name);
    if (distance > limit) continue;
    if (best === undefined || distance < best.distance) best = { name: candidate.name, distance, tie: false };
    else if (distance === best.distance && candidate.name !== best.name) best = { ...best, tie: true };
  }
  return best !== undefined && !best.tie ? best.name : undefined;
}

function uniqueByName(infos: readonly ResourceInfo[]): Candidate[] {
  const seen = new Map<string, Candidate>();
  for (const info of infos) if (!seen.has(info.resource)) seen.set(info.resource, { name: info.resource, kind: info.kind });
  return [...seen.values()];
}

/** Where a resource name is served in the target version: "networking.k8s.io/v1". */
function servedAs(discovery: Discovery, resource: string): string[] {
  return discovery
    .allResources()
    .filter((info) => info.resource === resource && !info.custom)
    .map((info) => groupVersion(info.group, info.version));
}

function joinList(items: readonly string[]): string {
  const unique = [...new Set(items)];
  return joinWords(unique);
}

// ─── The rule ───

type MessageId = 'resource' | 'subresource' | 'notServed' | 'notInVersion' | 'version' | 'group' | 'capitals';

interface Finding {
  readonly messageId: MessageId;
  readonly path: FieldPath;
  readonly data: Record<string, string>;
  /** Resource entries a version/group finding is about (merged when several fail for the same entry). */
  readonly resources: string[];
  /** Where those resources are served instead ("networking.k8s.io/v1"). */
  readonly servedAs: string[];
}

/**
 * Who is affected when a rule entry matches nothing: the webhook (never called), the policy or
 * binding (never applies), or an exclusion (excludes nothing). `entry` ends a message about
 * one resources entry; `rule` one about a version or group entry, naming the resources.
 */
interface Subject {
  readonly entry: string;
  rule(resources: string): string;
}

function webhookSubject(webhook: string): Subject {
  return { entry: `webhook "${webhook}" is never called for it`, rule: (resources) => `this rule never calls webhook "${webhook}" for ${resources}` };
}

function policySubject(object: PolicyObject, list: 'resourceRules' | 'excludeResourceRules'): Subject {
  const who = describePolicyObject(object);
  if (list === 'resourceRules') return { entry: `${who} never applies to it`, rule: (resources) => `${who} never applies to ${resources} through this rule` };
  return {
    entry: `this exclusion of ${who} excludes nothing, and what it was meant to exclude is still matched`,
    rule: (resources) => `this exclusion of ${who} excludes no request for ${resources}`,
  };
}

/** The findings of one rule (a webhook's rules[j], a policy's or binding's resourceRules[j] / excludeResourceRules[j]). */
/**
 * Resource names are lowercase in every group: built-in ones, a CustomResourceDefinition's
 * (its name is `<plural>.<group>`, a DNS subdomain), and the rules match them as written. An
 * entry with a capital (the kind, `TimeSeriesPrediction`, for `timeseriespredictions`) matches
 * no request, whatever the group: known without knowing the group's resources. (In a known
 * group, such an entry is one the group does not serve, with the closest name in the message.)
 */
function capitalized(rule: Readonly<RuleWithOperations>, rulePath: FieldPath, subject: Subject): Violation<MessageId>[] {
  return (rule.resources ?? []).flatMap((entry, k): Violation<MessageId>[] =>
    typeof entry === 'string' && /[A-Z]/.test(entry) ? [{ messageId: 'capitals', path: [...rulePath, 'resources', k], data: { resource: entry, effect: subject.entry } }] : [],
  );
}

function checkRule(run: RuleRun, rule: Readonly<RuleWithOperations>, rulePath: FieldPath, subject: Subject): Violation<MessageId>[] {
  const { discovery } = run;
  const kube = formatKubeVersion(run.kubeVersion);
  const groups = rule.apiGroups ?? [];
  // A group whose resources are not known (a CRD outside the run): only a capital tells.
  if (!allGroupsKnown(discovery, groups)) return capitalized(rule, rulePath, subject);
  const versions = (rule.apiVersions ?? []).filter((v) => v !== '');
  if (versions.length === 0) return [];
  const findings = new Map<string, Finding>();
  const add = (finding: Finding): void => {
    const key = JSON.stringify(finding.path);
    const existing = findings.get(key);
    if (existing === undefined) findings.set(key, finding);
    else {
      existing.resources.push(...finding.resources.filter((r) => !existing.resources.includes(r)));
      existing.servedAs.push(...finding.servedAs.filter((r) => !existing.servedAs.includes(r)));
    }
  };
  (rule.resources ?? []).forEach((resourceEntry, k) => {
    if (resourceEntry === '' || resourceEntry === '*' || resourceEntry === '*/*') return;
    const problem = diagnose(discovery, run.kubeVersion, rule, resourceEntry);
    if (problem === undefined) return;
    const data = { kube, ...problem.data };
    if (problem.at === 'resource') add({ messageId: problem.messageId, path: [...rulePath, 'resources', k], data, resources: [resourceEntry], servedAs: [] });
    else if (problem.at === 'version') {
      const group = problem.group;
      for (const index of problem.indexes) {
        const version = rule.apiVersions![index]!;
        const history = problem.offByDefault === true
          ? 'off by default: --runtime-config switches it on'
          : discovery.isKnownBuiltinGroup(group)
          ? groupVersionHistory(group, version, run.kubeVersion)
          : `the run's CustomResourceDefinition serves ${joinList(discovery.versions(group))}`;
        add({ messageId: 'version', path: [...rulePath, 'apiVersions', index], data: { ...data, groupVersion: groupVersion(group, version), history }, resources: [resourceEntry], servedAs: problem.servedAs });
      }
    } else {
      for (const index of problem.indexes) {
        const group = groups[index]!;
        add({ messageId: 'group', path: [...rulePath, 'apiGroups', index], data: { ...data, group, history: groupHistory(group, run.kubeVersion) }, resources: [resourceEntry], servedAs: problem.servedAs });
      }
    }
  });
  const violations: Violation<MessageId>[] = [];
  for (const finding of findings.values()) {
    const resources = joinList(finding.resources.map((r) => `"${r}"`));
    const data: Record<string, string> = { ...finding.data, resources };
    if (finding.messageId === 'version' || finding.messageId === 'group') {
      const subjectText = finding.resources.length === 1 ? `${resources} is` : `${resources} are`;
      // Where they are served is the fix: it goes to the help, which names it.
      data.hint = '';
      data.effect = subject.rule(resources);
      if (finding.servedAs.length > 0) {
        const help = `${subjectText} served as ${joinList(finding.servedAs)}: name that group and version in the rule (kubectl api-resources lists what the target version serves).`;
        violations.push({ messageId: finding.messageId, path: finding.path, data, help });
        continue;
      }
    } else {
      data.effect = subject.entry;
    }
    // An entry no API serves matches nothing: removing it is a fix. One served under another version is not (it is the version to change).
    const unserved = finding.messageId === 'resource' || finding.messageId === 'subresource' || finding.messageId === 'notServed';
    violations.push({ messageId: finding.messageId, path: finding.path, data, ...(unserved ? { fixHint: { kind: 'unserved-resource' as const } } : {}) });
  }
  return violations;
}

const BASE_HELP = 'Use the plural, lowercase resource name and a group and version that the target Kubernetes version serves (kubectl api-resources lists them).';
const MUTATING_ENTRY_HELP = 'The webhook is mutating and its other entries are called: the objects of the dead entry go without its mutation (its defaults, an injected container), which no check of theirs depends on. Remove the entry, or name the resource its author meant.';

/**
 * Whether a rule with `entries` resources still matches something after its violations (paths
 * below the rule, `at` being the index of the list's name in them): a version or group cut off
 * ends the whole rule, a dead resource entry ends only itself.
 */
function ruleStillMatches(entries: number, violations: readonly Violation<MessageId>[], at: number): boolean {
  if (violations.some((violation) => violation.path[at] === 'apiVersions' || violation.path[at] === 'apiGroups')) return false;
  const dead = new Set(violations.filter((violation) => violation.path[at] === 'resources').map((violation) => violation.path[at + 1]));
  return dead.size < entries;
}

export const rule = defineObjectRule({
  meta: {
    id: 'unknown-resource',
    title: 'A rule names a built-in resource, subresource or version that does not exist',
    severity: 'warning',
    appliesTo: [...ALL_WEBHOOK_KINDS, 'ValidatingAdmissionPolicy', 'ValidatingAdmissionPolicyBinding', 'MutatingAdmissionPolicy', 'MutatingAdmissionPolicyBinding'],
    messages: {
      resource: '"{{resource}}" is not a resource of {{groups}} in {{kube}}, so {{effect}}{{hint}}',
      subresource: '"{{resource}}" has no subresource "{{subresource}}" in {{groups}} in {{kube}}, so {{effect}}{{hint}}',
      notServed: '"{{resource}}" is not served by {{groups}} in {{kube}} ({{history}}), so {{effect}}{{hint}}',
      notInVersion: '"{{resource}}" is not served as {{listed}} in {{kube}}, so {{effect}}{{hint}}',
      version: '{{groupVersion}} is not served in {{kube}} ({{history}}): {{effect}}{{hint}}',
      group: 'API group "{{group}}" is not served in {{kube}} ({{history}}): {{effect}}{{hint}}',
      capitals: '"{{resource}}" is not a resource name (those are lowercase plurals), so {{effect}}',
    },
    help: BASE_HELP,
  },
  create(run) {
    return {
      webhookConfiguration(object) {
        return webhooksOf(object).flatMap((entry) => {
          const rules = entry.webhook.rules ?? [];
          const found = rules.map((rule, j) => (rule === null || typeof rule !== 'object' ? [] : checkRule(run, rule, [...entry.path, 'rules', j], webhookSubject(entry.label))));
          // A mutating webhook still called for the rest of its rules defaults what it sees and
          // guards nothing: a dead entry there costs a mutation, not a check (info). One never
          // called, or a validating one, misses what its author meant it to see (warning).
          const stillCalled = rules.some((rule, j) => rule !== null && typeof rule === 'object' && ruleStillMatches(rule.resources?.length ?? 0, found[j]!, entry.path.length + 2));
          const lowered = entry.mutating && stillCalled;
          return found.flat().map((violation) => (lowered ? { ...violation, severity: 'info' as const, help: `${violation.help ?? BASE_HELP} ${MUTATING_ENTRY_HELP}` } : violation));
        });
      },
      policy(object) {
        const { match, path } = matchResourcesOf(object);
        if (match === undefined) return [];
        return (['resourceRules', 'excludeResourceRules'] as const).flatMap((list) =>
          (match[list] ?? []).flatMap((rule, j) => (rule === null || typeof rule !== 'object' ? [] : checkRule(run, rule, [...path, list, j], policySubject(object, list)))),
        );
      },
    };
  },
});

type Problem =
  | { readonly at: 'resource'; readonly messageId: 'resource' | 'subresource' | 'notServed' | 'notInVersion'; readonly data: Record<string, string> }
  | { readonly at: 'version'; readonly indexes: number[]; readonly group: string; readonly servedAs: string[]; readonly data: Record<string, string>; readonly offByDefault?: true }
  | { readonly at: 'group'; readonly indexes: number[]; readonly servedAs: string[]; readonly data: Record<string, string> };

const hint = (text: string | undefined): string => (text === undefined ? '' : `; ${text}`);

/**
 * Why one resources entry matches nothing the target version serves in the rule's groups and
 * versions, or undefined when it matches something. The entry is unknown only if it exists in
 * none of the listed groups/versions.
 */
function diagnose(discovery: Discovery, at: KubeVersion, rule: Readonly<RuleWithOperations>, resourceEntry: string): Problem | undefined {
  if (entryTargets(discovery, rule, resourceEntry).length > 0) return undefined;
  const groups = rule.apiGroups ?? [];
  const versions = rule.apiVersions ?? [];
  const { resource, subresource } = splitEntry(resourceEntry);
  // Groups served in the target version (built in, or a CRD of the run).
  const servedGroups = groups.filter((g) => discovery.knowsGroup(g));
  const custom = groups.some((g) => !discovery.isKnownBuiltinGroup(g));
  const anyVersion = { ...rule, apiVersions: ['*'], apiGroups: servedGroups };
  if (mayBeSwitchedOn(groups, versions, resource)) {
    // An API off by default may be switched on (--runtime-config). Said only when the target
    // version serves the resource by default in a version the rule leaves out: a cluster that
    // keeps its defaults matches none of its writes (Equivalent matches through served versions
    // only), as a policy naming only resource.k8s.io/v1beta1 resourceslices beside v1 (hold-out 27).
    const served = [...new Set(entryTargets(discovery, anyVersion, resourceEntry).map((t) => groupVersion(t.info.group, t.info.version)))];
    const dead = versions.map((version, index) => ({ version, index })).filter(({ version }) => version !== '' && version !== '*' && !groups.some((g) => discovery.versions(g).includes(version)));
    return served.length > 0 && dead.length > 0 ? { at: 'version', indexes: dead.map((d) => d.index), group: groups.find((g) => discovery.knowsGroup(g))!, servedAs: served, data: {}, offByDefault: true } : undefined;
  }

  if (resource === '*') {
    // `*/sub`: no resource of the listed groups and versions has that subresource.
    const all = entryTargets(discovery, rule, '*');
    return all.length === 0 ? undefined : subresourceProblem(all, resource, subresource, servedGroups);
  }

  // The name is right and a listed group serves it, but not in the listed versions.
  const withResource = entryTargets(discovery, anyVersion, resource);
  if (withResource.length > 0) {
    if (subresource !== '' && subresource !== '*' && entryTargets(discovery, anyVersion, resourceEntry).length === 0) {
      return subresourceProblem(withResource, resource, subresource, servedGroups);
    }
    const served = [...new Set(withResource.map((t) => groupVersion(t.info.group, t.info.version)))];
    const dead = versions.map((version, index) => ({ version, index })).filter(({ version }) => version !== '' && version !== '*' && !groups.some((g) => discovery.versions(g).includes(version)));
    const data = { hint: hint(`it is served as ${joinList(served)}`) };
    if (dead.length > 0) return { at: 'version', indexes: dead.map((d) => d.index), group: withResource[0]!.info.group, servedAs: served, data: {} };
    const listed = joinList(servedGroups.flatMap((g) => versions.filter((v) => discovery.versions(g).includes(v)).map((v) => groupVersion(g, v))));
    return { at: 'resource', messageId: 'notInVersion', data: { resource: resourceEntry, listed, ...data } };
  }

  // A built-in group that the target version does not serve at all (extensions, or one added later).
  const unserved = groups.map((g, index) => ({ g, index })).filter(({ g }) => discovery.isKnownBuiltinGroup(g) && !discovery.isBuiltinGroup(g));
  if (unserved.length > 0) {
    const elsewhere = servedAs(discovery, resource);
    return { at: 'group', indexes: unserved.map((u) => u.index), servedAs: elsewhere, data: {} };
  }

  // A built-in resource removed before, or added after, the target version.
  const history = resourceHistory(groups, resource, at);
  if (history !== undefined) {
    const elsewhere = servedAs(discovery, resource);
    return {
      at: 'resource',
      messageId: 'notServed',
      data: { resource: resourceEntry, groups: describeGroups(groups), history, hint: hint(elsewhere.length > 0 ? `it is served as ${joinList(elsewhere)}` : undefined) },
    };
  }

  // A name that no listed group has: suggest the closest one.
  const inGroups = uniqueByName(servedGroups.flatMap((g) => discovery.versions(g).flatMap((v) => discovery.resources(g, v))));
  const nearby = closestName(resource, inGroups, !custom);
  let suggestion: string | undefined;
  if (nearby !== undefined) suggestion = `did you mean "${subresource === '' ? nearby : `${nearby}/${subresource}`}"?`;
  else if (!custom) {
    // The right name in another built-in group: pods under apps, deployments under "".
    const builtins = discovery.allResources().filter((info) => !info.custom);
    const other = closestName(resource, uniqueByName(builtins), false);
    if (other !== undefined) {
      const where = [...new Set(builtins.filter((info) => info.resource === other).map((info) => info.group))];
      suggestion = `"${other}" is in ${describeGroups(where)}`;
    }
  }
  // In a custom group the run may lack the CRD that defines the name: only report a near miss.
  if (custom && suggestion === undefined) return undefined;
  return { at: 'resource', messageId: 'resource', data: { resource: resourceEntry, groups: describeGroups(groups), hint: hint(suggestion) } };
}

function subresourceProblem(targets: readonly EntryTarget[], resource: string, subresource: string, groups: readonly string[]): Problem {
  const names = [...new Set(targets.flatMap((t) => [...t.info.subresources]))].sort();
  const nearby = closestName(subresource, names.map((name) => ({ name })), true);
  return {
    at: 'resource',
    messageId: 'subresource',
    data: {
      resource,
      subresource,
      groups: describeGroups(groups),
      hint: hint(nearby !== undefined ? `did you mean "${resource}/${nearby}"?` : names.length === 0 ? 'it has no subresources' : `its subresources are ${joinCapped(names, 4)}`),
    },
  };
}
