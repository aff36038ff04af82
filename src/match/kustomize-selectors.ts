/**
 * A webhook configuration with the selectors its kustomization's patches give it: what
 * `kubectl kustomize` builds, for the rules whose verdict turns on a webhook's namespaceSelector
 * and objectSelector (matches-kube-system, self-deadlock). Generated webhook manifests often
 * have no selectors, and a patch beside them adds one; judged unpatched, such a webhook seemed to
 * intercept kube-system and its own pods.
 *
 * Applied only where the build is certain (anything else is judged as written, as before, and
 * `kustomize-patched` names the patches):
 * - one patch in the run may change the object's selectors, and its target names the object
 *   exactly (kind and name; no regular expression, label selector, group, version or namespace;
 *   a strategic-merge patch's apiVersion is the object's);
 * - that patch's kustomization is in the object's folder and lists the object's file among its
 *   `resources` (or `bases`); it neither renames nor moves objects (`namePrefix`, `nameSuffix`,
 *   `namespace`), nor may change webhooks' selectors after its patches (`transformers`,
 *   `components`, `replacements` that write a webhook's selectors, `vars` with transformer
 *   configurations of its own);
 * - no other kustomization of the run lists the file; those that build on the folder, directly
 *   or through one that does (an overlay, `config/default` on `../webhook`), get the patched object, and may not change the
 *   selectors after their patches either (their own patches of the object are counted above, by
 *   the object's name). None of their patches may name an object of the kind by another name
 *   (it may be this object renamed). One that renames or moves objects (`namespace`) makes a
 *   namespaceSelector that names the old namespace wrong: then the patch may change
 *   objectSelectors only. (Linting one file or one folder reads
 *   only the kustomization beside it: overlays elsewhere are not seen.)
 * - every change the patch makes to a selector is read: a strategic merge of a webhook's
 *   selector, by the webhook's name (maps merged key by key, lists replaced, null deletes), or a
 *   JSON 6902 add, replace or remove of a whole selector.
 */
import { dirname, resolve } from 'node:path';
import type { WebhookConfigurationObject } from '../model/objects.js';
import { realPath, targets, type KustomizePatch, type SelectorChange } from '../parse/kustomize-patches.js';
import { memoKey, type RunScope } from '../run-scope.js';

export interface PatchedSelectors {
  /** The object to judge: the same object when no patch applies. */
  readonly object: WebhookConfigurationObject;
  /** The first patch whose selectors it carries, when one applies. */
  readonly patch?: KustomizePatch;
}

const PATCHED = memoKey<Map<WebhookConfigurationObject, PatchedSelectors>>('webhook configurations with their kustomize selector patches');

export function withKustomizeSelectors(object: WebhookConfigurationObject, run: Pick<RunScope, 'memo' | 'kustomizePatches' | 'kustomizations'>): PatchedSelectors {
  return run.memo.perObject(PATCHED, object, () => patched(object, run));
}

/** ` (selectors as patched at FILE:LINE)` for a message, or nothing. */
export function patchedNote(patched: PatchedSelectors): string {
  return patched.patch === undefined ? '' : ` (selectors as patched at ${patched.patch.file}:${patched.patch.line})`;
}

