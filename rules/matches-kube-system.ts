import { reportedAsEverything } from '../src/match/intercepts-everything.js';
import { groupCopies, type WebhookFinding } from '../src/match/webhook-copies.js';
import { unlessPatchedAway, withKustomizeSelectors } from '../src/match/kustomize-selectors.js';
import type { Discovery } from '../src/kube/discovery/discovery.js';
import { KUBE_SYSTEM_WRITTEN } from '../src/kube/kube-system-resources.js';
import { CREATE_SUBRESOURCES } from '../src/match/candidates.js';
import { describeResource, KUBE_SYSTEM, kubeSystemInterceptions, PEOPLES_SUBRESOURCES, unexcludedRequirement, type KubeSystemInterception } from '../src/match/kube-system-webhooks.js';
// Gardener's line, shared with critical-resources: with Ignore, a timeout above it is problematic (control-plane clients give up at 30 s).
import { criticalForTimeout, ignoresWithLongTimeout, IGNORE_TIMEOUT_SECONDS } from '../src/match/critical-targets.js';
import { settingsApply } from '../src/match/reachability.js';
import { namespaceLabels } from '../src/match/namespaces.js';
import { systemObjectLabels } from '../src/match/kube-system.js';
import { matchPolicy, type PolicyRequest } from '../src/match/policy.js';
import type { Operation } from '../src/match/request.js';
import { CLIENT_TIMEOUT_SECONDS, NAMESPACE_NAME_LABEL } from '../src/model/types.js';
import { conditionsOutcome, othersMayBeCalled, systemWritersOf, validationsOutcome, type CelRequest, type ValidationsOutcome } from '../src/match/system-requests.js';
import type { PolicyObject, WebhookConfigurationObject } from '../src/model/objects.js';
import { bindingCanReject, bindingSpec, isBinding, isPolicyDefaulted, policySpec } from '../src/model/policies.js';
import { policyIndexOf } from '../src/match/bindings.js';
import type { MatchCondition, RuleWithOperations } from '../src/model/types.js';
import { isDefaulted, webhooksOf, type WebhookEntry } from '../src/model/webhooks.js';
import { ALL_WEBHOOK_KINDS, defineObjectRule, type RuleRun, type Violation } from '../src/rule.js';
import { loadCelSync } from '../src/cel/library.js';
import type { Severity } from '../src/severity.js';
import { elideMiddle, joinCapped } from '../src/text/list.js';




// ─── Admission policies ───

/** One write that a system component makes in kube-system. */
interface SystemWrite {
  readonly group: string;
  readonly version: string;
  readonly resource: string;
  readonly subresource: string;
  readonly operation: Operation;
}

/** Subresources that are only read (GET), which never reach admission. */
const READ_ONLY_SUBRESOURCES = new Set(['log']);

/** Tried first, so that a policy on everything is reported for what matters most. */
const FIRST = ['pods', 'leases'];

/**
 * The concrete requests behind KUBE_SYSTEM_WRITTEN: create, update and delete of each resource,
 * and the writes of its subresources (not the CONNECT ones: exec, attach, port-forward, proxy
 * are people's, as are ephemeral containers; and not `log`, which is only read).
 */
function systemWrites(discovery: Discovery): readonly SystemWrite[] {
  return discovery.derive('matches-kube-system.systemWrites', () => computeSystemWrites(discovery));
}

