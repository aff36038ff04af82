/**
 * A webhook matchCondition, or a policy's matchCondition, validation or mutation, that reads a
 * field an object can lack (`object.spec.initContainers` on Pods, `object.metadata.labels['team']`)
 * without a `has()` or optional guard. Selecting a missing field, or indexing a map with a key it
 * lacks, is a CEL runtime error ("no such key"); an erroring condition or validation is decided
 * by failurePolicy: Fail rejects the request, Ignore skips the webhook or policy.
 *
 * Which fields can be missing comes from src/cel/optional-fields.ts (built-in kinds: metadata,
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
import { deniedEitherWay, fieldsRequired, onlyForOneUser, pathsWritten, presenceTests, requiresRead, unguardedPatchTargets, unguardedReads, type UnguardedRead } from '../src/cel/missing-fields.js';
import { OptionalFields, type MatchedTarget } from '../src/cel/optional-fields.js';
import type { FieldPath } from '../src/field-path.js';
import { entryTargets } from '../src/match/targets.js';
import { describePolicyObject, isBinding, policySpec } from '../src/model/policies.js';
import type { AdmissionPolicy, RuleWithOperations } from '../src/model/types.js';
import { POLICY_KINDS } from '../src/model/types.js';
import { webhooksOf } from '../src/model/webhooks.js';
import { ALL_WEBHOOK_KINDS, defineObjectRule, type RuleRun, type Violation } from '../src/rule.js';

type MessageId = 'webhook' | 'policy' | 'patch';

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

/** The resources the rules match, or undefined when one entry names something discovery does not know. */
function matchedTargets(run: RuleRun, rules: readonly (Readonly<RuleWithOperations> | null | undefined)[]): MatchedTarget[] | undefined {
  const targets: MatchedTarget[] = [];
  for (const rule of rules) {
    if (rule == null) continue;
    for (const entry of rule.resources ?? []) {
      const found = entryTargets(run.discovery, rule, entry ?? '');
      if (found.length === 0) return undefined;
      targets.push(...found);
    }
  }
  return targets;
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

/**
 * The presence tests that guard a JSON Patch path: those of its expression and of the variables
 * anywhere, and the fields a matchCondition requires (each prefix of each: `has(a.b.c)` needs
 * `a.b` too), and the paths the policy's mutations write.
 */
function patchGuards(expr: Expr, guarding: readonly { site: Site; expr: Expr }[], mutations: readonly Expr[]): Set<string> {
  const guards = presenceTests([expr, ...guarding.filter(({ site }) => site.kind.endsWith('.variable')).map((g) => g.expr)]);
  // A path a mutation of the policy writes (`add` of the list, then `add` to its end) may be there.
  for (const mutation of mutations) for (const path of pathsWritten(mutation)) guards.add(path);
  for (const { site, expr: condition } of guarding) {
    if (!site.kind.endsWith('matchCondition')) continue;
    for (const path of fieldsRequired(condition)) for (let end = 2; end <= path.length; end++) guards.add(path.slice(0, end).join('.'));
  }
  return guards;
}

/** ` (+N more)` for the other reads or patch paths that fail alike (one cause, one finding). */
function moreReads(count: number): string {
  return count === 0 ? '' : ` (+${count} more)`;
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
    const analyse = (sites: readonly Site[], guardSites: readonly Site[], rules: readonly (Readonly<RuleWithOperations> | null | undefined)[], params: boolean, composition: boolean) => {
      const targets = matchedTargets(run, rules);
      if (targets === undefined) return [];
      const fields = new OptionalFields(targets, (group) => run.discovery.isKnownBuiltinGroup(group));
      if (!fields.known) return [];
      const roots = objectRoots(rules);
      const all = parsed(run, [...guardSites, ...sites.filter((s) => !guardSites.includes(s))], params, composition);
      const guarding = all.filter(({ site }) => guardSites.includes(site));
      const findings: { site: Site; read: UnguardedRead; expr: Expr; oneUser: boolean }[] = [];
      const variables = new Map(all.filter(({ site }) => site.kind.endsWith('.variable') && site.name !== undefined).map(({ site, expr }) => [site.name!, expr]));
      const mutations = all.filter(({ site }) => site.kind === 'mutating.jsonPatch' || site.kind === 'mutating.applyConfiguration').map(({ expr: e }) => e);
      for (const { site, expr } of all) {
        if (!sites.includes(site)) continue;
        // A matchCondition is guarded by the others; a validation or mutation also by the variables it may read.
        const guardExprs = guarding.filter((g) => !site.kind.endsWith('matchCondition') || g.site.kind.endsWith('matchCondition')).map(({ expr: g }) => g);
        const guards = presenceTests([expr, ...guardExprs]);
        // A JSON Patch's path is guarded by a test in its own expression or the variables, but by a
        // matchCondition only where the condition requires the field: the usual condition
        // `!has(x) || !x.exists(…)` lets the patch run on objects without x.
        const patchTargets = site.kind === 'mutating.jsonPatch' ? unguardedPatchTargets(expr, fields, patchGuards(expr, guarding, mutations)) : [];
        for (const read of [...unguardedReads(expr, fields, guards), ...patchTargets]) {
          const root = read.path.startsWith('oldObject') ? 'oldObject' : 'object';
          if (roots.has(root)) findings.push({ site, read, expr, oneUser: onlyForOneUser(expr, read, variables) });
        }
      }
      // One cause, one finding: an expression that reads several fields an object can lack (c.args
      // and c.command in one list; object.x == oldObject.x) is reported once, at its first such read.
      const bySite = new Map<Site, { site: Site; read: UnguardedRead; expr: Expr; oneUser: boolean; more: number; reads: { site: Site; read: UnguardedRead }[] }>();
      for (const finding of findings) {
        const first = bySite.get(finding.site);
        if (first === undefined) bySite.set(finding.site, { ...finding, more: 0, reads: [{ site: finding.site, read: finding.read }] });
        else bySite.set(finding.site, { ...first, oneUser: first.oneUser && finding.oneUser, more: first.more + 1, reads: [...first.reads, { site: finding.site, read: finding.read }] });
      }
      // The fields each validation requires by testing for them (`has(c.resources.limits)`).
      const required = new Map(all.filter(({ site }) => site.kind === 'validating.validation').map(({ site, expr }) => [site, fieldsRequired(expr)]));
      /** Whether another validation denies the request itself when the read's field is absent. */
      const requiredElsewhere = ({ site, read }: { site: Site; read: UnguardedRead }): boolean =>
        [...required].some(([other, paths]) => other !== site && paths.some((path) => requiresRead(path, read)));
      return [...bySite.values()].map((finding) => ({ ...finding, requiredElsewhere: finding.reads.every(requiredElsewhere) }));
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
          for (const { site, read, more } of analyse(conditions, conditions, entry.webhook.rules ?? [], false, false)) {
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
        const found = analyse(checked, [...conditions, ...variables], rules, spec.paramKind != null, mutating || variables.length > 0);
        const byPath = new Map<string, (typeof found)[number]>();
        for (const finding of found) {
          const first = byPath.get(finding.read.path);
          if (first === undefined) byPath.set(finding.read.path, finding);
          else byPath.set(finding.read.path, { ...first, more: first.more + 1 + finding.more, oneUser: first.oneUser && finding.oneUser, requiredElsewhere: first.requiredElsewhere && finding.requiredElsewhere });
        }
        return [...byPath.values()].map(({ site, read, expr, oneUser, more, requiredElsewhere }): Violation<MessageId> => ({
          ...(read.patch === undefined
            ? { messageId: 'policy' as MessageId, data: { site: site.label, policy: describePolicyObject(object), access: read.access, missing: describeMissing(read), more: moreReads(more) } }
            : { messageId: 'patch' as MessageId, data: { site: site.label, policy: describePolicyObject(object), op: read.patch.op, pointer: read.patch.pointer, target: describePatchTarget(read), more: moreReads(more) } }),
          path: site.path,
          ...guardHint(read, site.kind),
          // With Ignore, an expression that errors is skipped, not a rejection. A validation whose
          // only read that can fail is one its absence would fail anyway (an equality with a
          // literal, through && alone) is denied either way under Fail: only the message differs.
          // Reached only for one named user's requests (`!variables.isController || …`): an error
          // rejects that user's writes alone (a project's own controller), not its users'. A
          // field another validation requires (`has(c.resources.limits.cpu)`) is denied by that
          // one, with its message, when absent: again only this message differs.
          ...(spec.failurePolicy === 'Ignore' || (site.kind === 'validating.validation' && ((more === 0 && deniedEitherWay(expr, read)) || oneUser || requiredElsewhere)) ? { severity: 'info' as const } : {}),
        }));
      },
    };
  },
});
