/**
 * A webhook the API server calls for every write in the cluster, and rejects them all while it is
 * down: failurePolicy Fail, nothing to narrow it (no namespaceSelector, objectSelector or
 * matchConditions), and rule entries over every API group, version and resource, at every scope,
 * for CREATE and UPDATE at least (in one entry or two). Its kube-system writes, the control plane's writes and its own
 * pods are all consequences of that one rule entry: rule wildcard-rule reports it once, at error,
 * and the rules that would report each consequence (matches-kube-system, critical-resources,
 * self-deadlock) defer to it when it runs. One cause, one finding.
 */
import type { Webhook } from '../model/types.js';
import { isEmptySelector } from './selector.js';
import { splitEntry } from './targets.js';

/** The rule that reports such a webhook, when it runs. */
export const EVERYTHING_RULE = 'wildcard-rule';

const ANY = '*';

/** The index of the webhook's first rule entry over everything, when those entries send it every write and nothing narrows the webhook; else undefined. */
export function everythingRule(webhook: Readonly<Webhook>): number | undefined {
  if (webhook.failurePolicy !== 'Fail') return undefined;
  if (!isEmptySelector(webhook.namespaceSelector) || !isEmptySelector(webhook.objectSelector)) return undefined;
  if ((webhook.matchConditions ?? []).length > 0) return undefined;
  // The entries over every group, version and resource at every scope; together (CREATE in one,
  // UPDATE in another) their operations must cover CREATE and UPDATE.
  const everywhere = (webhook.rules ?? []).flatMap((rule, index) => {
    if (rule === null || typeof rule !== 'object') return [];
    const all =
      (rule.apiGroups ?? []).includes(ANY) &&
      (rule.apiVersions ?? []).includes(ANY) &&
      (rule.resources ?? []).some((resource) => resource === ANY || resource === '*/*') &&
      (rule.scope === undefined || rule.scope === ANY);
    return all ? [{ index, operations: rule.operations ?? [] }] : [];
  });
  const operations = new Set(everywhere.flatMap((entry) => entry.operations));
  if (!(operations.has(ANY) || (operations.has('CREATE') && operations.has('UPDATE')))) return undefined;
  return everywhere[0]!.index;
}

/** A rule entry's wildcard resource, as EVERYTHING_RULE reports it: rules[j].resources[k]. */
export interface WildcardResource {
  readonly j: number;
  readonly k: number;
  readonly resourceEntry: string;
  readonly anyGroup: boolean;
  readonly groups: readonly string[];
  readonly scope: string;
}

/**
 * The first wildcard resource (*, *\/*, *\/status) of the webhook's rules in an API group that is *
 * or built in (the entry over everything, when the webhook intercepts everything), which
 * EVERYTHING_RULE reports; undefined when there is none. A wildcard over groups no built-in API
 * serves (a project's own kinds) is not one.
 */
export function wildcardResource(webhook: Readonly<Webhook>, isBuiltinGroup: (group: string) => boolean): WildcardResource | undefined {
  const everything = everythingRule(webhook);
  return (webhook.rules ?? []).flatMap((rule, j) => {
    if (rule === null || typeof rule !== 'object' || (everything !== undefined && j !== everything)) return [];
    const groups = rule.apiGroups ?? [];
    const anyGroup = groups.includes(ANY);
    if (!anyGroup && !groups.some(isBuiltinGroup)) return [];
    const scope = rule.scope ?? ANY;
    return (rule.resources ?? []).flatMap((resourceEntry, k) => (splitEntry(resourceEntry).resource === ANY ? [{ j, k, resourceEntry, anyGroup, groups, scope }] : []));
  })[0];
}

/**
 * Whether the rule asking defers to EVERYTHING_RULE for this webhook: the webhook intercepts
 * everything, and that rule runs with its own severities (turned off, or lowered by the user, it
 * does not report the error, so each consequence is reported by its own rule again).
 */
export function reportedAsEverything(webhook: Readonly<Webhook>, run: { runsAsDesigned(ruleId: string): boolean }): boolean {
  return run.runsAsDesigned(EVERYTHING_RULE) && everythingRule(webhook) !== undefined;
}