function computeSystemWrites(discovery: Discovery): readonly SystemWrite[] {
  const writes: SystemWrite[] = [];
  for (const [group, info] of Object.entries(KUBE_SYSTEM_WRITTEN)) {
    for (const version of info.versions) {
      for (const resource of info.namespacedResources) {
        for (const operation of ['CREATE', 'UPDATE', 'DELETE'] as const) writes.push({ group, version, resource, subresource: '', operation });
        const served = discovery.resource(group, version, resource);
        for (const subresource of served?.subresources ?? []) {
          if (served?.connect.has(subresource) || READ_ONLY_SUBRESOURCES.has(subresource) || PEOPLES_SUBRESOURCES.has(subresource)) continue;
          writes.push({ group, version, resource, subresource, operation: CREATE_SUBRESOURCES.has(subresource) ? 'CREATE' : 'UPDATE' });
        }
      }
    }
  }
  const rank = (write: SystemWrite): number => (FIRST.includes(write.resource) ? FIRST.indexOf(write.resource) : FIRST.length);
  // Array.prototype.sort is stable: the table order is kept within each rank.
  return Object.freeze(writes.sort((a, b) => rank(a) - rank(b)));
}

const names = (list: readonly string[] | undefined, value: string): boolean => (list ?? []).some((entry) => entry === '*' || entry === value);

/**
 * Whether a rule of these could match the write, exactly or through an equivalent version
 * (which keeps the group and resource): a prefilter for matchPolicy, which decides.
 */
function mayMatch(rules: readonly (RuleWithOperations | null)[] | undefined, write: SystemWrite): boolean {
  return (rules ?? []).some(
    (rule) =>
      rule !== null &&
      typeof rule === 'object' &&
      names(rule.operations, write.operation) &&
      names(rule.apiGroups, write.group) &&
      (rule.resources ?? []).some((entry) => {
        const slash = entry.indexOf('/');
        const resource = slash < 0 ? entry : entry.slice(0, slash);
        const subresource = slash < 0 ? '' : entry.slice(slash + 1);
        return (resource === '*' || resource === write.resource) && (subresource === '*' || subresource === write.subresource);
      }),
  );
}

/**
 * The system's requesters of this write whose requests the policy's matchConditions are known to
 * let in (`called`), and whether the conditions of others could not be decided (they may be let
 * in too: then what the validations do to the called ones is not all they do).
 */
function calledRequesters(run: RuleRun, conditions: readonly (MatchCondition | null)[], write: SystemWrite): { readonly called: CelRequest[]; readonly undecided: boolean } {
  const requests = systemWritersOf(write.group).map((requester): CelRequest => ({ group: write.group, resource: write.resource, subresource: write.subresource, operation: write.operation, namespace: KUBE_SYSTEM, requester, systemObject: true }));
  if (conditions.length === 0) return { called: requests, undecided: false };
  // The engine awaits the CEL library only for webhooks' matchConditions: load it here if it has not.
  if (!loadCelSync()) return { called: [], undecided: true };
  const outcomes = requests.map((request) => conditionsOutcome(run, conditions, [request]));
  // Skipped for every requester modelled: another writer of the control plane may still be let in.
  const undecided = outcomes.includes('unknown') || (outcomes.every((outcome) => outcome === 'skipped') && othersMayBeCalled(run, conditions, requests));
  return { called: requests.filter((_, index) => outcomes[index] === 'called'), undecided };
}

/** What the policy's validations do to these requests of the system's (src/match/system-requests.ts). */
function validationsOf(run: RuleRun, spec: NonNullable<ReturnType<typeof policySpec>>, requests: readonly CelRequest[]): ValidationsOutcome {
  const validations = (spec.validations ?? []).map((validation) => (typeof validation?.expression === 'string' ? validation.expression.trim() : ''));
  // A validation without an expression is api-validation's; it decides nothing here.
  if (validations.length === 0 || validations.includes('') || !loadCelSync()) return 'unknown';
  const variables = (spec.variables ?? []).flatMap((variable) => (typeof variable?.name === 'string' && typeof variable.expression === 'string' ? [{ name: variable.name, expression: variable.expression }] : []));
  return validationsOutcome(run, validations, variables, requests);
}

