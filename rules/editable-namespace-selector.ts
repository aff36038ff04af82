import { namespaceSelectorApplies } from '../src/match/scope.js';
import { selectorKeys } from '../src/match/selector.js';
import { backendOf, levelSibling, namespaceLabelGuard } from '../src/match/namespace-guards.js';
import { rulesMatchBuiltins } from '../src/match/builtin-rules.js';
import type { LabelSelector, RuleWithOperations } from '../src/model/types.js';
import type { Severity } from '../src/severity.js';
import { isAtLeast } from '../src/kube/version.js';
import type { PolicyObject } from '../src/model/objects.js';
import { bindingSpec, isBinding, isMutatingKind, matchResourcesOf } from '../src/model/policies.js';
import { policyIndexOf } from '../src/match/bindings.js';
import { NAMESPACE_NAME_LABEL } from '../src/model/types.js';
import { webhooksOf } from '../src/model/webhooks.js';
import { KUBE_SYSTEM, unexcludedRequirement } from '../src/match/kube-system-webhooks.js';
import { namespaceLabels } from '../src/match/namespaces.js';
import { elideMiddle, joinCapped } from '../src/text/list.js';
import { runPatchesChanging } from '../src/match/patched.js';
import { streamOf } from '../src/match/namespaces.js';
import { ALL_WEBHOOK_KINDS, defineObjectRule, type RuleRun, type Violation } from '../src/rule.js';

type MessageId = 'optOut' | 'validating' | 'mutating' | 'optOutPolicy' | 'validatingPolicy' | 'mutatingPolicy';

function trustedKeys(run: RuleRun): Set<string> {
  // The API server sets (and guards) the name label only from Kubernetes 1.21.
  return new Set([...(isAtLeast(run.kubeVersion, 1, 21) ? [NAMESPACE_NAME_LABEL] : []), ...run.trustedNamespaceLabels]);
}

/** Whether the requirement on this key opts a namespace out when the label is set (NotIn, DoesNotExist), or in (matchLabels, In, Exists). */
function optsOut(selector: LabelSelector | undefined, where: readonly (string | number)[]): boolean {
  if (where[0] !== 'matchExpressions') return false;
  const operator = selector?.matchExpressions?.[where[1] as number]?.operator;
  return operator === 'NotIn' || operator === 'DoesNotExist';
}

/**
 * The first key of the selector that opts a namespace in (matchLabels, In, Exists) and that no
 * one holds but those who can relabel namespaces: not trusted, not guarded in the run. Whoever
 * can set an opt-out label of the same selector can as well remove that one: the opt-out opens
 * nothing the opt-in does not.
 */
function openOptIn(run: RuleRun, selector: LabelSelector | undefined, trusted: ReadonlySet<string>, backend: string | undefined): string | undefined {
  return selectorKeys(selector).find(({ key, where }) => !optsOut(selector, where) && !trusted.has(key) && namespaceLabelGuard(run, key, backend) === undefined)?.key;
}

const WHO = 'Under default RBAC namespace users cannot update their Namespace (view, edit and admin only read it): only cluster-level users, and tools they grant it, can change its labels.';

interface Judgement {
  readonly severity: Severity;
  /** For the message: why it is not a bypass (empty for the warning). */
  readonly why: string;
  readonly help: string;
}

/**
 * Who can act, and what it costs (rules/editable-namespace-selector.md): only an opt-out label
 * on a check over built-in resources, that no webhook or policy of the run guards, is a way
 * around a control (warning); an opt-in, an opt-out inside an opt-in that is as open as it, a
 * guarded label, a check of a project's own custom resources, and any mutation, are conditions
 * to know (info).
 */
