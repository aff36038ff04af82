import { isRecord } from '../src/json.js';
import { formatKubeVersion, isAtLeast, type KubeVersion } from '../src/kube/version.js';
import { ADMISSION_GROUP, POLICY_KINDS, type PolicyKind } from '../src/model/types.js';
import { isV1beta1 } from '../src/model/webhooks.js';
import type { PolicyObject, WebhookConfigurationObject } from '../src/model/objects.js';
import { describeResource, kubeSystemInterceptions } from '../src/match/kube-system-webhooks.js';
import { withKustomizeSelectors } from '../src/match/kustomize-selectors.js';
import { reportedAsEverything } from '../src/match/intercepts-everything.js';
import { isBindingKind, policyNameOf } from '../src/model/policies.js';
import { elideMiddle } from '../src/text/list.js';
import { ALL_WEBHOOK_KINDS, defineObjectRule, type RuleRun } from '../src/rule.js';

/**
 * When each admission policy kind appeared in each version of admissionregistration.k8s.io
 * (served only with --runtime-config and the feature gate, except v1), and the gate. Whether a
 * version is served by default comes from discovery.
 */
const POLICY_APIS = {
  ValidatingAdmissionPolicy: { resource: 'validatingadmissionpolicies', family: 'ValidatingAdmissionPolicy' },
  ValidatingAdmissionPolicyBinding: { resource: 'validatingadmissionpolicybindings', family: 'ValidatingAdmissionPolicy' },
  MutatingAdmissionPolicy: { resource: 'mutatingadmissionpolicies', family: 'MutatingAdmissionPolicy' },
  MutatingAdmissionPolicyBinding: { resource: 'mutatingadmissionpolicybindings', family: 'MutatingAdmissionPolicy' },
} as const satisfies Record<PolicyKind, { resource: string; family: string }>;

const INTRODUCED: Record<'ValidatingAdmissionPolicy' | 'MutatingAdmissionPolicy', Record<'v1alpha1' | 'v1beta1' | 'v1', number>> = {
  ValidatingAdmissionPolicy: { v1alpha1: 26, v1beta1: 28, v1: 30 },
  MutatingAdmissionPolicy: { v1alpha1: 32, v1beta1: 34, v1: 36 },
};

const PREVIEW_VERSIONS = ['v1beta1', 'v1alpha1'] as const;

function runtimeConfig(version: string, gate: string): string {
  return `--runtime-config=${ADMISSION_GROUP}/${version}=true and the ${gate} feature gate on the API server`;
}

/** Why the version is not served, and what to do; undefined when it is served by default. */
function policyDetail(kind: PolicyKind, version: string, target: KubeVersion, served: (version: string) => boolean): string | undefined {
  if (served(version)) return undefined;
  const family = POLICY_APIS[kind].family;
  const since = INTRODUCED[family];
  if (!(version in since)) return undefined; // Never a policy version: schema reports it.
  const at = target.minor;
  const v1Since = `1.${since.v1}`;
  if (version === 'v1') {
    const preview = PREVIEW_VERSIONS.find((v) => at >= since[v]);
    if (preview === undefined) {
      return `Kubernetes ${formatKubeVersion(target)} has no ${kind} (${ADMISSION_GROUP}/v1alpha1 has it from 1.${since.v1alpha1}, v1beta1 from 1.${since.v1beta1}, v1 from ${v1Since})`;
    }
    return `v1 serves it from Kubernetes ${v1Since}; Kubernetes ${formatKubeVersion(target)} has it in ${ADMISSION_GROUP}/${preview}, with ${runtimeConfig(preview, family)}`;
  }
  const introduced = since[version as 'v1alpha1' | 'v1beta1'];
  if (at < introduced) return `${ADMISSION_GROUP}/${version} has ${kind} from Kubernetes 1.${introduced} on`;
  if (served('v1')) return `use ${ADMISSION_GROUP}/v1, served by default since Kubernetes ${v1Since}`;
  return `it needs ${runtimeConfig(version, family)}; ${ADMISSION_GROUP}/v1 serves it by default from Kubernetes ${v1Since}`;
}

/**
 * Whether `version` is a preview (alpha or beta) that the target has, with no later version of
 * the kind at the target: v1 not yet there, and no newer preview.
 */
function isNewestPreview(kind: PolicyKind, version: string, target: KubeVersion): boolean {
  const since = INTRODUCED[POLICY_APIS[kind].family];
  if (version !== 'v1alpha1' && version !== 'v1beta1') return false;
  const present = (v: 'v1alpha1' | 'v1beta1' | 'v1'): boolean => target.minor >= since[v];
  if (!present(version) || present('v1')) return false;
  return version === 'v1beta1' || !present('v1beta1');
}