function policyViolation(object: PolicyObject, write: SystemWrite, rule: number, boundBy: readonly string[], messageId: MessageId, severity: Severity, help: string, nameWidth = 63): Violation<MessageId> {
  return {
    messageId,
    data: {
      // A name longer than a label's 63 characters is elided in the middle (the finding's object keeps the whole name).
      policy: elideMiddle(object.name ?? '(unnamed)', nameWidth),
      bindings: joinNames(boundBy),
      resource: describeResource(write),
      defaulted: isPolicyDefaulted(object, ['spec', 'failurePolicy']) ? ' (the API default)' : '',
    },
    path: ['spec', 'matchConstraints', 'resourceRules', rule],
    severity,
    help,
  };
}

/** The bindings, by name when that fits the line, else counted (the finding's object names the policy). */
function joinNames(names: readonly string[]): string {
  const unique = [...new Set(names)];
  const quoted = unique.map((name) => `"${name}"`);
  const joined = joinCapped(quoted, 2, { width: 50 });
  return joined.length <= 40 ? joined : `${unique.length} binding${unique.length === 1 ? '' : 's'}`;
}

type MessageId = 'fail' | 'ignore' | 'failDelete' | 'ignoreDelete' | 'validatingPolicyDenies' | 'validatingPolicyUndecided' | 'validatingPolicyFail' | 'validatingPolicyIgnore' | 'mutatingPolicyFail' | 'mutatingPolicyIgnore';

const POLICY_HELP = `A validation that is false for one of the system's own objects rejects the control plane's write there (failurePolicy Ignore covers errors, not failed validations; with Fail an expression that errors rejects it too); a mutating policy rewrites the system's own objects, and with Fail a mutation that errors rejects the write. Exclude kube-system with a namespaceSelector on ${NAMESPACE_NAME_LABEL} (operator NotIn, values [kube-system]) in the policy's matchConstraints or the binding's matchResources, or narrow the resourceRules to the resources the policy is about.`;

const POLICY_DENIES_HELP = `A validation is false for the control plane's own requests there (evaluated with what is known of them: the requester, the operation, the namespace), so the policy rejects those writes. ${POLICY_HELP}`;

