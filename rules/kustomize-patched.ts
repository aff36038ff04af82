import { dirname, relative } from 'node:path';
import type { NamespaceObject, PolicyObject, WebhookConfigurationObject } from '../src/model/objects.js';
import { withKustomizeSelectors } from '../src/match/kustomize-selectors.js';
import { patchesBuilding } from '../src/match/patched.js';
import { streamOf } from '../src/match/namespaces.js';
import type { KustomizePatch } from '../src/parse/kustomize-patches.js';
import { ALL_WEBHOOK_KINDS, defineObjectRule, type RuleRun, type Violation } from '../src/rule.js';

type MessageId = 'patched' | 'unread';

/**
 * An admission object (or Namespace) of the run that a patch of a kustomization in the run
 * targets: `kubectl kustomize` applies the patch, so what is applied differs from the file the
 * other rules judge. Said once per object, naming the first such patch and counting the others.
 */
function check(object: { kind: string; name: string | undefined; file: string; stream: string; apiVersion?: string; written: unknown }, run: RuleRun, judgedPatched: 'selectors' | 'selectors and rule scopes' | undefined = undefined): Violation<MessageId>[] {
  // A patch that only sets an admission object's labels and annotations (cert-manager's CA
  // injection annotation) changes no finding: ca-bundle reads the injection from the patch itself,
  // and no rule reads an admission object's labels. A delete (of the injection annotation, of a
  // suppression), admission-lint's own annotations and local-config are named (s37d 1-B). A
  // Namespace's labels are what its findings are about.
  const changesFindings = (patch: KustomizePatch): boolean => object.kind === 'Namespace' || patch.setsLabelsOrAnnotationsOnly !== true;
  // Only the patches of kustomizations that may build the object's file (one that lists other files does not change it).
  // A patch that was read is named before one whose file could not be (which may not target it at all).
  const building = patchesBuilding(object, run, object.stream).filter(changesFindings);
  const patches = [...building.filter((patch) => patch.unread !== true), ...building.filter((patch) => patch.unread === true)];
  if (patches.length === 0) return [];
  const first = patches[0]!;
  const others = patches.length - 1;
  // Only patches whose file could not be read (the read ones come first): they may target anything, or nothing here.
  const unread = first.unread === true;
  return [
    {
      messageId: unread ? 'unread' : 'patched',
      data: {
        kind: object.kind,
        name: object.name === undefined ? '(unnamed)' : `"${object.name}"`,
        what: first.replacement === true ? 'replacement' : 'patch',
        where: `${first.file}:${first.line}`,
        // As the kustomization lists it: relative to its folder.
        source: first.source === undefined ? '' : first.source.includes('://') ? first.source : relative(dirname(first.file), first.source) || first.source,
        more: others === 0 ? '' : ` and ${others} more`,
        except: judgedPatched === undefined ? '' : `, but for the webhook ${judgedPatched} it sets`,
      },
      path: ['metadata', 'name'],
    },
  ];
}

export const rule = defineObjectRule({
  meta: {
    id: 'kustomize-patched',
    title: 'A kustomize patch changes this object: the other findings judge the file before the patch',
    severity: 'info',
    appliesTo: [...ALL_WEBHOOK_KINDS, 'ValidatingAdmissionPolicy', 'MutatingAdmissionPolicy', 'ValidatingAdmissionPolicyBinding', 'MutatingAdmissionPolicyBinding', 'Namespace'],
    needsDecodableObject: false,
    messages: {
      patched: '{{kind}} {{name}} is changed by the kustomize {{what}} at {{where}}{{more}}: findings here judge it unpatched{{except}}',
      unread: '{{kind}} {{name}} may be changed by the kustomize patch at {{where}}{{more}}, whose file {{source}} could not be read: findings here judge it unpatched{{except}}',
    },
    help: 'kubectl apply -k (kustomize build) applies the patch: the fields it changes are what the cluster gets, not what this file says. Lint the built output too: kubectl kustomize DIR | admission-lint -.',
  },
  create(run) {
    return {
      webhookConfiguration: (object: WebhookConfigurationObject) => {
        // Other rules judge the selectors (and rule scopes) the patch sets, where the build is certain.
        const patch = withKustomizeSelectors(object, run).patch;
        const judged = patch === undefined ? undefined : patch.selectors?.changes.some((change) => change.field === 'scope') ? 'selectors and rule scopes' : 'selectors';
        return check({ ...object, file: object.manifest.file.path, stream: streamOf(object.manifest.file) }, run, judged);
      },
      policy: (object: PolicyObject) => check({ ...object, file: object.manifest.file.path, stream: streamOf(object.manifest.file) }, run),
      namespace: (namespace: NamespaceObject) => check({ kind: 'Namespace', name: namespace.name, file: namespace.manifest.file.path, stream: streamOf(namespace.manifest.file), written: namespace.written }, run),
    };
  },
});
