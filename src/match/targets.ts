/**
 * What a rule's `resources` entries name among the resources discovery knows: the entry split
 * into resource and subresource, the groups and versions it selects, and the concrete targets.
 * Shared by the rules that reason about rule entries (unknown-resource, unreachable-rule,
 * wildcard-rule, match-policy-exact) and by the reachability analysis.
 */
import type { Discovery, ResourceInfo } from '../kube/discovery/discovery.js';
import type { RuleWithOperations } from '../model/types.js';
import { joinWords } from '../text/list.js';


/** A rule's groups with `*` spelled out as every group discovery knows (entryTargets takes groups as named). */
export function withAllGroups<Rule extends Readonly<RuleWithOperations>>(discovery: Discovery, rule: Rule): Rule {
  return (rule.apiGroups ?? []).includes('*') ? { ...rule, apiGroups: [...discovery.groups()] } : rule;
}

/** A rule's resources entry split at the first '/' (rules.go): "pods/log" → pods + log; "pods" → pods + "". */
export function splitEntry(entry: string): { resource: string; subresource: string } {
  const slash = entry.indexOf('/');
  return slash < 0 ? { resource: entry, subresource: '' } : { resource: entry.slice(0, slash), subresource: entry.slice(slash + 1) };
}

/** Every group is named (no `*`) and known to discovery: built in (in any version the data knows) or defined by a CRD of the run. */
export function allGroupsKnown(discovery: Discovery, groups: readonly string[]): boolean {
  return groups.length > 0 && groups.every((group) => group !== '*' && (discovery.isKnownBuiltinGroup(group) || discovery.knowsGroup(group)));
}

/** The versions of `group` that the rule's apiVersions select and the target version serves. */
export function selectedVersions(discovery: Discovery, group: string, versions: readonly string[]): string[] {
  const served = discovery.versions(group);
  return versions.includes('*') ? [...served] : served.filter((version) => versions.includes(version));
}

/** One (group, version, resource, subresource) that a rule entry matches. */
export interface EntryTarget {
  readonly info: ResourceInfo;
  /** "" for the main resource. */
  readonly subresource: string;
}

/** What one resources entry of a rule matches among the resources discovery knows, over the rule's groups and versions. */
export function entryTargets(discovery: Discovery, rule: Readonly<RuleWithOperations>, entry: string): EntryTarget[] {
  const { resource, subresource } = splitEntry(entry);
  const targets: EntryTarget[] = [];
  for (const group of rule.apiGroups ?? []) {
    for (const version of selectedVersions(discovery, group, rule.apiVersions ?? [])) {
      const infos = resource === '*' ? discovery.resources(group, version) : [discovery.resource(group, version, resource)];
      for (const info of infos) {
        if (info === undefined) continue;
        if (subresource === '*') {
          targets.push({ info, subresource: '' });
          for (const sub of info.subresources) targets.push({ info, subresource: sub });
        } else if (subresource === '' || info.subresources.has(subresource)) {
          targets.push({ info, subresource });
        }
      }
    }
  }
  return targets;
}

export function describeGroup(group: string): string {
  return group === '' ? 'the core group ("")' : `"${group}"`;
}

export function describeGroups(groups: readonly string[]): string {
  const names = groups.map(describeGroup);
  return joinWords(names, 'or');
}

export function groupVersion(group: string, version: string): string {
  return group === '' ? version : `${group}/${version}`;
}