function checkPolicyObject(object: PolicyObject, run: RuleRun): Violation<MessageId>[] {
  if (isBinding(object)) return [];
  const spec = policySpec(object);
  if (spec === undefined) return [];
  // Only bindings of the run count: without one the policy does nothing (or its bindings are elsewhere, unknown).
  const bindings = policyIndexOf(run).bindingsOf(object).filter((binding) => binding.decodable && bindingCanReject(binding));
  if (bindings.length === 0) return [];
  const nsLabels = namespaceLabels(run, KUBE_SYSTEM);
  // An opt-in objectSelector (a label of the policy's own) exempts the system's objects.
  const through = bindings.map((binding) => {
    const bindingMatch = bindingSpec(binding)?.matchResources;
    return { binding, labels: { ...systemObjectLabels(spec.matchConstraints?.objectSelector), ...systemObjectLabels(bindingMatch?.objectSelector) } };
  });
  // Only the policy's own resourceRules can make a write match (matchPolicy asks them first).
  const policyRules = spec.matchConstraints !== null && typeof spec.matchConstraints === 'object' ? spec.matchConstraints.resourceRules : undefined;
  const mutating = object.kind === 'MutatingAdmissionPolicy';
  const ignore = spec.failurePolicy === 'Ignore';
  /** The first write the policy may reject whose validations could not be evaluated, and whether every such write is a DELETE. */
  let unknown: { readonly write: SystemWrite; readonly rule: number; readonly boundBy: readonly string[] } | undefined;
  /** The first write whose matchConditions could not be decided for any of the system's requesters. */
  let undecidedWrite: { readonly write: SystemWrite; readonly rule: number; readonly boundBy: readonly string[] } | undefined;
  let deletesOnly = true;
  /** Every write whose validations were not decided passes if kube-system's objects carry no value of the policy's own on a label add-ons set (validationsOf `likely`). */
  let gatedOnly = true;
  for (const write of systemWrites(run.discovery)) {
    if (!mayMatch(policyRules, write)) continue;
    const boundBy: string[] = [];
    let rule: number | undefined;
    for (const { binding, labels } of through) {
      const request: PolicyRequest = {
        ...write,
        namespace: KUBE_SYSTEM,
        namespaceLabels: nsLabels,
        objectLabels: write.operation === 'DELETE' ? null : labels,
        oldObjectLabels: write.operation === 'CREATE' ? null : labels,
      };
      const outcome = matchPolicy(spec, bindingSpec(binding), request, run.discovery);
      if (outcome.called !== true) continue;
      boundBy.push(binding.name ?? '(unnamed)');
      rule ??= outcome.rule;
    }
    if (rule === undefined) continue;
    // matchConditions that exclude system users or kube-system let those writes through.
    // Only conditions known to call the policy for the system's writes count here: a policy runs
    // in the API server (no endpoint to be down), and what it rejects depends on its validations;
    // an unevaluated condition on top of that is too far from evidence for an error.
    const { called: requesters, undecided } = calledRequesters(run, spec.matchConditions ?? [], write);
    if (requesters.length === 0) {
      // Conditions that could not be decided for any of them: it may apply, or not (info).
      if (undecided && !mutating) undecidedWrite ??= { write, rule, boundBy };
      continue;
    }
    if (mutating) return [policyViolation(object, write, rule, boundBy, ignore ? 'mutatingPolicyIgnore' : 'mutatingPolicyFail', ignore ? 'info' : 'error', POLICY_HELP)];
    // A validating policy rejects what a validation is false for: evaluated for the system's own
    // requests where the known fields answer (src/match/system-requests.ts). False for one of
    // them is evidence; true for all, this write passes.
    let validations = validationsOf(run, spec, requesters);
    // Passing for the called requesters is not passing for those whose conditions were not
    // decided, nor where params decide (a binding's paramRef may find none: parameterNotFoundAction Deny).
    // Nor where auditAnnotations are evaluated: one that errors rejects the request under Fail.
    const audited = Array.isArray(spec.auditAnnotations) && spec.auditAnnotations.length > 0;
    if (validations === 'passes' && (undecided || spec.paramKind != null || audited)) validations = 'unknown';
    if (validations === 'passes') continue;
    if (validations === 'denies') return [policyViolation(object, write, rule, boundBy, 'validatingPolicyDenies', 'error', POLICY_DENIES_HELP)];
    if (write.operation !== 'DELETE') deletesOnly = false;
    if (gatedOnly && !(!undecided && spec.paramKind == null && !audited && validationsOf(run, spec, requesters.map((request) => ({ ...request, systemObject: 'likely' as const }))) === 'passes')) gatedOnly = false;
    unknown ??= { write, rule, boundBy };
  }
  // Its validations may reject the system's writes, or may not: no evidence of either (they read
  // what is not known of the system's objects). A policy has no endpoint to be down: a warning
  // that it applies there, and an info when it only holds deletes up (no recovery waits on one).
  if (unknown !== undefined) {
    // Passing where kube-system's objects do not carry the value the policy gates on, of a label
    // add-ons set (app.kubernetes.io/managed-by=<the operator>): a lock on the policy's own objects (info).
    return [policyViolation(object, unknown.write, unknown.rule, unknown.boundBy, ignore ? 'validatingPolicyIgnore' : 'validatingPolicyFail', deletesOnly || gatedOnly ? 'info' : 'warning', POLICY_HELP)];
  }
  // Neither whether it applies to the system's writes nor what it does to them is known: said, at info.
  if (undecidedWrite !== undefined) {
    return [policyViolation(object, undecidedWrite.write, undecidedWrite.rule, undecidedWrite.boundBy, 'validatingPolicyUndecided', 'info', POLICY_HELP, 40)];
  }
  return [];
}

/** The rules that report an Ignore webhook's long timeout (timeoutReportedElsewhere). */
const CRITICAL_RESOURCES = 'critical-resources';
const LONG_TIMEOUT = 'long-timeout';