function groupBy<T>(items: readonly T[], key: (item: T) => string): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  for (const item of items) {
    const list = groups.get(key(item));
    if (list === undefined) groups.set(key(item), [item]);
    else list.push(item);
  }
  return groups;
}

/** The bindings of a run written in the same apiVersion as the policy they bind, by policy, and all of them. */
interface SameVersionBindings {
  readonly byPolicy: ReadonlyMap<PolicyObject, readonly PolicyObject[]>;
  readonly grouped: ReadonlySet<PolicyObject>;
}

/**
 * The bindings written in the same apiVersion as a policy of the run that they bind, by policy:
 * built once per run (a binding and its policy are one cause).
 */
function bindingsInPolicyVersion(policies: readonly PolicyObject[]): SameVersionBindings {
  const byKey = new Map<string, PolicyObject>();
  const key = (kind: string, name: string, apiVersion: string): string => `${kind}\0${name}\0${apiVersion}`;
  for (const policy of policies) if (!isBindingKind(policy.kind) && policy.name !== undefined) byKey.set(key(policy.kind, policy.name, policy.apiVersion), policy);
  const bindings = new Map<PolicyObject, PolicyObject[]>();
  for (const binding of policies) {
    const name = isBindingKind(binding.kind) ? policyNameOf(binding) : undefined;
    const policy = name === undefined ? undefined : byKey.get(key(binding.kind.replace(/Binding$/, ''), name, binding.apiVersion));
    if (policy === undefined) continue;
    const list = bindings.get(policy);
    if (list === undefined) bindings.set(policy, [binding]);
    else list.push(binding);
  }
  return { byPolicy: bindings, grouped: new Set([...bindings.values()].flat()) };
}

/** ` (and its binding "b")`, ` (and its 2 bindings)`, or nothing: the bindings a policy's finding stands for. */
function bindingsNamed(bindings: readonly PolicyObject[] | undefined): string {
  if (bindings === undefined || bindings.length === 0) return '';
  return bindings.length === 1 ? ` (and its binding "${elideMiddle(bindings[0]!.name ?? '', 40)}")` : ` (and its ${bindings.length} bindings)`;
}

/**
 * What a v1alpha1 binding's move takes beyond its apiVersion: v1alpha1 defaults a paramRef's
 * parameterNotFoundAction to Deny, v1beta1 and v1 require it (validation of ParamRef).
 */
function paramRefGap(bindings: readonly PolicyObject[]): string {
  const lacking = bindings.filter((binding) => {
    if (!binding.apiVersion.endsWith('/v1alpha1')) return false;
    const written = binding.written;
    const spec = written !== null && typeof written === 'object' ? (written as { spec?: unknown }).spec : undefined;
    const paramRef = spec !== null && typeof spec === 'object' ? (spec as { paramRef?: unknown }).paramRef : undefined;
    return paramRef !== null && typeof paramRef === 'object' && (paramRef as { parameterNotFoundAction?: unknown }).parameterNotFoundAction == null;
  });
  if (lacking.length === 0) return '';
  const which = lacking.length === 1 ? `Binding "${elideMiddle(lacking[0]!.name ?? '', 40)}" sets` : `${lacking.length} bindings set`;
  return ` ${which} paramRef without parameterNotFoundAction: v1alpha1 defaults it to Deny, v1 requires it (write parameterNotFoundAction: Deny to keep what it does).`;
}

const REMOVED_HELP =
  'The API server rejects it. Move to admissionregistration.k8s.io/v1, whose defaults differ (failurePolicy Fail, matchPolicy Equivalent, timeoutSeconds 10) and which requires sideEffects and admissionReviewVersions: set apiVersion: admissionregistration.k8s.io/v1 and write failurePolicy, sideEffects, timeoutSeconds and admissionReviewVersions explicitly.';

/** The sideEffects classes v1 accepts (v1beta1 also accepted Unknown and Some, and defaulted to Unknown). */
const V1_SIDE_EFFECTS = new Set(['None', 'NoneOnDryRun']);

/**
 * What moving the configuration to v1 takes beyond its apiVersion, from what is written: v1
 * requires sideEffects (None or NoneOnDryRun) and admissionReviewVersions, which v1beta1
 * defaulted, and defaults an unwritten failurePolicy to Fail instead of Ignore. `suffix` ends the
 * message when a failurePolicy would change (silently, unlike a missing required field, which the
 * API server names); `help` counts the webhooks each applies to.
 */
