/**
 * Webhook configurations as controller-gen writes them, before the build that installs them.
 * controller-tools (pkg/webhook/parser.go) names the configurations it generates from webhook
 * markers the same in every project, and points every webhook at the Service `webhook-service`
 * in the namespace `system`, with no caBundle: a scaffold's kustomization (or a chart, or another
 * installer) sets the real namespace, injects the CA and often adds the selectors. Until a build
 * of the run moves it, where its webhooks run and which namespaces they see are not in the file.
 */
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

/** The namespace the scaffold writes for the webhooks' Service: no cluster has it until a build replaces it. */
export const SCAFFOLD_NAMESPACE = 'system';

/** The Service controller-gen points every webhook at. */
const SCAFFOLD_SERVICE = 'webhook-service';

/**
 * Whether the object is controller-gen's output as generated, which no build of the run moves: its
 * generated name, every webhook calling the scaffold's Service in `system` with no caBundle, and
 * no top kustomize build of the run that holds it setting a namespace (none holds it, or those
 * that do leave it in `system`, or the builds are past what is followed).
 */
export function asGenerated(object: WebhookConfigurationObject, run: Pick<RunScope, 'memo' | 'kustomizations' | 'kustomizePatches'>): boolean {
  if (object.name === undefined || GENERATED_CONFIGURATION_NAMES[object.kind] !== object.name || isFragment(object)) return false;
  const entries = webhooksOf(object);
  const scaffolded = entries.length > 0 && entries.every(({ webhook }) => {
    const { service, caBundle, url } = webhook.clientConfig ?? {};
    return url == null && service?.namespace === SCAFFOLD_NAMESPACE && service.name === SCAFFOLD_SERVICE && (caBundle == null || caBundle === '');
  });
  if (!scaffolded) return false;
  const builds = kustomizeNamesOf(run).topBuildsOf(streamOf(object.manifest.file));
  return builds === undefined || builds.every((build) => !build.moves);
}