/** Gardener: on kube-system Leases, above this even Ignore can break leader election (renewals have a 10 s deadline). */
const LEASE_TIMEOUT_SECONDS = 3;
/** On kube-system Pods with Ignore, a wait above this per create or update delays every add-on's recovery. */
const POD_TIMEOUT_SECONDS = 5;

const WEBHOOK_FIX = `If the webhook need not see kube-system, exclude it with a namespaceSelector on ${NAMESPACE_NAME_LABEL} (NotIn [kube-system]). If it acts only on objects that opt in (an injector keyed on a label), an objectSelector on that label (operator Exists or In) keeps every other object's requests away from it. If its purpose needs kube-system, keep it but use failurePolicy Ignore with a short timeout, narrow the rules, or let the system's requests through with matchConditions or an objectSelector.`;

/**
 * How bad a failure is (rules/matches-kube-system.md): Fail rejects the system's creates and
 * updates (error); Ignore only delays them, by at most the timeout, which matters when it is long
 * (Gardener's 15 s) or lands on Leases or Pods (GKE's unsafe webhooks); a DELETE-only rule blocks
 * no recovery.
 */
/** Whether the webhook's author wrote a selector (namespaceSelector or objectSelector) that can leave objects out. */
function scoped(webhook: KubeSystemInterception['entry']['webhook']): boolean {
  const narrows = (selector: unknown): boolean => {
    if (selector === null || typeof selector !== 'object') return false;
    const { matchLabels, matchExpressions } = selector as { matchLabels?: unknown; matchExpressions?: unknown };
    return (matchLabels !== null && typeof matchLabels === 'object' && Object.keys(matchLabels).length > 0) || (Array.isArray(matchExpressions) && matchExpressions.length > 0);
  };
  return narrows(webhook.namespaceSelector) || narrows(webhook.objectSelector);
}

function webhookSeverity(i: KubeSystemInterception, ignore: boolean, timeout: number): { severity: Severity; why: string } {
  if (i.deleteOnly) {
    if (!ignore && i.podDeletes) return { severity: 'warning', why: 'Only deletes are intercepted: while the webhook is down, kube-system pods that have terminated stay in the API and DaemonSet and StatefulSet rollouts there stall; creates and updates pass.' };
    return { severity: 'info', why: 'Only deletes are intercepted: no creation or update the control plane needs to recover is held up.' };
  }
  if (!ignore && i.installerWritesOnly) {
    const deletes = i.podDeletes ? ' Deletes of kube-system pods are intercepted too: terminated pods stay in the API.' : '';
    return { severity: 'warning', why: `Only creates and updates of Deployments, StatefulSets or Jobs are intercepted: while the webhook is down, kube-system add-ons cannot be installed, upgraded, resized or repaired, their CronJobs' runs wait, and their deletions with foreground or orphan propagation stay pending; the control plane writes their status and scale, and the ReplicaSets and Pods that keep them running, which pass.${deletes}` };
  }
  if (!ignore) return { severity: 'error', why: "While the webhook is down, the control plane's creates and updates there are rejected, including those that would bring the webhook back." };
  const wait = `Each of those writes waits up to ${timeout} s while the webhook does not answer (Ignore never rejects, but the webhook's answers can).`;
  // Evictions come from people and drains (kubectl drain, an autoscaler's scale-down), which wait
  // and retry: the control-plane clients' 30 s deadline is not theirs (long-timeout reports the timeout).
  if (i.evictionsOnly) return { severity: 'info', why: `${wait} Only evictions are intercepted there: people and drains make them, not the control plane.` };
  if (timeout > IGNORE_TIMEOUT_SECONDS) return { severity: 'warning', why: `${wait} Above ${IGNORE_TIMEOUT_SECONDS} s, control-plane clients (30 s deadline) can fail anyway.` };
  if (i.leases && timeout > LEASE_TIMEOUT_SECONDS) return { severity: 'warning', why: `${wait} Leader-election renewals have a 10 s deadline: above ${LEASE_TIMEOUT_SECONDS} s it can cost leadership.` };
  if (i.entry.webhook.clientConfig?.service?.namespace === KUBE_SYSTEM) return { severity: 'info', why: `${wait} The webhook itself is served from kube-system: it is one of the system's add-ons, and seeing kube-system is part of its job.` };
  // A webhook whose author wrote a selector to scope it, and left kube-system in, sees kube-system
  // by a decision written in the file: with Ignore and a bounded wait, a condition, not a defect.
  if (i.pods && scoped(i.entry.webhook)) return { severity: 'info', why: `${wait} Its selectors scope it and keep kube-system in: seeing the system's pods is part of its job.` };
  if (i.pods && timeout > POD_TIMEOUT_SECONDS) return { severity: 'warning', why: `${wait} Every kube-system pod the control plane creates waits that long while the webhook is down.` };
  return { severity: 'info', why: `${wait} The delay is bounded and short.` };
}