function v1Gaps(written: unknown, kubeSystem: KubeSystemExposure | undefined): { suffix: string; help: string } {
  const webhooks = isRecord(written) && Array.isArray(written.webhooks) ? written.webhooks.filter(isRecord) : [];
  const count = (test: (webhook: Record<string, unknown>) => boolean): number => webhooks.filter(test).length;
  const sideEffectsMissing = count((webhook) => webhook.sideEffects == null);
  const sideEffectsOther = count((webhook) => webhook.sideEffects != null && !(typeof webhook.sideEffects === 'string' && V1_SIDE_EFFECTS.has(webhook.sideEffects)));
  const reviewVersions = count((webhook) => webhook.admissionReviewVersions == null);
  const failurePolicy = count((webhook) => webhook.failurePolicy == null);
  const total = webhooks.length;
  const of = (n: number): string => (n < total ? `${n} of its ${total} webhooks` : total === 1 ? 'its webhook' : total === 2 ? 'both webhooks' : `all ${total} webhooks`);
  const here = [
    ...(sideEffectsMissing > 0 ? [`sideEffects (None or NoneOnDryRun) is missing from ${of(sideEffectsMissing)}`] : []),
    ...(sideEffectsOther > 0 ? [`sideEffects is neither None nor NoneOnDryRun in ${of(sideEffectsOther)}`] : []),
    ...(reviewVersions > 0 ? [`admissionReviewVersions is missing from ${of(reviewVersions)}`] : []),
    ...(failurePolicy > 0 ? [`failurePolicy is missing from ${of(failurePolicy)} (Ignore in v1beta1, Fail in v1)`] : []),
  ];
  // The message stays short (the longest kind, and the target, leave ~40 characters): the help names the webhook and the write.
  const suffix = kubeSystem?.defaulted === true ? '; v1 fails it closed in kube-system' : failurePolicy > 0 ? '; v1 makes its failurePolicy Fail' : kubeSystem !== undefined ? '; on v1 it fails closed in kube-system' : '';
  const exposed =
    kubeSystem === undefined
      ? ''
      : ` On v1, webhook "${elideMiddle(kubeSystem.webhook, 60)}" intercepts ${kubeSystem.resource} in kube-system with failurePolicy Fail: while it is down, the control plane's writes there are rejected (see ${kubeSystem.reportedBy}).`;
  return { suffix, help: `${here.length === 0 ? '' : ` Here ${here.join('; ')}.`}${exposed}` };
}

/** A webhook that fails closed on v1 over a write the control plane makes in kube-system (matches-kube-system's error case). */
interface KubeSystemExposure {
  readonly webhook: string;
  readonly resource: string;
  /** Fail only because v1 defaults an unwritten failurePolicy so. */
  readonly defaulted: boolean;
  /** The rule that reports it on v1: wildcard-rule for a webhook of every resource, which matches-kube-system leaves to it. */
  readonly reportedBy: string;
}

/**
 * What moving a v1beta1 configuration to v1 exposes in kube-system: the first webhook whose
 * failurePolicy is Fail on v1 (written so, or unwritten) and that meets the control plane's own
 * creates and updates there, as matches-kube-system judges it on v1 to be an error: with the
 * selectors its kustomize patches give it (not what only an unpatched build has), neither
 * DELETE-only nor only installers' writes. The configuration is never called while its version
 * is not served, so matches-kube-system says nothing of it (hold-outs 33-35: the move was the finding).
 */
function kubeSystemExposure(object: WebhookConfigurationObject, run: RuleRun): KubeSystemExposure | undefined {
  const webhooks = isRecord(object.written) && Array.isArray(object.written.webhooks) ? object.written.webhooks : [];
  const judged = withKustomizeSelectors(object, run);
  const unsure = judged.unsure === undefined ? undefined : new Set(kubeSystemInterceptions(judged.unsure.object, run).map((interception) => interception.entry.index));
  for (const interception of kubeSystemInterceptions(judged.object, run)) {
    if (interception.deleteOnly || interception.installerWritesOnly || (unsure !== undefined && !unsure.has(interception.entry.index))) continue;
    const written = webhooks[interception.entry.index];
    const failurePolicy = isRecord(written) ? written.failurePolicy : undefined;
    if (failurePolicy != null && failurePolicy !== 'Fail') continue;
    const resource = interception.everything ? 'every resource of every group' : describeResource(interception.match);
    // Judged as on v1, where it fails closed (v1beta1's default, Ignore, is what the object holds).
    const reportedBy = reportedAsEverything({ ...interception.entry.webhook, failurePolicy: 'Fail' }, run) ? 'wildcard-rule' : 'matches-kube-system';
    return { webhook: interception.entry.label, resource, defaulted: failurePolicy == null, reportedBy };
  }
  return undefined;
}

