/**
 * Webhook configurations as controller-gen writes them, before the build that installs them.
 * controller-tools (pkg/webhook/parser.go) names the configurations it generates from webhook
 * markers the same in every project, and points every webhook at the Service `webhook-service`
 * in the namespace `system`, with no caBundle: a scaffold's kustomization (or a chart, or another
 * installer) sets the real namespace, injects the CA and often adds the selectors. Until a build
 * of the run moves it, the namespace its webhooks run in is not in the run.
 */
import type { SourceFile } from '../load/sources.js';
import { runPatchesChanging } from './patched.js';
import { kustomizeNamesOf } from './kustomize-names.js';
import { streamOf } from './namespaces.js';
import type { WebhookConfigurationObject } from '../model/objects.js';
import { isFragment, webhooksOf } from '../model/webhooks.js';
import type { RunScope } from '../run-scope.js';

/** The names controller-gen gives the configurations it generates. */
export const GENERATED_CONFIGURATION_NAMES: Readonly<Record<string, string>> = {
  MutatingWebhookConfiguration: 'mutating-webhook-configuration',
  ValidatingWebhookConfiguration: 'validating-webhook-configuration',
};

/** The placeholder namespace the scaffold writes for the webhooks' Service, which the build that installs it replaces. */
export const SCAFFOLD_NAMESPACE = 'system';

/** The Service controller-gen points every webhook at. */
const SCAFFOLD_SERVICE = 'webhook-service';

/**
 * Whether the object is controller-gen's output as generated, which no build of the run moves: its
 * generated name, every webhook calling the scaffold's Service in `system` with no caBundle; no
 * kustomize patch or replacement of the run that may change it but for its metadata (one that
 * writes the Service's namespace moves it as `namespace:` does: s46a 2); every top build of the run
 * that holds the file followed (a component may set a namespace: s46a 3), none setting a
 * namespace; and no Namespace `system` in the run as written (the scaffold's manager.yaml creates
 * one, which only a build that moves it renames: applied as written, the webhooks run there,
 * s46a 1).
 */
export function asGenerated(object: WebhookConfigurationObject, run: Pick<RunScope, 'memo' | 'kustomizations' | 'kustomizePatches' | 'namespaces'>): boolean {
  if (object.name === undefined || GENERATED_CONFIGURATION_NAMES[object.kind] !== object.name || isFragment(object)) return false;
  const entries = webhooksOf(object);
  const scaffolded = entries.length > 0 && entries.every(({ webhook }) => {
    const { service, caBundle, url } = webhook.clientConfig ?? {};
    return url == null && service?.namespace === SCAFFOLD_NAMESPACE && service.name === SCAFFOLD_SERVICE && (caBundle == null || caBundle === '');
  });
  if (!scaffolded) return false;
  if (runPatchesChanging(run, { ...object, file: object.manifest.file.path }, streamOf(object.manifest.file)).some((patch) => patch.metadataOnly !== true)) return false;
  const names = kustomizeNamesOf(run);
  const unmoved = (file: SourceFile): boolean => names.topBuildsOf(streamOf(file))?.every((build) => !build.moves) === true;
  if (!unmoved(object.manifest.file)) return false;
  return !run.namespaces.some((namespace) => namespace.name === SCAFFOLD_NAMESPACE && unmoved(namespace.manifest.file));
}