function judge(run: RuleRun, key: string, optOut: boolean, validating: boolean, builtins: boolean, backend: string | undefined, optIn: string | undefined, level?: string): Judgement {
  if (!validating) return { severity: 'info', why: '', help: `${WHO} The label switches this mutation on or off per namespace: usually the intended design.` };
  const guard = namespaceLabelGuard(run, key, backend);
  if (guard !== undefined)
    return { severity: 'info', why: 'guarded in this run', help: `${guard} sees every Namespace create and update that sets this label and can reject it: the label is held by whoever that guard allows. ${WHO}` };
  if (!optOut) return { severity: 'info', why: 'an opt-in', help: `${WHO} The label switches the check on for a namespace; removing it (a cluster-level act) switches it off.` };
  if (optIn !== undefined)
    return { severity: 'info', why: `inside the opt-in "${optIn}"`, help: `${WHO} The selector also requires the label "${optIn}", which switches the check on for a namespace: whoever can set this opt-out label can as well remove that one.` };
  if (level !== undefined)
    return {
      severity: 'info',
      why: `a level: "${elideMiddle(level, 40)}" selects its values`,
      help: `${WHO} Another check of the same server selects namespaces by values of this label: it is the level the project's checks are chosen by per namespace, as Pod Security's enforce label is, and a value that skips this check is a level someone chose for the namespace.`,
    };
  if (!builtins)
    return { severity: 'info', why: 'custom resources only', help: `${WHO} The check covers only custom resources (groups no built-in API serves): skipping it yields objects the project's controller may reject, not a bypass of a control over what runs.` };
  return {
    severity: 'warning',
    why: '',
    help: `${WHO} Whoever of them sets this label takes the namespace out of the check, for built-in resources. Select by ${NAMESPACE_NAME_LABEL} (set by the API server), guard the label with a validating webhook or policy on Namespaces, or, if only trusted users can set it, pass it to --trusted-namespace-label.`,
  };
}

/**
 * Whether the namespaceSelector of a policy's matchConstraints, or of a binding's matchResources,
 * can decide anything: not when the resourceRules only match cluster-scoped objects. A binding
 * without resourceRules matches whatever its policy matches, so the policy's rules decide (when
 * the policy is in the run; otherwise the selector is assumed to matter).
 */
function policySelectorApplies(object: PolicyObject, run: RuleRun): boolean {
  const own = matchResourcesOf(object).match?.resourceRules;
  if (!isBinding(object)) return namespaceSelectorApplies(own, run.discovery);
  if (own !== undefined && own.length > 0 && !namespaceSelectorApplies(own, run.discovery)) return false;
  const policies = policyIndexOf(run).policiesOf(object).filter((policy) => policy.decodable);
  if (policies.length === 0) return true;
  return policies.some((policy) => namespaceSelectorApplies(matchResourcesOf(policy).match?.resourceRules, run.discovery));
}

/** A validating binding without Deny rejects nothing: leaving it loses a warning or an audit record, not a check. */
function rejectsNothing(object: PolicyObject): boolean {
  if (object.kind !== 'ValidatingAdmissionPolicyBinding') return false;
  const actions = bindingSpec(object)?.validationActions;
  return Array.isArray(actions) && actions.length > 0 && !actions.includes('Deny');
}

/** The resourceRules that decide what the policy or binding checks: its own, else its policies'. */
function policyRules(object: PolicyObject, run: RuleRun): (RuleWithOperations | null)[] {
  const own = matchResourcesOf(object).match?.resourceRules;
  if (!isBinding(object) || (own !== undefined && own.length > 0)) return [...(own ?? [])] as (RuleWithOperations | null)[];
  const policies = policyIndexOf(run).policiesOf(object).filter((policy) => policy.decodable);
  // A binding whose policy is elsewhere: what it checks is unknown, so it may be built-in resources.
  if (policies.length === 0) return [{ apiGroups: ['*'] } as RuleWithOperations];
  return policies.flatMap((policy) => [...(matchResourcesOf(policy).match?.resourceRules ?? [])] as (RuleWithOperations | null)[]);
}

