/**
 * A webhook matchCondition, or a policy's matchCondition, validation or mutation, that reads a
 * field an object can lack (`object.spec.initContainers` on Pods, `object.metadata.labels['team']`)
 * without a `has()` or optional guard. Selecting a missing field, or indexing a map with a key it
 * lacks, is a CEL runtime error ("no such key"); an erroring condition or validation is decided
 * by failurePolicy: Fail rejects the request, Ignore skips the webhook or policy.
 *
 * Which fields can be missing comes from src/cel/optional-fields.ts (metadata of every kind, custom resources too;
 * Namespace labels, Pods and the pod templates of workloads, Services, ConfigMaps, Secrets); an expression is analysed only when every resource
 * the rules match is known there, and only for the variable that is an object on the matched
 * operations (object on CREATE and UPDATE, oldObject on UPDATE and DELETE). The reads and guards
 * are found by src/cel/missing-fields.ts, which says less when unsure.
 */
import { elideMiddle } from '../src/text/list.js';
import type { CelType, ExpressionKind } from '../src/cel/check/index.js';
import { parseExpression } from '../src/cel/check/index.js';
import type { Expr } from '../src/cel/check/ast.js';
import { admissionCompile } from '../src/cel/compile.js';
import { deniedEitherWay, fieldsRequired, fieldsRequiredAlong, fieldsRequiredThroughOptionals, mayRemoveLabels, onlyForOneUser, pathsWritten, presenceTests, requiresRead, unguardedPatchTargets, unguardedReads, type UnguardedRead } from '../src/cel/missing-fields.js';
import { OptionalFields, presentOnEveryTarget, type MatchedTarget } from '../src/cel/optional-fields.js';
import { celMeterOf } from '../src/cel/budget.js';
import { parseBounded } from '../src/cel/evaluate.js';
import { analysisBudget, boundRequests, failsWhereAbsent, kindScenarios, requests, type KindScenario, type Owner, type ScenarioSite } from '../src/match/kind-scenarios.js';
import type { FieldPath } from '../src/field-path.js';
import { entryTargets, splitEntry } from '../src/match/targets.js';
import { policyIndexOf } from '../src/match/bindings.js';
import { bindingSpec, describePolicyObject, isBinding, policySpec } from '../src/model/policies.js';
import type { PolicyObject } from '../src/model/objects.js';
import { memoKey } from '../src/run-scope.js';
import { unreadableMayHold } from '../src/match/unreadable.js';
import { mayTargetKind } from '../src/parse/kustomize-patches.js';
import { runPatchesChanging } from '../src/match/patched.js';
import { streamOf } from '../src/match/namespaces.js';
import { isPlaceholder } from '../src/text/placeholder.js';
import type { AdmissionPolicy, NamedRuleWithOperations, RuleWithOperations } from '../src/model/types.js';
import { POLICY_KINDS } from '../src/model/types.js';
import { webhooksOf } from '../src/model/webhooks.js';
import { ALL_WEBHOOK_KINDS, defineObjectRule, type RuleRun, type Violation } from '../src/rule.js';

type MessageId = 'webhook' | 'policy' | 'patch';

/**
 * What one webhook's or policy's analysis reads: the expressions checked, those whose presence
 * tests guard them, the rules, whether params and composed variables are declared, and the
 * labels the objectSelector requires.
 */
interface Analysis {
  readonly sites: readonly Site[];
  readonly guardSites: readonly Site[];
  readonly rules: readonly (Readonly<RuleWithOperations> | null | undefined)[];
  readonly params: boolean;
  readonly composition: boolean;
  readonly selected: readonly string[];
}

/** One expression to analyse: where it is, what it is, and the expressions whose presence tests guard it. */
interface Site {
  readonly path: FieldPath;
  readonly kind: ExpressionKind;
  readonly expression: string;
  /** How the message names it: `matchCondition "name"`, `validations[0]`, … */
  readonly label: string;
  /** A variable's name. */
  readonly name?: string;
}