export const rule = defineObjectRule({
  meta: {
    id: 'removed-api-version',
    title: 'The target Kubernetes version does not serve the apiVersion (v1beta1 webhook configurations; admission policies in versions off by default)',
    severity: 'error',
    appliesTo: [...ALL_WEBHOOK_KINDS, ...POLICY_KINDS],
    messages: {
      removed:
        '{{kind}} in admissionregistration.k8s.io/v1beta1 is not served since Kubernetes 1.22 (target: {{target}}){{v1}}',
      policyNotServed:
        'not served by default in Kubernetes {{target}}: no matches for kind "{{kind}}" in version "{{apiVersion}}"{{bindings}}',
      policyPreview:
        '{{apiVersion}} is the newest {{kind}} version in Kubernetes {{target}}: served only where the API server enables it{{bindings}}',
      policyNewer:
        '{{kind}} in {{apiVersion}} is served from Kubernetes {{since}} on; the default target is {{target}}: set --kube-version{{bindings}}',
    },
    help: REMOVED_HELP,
    needsDecodableObject: false,
  },
  create(run) {
    let sameVersion: SameVersionBindings | undefined;
    const bindings = (): SameVersionBindings => (sameVersion ??= bindingsInPolicyVersion(run.policies));
    let sameFile: Map<string, PolicyObject[]> | undefined;
    /**
     * One cause, one finding: the policies of one file written in one kind and apiVersion are
     * that file's one choice of version, reported at the first (the others named by count).
     */
    const fileGroup = (object: PolicyObject): PolicyObject[] => {
      sameFile ??= groupBy(run.policies.filter((policy) => !isBindingKind(policy.kind)), (policy) => `${policy.manifest.file.path}\0${policy.kind}\0${policy.apiVersion}`);
      return sameFile.get(`${object.manifest.file.path}\0${object.kind}\0${object.apiVersion}`) ?? [object];
    };
    return {
      webhookConfiguration(object) {
        if (!isV1beta1(object) || !isAtLeast(run.kubeVersion, 1, 22)) return [];
        const gaps = v1Gaps(object.written, kubeSystemExposure(object, run));
        return [{ messageId: 'removed', data: { kind: object.kind, target: formatKubeVersion(run.kubeVersion), v1: gaps.suffix }, path: ['apiVersion'], ...(gaps.help === '' ? {} : { help: `${REMOVED_HELP}${gaps.help}` }) }];
      },
      policy(object) {
        const apiVersion = object.apiVersion;
        // One cause, one finding: a binding in the same version as its policy (in the run) is
        // named in the policy's finding. Moving the policy to another version moves it out.
        if (isBindingKind(object.kind) && bindings().grouped.has(object)) return [];
        if (!apiVersion.startsWith(`${ADMISSION_GROUP}/`)) return [];
        const version = apiVersion.slice(ADMISSION_GROUP.length + 1);
        const resource = POLICY_APIS[object.kind].resource;
        const served = (v: string): boolean => run.discovery.resource(ADMISSION_GROUP, v, resource) !== undefined;
        const detail = policyDetail(object.kind, version, run.kubeVersion, served);
        if (detail === undefined) return [];
        const group = isBindingKind(object.kind) ? [object] : fileGroup(object);
        if (group[0] !== object) return [];
        const grouped = group.length > 1 ? ` (${group.length} in the file${group.some((policy) => (bindings().byPolicy.get(policy)?.length ?? 0) > 0) ? ', with their bindings' : ''})` : undefined;
        const target = formatKubeVersion(run.kubeVersion);
        // The newest version of the kind at the target, off by default: the manifest has no
        // better choice, and writing it is the decision to enable the preview.
        const newest = isNewestPreview(object.kind, version, run.kubeVersion);
        // A version that Kubernetes has only after the target, when the target is the default:
        // the file is evidence that its cluster is newer, not that the API server rejects it
        // (an info: what would change is the linter's target, not the manifest).
        const since = (INTRODUCED[POLICY_APIS[object.kind].family] as Record<string, number>)[version]!;
        const newer = run.kubeVersionDefaulted && run.kubeVersion.minor < since;
        return [
          {
            messageId: newest ? 'policyPreview' : newer ? 'policyNewer' : 'policyNotServed',
            ...(newest || newer ? { severity: 'info' as const } : {}),
            data: { kind: object.kind, apiVersion, target, detail, since: `1.${since}`, bindings: grouped ?? bindingsNamed(bindings().byPolicy.get(object)) },
            path: ['apiVersion'],
            help: `${object.kind} in ${apiVersion}: ${detail}. Use ${ADMISSION_GROUP}/v1 where the target version serves ${object.kind}; otherwise enable the preview version on the API server or pass the --kube-version you deploy to.${paramRefGap(isBindingKind(object.kind) ? [object] : group.flatMap((policy) => bindings().byPolicy.get(policy) ?? []))}`,
          },
        ];
      },
    };
  },
});