/**
 * One cause, one finding: an Ignore webhook whose writes here wait more than 15 s (its warning
 * case) is reported for that timeout by critical-resources when it intercepts a control-plane
 * write (kube-system's included), else by long-timeout when the timeout is the 30 s at which
 * clients give up. Each only when it runs as designed, so that turning it off or lowering it
 * brings this finding back.
 */
function timeoutReportedElsewhere(object: WebhookConfigurationObject, interception: KubeSystemInterception, written: WebhookEntry, run: RuleRun): boolean {
  const { webhook } = written;
  if (interception.deleteOnly || !ignoresWithLongTimeout(webhook)) return false;
  // critical-resources judges the webhook with its kustomize selectors, as this rule does.
  if (run.runsAsDesigned(CRITICAL_RESOURCES) && criticalForTimeout(interception.entry.webhook, run)) return true;
  return (webhook.timeoutSeconds ?? 10) >= CLIENT_TIMEOUT_SECONDS && run.runsAsDesigned(LONG_TIMEOUT) && settingsApply(object, written, run);
}

/** Why a namespaceSelector meant to exclude kube-system does not (unexcludedRequirement); empty when it is not that. */
function unexcludedNote(requirement: { readonly key: string } | undefined): string {
  return requirement === undefined ? '' : `: kube-system has no label "${requirement.key}" for its namespaceSelector to exclude`;
}

