/**
 * A webhook configuration with the selectors its kustomization's patches give it: what
 * `kubectl kustomize` builds, for the rules whose verdict turns on a webhook's namespaceSelector
 * and objectSelector (matches-kube-system, self-deadlock). Generated webhook manifests often
 * have no selectors, and a patch beside them adds one; judged unpatched, such a webhook seemed to
 * intercept kube-system and its own pods.
 *
 * Applied only where the build is certain: patches that name the object exactly (kind and name,
 * no regular expression or label selector), all in one kustomization, which lists the object's
 * file (or its folder) among its `resources`, and whose every change to a selector is read (a
 * strategic merge of a webhook's selector, merged by the webhook's name, or a JSON 6902 add,
 * replace or remove of a whole selector). Otherwise the object is judged as written, as before,
 * and `kustomize-patched` names the patches.
 */
import { dirname, resolve } from 'node:path';
import type { WebhookConfigurationObject } from '../model/objects.js';
import type { KustomizePatch, SelectorChange } from '../parse/kustomize-patches.js';
import { memoKey, type RunScope } from '../run-scope.js';

export interface PatchedSelectors {
  /** The object to judge: the same object when no patch applies. */
  readonly object: WebhookConfigurationObject;
  /** The first patch whose selectors it carries, when one applies. */
  readonly patch?: KustomizePatch;
}

const PATCHED = memoKey<Map<WebhookConfigurationObject, PatchedSelectors>>('webhook configurations with their kustomize selector patches');

export function withKustomizeSelectors(object: WebhookConfigurationObject, run: Pick<RunScope, 'memo' | 'kustomizePatches'>): PatchedSelectors {
  return run.memo.perObject(PATCHED, object, () => patched(object, run.kustomizePatches));
}

/** ` (selectors as patched at FILE:LINE)` for a message, or nothing. */
export function patchedNote(patched: PatchedSelectors): string {
  return patched.patch === undefined ? '' : ` (selectors as patched at ${patched.patch.file}:${patched.patch.line})`;
}

function patched(object: WebhookConfigurationObject, patches: readonly KustomizePatch[]): PatchedSelectors {
  const file = object.manifest.file.path;
  if (file === '<stdin>' || object.name === undefined) return { object };
  const own = resolve(file);
  const changing = patches.filter(
    (patch) => patch.selectors !== undefined && (patch.selectors.changes.length > 0 || !patch.selectors.known) && patch.source !== own && mayTarget(patch, object.kind, object.name!),
  );
  if (changing.length === 0) return { object };
  const exact = changing.every((patch) => patch.target.kind === object.kind && patch.target.name === object.name && patch.target.selector !== true && patch.selectors!.known);
  const kustomization = changing[0]!.file;
  if (!exact || changing.some((patch) => patch.file !== kustomization) || !lists(changing[0]!, own)) return { object };
  const webhooks = [...(object.effective.webhooks ?? [])];
  for (const change of changing.flatMap((patch) => patch.selectors!.changes)) {
    const index = 'index' in change.webhook ? change.webhook.index : webhooks.findIndex((webhook) => webhook?.name === (change.webhook as { name: string }).name);
    const webhook = webhooks[index];
    // A strategic merge that names a webhook the object lacks adds one; kustomize's result is then not judged here.
    if (webhook === undefined || webhook === null || typeof webhook !== 'object') return { object };
    webhooks[index] = { ...webhook, [change.field]: applied(webhook[change.field], change) } as typeof webhook;
  }
  return { object: { ...object, effective: { ...object.effective, webhooks } }, patch: changing[0]! };
}

/** Whether a patch's target may select the object (as kustomize-patched names it). */
function mayTarget(patch: KustomizePatch, kind: string, name: string): boolean {
  const { target } = patch;
  return (target.kind === undefined || target.kind === kind || /[.*+?^${}()|[\]\\]/.test(target.kind)) && (target.name === undefined || target.name === name || /[.*+?^${}()|[\]\\]/.test(target.name));
}

/** Whether the patch's kustomization lists the file, or its folder, among its resources. */
function lists(patch: KustomizePatch, file: string): boolean {
  const folder = dirname(resolve(patch.file));
  return (patch.resources ?? []).some((resource) => {
    const listed = resolve(folder, resource);
    return listed === file || listed === dirname(file);
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