/**
 * The resources the rules match, or undefined when one entry names something discovery does not
 * know. A resource of a group no built-in API serves, with no CRD in the run, is still a custom
 * resource (or an aggregated API's), whose metadata is ObjectMeta as every object's: it is
 * matched as one (customResourceTargets), its metadata alone judged (src/cel/optional-fields.ts).
 */
function matchedTargets(run: RuleRun, rules: readonly (Readonly<RuleWithOperations> | null | undefined)[]): MatchedTarget[] | undefined {
  const targets: MatchedTarget[] = [];
  for (const rule of rules) {
    if (rule == null) continue;
    for (const entry of rule.resources ?? []) {
      const found = entryTargets(run.discovery, rule, entry ?? '');
      if (found.length === 0) {
        const custom = customResourceTargets(run, rule, entry ?? '');
        if (custom === undefined) return undefined;
        targets.push(...custom);
        continue;
      }
      targets.push(...found);
    }
  }
  return targets;
}

/**
 * The resource metrics APIs (k8s.io/metrics: metrics.k8s.io, custom.metrics.k8s.io,
 * external.metrics.k8s.io), served by aggregated servers such as metrics-server and the metrics
 * adapters: read-only, so no write of theirs ever reaches admission.
 */
const READ_ONLY_AGGREGATED_GROUPS: ReadonlySet<string> = new Set(['metrics.k8s.io', 'custom.metrics.k8s.io', 'external.metrics.k8s.io']);

/**
 * A rule entry's resources in groups that are never built in and that no CRD of the run defines
 * (a custom resource whose CRD is installed elsewhere): a target of no known kind each, for the
 * object itself or its status; undefined for anything else (a `*` group, a subresource whose
 * object is another kind, a built-in group's unknown resource).
 */
function customResourceTargets(run: RuleRun, rule: Readonly<RuleWithOperations>, entry: string): MatchedTarget[] | undefined {
  const { resource, subresource } = splitEntry(entry);
  const groups = rule.apiGroups ?? [];
  const versions = (rule.apiVersions ?? []).filter((version) => version !== '*');
  if (resource === '' || (subresource !== '' && subresource !== 'status') || groups.length === 0 || versions.length === 0) return undefined;
  if (groups.some((group) => group === '*' || run.discovery.isKnownBuiltinGroup(group) || run.discovery.knowsGroup(group) || READ_ONLY_AGGREGATED_GROUPS.has(group))) return undefined;
  return groups.flatMap((group) =>
    versions.map((version) => ({ info: { group, version, resource, kind: '', namespaced: true, subresources: new Set<string>(), connect: new Set<string>(), readOnly: new Set<string>(), custom: true }, subresource })),
  );
}

/** The variables that hold an object on the operations the rules match. */
function objectRoots(rules: readonly (Readonly<RuleWithOperations> | null | undefined)[]): Set<string> {
  const operations = new Set(rules.flatMap((rule) => rule?.operations ?? []));
  const has = (operation: string): boolean => operations.has('*') || operations.has(operation);
  const roots = new Set<string>();
  if (has('CREATE') || has('UPDATE')) roots.add('object');
  if (has('UPDATE') || has('DELETE')) roots.add('oldObject');
  return roots;
}

/** What is absent when the read fails: the field, the map or its key, or the key. */
function describeMissing(read: UnguardedRead): string {
  switch (read.missing) {
    case 'field':
      return 'absent';
    case 'key':
      return 'the key is absent';
    case 'field-or-key':
      return 'the map or key is absent';
  }
}

/** A plain chain of field selections from object or oldObject (`has()` takes a field selection; a map key or a loop variable does not fit). */
const FIELD_CHAIN = /^(?:object|oldObject)(?:\.[A-Za-z_][A-Za-z0-9_]*)+$/;

/**
 * The read as a fact for the fix (a `has()` guard), when it is an absent field reached by a plain
 * chain in a condition or validation (`has(f) && (…)` is a boolean: a mutation's value is not).
 */