function patched(object: WebhookConfigurationObject, run: Pick<RunScope, 'kustomizePatches' | 'kustomizations'>): PatchedSelectors {
  const file = object.manifest.file.path;
  if (file === '<stdin>' || object.name === undefined) return { object };
  const own = resolve(file);
  const changing = run.kustomizePatches.filter(
    (patch) => patch.selectors !== undefined && (patch.selectors.changes.length > 0 || !patch.selectors.known) && patch.source !== own && targets(patch.target, object.kind, object.name, object.apiVersion),
  );
  if (changing.length !== 1) return { object };
  const patch = changing[0]!;
  const { target } = patch;
  const exact = target.kind === object.kind && target.name === object.name && target.selector !== true && target.qualified !== true && target.group === undefined && target.version === undefined && (target.apiVersion === undefined || target.apiVersion === object.apiVersion);
  if (!exact || !patch.selectors!.known || !builtOnlyBy(patch, own, object, run)) return { object };
  const webhooks = [...(object.effective.webhooks ?? [])];
  for (const change of patch.selectors!.changes) {
    const index = 'index' in change.webhook ? change.webhook.index : webhooks.findIndex((webhook) => webhook?.name === (change.webhook as { name: string }).name);
    const webhook = webhooks[index];
    // A strategic merge that names a webhook the object lacks adds one; kustomize's result is then not judged here.
    if (webhook === undefined || webhook === null || typeof webhook !== 'object') return { object };
    webhooks[index] = { ...webhook, [change.field]: applied(webhook[change.field], change) } as typeof webhook;
  }
  return { object: { ...object, effective: { ...object.effective, webhooks } }, patch };
}

/**
 * Whether the patch's kustomization is in `file`'s folder, lists `file`, neither renames nor
 * transforms, no other kustomization of the run lists `file`, and those that build on the folder
 * keep what the patch gives the selectors (see the list above).
 */
function builtOnlyBy(patch: KustomizePatch, file: string, object: WebhookConfigurationObject, run: Pick<RunScope, 'kustomizePatches' | 'kustomizations'>): boolean {
  const real = realPath(file);
  const folder = dirname(real);
  const own = realPath(resolve(patch.file));
  if (dirname(own) !== folder) return false;
  const reaching = run.kustomizations.filter((listing) => listing.resources.some((resource) => resource === real || resource === folder));
  const patching = reaching.filter((listing) => realPath(resolve(listing.file)) === own);
  if (patching.length !== 1 || !patching[0]!.resources.includes(real) || patching[0]!.renames || patching[0]!.transformsAfterPatches) return false;
  // Every kustomization that builds on the folder, directly or through another that does.
  const overlays = reaching.filter((listing) => realPath(resolve(listing.file)) !== own);
  for (let added = overlays.length > 0; added; ) {
    added = false;
    const folders = new Set(overlays.map((overlay) => dirname(realPath(resolve(overlay.file)))));
    for (const listing of run.kustomizations) {
      if (overlays.includes(listing) || realPath(resolve(listing.file)) === own || !listing.resources.some((resource) => folders.has(resource))) continue;
      overlays.push(listing);
      added = true;
    }
  }
  return overlays.every((overlay) => {
    if (overlay.resources.includes(real) || overlay.transformsAfterPatches) return false;
    // A patch of the overlay that names an object of the kind by another name may be this object
    // renamed (by it, or by a kustomization it builds on): its selectors are then not known.
    const overlayFile = realPath(resolve(overlay.file));
    const byOtherName = run.kustomizePatches.some(
      (other) => realPath(resolve(other.file)) === overlayFile && (other.target.kind === undefined || other.target.kind === object.kind) && other.target.name !== undefined && other.target.name !== object.name,
    );
    if (byOtherName) return false;
    // A move leaves a namespaceSelector naming the old namespace: only objectSelectors then.
    return !overlay.renames || patch.selectors!.changes.every((change) => change.field === 'objectSelector');
  });
}

function applied(current: unknown, change: SelectorChange): unknown {
  if (change.op === 'remove') return undefined;
  if (change.op === 'replace') return change.value;
  return merged(current, change.value);
}

/** A strategic merge of a LabelSelector: maps merged key by key (null deletes), lists and scalars replaced. */
function merged(current: unknown, patch: unknown): unknown {
  if (!isMap(patch) || !isMap(current)) return patch;
  const out: Record<string, unknown> = { ...current };
  for (const [key, value] of Object.entries(patch)) {
    if (value === null) delete out[key];
    else out[key] = merged(out[key], value);
  }
  return out;
}

function isMap(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}
