/**
 * The API server's validation errors of the run's admission objects and Namespaces, each
 * computed once per run: api-validation reports them, and the rules that defer to its
 * placeholder finding (src/validate/placeholder-findings.ts filePlaceholders) ask for them.
 */
import { valueAtPath } from '../field-path.js';
import type { KubeVersion } from '../kube/version.js';
import { filledByBuild, listingsOf } from './kustomize-fills.js';
import { streamOf } from './namespaces.js';
import type { NamespaceObject } from '../model/objects.js';
import { memoKey, type RunScope } from '../run-scope.js';
import type { FieldError } from '../validate/field-error.js';
import { namespaceMetadataErrors } from '../validate/namespace-meta.js';
import type { AdmissionObject } from '../validate/placeholder-findings.js';
import { validateAdmissionPolicyObject } from '../validate/policy-api.js';
import { validateWebhookConfiguration } from '../validate/webhook-api.js';

const OBJECT_ERRORS = memoKey<Map<AdmissionObject, readonly FieldError[]>>('API validation errors per admission object');
const NAMESPACE_ERRORS = memoKey<Map<NamespaceObject, readonly FieldError[]>>('API validation errors per Namespace');

/**
 * An admission object's errors at the run's target version. A field the kustomizations listing
 * the file fill in as they build it (a var, a created namespace) is not applied as written: the
 * build's value is not known here, so its error is left out.
 */
export function apiErrorsOf(run: Pick<RunScope, 'kustomizations' | 'memo'> & { readonly kubeVersion: KubeVersion }, object: AdmissionObject): readonly FieldError[] {
  return run.memo.perObject(OBJECT_ERRORS, object, () => {
    const errors = object.category === 'webhook-configuration' ? validateWebhookConfiguration(object.effective, run.kubeVersion) : validateAdmissionPolicyObject(object.kind, object.effective, run.kubeVersion);
    const built = { kind: object.kind, apiVersion: object.apiVersion, file: object.manifest.file.path };
    return errors.filter((error) => !filledByBuild(run, built, error.path, valueAtPath(object.written, error.path)));
  });
}

/**
 * A Namespace manifest's metadata errors; its name's are left out where every kustomization
 * listing its file sets `namespace:`, which renames it in the build.
 */
export function namespaceErrorsOf(run: Pick<RunScope, 'kustomizations' | 'memo'>, namespace: NamespaceObject): readonly FieldError[] {
  return run.memo.perObject(NAMESPACE_ERRORS, namespace, () => {
    const listings = listingsOf(run, streamOf(namespace.manifest.file));
    const renamed = listings.length > 0 && listings.every((listing) => listing.namespace !== undefined);
    return namespaceMetadataErrors(namespace.written).filter((error) => !(renamed && error.path[0] === 'metadata' && error.path[1] === 'name'));
  });
}
