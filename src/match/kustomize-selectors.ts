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
 *   `namespace`), nor may change webhooks after its patches (`vars`, `transformers`,
 *   `components`, `replacements` of a webhook's fields outside metadata), nor merge otherwise or
 *   point name references elsewhere (`openapi`, `crds`);
 * - no other kustomization of the run lists the file or that folder: the patching kustomization
 *   is what gets built. One that builds on it (an overlay, `config/default` on `../webhook`) may
 *   rename, move or patch again, so then the object is judged as written. (Linting one file or
 *   one folder reads only the kustomization beside it: overlays elsewhere are not seen.)
 * - every change the patch makes to a selector is read: a strategic merge of a webhook's
 *   selector, by the webhook's name (maps merged key by key, lists replaced, null deletes), or a
 *   JSON 6902 add, replace or remove of a whole selector (with no move or copy, and no operation
 *   on the whole object);
 * - every other patch of the object changes its metadata only (another may rename a webhook, or
 *   move the Service a namespaceSelector is judged against), and nothing patches a Service the
 *   webhooks call (a rename or move of it reaches clientConfig.service through name references);
 * - every kustomization of the run could be read (one that could not may build on the folder).
 */
import { dirname, resolve } from 'node:path';
import type { WebhookConfigurationObject } from '../model/objects.js';
import { realPath, targets, type KustomizationListing, type KustomizePatch, type SelectorChange } from '../parse/kustomize-patches.js';
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
  if (!exact || !patch.selectors!.known || !builtOnlyBy(patch.file, own, run.kustomizations)) return { object };
  // Another patch of the object may rename a webhook (the selector then lands on a stub of the old
  // name), or move the Service a namespaceSelector is judged against: only patches of its
  // metadata (a rename of the object, the CA annotation) leave the webhooks as they are.
  const others = run.kustomizePatches.filter((other) => other !== patch && other.source !== own && targets(other.target, object.kind, object.name, object.apiVersion));
  if (others.some((other) => other.metadataOnly !== true)) return { object };
  // A kustomization of the run that could not be read may build on the folder.
  if (run.kustomizations.some((listing) => listing.unreadable === true)) return { object };
  const webhooks = [...(object.effective.webhooks ?? [])];
  // A patch of a Service a webhook calls may rename or move it (a change of its metadata alone), and
  // kustomize's name references carry that into clientConfig.service: the namespaceSelector would
  // be judged against a namespace the build does not have.
  const services = new Set(webhooks.map((webhook) => webhook?.clientConfig?.service?.name).filter((name): name is string => typeof name === 'string'));
  if (run.kustomizePatches.some((other) => other.source !== own && [...services].some((name) => targets(other.target, 'Service', name, 'v1')))) return { object };
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
 * Whether `kustomization` (the patch's) is in `file`'s folder, lists `file`, neither renames nor
 * transforms, and no other kustomization of the run lists `file` or that folder.
 */
function builtOnlyBy(kustomization: string, file: string, listings: readonly KustomizationListing[]): boolean {
  const real = realPath(file);
  const folder = dirname(real);
  const own = realPath(resolve(kustomization));
  if (dirname(own) !== folder) return false;
  const reaching = listings.filter((listing) => listing.resources.some((resource) => resource === real || resource === folder));
  return reaching.length === 1 && realPath(resolve(reaching[0]!.file)) === own && reaching[0]!.resources.includes(real) && !reaching[0]!.renames && !reaching[0]!.transformsAfterPatches;
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