function checkPolicyObject(object: PolicyObject, run: RuleRun): Violation<MessageId>[] {
  const { match, path } = matchResourcesOf(object);
  if (match === undefined || rejectsNothing(object) || !policySelectorApplies(object, run)) return [];
  const trusted = trustedKeys(run);
  const mutating = isMutatingKind(object.kind);
  const at = [...path, 'namespaceSelector'];
  const builtins = rulesMatchBuiltins(policyRules(object, run), run.discovery);
  const optIn = openOptIn(run, match.namespaceSelector, trusted, undefined);
  const found = selectorKeys(match.namespaceSelector)
    .filter(({ key }) => !trusted.has(key))
    .map(({ key, where }): KeyViolation => {
      const verdict = judge(run, key, optsOut(match.namespaceSelector, where), !mutating, builtins, undefined, optIn);
      return {
        messageId: verdict.severity === 'warning' ? 'optOutPolicy' : mutating ? 'mutatingPolicy' : 'validatingPolicy',
        data: { kind: object.kind, name: object.name ?? '(unnamed)', why: verdict.why === '' ? '' : ` (${verdict.why})` },
        path: where[0] === 'matchLabels' ? [...at, 'matchLabels'] : [...at, ...where],
        locateAt: [...at, ...where],
        severity: verdict.severity,
        help: verdict.help,
        key,
      };
    });
  return groupedByCause(found);
}

/**
 * One cause, one finding: the keys of one selector judged alike (the same message, reason and
 * severity: opt-outs, or the labels of one opt-in) are one finding, at the first, naming the
 * others (hold-out 26: an opt-in of three labels was three infos). Opt-outs are alternatives
 * ("a" or "b" takes a namespace out), the labels of an opt-in all needed ("a", "b" and "c").
 */
/**
 * A key's finding; `apart`: a key meant to exclude kube-system that kube-system lacks (the `name`
 * label), a finding of its own, which matches-kube-system's covers when it names the key.
 */
type KeyViolation = Violation<MessageId> & { readonly key: string; readonly apart?: true };

function groupedByCause(found: readonly KeyViolation[]): Violation<MessageId>[] {
  const groups = new Map<string, KeyViolation[]>();
  for (const violation of found) {
    const cause = `${violation.messageId}\0${String(violation.data?.why ?? '')}\0${violation.severity}\0${violation.apart === true ? 'apart' : ''}`;
    groups.set(cause, [...(groups.get(cause) ?? []), violation]);
  }
  return [...groups.values()].map(([first, ...others]) => {
    const { key: _key, apart: _apart, ...violation } = first!;
    const optOut = violation.messageId === 'optOut' || violation.messageId === 'optOutPolicy';
    const keys = joinCapped([first!, ...others].map((each) => `"${each.key}"`), 2, { conjunction: optOut ? 'or' : 'and', width: 60 });
    const data = { ...violation.data, keys, labels: `${others.length === 0 ? 'label' : 'labels'} ${keys}` };
    if (others.length === 0) return { ...violation, data };
    return { ...violation, data, alsoAt: others.map((each) => each.locateAt ?? each.path) };
  });
}