function guardHint(read: UnguardedRead, kind: ExpressionKind): Pick<Violation, 'fixHint'> {
  const boolean = kind.endsWith('matchCondition') || kind === 'validating.validation';
  return boolean && read.missing === 'field' && FIELD_CHAIN.test(read.access) ? { fixHint: { kind: 'unguarded-field', field: read.access } } : {};
}

/** What a JSON Patch operation needs and may not find: the field, or the key of a map. */
function describePatchTarget(read: UnguardedRead): string {
  if (read.missing !== 'key') return read.path;
  const map = read.segments.slice(0, -1);
  return `${map.join('.')}[${JSON.stringify(read.name).replace(/^"|"$/g, "'")}]`;
}

/**
 * The expressions of `sites` that compile, parsed; those that do not are api-validation's (and
 * never run). They are compiled as api-validation compiles them (src/validate/policy-api.ts:
 * the variables composed in order, with the types their expressions compiled to), so the
 * answers come from the same cache entries. `composition` is false without variable composition.
 */
function parsed(run: RuleRun, sites: readonly Site[], params: boolean, composition: boolean): { site: Site; expr: Expr }[] {
  const out: { site: Site; expr: Expr }[] = [];
  const composed = new Map<string, CelType | undefined>();
  const variableSites = sites.filter((site) => site.kind.endsWith('.variable'));
  const others = sites.filter((site) => !site.kind.endsWith('.variable'));
  const compile = (site: Site) => {
    const withComposition = composition && !site.kind.endsWith('matchCondition') ? { composed: new Map(composed) } : {};
    return admissionCompile(site.expression, { kind: site.kind, kubeVersion: run.kubeVersion, params, ...withComposition });
  };
  const add = (site: Site, result: { error: string | undefined; expr?: Expr }): void => {
    if (site.expression.trim() === '' || result.error !== undefined) return;
    const expr = result.expr ?? parseExpression(site.expression, site.kind, run.kubeVersion);
    if (expr !== undefined) out.push({ site, expr });
  };
  for (const site of variableSites) {
    // A blank variable is not compiled and not composed (validateVariable).
    if (site.expression.trim() === '') continue;
    const result = compile(site);
    add(site, result);
    composed.set(site.name ?? '', result.type);
  }
  for (const site of others) if (site.expression.trim() !== '') add(site, compile(site));
  return out;
}

/** Each prefix (two segments or more: a root and a field) of each path, as guard keys. */
function prefixKeys(paths: readonly (readonly string[])[]): string[] {
  return paths.flatMap((path) => path.slice(2).map((_, index) => path.slice(0, index + 3).join('.')).concat(path.length >= 2 ? [path.slice(0, 2).join('.')] : []));
}

/**
 * The label keys an objectSelector requires (`matchLabels`, `In`, `Exists`), as guard keys of
 * `object`, when every rule is CREATE alone: the API server calls the webhook or policy only for
 * an object that matches (webhook/predicates/object/matcher.go: the new object or the old one; on
 * CREATE there is no old one), so its labels and those keys are there.
 */
function selectedLabels(selector: unknown, rules: readonly (Readonly<RuleWithOperations> | null | undefined)[]): string[] {
  const createOnly = rules.length > 0 && rules.every((rule) => rule != null && (rule.operations ?? []).length > 0 && (rule.operations ?? []).every((operation) => operation === 'CREATE'));
  if (!createOnly || selector === null || typeof selector !== 'object') return [];
  const { matchLabels, matchExpressions } = selector as { matchLabels?: unknown; matchExpressions?: unknown };
  const keys = [
    ...(matchLabels !== null && typeof matchLabels === 'object' ? Object.keys(matchLabels) : []),
    ...(Array.isArray(matchExpressions)
      ? matchExpressions.flatMap((requirement: unknown) => {
          const { key, operator } = (requirement ?? {}) as { key?: unknown; operator?: unknown };
          return typeof key === 'string' && (operator === 'In' || operator === 'Exists') ? [key] : [];
        })
      : []),
  ];
  return keys.length === 0 ? [] : ['object.metadata.labels', ...keys.map((key) => `object.metadata.labels.${key}`)];
}