export const rule = defineObjectRule({
  meta: {
    id: 'matches-kube-system',
    title: 'A webhook or admission policy intercepts the resources that system components write in kube-system',
    aboutCalls: true,
    severity: 'error',
    appliesTo: [...ALL_WEBHOOK_KINDS, 'ValidatingAdmissionPolicy', 'MutatingAdmissionPolicy'],
    messages: {
      fail: '{{which}} {{intercepts}} {{resource}} in kube-system with failurePolicy Fail{{defaulted}}{{patched}}{{unexcluded}}',
      ignore: '{{which}} {{intercepts}} {{resource}} in kube-system (failurePolicy Ignore, timeoutSeconds {{timeout}}){{patched}}{{unexcluded}}',
      failDelete: '{{which}} {{intercepts}} only DELETE of {{resource}} in kube-system with failurePolicy Fail{{defaulted}}{{patched}}{{unexcluded}}',
      ignoreDelete: '{{which}} {{intercepts}} only DELETE of {{resource}} in kube-system (failurePolicy Ignore, timeoutSeconds {{timeout}}){{patched}}{{unexcluded}}',
      validatingPolicyUndecided: 'ValidatingAdmissionPolicy "{{policy}}" may apply to {{resource}} in kube-system (matchConditions not decided)',
      validatingPolicyDenies: 'ValidatingAdmissionPolicy "{{policy}}" (Deny: {{bindings}}) rejects the control plane\'s own writes of {{resource}} in kube-system',
      validatingPolicyFail:
        'ValidatingAdmissionPolicy "{{policy}}" (Deny: {{bindings}}) applies to {{resource}} in kube-system, failurePolicy Fail{{defaulted}}',
      validatingPolicyIgnore:
        'ValidatingAdmissionPolicy "{{policy}}" (Deny: {{bindings}}) applies to {{resource}} in kube-system, failurePolicy Ignore',
      mutatingPolicyFail:
        'MutatingAdmissionPolicy "{{policy}}" (bound: {{bindings}}) changes {{resource}} in kube-system, failurePolicy Fail{{defaulted}}',
      mutatingPolicyIgnore: 'MutatingAdmissionPolicy "{{policy}}" (bound: {{bindings}}) changes {{resource}} in kube-system, failurePolicy Ignore',
    },
    help: `While the webhook is down, the control plane's writes in kube-system are rejected (failurePolicy Fail), including those that would bring the webhook back, or each waits up to timeoutSeconds (Ignore). ${WEBHOOK_FIX}`,
  },
  create(run) {
    return {
      policy: (object) => checkPolicyObject(object, run),
      webhookConfiguration(object) {
        // One cause, one finding: a webhook that intercepts everything is reported by wildcard-rule when it runs.
        // The selectors its kustomization's patches give it, when the build is certain (src/match/kustomize-selectors.ts).
        const judged = withKustomizeSelectors(object, run);
        // (wildcard-rule judges the same patched webhook: the deferral asks about that one.)
        const written = webhooksOf(object);
        const writtenOf = (entry: WebhookEntry): WebhookEntry => written.find((each) => each.index === entry.index) ?? entry;
        // Patched in an overlay only: what only the unpatched build has is an info (unlessPatchedAway).
        const found = unlessPatchedAway(judged, (judgedObject, patched) => kubeSystemInterceptions(judgedObject, run)
          .filter(({ entry }) => !reportedAsEverything(entry.webhook, run))
          .filter((interception) => !timeoutReportedElsewhere(object, interception, writtenOf(interception.entry), run))
          .map((interception): WebhookFinding<MessageId> => {
            const { entry, rule, match, everything } = interception;
            const ignore = entry.webhook.failurePolicy === 'Ignore';
            const timeout = entry.webhook.timeoutSeconds ?? 10;
            const { severity, why } = webhookSeverity(interception, ignore, timeout);
            const failurePolicy = [...entry.path, 'failurePolicy'];
            const defaulted = isDefaulted(object, failurePolicy);
            const unexcluded = unexcludedRequirement(entry.webhook.namespaceSelector, namespaceLabels(run, KUBE_SYSTEM));
            // The mis-keyed exclusion is also an opt-out label (editable-namespace-selector): this finding names it.
            const keyCovered = unexcluded === undefined ? [] : [{ ruleId: 'editable-namespace-selector', path: [...entry.path, 'namespaceSelector', 'matchExpressions', unexcluded.index, 'key'] }];
            return {
              label: entry.label,
              webhook: entry.webhook,
              messageId: interception.deleteOnly ? (ignore ? 'ignoreDelete' : 'failDelete') : ignore ? 'ignore' : 'fail',
              data: {
                resource: everything ? 'every resource of every group' : describeResource(match),
                timeout,
                defaulted: defaulted ? ' (the API default)' : '',
                patched,
                unexcluded: unexcludedNote(unexcluded),
              },
              path: [...entry.path, 'rules', rule],
              severity,
              help: `${why} ${WEBHOOK_FIX}`,
              // Fail because failurePolicy is omitted: implicit-failure-policy's cause, with its consequence.
              ...(defaulted || keyCovered.length > 0 ? { covers: [...(defaulted ? [{ ruleId: 'implicit-failure-policy', path: failurePolicy }] : []), ...keyCovered] } : {}),
            };
          }), { whereverServiceLands: true });
        return groupCopies(found);
      },
    };
  },
});