export const rule = defineObjectRule({
  meta: {
    id: 'editable-namespace-selector',
    title: 'namespaceSelector reads a namespace label: an opt-out on a check of built-in resources is a way around it',
    aboutCalls: true,
    severity: 'warning',
    appliesTo: [...ALL_WEBHOOK_KINDS, 'ValidatingAdmissionPolicy', 'ValidatingAdmissionPolicyBinding', 'MutatingAdmissionPolicy', 'MutatingAdmissionPolicyBinding'],
    messages: {
      optOut: 'webhook "{{webhook}}" skips namespaces labelled {{keys}}: cluster-level users can opt one out',
      validating: 'namespaceSelector of webhook "{{webhook}}" reads the namespace {{labels}}{{why}}',
      mutating: 'namespaceSelector of mutating webhook "{{webhook}}" reads the namespace {{labels}}',
      optOutPolicy: '{{kind}} "{{name}}" skips namespaces labelled {{keys}}: cluster-level users can opt one out',
      validatingPolicy: 'namespaceSelector of {{kind}} "{{name}}" reads the namespace {{labels}}{{why}}',
      mutatingPolicy: 'namespaceSelector of {{kind}} "{{name}}" reads the namespace {{labels}}',
    },
    help: `Whoever can change a namespace's labels (under default RBAC, cluster-level users only) can take that namespace out of a validating webhook or policy, or switch a mutation on or off for it. Select namespaces by ${NAMESPACE_NAME_LABEL} (set by the API server), or guard the label with a policy and pass it to --trusted-namespace-label.`,
  },
  create(run) {
    return {
      policy: (object) => checkPolicyObject(object, run),
      webhookConfiguration(object) {
        const trusted = trustedKeys(run);
        // Whether a kustomize patch of the run may change it (other than its labels and annotations): asked once, when a level is looked for.
        let patched: boolean | undefined;
        const patchedConfiguration = (): boolean =>
          (patched ??= runPatchesChanging(run, { kind: object.kind, name: object.name, file: object.manifest.file.path, apiVersion: object.apiVersion }, streamOf(object.manifest.file)).some((patch) => patch.setsLabelsOrAnnotationsOnly !== true));
        return webhooksOf(object).flatMap((entry) => {
          // Rules that only match cluster-scoped objects never consult the selector.
          if (!namespaceSelectorApplies(entry.webhook.rules, run.discovery)) return [];
          const at = [...entry.path, 'namespaceSelector'];
          const selector = entry.webhook.namespaceSelector;
          const builtins = rulesMatchBuiltins(entry.webhook.rules, run.discovery);
          const backend = backendOf(entry.webhook);
          const optIn = openOptIn(run, selector, trusted, backend);
          // The key meant to name kube-system, which kube-system lacks: a finding of its own, which
          // matches-kube-system's finding covers when it names the key (one cause, hold-out 35).
          const kubeSystemRequirement = unexcludedRequirement(selector, namespaceLabels(run, KUBE_SYSTEM));
          const found = selectorKeys(selector)
            .filter(({ key }) => !trusted.has(key))
            .map(({ key, where }): KeyViolation => {
              const optOut = optsOut(selector, where);
              // NotIn one value only: the one level that skips the check (s47e 1, 2: DoesNotExist, or a second value, skips it for any).
              const requirement = where[0] === 'matchExpressions' ? selector?.matchExpressions?.[where[1] as number] : undefined;
              // (And the only requirement on the key: two NotIn of one value each skip two: s47f 6.)
              const alone = selectorKeys(selector).filter((each) => each.key === key).length === 1;
              const exempt = alone && requirement?.operator === 'NotIn' && requirement.values?.length === 1 && typeof requirement.values[0] === 'string' ? requirement.values[0] : undefined;
              const level = optOut && !entry.mutating && exempt !== undefined ? levelSibling(object, entry.webhook, key, exempt, patchedConfiguration()) : undefined;
              const verdict = judge(run, key, optOut, !entry.mutating, builtins, backend, optIn, level);
              return {
                messageId: verdict.severity === 'warning' ? 'optOut' : entry.mutating ? 'mutating' : 'validating',
                data: { webhook: entry.label, why: verdict.why === '' ? '' : ` (${verdict.why})` },
                // The API server's notation stops at matchLabels; the file position names the key.
                path: where[0] === 'matchLabels' ? [...at, 'matchLabels'] : [...at, ...where],
                locateAt: [...at, ...where],
                severity: verdict.severity,
                help: verdict.help,
                key,
                ...(where[0] === 'matchExpressions' && where[1] === kubeSystemRequirement?.index ? { apart: true } : {}),
              };
            });
          return groupedByCause(found);
        });
      },
    };
  },
});