/** ` (+N more)` for the other reads or patch paths that fail alike (one cause, one finding). */
function moreReads(count: number): string {
  return count === 0 ? '' : ` (+${count} more)`;
}

/** Per run: how many validating policies have each name, and whether a binding of the run may name any of them unseen. */
const VALIDATING_BINDINGS = memoKey<{ readonly sameName: ReadonlyMap<string, number>; readonly bindingsUnknown: boolean }>('validating policies by name, and whether some binding may name any');

/** The validationActions that do not reject: a warning to the requester, an audit annotation. */
const NON_DENYING_ACTIONS: ReadonlySet<unknown> = new Set(['Warn', 'Audit']);

/**
 * Whether the validating policy's bindings are known, and each only warns or audits: then a
 * validation or matchCondition that errors under Fail becomes that action (a warning to the
 * requester, an audit annotation), not a rejection (k8s.io/apiserver
 * plugin/policy/validating/validator.go, dispatcher.go): true, low-consequence (info). Not known
 * (attack s46c): without a binding in the run; with auditAnnotations (one that errors under Fail
 * rejects, whatever the actions); where another policy of the run has its name, a kustomize patch
 * may target a binding, a binding's policyName or actions are not plain values (a placeholder, an
 * empty or misspelt list the API server rejects), or a document the run could not read may hold
 * a binding.
 */
function bindingsOnlyWarn(policy: PolicyObject, run: RuleRun): boolean {
  const spec = policySpec(policy);
  if (spec === undefined || (Array.isArray(spec.auditAnnotations) && spec.auditAnnotations.length > 0)) return false;
  const { sameName, bindingsUnknown } = run.memo.get(VALIDATING_BINDINGS, () => {
    const names = new Map<string, number>();
    for (const object of run.policies) if (object.kind === 'ValidatingAdmissionPolicy') names.set(object.name ?? '', (names.get(object.name ?? '') ?? 0) + 1);
    const unknownName = run.policies.some((object) => object.kind === 'ValidatingAdmissionPolicyBinding' && (typeof bindingSpec(object)?.policyName !== 'string' || isPlaceholder(bindingSpec(object)?.policyName)));
    return { sameName: names, bindingsUnknown: unknownName || unreadableMayHold(run, 'ValidatingAdmissionPolicyBinding') };
  });
  if (bindingsUnknown || (sameName.get(policy.name ?? '') ?? 0) > 1) return false;
  const bindings = policyIndexOf(run).bindingsOf(policy);
  if (bindings.length === 0) return false;
  return bindings.every((binding) => {
    const actions = bindingSpec(binding)?.validationActions;
    // (A binding without a name, which the API server rejects, is taken as one any patch of its kind may change.)
    const patched = binding.name === undefined ? run.kustomizePatches.some((patch) => mayTargetKind(patch.target, binding.kind)) : runPatchesChanging(run, { ...binding, file: binding.manifest.file.path }, streamOf(binding.manifest.file)).length > 0;
    return binding.decodable && !patched && Array.isArray(actions) && actions.length > 0 && actions.every((action) => NON_DENYING_ACTIONS.has(action));
  });
}

