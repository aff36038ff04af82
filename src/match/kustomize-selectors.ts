/**
 * A webhook configuration with the selectors its kustomization's patches give it: what
 * `kubectl kustomize` builds, for the rules whose verdict turns on a webhook's namespaceSelector
 * and objectSelector (matches-kube-system, self-deadlock, wildcard-rule, critical-resources). Generated webhook manifests often
 * have no selectors, and a patch beside them adds one; judged unpatched, such a webhook seemed to
 * intercept kube-system and its own pods.
 *
 * Applied only where every build is certain to hold them (anything else is judged as written,
 * as before, and `kustomize-patched` names the patches); rules/kustomize-patched.md lists the
 * conditions ("Selectors the build is certain of"): one readable patch beside the file, with an
 * exact target, its kustomization listing the file and nothing else listing it, no other patch of
 * the object but metadata, none of its Service, and neither that kustomization nor any that
 * builds on its folder (buildsKeepThePatch) changing webhooks after the patch. Where the patch
 * is an overlay's and only the base's own folder builds it otherwise ('overlay'), the object is
 * judged as written and what only that build has is an info ("Selectors an overlay sets").
 */
import { existsSync, readdirSync, statSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { KUSTOMIZATION_FILES } from '../parse/kustomize-fields.js';
import type { NamespaceObject, WebhookConfigurationObject } from '../model/objects.js';
import { NAMESPACE_NAME_LABEL, type LabelSelector } from '../model/types.js';
import { asGenerated } from './generated-webhooks.js';
import { streamOf } from './namespaces.js';
import { patchNamesOf } from './patched.js';
import { KUBE_SYSTEM } from './kube-system-webhooks.js';
import { selectorMatches } from './selector.js';
import { validateLabelSelector } from '../validate/label-selector.js';
import { mayTargetKind, patchSelects, realPath, targets, type KustomizationListing, type KustomizePatch, type SelectorChange } from '../parse/kustomize-patches.js';
import { memoKey, type RunScope } from '../run-scope.js';
import type { Severity } from '../severity.js';
import { splitApiVersion } from '../kube/api-version.js';

export interface PatchedSelectors {
  /** The object to judge: the same object when no patch applies. */
  readonly object: WebhookConfigurationObject;
  /** The first patch whose selectors it carries, when one applies. */
  readonly patch?: KustomizePatch;
  /**
   * The object as the build of an overlay gives it, when that build certainly holds the patch but
   * the file's own kustomization also builds it unpatched (a scaffold's `config/default`
   * patching `config/webhook`): the object is judged as written, and what only the unpatched
   * build has is an info (unlessPatchedAway).
   */
  readonly unsure?: { readonly object: WebhookConfigurationObject; readonly patch: KustomizePatch };
  /**
   * As `unsure`, for a patched namespaceSelector that is judged against the Service's namespace
   * where a kustomization of the run may move the Service: right for the rules whose findings do
   * not depend on where the Service lands (matches-kube-system judges kube-system by its name).
   */
  readonly unsureWhereverServiceLands?: { readonly object: WebhookConfigurationObject; readonly patch: KustomizePatch };
  /**
   * controller-gen's output as generated, with no patch judged and no build of the run that moves
   * it (src/match/generated-webhooks.ts): the namespace its webhooks run in is not in the run.
   */
  readonly asGenerated?: true;
}

const PATCHED = memoKey<Map<WebhookConfigurationObject, PatchedSelectors>>('webhook configurations with their kustomize selector patches');
/** repositoryRead's answers, by repository root. */
const REPOSITORIES_READ = memoKey<Map<string, boolean>>('repositories whose every kustomization the run read');

export function withKustomizeSelectors(object: WebhookConfigurationObject, run: Pick<RunScope, 'memo' | 'kustomizePatches' | 'kustomizations' | 'namespaces'>): PatchedSelectors {
  return run.memo.perObject(PATCHED, object, () => {
    const judged = patched(object, run);
    const untouched = judged.patch === undefined && judged.unsure === undefined && judged.unsureWhereverServiceLands === undefined;
    return untouched && asGenerated(object, run) ? { ...judged, asGenerated: true } : judged;
  });
}

/** ` (selectors as patched at FILE:LINE)` for a message, or nothing. */
export function patchedNote(patched: PatchedSelectors): string {
  return patched.patch === undefined ? '' : ` (selectors as patched at ${patched.patch.file}:${patched.patch.line})`;
}

/**
 * A rule's findings on a webhook configuration (`find`, given the object to judge and the note
 * for its messages' `patched`). Where an overlay's build holds a patch of its selectors that
 * its own folder's build does not (PatchedSelectors.unsure), a finding the overlay's build does
 * not have (the same webhook and message) is true only of the unpatched build, which is not
 * what is applied as a rule: an info that names the patch. Findings both builds have stay.
 */
export function unlessPatchedAway<F extends { readonly label: string; readonly messageId: string; readonly severity?: Severity; readonly data: Readonly<Record<string, string | number>> }>(
  judged: PatchedSelectors,
  find: (object: WebhookConfigurationObject, note: string) => readonly F[],
  { whereverServiceLands = false }: { readonly whereverServiceLands?: boolean } = {},
): F[] {
  const found = [...find(judged.object, patchedNote(judged))];
  const unsure = judged.unsure ?? (whereverServiceLands ? judged.unsureWhereverServiceLands : undefined);
  if (unsure === undefined || found.length === 0) return found;
  // By webhook: the patched webhook's finding may say another thing of it (a scope patch turns
  // self-deadlock's pods into replicasets: s38d 2), and it is still the same webhook's.
  const key = (finding: F): string => finding.label;
  const alsoPatched = new Set(find(unsure.object, '').map(key));
  const note = ` (unpatched: the kustomize patch at ${unsure.patch.file}:${unsure.patch.line} changes its selectors in the build that applies it)`;
  return found.map((finding) => (alsoPatched.has(key(finding)) ? finding : { ...finding, severity: 'info' as const, data: { ...finding.data, patched: note } }));
}

function patched(object: WebhookConfigurationObject, run: Pick<RunScope, 'memo' | 'kustomizePatches' | 'kustomizations' | 'namespaces'>): PatchedSelectors {
  const file = object.manifest.file.path;
  if (file === '<stdin>' || object.name === undefined) return { object };
  const own = resolve(file);
  const namesOf = patchNamesOf(run, streamOf(object.manifest.file));
  const changing = run.kustomizePatches.filter(
    (patch) => patch.selectors !== undefined && (patch.selectors.changes.length > 0 || !patch.selectors.known) && patch.source !== own && patchSelects(patch, object, namesOf),
  );
  if (changing.length !== 1) return { object };
  const patch = changing[0]!;
  const { target } = patch;
  // A group and version that are the object's own select it alone, as kind and name do.
  const { group, version } = splitApiVersion(object.apiVersion ?? '');
  const exact =
    target.kind === object.kind && (target.name === object.name || target.unprefixedName === object.name) && target.selector !== true && target.qualified !== true &&
    (target.group === undefined || target.group === group) && (target.version === undefined || target.version === version) &&
    (target.apiVersion === undefined || target.apiVersion === object.apiVersion);
  if (!exact || !patch.selectors!.known) return { object };
  // Another patch of the object may rename a webhook (the selector then lands on a stub of the old
  // name), or move the Service a namespaceSelector is judged against: only patches of its
  // metadata (a rename of the object, the CA annotation) leave the webhooks as they are.
  const others = run.kustomizePatches.filter((other) => other !== patch && other.source !== own && patchSelects(other, object, namesOf));
  if (others.some((other) => other.metadataOnly !== true)) return { object };
  // A kustomization of the run that could not be read may build on the folder.
  if (run.kustomizations.some((listing) => listing.unreadable === true)) return { object };
  const webhooks = [...(object.effective.webhooks ?? [])];
  // A patch of a Service a webhook calls may rename or move it (a change of its metadata alone), and
  // kustomize's name references carry that into clientConfig.service: the namespaceSelector would
  // be judged against a namespace the build does not have.
  const services = new Set(webhooks.map((webhook) => webhook?.clientConfig?.service?.name).filter((name): name is string => typeof name === 'string'));
  // (A patch that leaves the Service in place, a strategic merge of its pod selector, does not.)
  // Where the Service may move, the patched selectors still hold for kube-system, judged by its name below.
  const serviceMayMove = run.kustomizePatches.some((other) => other.source !== own && other.keepsPlace !== true && [...services].some((name) => targets(other.target, 'Service', name, 'v1', undefined)));
  // A Service namespace the patch writes must be the one the webhook has: else the build calls another.
  for (const { webhook: name, namespace } of patch.selectors!.serviceNamespaces ?? []) {
    const webhook = webhooks.find((each) => each?.name === name);
    if (webhook?.clientConfig?.service?.namespace !== namespace) return { object };
  }
  // A setting the patch repeats must be the webhook's own (written or defaulted): else it changes what the webhook does.
  for (const { webhook: name, field, value } of patch.selectors!.settings ?? []) {
    const webhook = webhooks.find((each) => each?.name === name);
    if (webhook === undefined || webhook === null || (webhook as unknown as Record<string, unknown>)[field] !== value) return { object };
  }
  for (const change of patch.selectors!.changes) {
    const index = indexOf(change, webhooks);
    const webhook = webhooks[index];
    // A strategic merge that names a webhook the object lacks adds one; kustomize's result is then not judged here.
    if (webhook === undefined || webhook === null || typeof webhook !== 'object') return { object };
    if (change.field === 'scope') {
      // A JSON 6902 path to a rule the webhook lacks fails the build: nothing to judge.
      const rules = [...(webhook.rules ?? [])];
      const rule = rules[change.rule ?? -1];
      if (rule === undefined || rule === null || typeof rule !== 'object') return { object };
      const { scope: _scope, ...rest } = rule;
      rules[change.rule!] = (change.op === 'remove' ? rest : { ...rest, scope: change.value }) as typeof rule;
      webhooks[index] = { ...webhook, rules };
    } else webhooks[index] = { ...webhook, [change.field]: applied(webhook[change.field], change) } as typeof webhook;
  }
  // A namespaceSelector is judged against the Service's namespace (self-deadlock), which a build
  // may move: that matters unless the selector answers alike for every namespace it may land in.
  const changedNamespaceSelectors = patch.selectors!.changes.filter((change) => change.field === 'namespaceSelector').map((change) => webhooks[indexOf(change, webhooks)]?.namespaceSelector);
  const movesMatter = changedNamespaceSelectors.some((selector) => !answersAlikeAnywhere(selector, run.namespaces));
  const relabelsMatter = changedNamespaceSelectors.length > 0;
  const patchedObject = { ...object, effective: { ...object.effective, webhooks } };
  const holds = buildsKeepThePatch(patch, own, object, run, { movesMatter, relabelsMatter });
  // A JSON 6902 `test` in any patch of the patch's kustomization may fail, and kustomize then builds nothing from it (s38c 2, s38d 3).
  const tested = run.kustomizePatches.some((other) => other.file === patch.file && other.selectors?.tests === true);
  const narrowed = !tested && patch.selectors!.changes.every((change) => narrows(change, object.effective.webhooks ?? [], webhooks));
  if (holds === false || serviceMayMove) {
    // Declined only because the Service may move (a kustomization's `namespace:`, a patch or
    // replacement that may select the Service): kube-system is judged by its name wherever the
    // Service lands (the scaffolds' `namespace:` overlay with a name-reading selector: s38c r1-r3).
    // (Not when the run writes kube-system's labels and a kustomization moves objects: kustomize's
    // `namespace:` renames the Namespace objects it builds, so kube-system has no such labels: s38e 1.)
    const kubeSystemRenamed = run.namespaces.some((namespace) => namespace.name === KUBE_SYSTEM) && run.kustomizations.some((listing) => listing.moves === true);
    const onlyMoves = holds !== false || (movesMatter && buildsKeepThePatch(patch, own, object, run, { movesMatter: false, relabelsMatter }) !== false);
    if (onlyMoves && narrowed && !kubeSystemRenamed) return { object, unsureWhereverServiceLands: { object: patchedObject, patch } };
    return { object };
  }
  // Only the overlay's build holds it: what the base alone has is an info only when the patch
  // narrows the webhook (it then matches a part of what it matched: a finding of the patched
  // webhook, by any rule, is one of the base's too) and sends no unlabelled object by its
  // objectSelector (the rules cannot tell whether a labelled one is the webhook's own pod).
  // (A `test` operation that fails makes kustomize refuse the overlay: the base is then all there is, s38c 2.)
  if (holds === 'overlay') return narrowed ? { object, unsure: { object: patchedObject, patch } } : { object };
  return { object: patchedObject, patch };
}

/**
 * Whether a change leaves the webhook matching a part of what it matched: a rule's scope set
 * where it was `*`; a selector that keeps every requirement it had and adds some (none had
 * none); an objectSelector that selects no object without labels. A removal never narrows.
 */
function narrows(change: SelectorChange, written: readonly unknown[], patched: readonly unknown[]): boolean {
  if (change.op === 'remove') return false;
  const index = indexOf(change, written as readonly ({ name?: string } | null | undefined)[]);
  const before = written[index] as Record<string, unknown> | undefined;
  const after = patched[index] as Record<string, unknown> | undefined;
  if (before === undefined || after === undefined) return false;
  if (change.field === 'scope') {
    const rule = (before.rules as readonly ({ scope?: unknown } | null)[] | undefined)?.[change.rule ?? -1];
    return (rule?.scope ?? '*') === '*' && (change.value === 'Namespaced' || change.value === 'Cluster');
  }
  const was = requirementsOf(before[change.field]);
  const is = requirementsOf(after[change.field]);
  if (was === undefined || is === undefined || ![...was].every((requirement) => is.has(requirement))) return false;
  // A selector the API server rejects (an `In` without values, a bad label value) matches
  // nothing here and builds nothing there: the base is then all there is (s38d 1).
  if (validateLabelSelector(after[change.field] as LabelSelector, []).length > 0) return false;
  return change.field !== 'objectSelector' || selectorMatches(after[change.field] as LabelSelector, {}) === false;
}

/** A label selector's requirements, each as one string (matchLabels as `key In [value]`); undefined for what is not a selector. */
function requirementsOf(selector: unknown): Set<string> | undefined {
  if (selector === undefined || selector === null) return new Set();
  if (!isMap(selector)) return undefined;
  const out = new Set<string>();
  const { matchLabels, matchExpressions } = selector;
  if (matchLabels !== undefined && matchLabels !== null) {
    if (!isMap(matchLabels)) return undefined;
    for (const [key, value] of Object.entries(matchLabels)) out.add(JSON.stringify([key, 'In', [value]]));
  }
  if (matchExpressions !== undefined && matchExpressions !== null) {
    if (!Array.isArray(matchExpressions)) return undefined;
    for (const expression of matchExpressions) {
      if (!isMap(expression)) return undefined;
      out.add(JSON.stringify([expression.key, expression.operator, expression.values ?? []]));
    }
  }
  return out;
}

/** The webhook a change is for: by its index (JSON 6902) or its name (strategic merge). */
function indexOf(change: SelectorChange, webhooks: readonly ({ name?: string } | null | undefined)[]): number {
  return 'index' in change.webhook ? change.webhook.index : webhooks.findIndex((webhook) => webhook?.name === (change.webhook as { name: string }).name);
}

/**
 * Whether a namespaceSelector gives the same answer for every namespace the webhook's Service may
 * be moved to: it reads no `kubernetes.io/metadata.name`, and selects neither a namespace with no
 * labels nor any Namespace manifest of the run, as written (an opt-in label none of them carries).
 * A selector that selects an unlabelled namespace (an opt-out) is judged apart for a namespace
 * with a manifest and one without (self-deadlock: its labels are then unknown): where the Service
 * lands matters (s37b A-3a).
 */
function answersAlikeAnywhere(selector: LabelSelector | null | undefined, namespaces: readonly NamespaceObject[]): boolean {
  if (selector === null || selector === undefined) return false;
  const keys = [...Object.keys(selector.matchLabels ?? {}), ...(selector.matchExpressions ?? []).map((requirement) => requirement?.key)];
  if (keys.some((key) => key === NAMESPACE_NAME_LABEL || typeof key !== 'string')) return false;
  if (selectorMatches(selector, {}) !== false) return false;
  return namespaces.every((namespace) => selectorMatches(selector, namespace.writtenLabels) === false);
}

/**
 * Whether every build of `file` has the webhook's selectors as the patch sets them: the patch's
 * kustomization is in `file`'s folder, lists `file`, neither renames nor transforms after its
 * patches (`vars` only where the file has no `$(`), and no other kustomization of the run lists
 * `file` itself (it would build it without the patch). Every kustomization that builds on the
 * folder (an overlay, an overlay of an overlay) gets the patched object from it, and leaves its
 * selectors as they are when it: could be read; does not change webhooks after its patches
 * (`vars` only where the file has no `$(`); does not move objects to another namespace when the
 * patch sets a namespaceSelector (the Service the selector is judged against moves); and has no
 * patch or replacement that may select a webhook configuration of this kind by any name (a
 * prefixed name, a regular expression), unless it changes metadata only.
 */
function buildsKeepThePatch(patch: KustomizePatch, file: string, object: WebhookConfigurationObject, run: Pick<RunScope, 'memo' | 'kustomizePatches' | 'kustomizations' | 'namespaces'>, { movesMatter, relabelsMatter }: { movesMatter: boolean; relabelsMatter: boolean }): 'every' | 'overlay' | false {
  const listings = run.kustomizations;
  const real = realPath(file);
  const folder = dirname(real);
  const own = realPath(resolve(patch.file));
  const listingFile = listings.filter((listing) => listing.resources.includes(real));
  if (listingFile.length !== 1) return false;
  const base = listingFile[0]!;
  // `vars` replace `$(NAME)` and nothing else: a file without one is not changed by them.
  const varsApply = object.manifest.file.text?.includes('$(') !== false || JSON.stringify(patch.selectors!.changes).includes('$(');
  const keeps = (listing: KustomizationListing): boolean =>
    listing.unreadable !== true && listing.component !== true && listing.transformsOtherwise === false && (listing.vars !== true || !varsApply);
  let answer: 'every' | 'overlay' = 'every';
  /** The overlay whose patch it is, when the patch is not beside the file. */
  let patchOverlay: KustomizationListing | undefined;
  if (dirname(own) !== folder || realPath(resolve(base.file)) !== own) {
    // The scaffolds' layout: the patch is in an overlay that lists the file's folder, whose own
    // kustomization lists the file and builds it as written (it changes and renames nothing).
    // Every build of the overlay holds the patch; the folder's own build does not ('overlay').
    patchOverlay = listings.find((listing) => realPath(resolve(listing.file)) === own);
    if (patchOverlay === undefined || !patchOverlay.resources.includes(folder) || dirname(realPath(resolve(base.file))) !== folder) return false;
    // A kustomization kustomize builds: a file of its own name, alone in its folder (a `kind:
    // Kustomization` document elsewhere is built by nothing; two such files, kustomize refuses).
    if (!KUSTOMIZATION_FILES.includes(basename(own)) || KUSTOMIZATION_FILES.filter((name) => existsSync(join(dirname(own), name))).length !== 1) return false;
    // The overlay is the one kustomization of the run that lists the base's folder (another, even
    // one that builds on the overlay too, builds the base unpatched) ...
    if (listings.some((listing) => listing !== patchOverlay && listing.resources.includes(folder))) return false;
    // ... and the repository holds no kustomization the run did not read: it may be another
    // overlay of the base. The overlay lists no resource twice (kustomize refuses it: s38c 2).
    if (new Set(patchOverlay.resources).size !== patchOverlay.resources.length || !repositoryRead(folder, listings, run.memo)) return false;
    if (!keeps(base) || base.renames || base.moves === true) return false;
    if (run.kustomizePatches.some((other) => other !== patch && realPath(resolve(other.file)) === realPath(resolve(base.file)) && other.metadataOnly !== true)) return false;
    answer = 'overlay';
  }
  // A prefix or suffix the patch's own kustomization adds leaves the selectors as patched: its
  // patches name the object as written (a legacy patchesJson6902 target, which kustomize runs
  // after the prefix, is read without it). A namespace it sets is a move, weighed below.
  if (patchOverlay === undefined && (!keeps(base) || (base.renames && !renamesByNameOnly(base)))) return false;
  // A namespaceSelector is judged against the Service's namespace: any kustomization of the run
  // that moves objects (a sibling folder's `namespace:` with the Service, a NamespaceTransformer)
  // may move it, and kustomize carries the move into clientConfig.service.
  if (movesMatter && listings.some((listing) => listing.moves === true || listing.transformsOtherwise !== false)) return false;
  // ... or any patch or replacement of the run that may select a Service, by any name (a sibling
  // folder's, under a name its own base gave the Service) ...
  // (A patch that leaves what it patches in place, a strategic merge of a Service's selector, moves nothing.)
  if (movesMatter && run.kustomizePatches.some((other) => other.changesKind === true || (mayTargetKind(other.target, 'Service') && other.keepsPlace !== true))) return false;
  // ... and the Namespaces' labels it is judged against are those written: none added, transformed
  // or patched by a kustomization of the run.
  // (`vars` substitute `$(NAME)` into every kind's metadata/labels: only a label written with one changes.)
  const varsRelabel = run.namespaces.some((namespace) => JSON.stringify(namespace.writtenLabels ?? {}).includes('$('));
  const relabels = (listing: KustomizationListing): boolean => listing.mayRelabelNamespaces === true || (listing.vars === true && varsRelabel);
  if (relabelsMatter && (listings.some(relabels) || run.kustomizePatches.some((other) => other.changesKind === true || mayTargetKind(other.target, 'Namespace')))) return false;
  const builders = buildersOf(patchOverlay === undefined ? folder : dirname(own), listings);
  if (builders === undefined) return false;
  // With the patch in an overlay, that overlay is one of the kustomizations its build runs: it may
  // rename (its patches select the names as written), and its other patches and transformers are
  // held to what an overlay's are.
  const overlays = patchOverlay === undefined ? builders : [patchOverlay, ...builders];
  // ... and every build of the folder but its own goes through that overlay: a second overlay of
  // the same folder without the patch (`dev` beside `prod`) is a build someone applies.
  if (patchOverlay !== undefined && buildersOf(folder, listings)?.every((listing) => overlays.includes(listing)) !== true) return false;
  // ... and, whatever selector the patch sets, no folder that any kustomization of the run lists
  // (an overlay's sibling base too) and the run did not read (outside the linted folder, a URL):
  // it may be an overlay of the base that patches the webhook again, or move the Service.
  // (A remote base that kustomize fetches, and a manifest a build step writes, are neither; under
  // a namespaceSelector patch either may hold a Namespace, kube-system with other labels: s45a 2-3.)
  const namespacesDoNotMatter = !relabelsMatter;
  const unread = (resource: string, listing: KustomizationListing): boolean =>
    !readOrFile(resource, listings, namespacesDoNotMatter) && !(namespacesDoNotMatter && isRemote(resource, listing));
  if (listings.some((listing) => listing.resources.some((resource) => unread(resource, listing)))) return false;
  // Every build of the file runs these kustomizations' patches: none may select a configuration
  // of this kind (unless it changes metadata only), nor a Service by any name (a move of it
  // reaches clientConfig.service through name references; an overlay names it by its prefix).
  const building = new Set([own, ...overlays.map((overlay) => realPath(resolve(overlay.file)))]);
  const patchedThere = run.kustomizePatches.filter((other) => building.has(realPath(resolve(other.file))));
  if (patchedThere.some((other) => other.changesKind === true || (mayTargetKind(other.target, 'Service') && other.keepsPlace !== true))) return false;
  return overlays.every(
    (overlay) =>
      keeps(overlay) &&
      !(movesMatter && overlay.moves === true) &&
      !patchedThere.some((other) => other !== patch && other.file === overlay.file && other.metadataOnly !== true && (other.changesKind === true || mayTargetKind(other.target, object.kind))),
  )
    ? answer
    : false;
}

/** Whether a kustomization's renames are a namePrefix or nameSuffix alone (no `namespace`). */
function renamesByNameOnly(listing: KustomizationListing): boolean {
  return listing.moves !== true && (listing.namePrefix !== undefined || listing.nameSuffix !== undefined);
}

/** Folders of a repository past this many are not looked at: its base is then not taken as built only by its overlay. */
const MAX_REPOSITORY_FOLDERS = 20_000;

/**
 * Whether every kustomization file in the repository that holds `folder` (the nearest folder
 * upwards with a `.git`) was read by the run: an overlay of the base anywhere in it (`config/dev`,
 * `deploy/prod`, a root kustomization) may build the base unpatched (s38b 4, s38c 1). False when
 * there is no such folder, or past MAX_REPOSITORY_FOLDERS. Folders named `.git` and
 * `node_modules` are not looked in.
 */
function repositoryRead(folder: string, listings: readonly KustomizationListing[], memo: RunScope['memo']): boolean {
  let root: string | undefined;
  for (let at = folder; ; at = dirname(at)) {
    if (existsSync(join(at, '.git'))) {
      root = at;
      break;
    }
    if (dirname(at) === at) return false;
  }
  // Once per repository and run: many configurations of one tree ask (s38d 4).
  const answers = memo.get(REPOSITORIES_READ, () => new Map<string, boolean>());
  const known = answers.get(root);
  if (known !== undefined) return known;
  const answer = walkRepository(root, listings);
  answers.set(root, answer);
  return answer;
}

/** The walk of repositoryRead. */
function walkRepository(root: string, listings: readonly KustomizationListing[]): boolean {
  const read = new Set(listings.filter((listing) => listing.unreadable !== true).map((listing) => realPath(resolve(listing.file))));
  const folders = [root];
  for (let at = 0; at < folders.length; at++) {
    if (folders.length > MAX_REPOSITORY_FOLDERS) return false;
    let entries;
    try {
      entries = readdirSync(folders[at]!, { withFileTypes: true });
    } catch {
      return false;
    }
    for (const entry of entries) {
      const path = join(folders[at]!, entry.name);
      if (entry.isDirectory()) {
        if (entry.name !== '.git' && entry.name !== 'node_modules') folders.push(path);
      } else if (KUSTOMIZATION_FILES.includes(entry.name) && !read.has(realPath(path))) return false;
    }
  }
  return true;
}

/** Whether a remote resource of the listing is not a local path (kustomize builds a local one that is there as it is). */
function isRemote(resource: string, listing: KustomizationListing): boolean {
  return listing.remote?.includes(resource) === true && !existsSync(resource);
}

/**
 * Whether a listed resource is a file, or a folder whose kustomization the run read; with
 * `generated`, a missing file too (a name with a manifest's extension: a manifest a build step
 * writes, objects of its own and never a kustomization).
 */
function readOrFile(resource: string, listings: readonly KustomizationListing[], generated: boolean): boolean {
  try {
    if (statSync(resource).isFile()) return true;
  } catch {
    // Missing: a folder may be an overlay, not read.
    return generated && /\.(?:ya?ml|json)$/i.test(resource);
  }
  return listings.some((listing) => listing.unreadable !== true && dirname(realPath(resolve(listing.file))) === resource);
}

/** Overlays past this many are not followed: the selectors are then not taken as patched. */
const MAX_OVERLAYS = 256;

/** Every kustomization of the run that builds on `folder`, directly or through the folders of others; undefined past MAX_OVERLAYS. */
function buildersOf(folder: string, listings: readonly KustomizationListing[]): KustomizationListing[] | undefined {
  const found = new Set<KustomizationListing>();
  const folders = [folder];
  const seen = new Set(folders);
  for (let at = 0; at < folders.length; at++) {
    for (const listing of listings) {
      if (found.has(listing) || !listing.resources.includes(folders[at]!)) continue;
      found.add(listing);
      if (found.size > MAX_OVERLAYS) return undefined;
      const next = dirname(realPath(resolve(listing.file)));
      if (!seen.has(next)) {
        seen.add(next);
        folders.push(next);
      }
    }
  }
  return [...found];
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