export const rule = defineObjectRule({
  meta: {
    id: 'match-condition-missing-field',
    title: 'A matchCondition or policy expression reads a field an object can lack, without has() or an optional guard',
    severity: 'warning',
    aboutCalls: true,
    appliesTo: [...ALL_WEBHOOK_KINDS, ...POLICY_KINDS],
    messages: {
      webhook: '{{site}} of webhook "{{webhook}}": {{access}} fails if {{missing}}{{more}}',
      policy: '{{site}} of {{policy}}: {{access}} fails if {{missing}}{{more}}',
      patch: '{{site}} of {{policy}}: JSON Patch {{op}} "{{pointer}}" fails if {{target}} is absent{{more}}',
    },
    help: "Reading a field an object lacks is a CEL error, decided by failurePolicy: Fail (the API default) rejects the request, Ignore skips the webhook or policy for it. Test for the field first (has(object.spec.initContainers) && …), read it as an optional (object.spec.?initContainers.orValue([]), object.metadata.?labels[?'team'].orValue('')), or add a matchCondition that is false without it.",
  },
  create(run) {
    /**
     * The unguarded reads of each site. `keep` (with declaredOnly): which reads found on the kinds
     * that declare their path are kept (those the plain analysis finds, and those shown reached).
     */
    const analyseWith = (
      { sites, guardSites, rules, params, composition, selected }: Analysis,
      targets: readonly MatchedTarget[],
      declaredOnly: boolean,
      keep: (site: Site, read: UnguardedRead) => boolean = () => true,
    ) => {
      const fields = new OptionalFields(targets, (group) => run.discovery.isKnownBuiltinGroup(group), declaredOnly);
      if (!fields.known) return [];
      // What every request the rules match carries (the container a pods/ephemeralcontainers
      // UPDATE adds) counts as tested for, in every expression and patch.
      const carried = presentOnEveryTarget(targets);
      const roots = objectRoots(rules);
      const all = parsed(run, [...guardSites, ...sites.filter((s) => !guardSites.includes(s))], params, composition);
      const guarding = all.filter(({ site }) => guardSites.includes(site));
      const findings: { site: Site; read: UnguardedRead; expr: Expr; oneUser: boolean; zeroWhenAbsent: '' | undefined }[] = [];
      const variables = new Map(all.filter(({ site }) => site.kind.endsWith('.variable') && site.name !== undefined).map(({ site, expr }) => [site.name!, expr]));
      // What every JSON Patch of the policy may count on: a path another mutation writes as a
      // non-empty literal (each mutation patches the object encoded again, where an empty map or
      // list is gone), a field a matchCondition requires (the usual `!has(x) || !x.exists(…)`
      // lets the patch run on objects without x: a test anywhere is not enough there). The labels
      // an objectSelector requires are added per mutation (below).
      const mutations = all.filter(({ site }) => site.kind === 'mutating.jsonPatch' || site.kind === 'mutating.applyConfiguration');
      const patchGuardsOfPolicy = mutations.some(({ site }) => site.kind === 'mutating.jsonPatch')
        ? new Set([
            ...mutations.flatMap(({ expr: e }) => pathsWritten(e, true)),
            ...guarding.filter(({ site }) => site.kind.endsWith('matchCondition')).flatMap(({ expr: e }) => prefixKeys([...fieldsRequired(e), ...fieldsRequiredThroughOptionals(e)])),
          ])
        : new Set<string>();
      const variableExprs = guarding.filter(({ site }) => site.kind.endsWith('.variable')).map(({ expr: e }) => e);
      // A label the objectSelector requires is there, unless a mutation before may take it (or
      // the map) away: each mutation patches the object encoded again; within one patch a removed
      // key leaves its map, which stays in the document (s37c 1-B, s37d 4-A).
      const selectedKeys = selected.filter((key) => key.startsWith('object.metadata.labels.')).map((key) => key.slice('object.metadata.labels.'.length));
      const firstRemover = selected.length === 0 ? -1 : mutations.findIndex(({ expr: e }) => mayRemoveLabels(e, selectedKeys));
      const mutationIndex = new Map(mutations.map(({ expr: e }, index) => [e, index]));
      for (const { site, expr } of all) {
        if (!sites.includes(site)) continue;
        // A matchCondition is guarded by the others; a validation or mutation also by the variables it may read.
        const guardExprs = guarding.filter((g) => !site.kind.endsWith('matchCondition') || g.site.kind.endsWith('matchCondition')).map(({ expr: g }) => g);
        const guards = presenceTests([expr, ...guardExprs]);
        for (const key of [...selected, ...carried]) guards.add(key);
        // A JSON Patch's path: a test in its own expression or the variables, a write of its own
        // (one document for the whole list), or what the policy guarantees (above).
        const selectedHere = firstRemover === -1 || (mutationIndex.get(expr) ?? -1) <= firstRemover ? selected : [];
        const patchTargets = site.kind === 'mutating.jsonPatch' ? unguardedPatchTargets(expr, fields, new Set([...presenceTests([expr, ...variableExprs]), ...pathsWritten(expr), ...patchGuardsOfPolicy, ...selectedHere, ...carried])) : [];
        for (const read of [...unguardedReads(expr, fields, guards), ...patchTargets]) {
          const root = read.path.startsWith('oldObject') ? 'oldObject' : 'object';
          if (roots.has(root) && keep(site, read)) findings.push({ site, read, expr, oneUser: onlyForOneUser(expr, read, variables), zeroWhenAbsent: fields.zeroWhenAbsent(read.segments.slice(1)) });
        }
      }
      // One cause, one finding: an expression that reads several fields an object can lack (c.args
      // and c.command in one list; object.x == oldObject.x) is reported once, at its first such read.
      const bySite = new Map<Site, { site: Site; read: UnguardedRead; expr: Expr; oneUser: boolean; zeroWhenAbsent: '' | undefined; more: number; reads: { site: Site; read: UnguardedRead }[] }>();
      for (const finding of findings) {
        const first = bySite.get(finding.site);
        if (first === undefined) bySite.set(finding.site, { ...finding, more: 0, reads: [{ site: finding.site, read: finding.read }] });
        else bySite.set(finding.site, { ...first, oneUser: first.oneUser && finding.oneUser, more: first.more + 1, reads: [...first.reads, { site: finding.site, read: finding.read }] });
      }
      // The fields each validation requires by testing for them (`has(c.resources.limits)`).
      const required = new Map(all.filter(({ site }) => site.kind === 'validating.validation').map(({ site, expr }) => [site, fieldsRequired(expr)]));
      const exprOf = new Map(all.map(({ site, expr }) => [site, expr]));
      /**
       * Whether the request is denied anyway when the read's field is absent: another validation
       * requires it, or the read's own requires it where the read is evaluated (only the message differs).
       */
      const requiredElsewhere = ({ site, read }: { site: Site; read: UnguardedRead }): boolean =>
        [...required].some(([other, paths]) => other !== site && paths.some((path) => requiresRead(path, read))) ||
        (site.kind === 'validating.validation' && fieldsRequiredAlong(exprOf.get(site)!, read).some((path) => requiresRead(path, read)));
      return [...bySite.values()].map((finding) => ({ ...finding, requiredElsewhere: finding.reads.every(requiredElsewhere) }));
    };

    /**
     * analyseWith, and for rules that match kinds of several types (Pods and Deployments), the
     * reads of a path optional on the kinds that declare it, where the other kinds never have it
     * (`object.spec.template.spec.volumes`): kept when the kind-aware evaluator shows the read
     * reached and failing on one of the kinds that declare it, with the field absent
     * (src/match/kind-scenarios.ts failsWhereAbsent: a branch on `object.kind`, or a `has()` that is
     * false on a kind, decides there).
     */
    const analyse = (analysis: Analysis, owner: Owner, exclusions: readonly (Readonly<NamedRuleWithOperations> | null | undefined)[] = [], bound?: (key: string) => boolean) => {
      const { sites, guardSites, rules } = analysis;
      const targets = matchedTargets(run, rules);
      if (targets === undefined) return [];
      const plain = analyseWith(analysis, targets, false);
      if (!new OptionalFields(targets, (group) => run.discovery.isKnownBuiltinGroup(group), true).mixed) return plain;
      const found = new Set(plain.flatMap((finding) => finding.reads.map(({ site, read }) => `${site.path.join('.')}\u0000${read.path}`)));
      // The expressions as the evaluator reads them (conditions, variables in order, the others),
      // parsed when a read first needs them.
      let evaluated: (ScenarioSite & { readonly site: Site })[] | undefined;
      const evaluatedSites = (): (ScenarioSite & { readonly site: Site })[] => {
        evaluated ??= [...guardSites, ...sites.filter((s) => !guardSites.includes(s))].flatMap((site) => {
          const ast = site.expression.trim() === '' ? undefined : parseBounded(site.expression);
          if (ast === undefined) return [];
          const role = site.kind.endsWith('matchCondition') ? ('condition' as const) : site.kind.endsWith('.variable') ? ('variable' as const) : ('check' as const);
          return [{ site, role, ast, ...(site.name === undefined ? {} : { name: site.name }) }];
        });
        return evaluated;
      };
      let scenarios: readonly KindScenario[] | undefined;
      const budget = analysisBudget();
      const reached = (site: Site, read: UnguardedRead): boolean => {
        if (found.has(`${site.path.join('.')}\u0000${read.path}`)) return true;
        // A JSON Patch path is not a CEL read: the evaluator cannot show it reached.
        if (read.patch !== undefined) return false;
        const index = evaluatedSites().findIndex((each) => each.site === site);
        if (index < 0) return false;
        // A policy runs only where one of its bindings matches too: the kinds no binding lets it see are not evaluated.
        scenarios ??= kindScenarios(run, rules, owner, new Set(requests(run, exclusions.filter((rule) => (rule?.resourceNames ?? []).length === 0)).keys())).filter(({ key }) => bound === undefined || bound(key));
        return failsWhereAbsent(evaluatedSites(), index, scenarios, read.path, celMeterOf(run), budget) === true;
      };
      return analyseWith(analysis, targets, true, reached);
    };

    return {
      webhookConfiguration(object) {
        const violations: Violation<MessageId>[] = [];
        for (const entry of webhooksOf(object)) {
          const conditions: Site[] = (entry.webhook.matchConditions ?? []).map((condition, index) => ({
            path: [...entry.path, 'matchConditions', index, 'expression'],
            kind: 'webhook.matchCondition',
            expression: (condition?.expression ?? '').trim(),
            label: `matchCondition "${condition?.name || `matchConditions[${index}]`}"`,
          }));
          if (conditions.length === 0) continue;
          const rules = entry.webhook.rules ?? [];
          const analysis = { sites: conditions, guardSites: conditions, rules, params: false, composition: false, selected: selectedLabels(entry.webhook.objectSelector, rules) };
          for (const { site, read, more } of analyse(analysis, 'webhook')) {
            violations.push({
              messageId: 'webhook',
              data: { site: site.label, webhook: elideMiddle(entry.label, 48), access: read.access, missing: describeMissing(read), more: moreReads(more) },
              path: site.path,
              ...guardHint(read, site.kind),
              // With Ignore, an expression that errors skips the webhook: what a false condition does.
              ...(entry.webhook.failurePolicy === 'Ignore' ? { severity: 'info' as const } : {}),
            });
          }
        }
        return violations;
      },
      policy(object) {
        if (isBinding(object)) return [];
        const spec = policySpec(object);
        if (spec === undefined) return [];
        const mutating = object.kind === 'MutatingAdmissionPolicy';
        const prefix = mutating ? 'mutating' : 'validating';
        const conditions: Site[] = (spec.matchConditions ?? []).map((condition, index) => ({
          path: ['spec', 'matchConditions', index, 'expression'],
          kind: `${prefix}.matchCondition` as ExpressionKind,
          expression: (condition?.expression ?? '').trim(),
          label: `matchCondition "${condition?.name || `matchConditions[${index}]`}"`,
        }));
        const checked: Site[] = [...conditions];
        if (mutating) {
          (spec.mutations ?? []).forEach((mutation, index) => {
            const patch = mutation?.patchType === 'JSONPatch' ? mutation.jsonPatch : mutation?.applyConfiguration;
            const field = mutation?.patchType === 'JSONPatch' ? 'jsonPatch' : 'applyConfiguration';
            checked.push({ path: ['spec', 'mutations', index, field, 'expression'], kind: `mutating.${field}` as ExpressionKind, expression: (patch?.expression ?? '').trim(), label: `mutations[${index}]` });
          });
        } else {
          ((spec as AdmissionPolicy['spec'] & { validations?: readonly ({ expression?: string } | null)[] }).validations ?? []).forEach((validation, index) => {
            checked.push({ path: ['spec', 'validations', index, 'expression'], kind: 'validating.validation', expression: validation?.expression ?? '', label: `validations[${index}]` });
          });
        }
        // Variables are not checked themselves: one is evaluated only when an expression reads it,
        // where `&&` and `||` may absorb its error. Their presence tests guard the expressions.
        const variables: Site[] = (spec.variables ?? []).map((variable, index) => ({
          path: ['spec', 'variables', index, 'expression'],
          kind: `${prefix}.variable` as ExpressionKind,
          expression: variable?.expression ?? '',
          label: `variable "${variable?.name ?? ''}"`,
          name: variable?.name ?? '',
        }));
        const rules = spec.matchConstraints?.resourceRules ?? [];
        // A validating policy composes variables only when it has some; a mutating one always does.
        // One cause, one finding: two expressions of the policy whose first failing read is the
        // same field (two validations on a container's limits) are reported at the first.
        const analysis = {
          sites: checked,
          guardSites: [...conditions, ...variables],
          rules,
          params: spec.paramKind != null,
          composition: mutating || variables.length > 0,
          selected: selectedLabels(spec.matchConstraints?.objectSelector, rules),
        };
        const found = analyse(analysis, mutating ? 'mutating' : 'validating', spec.matchConstraints?.excludeResourceRules ?? [], boundRequests(run, object));
        const deniesNothing = found.length > 0 && !mutating && spec.failurePolicy !== 'Ignore' && bindingsOnlyWarn(object, run);
        const byPath = new Map<string, (typeof found)[number]>();
        for (const finding of found) {
          const first = byPath.get(finding.read.path);
          if (first === undefined) byPath.set(finding.read.path, finding);
          else byPath.set(finding.read.path, { ...first, more: first.more + 1 + finding.more, oneUser: first.oneUser && finding.oneUser, requiredElsewhere: first.requiredElsewhere && finding.requiredElsewhere });
        }
        return [...byPath.values()].map(({ site, read, expr, oneUser, zeroWhenAbsent, more, requiredElsewhere }): Violation<MessageId> => {
          // A validation whose only read that can fail is one its absence would fail anyway (an
          // equality with a literal, through &&, || and ternary branches alone): under Fail it is
          // denied either way, only the message differs (info); under Ignore its error is skipped,
          // so the request its absence would deny is admitted: a way past the policy (warning,
          // attack s44c 1). Otherwise, with Ignore, an expression that errors is skipped, which is
          // what a false condition does (info). Reached only for one named user's requests
          // (`!variables.isController || …`): an error rejects that user's writes alone (a
          // project's own controller), not its users'. A field another validation requires
          // (`has(c.resources.limits.cpu)`) is denied by that one, with its message, when absent:
          // again only this message differs.
          const deniedAnyway = site.kind === 'validating.validation' && more === 0 && deniedEitherWay(expr, read, zeroWhenAbsent === undefined ? {} : { zeroWhenAbsent });
          // Bindings that only warn or audit turn any of these errors into their action (bindingsOnlyWarn).
          const lowered = deniesNothing || (spec.failurePolicy === 'Ignore' ? !deniedAnyway : site.kind === 'validating.validation' && (deniedAnyway || oneUser || requiredElsewhere));
          return {
            ...(read.patch === undefined
              ? { messageId: 'policy' as MessageId, data: { site: site.label, policy: describePolicyObject(object), access: read.access, missing: describeMissing(read), more: moreReads(more) } }
              : { messageId: 'patch' as MessageId, data: { site: site.label, policy: describePolicyObject(object), op: read.patch.op, pointer: elideMiddle(read.patch.pointer, 64), target: describePatchTarget(read), more: moreReads(more) } }),
            path: site.path,
            ...guardHint(read, site.kind),
            ...(lowered ? { severity: 'info' as const } : {}),
          };
        });
      },
    };
  },
});
