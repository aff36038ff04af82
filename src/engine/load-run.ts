/**
 * The first half of the pipeline, read top to bottom in `loadRun`: expand the paths, read each
 * file (regular files only, bounded: src/load/sources.ts), skim it (documents whose text names no
 * kind we read are counted, never parsed: src/parse/prefilter.ts), read the rest (src/parse/read.ts:
 * most objects from their value, positions on demand; admission objects with the full parse),
 * split rendered streams per template (src/load/helm.ts), and recognise each
 * manifest (src/recognize/: default, decode-check, build the model). `lint`, `defaults`,
 * `simulate` and `report` all start here.
 *
 * Workloads (Pods and the kinds with a pod template) are read only where a Pod Security level
 * other than privileged can apply to them (src/psa/run-policy.ts): in every namespace when the
 * PodSecurity configuration's defaults check pods (then with the other kinds, in one pass);
 * otherwise only in the namespaces whose Namespace manifests in the run set such a level, which
 * are known once every file is read: a second pass then reads the files whose bytes name a
 * workload kind and one of those namespaces, and parses only those documents. A run without such
 * labels or configuration reads no workload and does no second pass.
 *
 * Services are read only from the inputs whose bytes name a webhook configuration (a bundle):
 * what the webhooks' service references reach (src/match/services.ts); so are NetworkPolicies
 * (whether the API server's calls reach the webhooks' pods: src/match/network-policies.ts) and Secrets that hold
 * private keys in the clear (the keys a caBundle may trust, rules/ca-bundle.ts). There the documents that
 * may be one are read too, never taken as workloads: a run's other reads and counts stay the same.
 */
import { pushAll } from '../collections.js';
import { isBinding } from '../model/policies.js';
import { basename, dirname, resolve } from 'node:path';
import { Discovery } from '../kube/discovery/discovery.js';
import type { KubeVersion } from '../kube/version.js';
import { splitRendered } from '../load/helm.js';
import { decode, decodeSource, expandPaths, MAX_FILE_BYTES, newWalkNotes, readBytes, readStdinSync, type RawSource } from '../load/sources.js';
import type { BundleWorkload, CustomResourceDefinitionObject, NamespaceObject, NetworkPolicyObject, PolicyObject, SecretKeysObject, ServiceObject, WebhookConfigurationObject, WorkloadObject } from '../model/objects.js';
import type { PodSecuritySettings } from '../model/pod-security.js';
import { ADMISSION_GROUP, isUnknownAdmissionKind } from '../model/types.js';
import { KustomizePatches, readPatchFile } from '../parse/kustomization.js';
import { KUSTOMIZATION_FILES } from '../parse/kustomize-fields.js';
import { KUSTOMIZATION_KIND, kustomizationListings, kustomizePatches as findKustomizePatches, type KustomizationListing, type KustomizePatch } from '../parse/kustomize-patches.js';
import { bytesMayHoldNetworkPolicy, bytesMayHoldOtherNetworkPolicy, bytesMayHoldService, bytesMayHoldWorkload, bytesNameWebhookConfiguration, documentLines, mightBeNetworkPolicy, mightBeRead, mightBeService, mightBeWorkload, mightHoldPrivateKey, NamespaceNames, namespaceValues, skimBytes, SUPPRESSION_MARK, workloadBytes, workloadDocuments } from '../parse/prefilter.js';
import { readFile, settleDocument, type ValueRead, type ValueSettle } from '../parse/read.js';
import { exceedsObjectLimit, unreadFile, type Manifest, type ParsedFile } from '../parse/yaml.js';
import { CheckedNamespaces, DEFAULT_POD_SECURITY_SETTINGS, initialReach } from '../psa/run-policy.js';
import { POD_SECURITY_UNREAD_KEYS, settleWorkload } from '../psa/screen.js';
import { bundleWorkloadOf, recognize } from '../recognize/recognize.js';
import { readSimpleDocument } from '../parse/simple-yaml.js';
import { unreadableMayHoldNaming } from '../match/unreadable.js';
import { RunMemo, type RunScope, type UnreadableDocument } from '../run-scope.js';
import { InputError } from '../errors.js';
import { isPlaceholder } from '../text/placeholder.js';
import { runKeyBudget } from '../kube/private-keys.js';

export interface LintRun {
  /** The files that hold something the rules read: objects, syntax problems or suppression comments. */
  readonly files: readonly ParsedFile[];
  /** Every file read, in order, as findings name them (a rendered stream: one per template). */
  readonly paths: readonly string[];
  /** Inputs read: a rendered stream split per template (src/load/helm.ts) is still one. */
  readonly inputs: number;
  readonly webhookConfigurations: readonly WebhookConfigurationObject[];
  readonly namespaces: readonly NamespaceObject[];
  readonly customResourceDefinitions: readonly CustomResourceDefinitionObject[];
  readonly policies: readonly PolicyObject[];
  /** Pods and workloads with pod templates where a Pod Security level other than privileged can apply (else none). */
  readonly workloads: readonly WorkloadObject[];
  /** Pods and workloads with pod templates in the inputs that hold a webhook configuration, whatever Pod Security says (RunScope.bundleWorkloads). */
  readonly bundleWorkloads: readonly BundleWorkload[];
  readonly bundlesWithUnreadWorkloads: ReadonlySet<string>;
  /**
   * v1 Services, read only from the inputs that also hold a webhook configuration (a rendered
   * bundle: `helm template`, `kustomize build`, a release manifest), for what the webhooks'
   * service references reach. Not linted: counted with `skipped`, as before.
   */
  readonly services: readonly ServiceObject[];
  /** An input not read for Services (no webhook configuration in it, or a kustomize patch) may hold one: a Service's absence from `services` proves nothing then. */
  readonly servicesOutsideBundles: boolean;
  /** NetworkPolicies, read from the same inputs as `services` (not linted: counted with `skipped`). */
  readonly networkPolicies: readonly NetworkPolicyObject[];
  /** An input not read for NetworkPolicies may hold one: a policy's absence from `networkPolicies` proves nothing then. */
  readonly networkPoliciesOutsideBundles: boolean;
  /** Secrets with private keys in the clear, read from the same inputs as `services` (not linted: counted with `skipped`). */
  readonly secretKeys: readonly SecretKeysObject[];
  /** Key blocks in those Secrets were left unread at a limit of src/kube/private-keys.ts (a key of a caBundle among them is not found). */
  readonly privateKeysNotRead: boolean;
  /**
   * The workloads checked from their value alone, not parsed: each passes every mode of its
   * namespace (src/psa/screen.ts), so it has no finding. Counted with `workloads`; not among `skipped`.
   */
  readonly settledWorkloads: number;
  /** The PodSecurity settings the run was read with (the built-in ones when none were given). */
  readonly podSecurity: PodSecuritySettings;
  /** What the patches of the run's kustomizations change (src/parse/kustomize-patches.ts). */
  readonly kustomizePatches: readonly KustomizePatch[];
  /** The kustomizations read (beside the run's files, and in its streams): what they list. */
  readonly kustomizations: readonly KustomizationListing[];
  readonly documents: number;
  /** Documents not linted: other kinds, CRDs, and workloads (also those that are read: they are not admission objects). */
  readonly skipped: number;
}

export interface LoadOptions {
  /**
   * Read workloads where Pod Security Admission can check them, with these settings, for this
   * target version. Without it no workload is read (`defaults`, `simulate`).
   */
  readonly podSecurity?: { readonly settings: PodSecuritySettings; readonly kubeVersion: KubeVersion };
  /**
   * The run's PodSecurity settings when no workload is read (podSecurity absent): the rules that
   * read Namespaces still see its exemptions and defaults (a rule run without `pod-security`).
   */
  readonly podSecuritySettings?: PodSecuritySettings;
  /**
   * Folders holding a kustomization that a walk of the inputs found (src/load/sources.ts
   * WalkNotes), when the caller walked them itself and passes the files: their kustomizations are
   * read too, also where no manifest sits beside them.
   */
  readonly kustomizationFolders?: readonly string[];
  /** Kustomization files behind links to folders outside the walk (WalkNotes): not read, their effect unknown. */
  readonly linkedKustomizations?: readonly string[];
}

/**
 * How many bytes of the files a labelled run reads again it keeps from the first pass instead
 * (opening and reading 2,000 files again cost about 20 ms of the GitOps benchmark's run): those
 * that name a namespace known to be checked when they are read (the others are read again).
 */
const KEPT_BYTES = 24 * 1024 * 1024;

/** An input the second pass may read again for workloads. */
interface Revisit {
  /** The path as given (`-`: standard input). */
  readonly path: string;
  /**
   * What the first pass read, kept for the second: always for standard input (it cannot be read
   * twice); for a file that names a namespace already checked, while the run's budget lasts
   * (KEPT_BYTES). The others are read again.
   */
  readonly kept?: RawSource;
  /**
   * The values of its `namespace:` keys (src/parse/prefilter.ts namespaceValues), when the first
   * pass read them; undefined when it did not (before any namespace was known to be checked) or
   * could not: then the file is read again whenever a namespace turns out to be checked.
   */
  readonly namespaces?: readonly string[];
}

/**
 * The workload documents to read in a file, given the namespaces whose pods are checked
 * (`every`: the run's default one is, so any workload may be there).
 */
function workloadsIn(names: NamespaceNames, every: boolean): (documentText: string) => boolean {
  return every ? mightBeWorkload : workloadDocuments(names);
}


/**
 * The workload documents that their value settles (src/parse/read.ts): those that certainly pass
 * the final policy of their namespace (`complete`: every Namespace manifest has been read) are not
 * parsed (src/psa/screen.ts). It is asked only of the documents read for their workloads (their
 * text names a workload kind and a checked namespace); those that may be of a kind the linter
 * reads otherwise are always parsed.
 */
function workloadSettle(checked: CheckedNamespaces, complete: boolean, settings: PodSecuritySettings, kubeVersion: KubeVersion, patch = false): ValueSettle {
  return {
    admits: (text) => !mightBeRead(text),
    skip: POD_SECURITY_UNREAD_KEYS,
    value: (value) => {
      const settled = settleWorkload(value, (namespace) => checked.finalPolicy(namespace, complete), settings.config, kubeVersion);
      return patch && settled === 'read' ? 'other' : settled;
    },
  };
}

/**
 * Objects are taken from their value when the fast reader reads them (src/parse/read.ts): most
 * Namespaces, CRDs, workloads and documents of other kinds have no finding, and their documents
 * are parsed for positions only when one has. The admission objects (webhook configurations,
 * policies, bindings) nearly always have one: the fast reader writes their positions as it reads
 * them, and one it cannot read so is parsed. Not a List: its items are the objects, found by the
 * full parse.
 */
const OBJECTS_BY_VALUE: ValueRead = {
  admits: () => true,
  positions: (text) => text.includes(ADMISSION_GROUP),
  // An admission object whose text does not spell its group (an escape in its apiVersion) was
  // read without positions: it is parsed (s38a 3b).
  value: (value, positioned) => !Array.isArray(value.items) && (positioned || !(typeof value.apiVersion === 'string' && value.apiVersion.startsWith(`${ADMISSION_GROUP}/`))),
};

/**
 * Reads and recognises every input. Shared by `lint` and `defaults`. Files are read one at a
 * time, and only what the rules need is kept: a repository's other documents leave nothing
 * behind (most are never parsed, src/parse/prefilter.ts).
 */
export function loadRun(paths: readonly string[], readStdin: () => Uint8Array = readStdinSync, options: LoadOptions = {}): LintRun {
  const files: ParsedFile[] = [];
  const filePaths: string[] = [];
  const webhookConfigurations: WebhookConfigurationObject[] = [];
  const namespaces: NamespaceObject[] = [];
  const customResourceDefinitions: CustomResourceDefinitionObject[] = [];
  const policies: PolicyObject[] = [];
  const workloads: WorkloadObject[] = [];
  const bundleWorkloads: BundleWorkload[] = [];
  const bundlesWithUnreadWorkloads = new Set<string>();
  const services: ServiceObject[] = [];
  const networkPolicies: NetworkPolicyObject[] = [];
  let networkPoliciesOutsideBundles = false;
  const secretKeys: SecretKeysObject[] = [];
  const keyBudgetOfRun = runKeyBudget();
  let servicesOutsideBundles = false;
  let documents = 0;
  let skipped = 0;
  let inputs = 0;
  let settledWorkloads = 0;
  const kustomizePatches = new KustomizePatches();
  const settings = options.podSecurity?.settings ?? options.podSecuritySettings ?? DEFAULT_POD_SECURITY_SETTINGS;
  const reach = options.podSecurity === undefined ? 'none' : initialReach(settings, options.podSecurity.kubeVersion);
  /** `labelled` runs: the namespaces known so far to be checked; the second pass reads the workloads in them. */
  const checked = new CheckedNamespaces(settings);
  const revisits: Revisit[] = [];
  /** The bytes of files the revisits keep (KEPT_BYTES). */
  let keptBytes = 0;
  /** One copy of each namespace value the revisits hold (thousands of files name the same few). */
  const interned = new Map<string, string>();
  const intern = (name: string): string => interned.get(name) ?? (interned.set(name, name), name);
  const streamPatches: KustomizePatch[] = [];
  const streamListings: KustomizationListing[] = [];
  const walked = newWalkNotes();
  const expanded = expandPaths(paths, walked);
  // Every kustomization of the run first: beside a file of the run, and in the folders the walk
  // found one in (a `Kustomization` may sit alone in an overlay's folder). One may list a patch in
  // another folder (`patches/x.yaml`), which the walk can reach before it.
  for (const path of expanded) kustomizePatches.visit(path);
  for (const folder of [...walked.kustomizationFolders, ...(options.kustomizationFolders ?? [])]) kustomizePatches.visitFolder(folder);
  for (const file of [...walked.linkedKustomizations, ...(options.linkedKustomizations ?? [])]) kustomizePatches.notRead(file);
  for (const path of expanded) {
    inputs++;
    const raw = readBytes(path, readStdin);
    // A kustomization inside a stream (`kind: Kustomization`): what its patches change is named too.
    if (raw.bytes.length > 0 && Buffer.from(raw.bytes.buffer, raw.bytes.byteOffset, raw.bytes.byteLength).includes(KUSTOMIZATION_WORD) && !KUSTOMIZATION_FILES.includes(basename(path))) {
      const text = decode(raw.bytes);
      if (text !== null && KUSTOMIZATION_KIND.test(text)) {
        pushAll(streamPatches, findKustomizePatches(raw.path, text, false, (patch) => (path === '-' ? undefined : readPatchFile(dirname(path), patch))));
        // One read from standard input has no folder of its own: what it lists is not known to
        // be the run's (round 15), so it counts as a kustomization the linter could not read.
        const listings = kustomizationListings(raw.path, path === '-' ? process.cwd() : resolve(dirname(path)), text, false);
        pushAll(streamListings, (path === '-' ? listings.map((listing) => ({ ...listing, unreadable: true as const })) : listings));
      }
    }
    if (raw.tooLarge !== undefined) {
      // Not read, and said so: a gate never passes a file it did not look at.
      filePaths.push(raw.path);
      files.push(unreadFile(raw.path, raw.tooLarge, MAX_FILE_BYTES));
      continue;
    }
    // Which workloads to read now: every one (the configured defaults check pods, or the default
    // namespace is checked), or none: a `labelled` run reads those of its checked namespaces
    // after this pass (readLaterWorkloads), every namespace's policy known then, so that each
    // file is settled against one list of names (reading them as the list grew cost more).
    const checkedSoFar = checked.names.length;
    const every = reach === 'every' || checked.every;
    const named = every ? mightBeWorkload : undefined;
    const patch = kustomizePatches.isPatch(path);
    // A file beside a kustomization that lists it nowhere is no part of its build: a partial
    // admission object in it (a scaffold's patch left out of the list) is read as a patch is.
    const unlisted = !patch && kustomizePatches.isUnlisted(path);
    // An input that holds a webhook configuration (a bundle) is read for its Services too: what
    // the webhooks' service references reach. Other inputs never parse a Service, and one in
    // them is not seen.
    const bundle = !patch && bytesNameWebhookConfiguration(raw.bytes);
    if (!bundle && bytesMayHoldService(raw.bytes)) servicesOutsideBundles = true;
    // Not read either: one of another input, or a network plugin's own kinds in a bundle (they may let the API server in).
    if (bundle ? bytesMayHoldOtherNetworkPolicy(raw.bytes) : bytesMayHoldNetworkPolicy(raw.bytes)) networkPoliciesOutsideBundles = true;
    // A workload that passes the final policy of its namespace is not parsed (src/psa/screen.ts).
    // (A kustomize patch's workloads are partial objects, never read: one settled is one skipped.)
    const settle = named === undefined || options.podSecurity === undefined ? undefined : workloadSettle(checked, false, settings, options.podSecurity.kubeVersion, patch);
    // A run without Pod Security labels pays nothing here: before the first checked namespace,
    // an input is only remembered (its bytes are looked at again only if one turns up).
    const found = checkedSoFar > 0 && !every ? workloadBytes(raw.bytes) : undefined;
    const revisit = reach === 'labelled' && !checked.every && (checkedSoFar === 0 || found !== 'none');
    const skimmed = skimBytes(raw.bytes, { workloads: every });
    // Once Pod Security is in play, a file's namespace values are read from its bytes: the second
    // pass reads it again only if one of them turns out to be checked.
    const namespaceKeys = revisit && found === 'named' ? namespaceValues(raw.bytes)?.map(intern) : undefined;
    const remember = (): Revisit => {
      // Kept when the second pass will read it: one of its namespaces is checked already (a run
      // without Pod Security labels keeps nothing, nor does one that checks few of its namespaces).
      const keep = path === '-' || (namespaceKeys?.some((name) => checked.has(name)) === true && keptBytes + raw.bytes.length <= KEPT_BYTES);
      if (keep && path !== '-') keptBytes += raw.bytes.length;
      return { path, ...(keep ? { kept: raw } : {}), ...(namespaceKeys !== undefined ? { namespaces: namespaceKeys } : {}) };
    };
    if (skimmed !== undefined) {
      if (revisit && !patch) revisits.push(remember());
      documents += skimmed.documents;
      skipped += skimmed.skipped;
      filePaths.push(raw.path);
      continue;
    }
    // A document read only because it may be a Service is never taken as a workload (nor settled
    // as one): the workloads read are those of a run without Services.
    const forWorkloads = named === undefined ? undefined : (text: string): boolean => mightBeRead(text) || named(text);
    const reads = bundle ? (text: string): boolean => (forWorkloads ?? mightBeRead)(text) || mightBeService(text) || mightBeNetworkPolicy(text) || mightHoldPrivateKey(text) : forWorkloads;
    const decoded = decodeSource(raw.bytes);
    const text = decoded?.text ?? null;
    // What runs a bundle's webhooks: its workloads, read quietly whatever Pod Security says.
    if (bundle && text !== null) readBundleWorkloads(raw.path, text, bundleWorkloads, bundlesWithUnreadWorkloads);
    const lineSeparators = decoded !== null && decoded.lineSeparators.length > 0 ? { lineSeparators: decoded.lineSeparators } : {};
    const bundleSettle = bundle && settle !== undefined ? { ...settle, admits: (document: string) => named!(document) && settle.admits(document) } : settle;
    const whole = readFile({ path: raw.path, text, ...lineSeparators }, { byValue: OBJECTS_BY_VALUE, ...(reads === undefined ? {} : { reads }), ...(bundleSettle !== undefined ? { settle: bundleSettle } : {}) });
    const readForWorkloads = bundle && forWorkloads !== undefined ? documentsWanted(text, forWorkloads) : undefined;
    documents += whole.documentCount;
    skipped += whole.unparsed;
    settledWorkloads += whole.settled ?? 0;
    if (revisit && !patch) revisits.push(remember());
    if (whole.manifests.length === 0 && whole.problems.length === 0 && !hasDirectives(whole)) {
      filePaths.push(whole.source.path);
      continue;
    }
    // Rendered input (`helm template`) becomes one file per template (src/load/helm.ts).
    for (const parsed of splitRendered(whole)) {
      filePaths.push(parsed.source.path);
      // A kustomize patch holds partial objects, which are not linted; but an admission object in
      // it that stands alone (standsAlone) is applied by anyone who applies the file, so it is
      // linted: a kustomization that lists a file as a patch cannot hide one (s44a H1).
      const problems = [...parsed.problems];
      /** Only these keep their place in the file: the other manifests' documents are let go. */
      const read: Manifest[] = [];
      for (const manifest of parsed.manifests) {
        let recognized = recognize(manifest, { read: every && !patch ? 'both' : 'admission', services: bundle, ...(bundle ? { secrets: keyBudgetOfRun } : {}) });
        if (recognized.type === 'workload' && readForWorkloads !== undefined && !readForWorkloads(manifest.documentIndex)) recognized = { type: 'other' };
        if (patch && !((recognized.type === 'webhook-configuration' || recognized.type === 'admission-policy') && standsAlone(recognized.object))) {
          skipped++;
          continue;
        }
        if (unlisted && (recognized.type === 'webhook-configuration' || recognized.type === 'admission-policy') && doesNothing(recognized.object)) {
          skipped++;
          continue;
        }
        // A Namespace named by a template expression in a file no build lists (a test's fixture,
        // `($namespace)` in a `.chainsaw-test/` folder) is no Namespace anyone applies.
        if (unlisted && recognized.type === 'namespace' && isPlaceholder(recognized.object.name)) {
          skipped++;
          continue;
        }
        if (recognized.type === 'webhook-configuration') webhookConfigurations.push(recognized.object);
        else if (recognized.type === 'namespace') {
          namespaces.push(recognized.object);
          if (reach !== 'none') checked.add(recognized.object);
        } else if (recognized.type === 'admission-policy') policies.push(recognized.object);
        else if (recognized.type === 'custom-resource-definition') {
          // Read for discovery, not linted: still one of the "other documents".
          customResourceDefinitions.push(recognized.object);
          skipped++;
          continue;
        } else if (recognized.type === 'service') {
          // Read for the webhooks' service references, not linted: still one of the "other documents".
          services.push(recognized.object);
          skipped++;
          continue;
        } else if (recognized.type === 'network-policy') {
          // Read for whether the API server's calls reach a webhook's pods, not linted: one of the "other documents".
          networkPolicies.push(recognized.object);
          skipped++;
          continue;
        } else if (recognized.type === 'secret-keys') {
          // Read for the keys of the certificates caBundles trust, not linted: one of the "other documents" too.
          secretKeys.push(recognized.object);
          skipped++;
          continue;
        } else if (recognized.type === 'workload') {
          // Linted by the rules about pods, but not an admission object: counted with the others.
          workloads.push(recognized.object);
          skipped++;
        } else if (recognized.type === 'unreadable') problems.push({ ...recognized.problem, documentText: manifest.kind ?? '' });
        // Not an object the API server reads: counted with the other documents, kept for rule unknown-kind.
        else if (recognized.type === 'unknown-kind') skipped++;
        else {
          skipped++;
          continue;
        }
        read.push(manifest);
      }
      // A file of other kinds only (parsed because its text named one we read) is not kept.
      if (read.length === 0 && problems.length === 0 && !hasDirectives(parsed)) {
        // A patch file is kept for its suppression comments, as before.
        if (patch) files.push({ ...parsed, problems, manifests: read });
        continue;
      }
      files.push({ ...parsed, problems, manifests: read });
    }
  }
  if (reach === 'labelled' && (checked.names.length > 0 || checked.every)) {
    const named = workloadsIn(new NamespaceNames(checked.names), checked.every);
    settledWorkloads += readLaterWorkloads(revisits, checked, named, workloadSettle(checked, true, settings, options.podSecurity!.kubeVersion), { files, filePaths, workloads });
  }
  return {
    files,
    paths: filePaths,
    inputs,
    webhookConfigurations,
    namespaces,
    customResourceDefinitions,
    policies,
    workloads,
    bundleWorkloads,
    bundlesWithUnreadWorkloads,
    services,
    servicesOutsideBundles,
    networkPolicies,
    networkPoliciesOutsideBundles,
    secretKeys,
    privateKeysNotRead: keyBudgetOfRun.skipped > 0,
    settledWorkloads,
    podSecurity: settings,
    kustomizePatches: [...kustomizePatches.changes, ...streamPatches],
    kustomizations: [...kustomizePatches.listings, ...streamListings],
    documents,
    skipped,
  };
}

const KUSTOMIZATION_WORD = Buffer.from('Kustomization');

/**
 * Whether `wanted` wants the document at an index of `text` (the documents as the prefilter
 * counts them), its answers found once, on first use. A stream the line scan cannot follow, or
 * one with a suppression comment, is parsed whole: then every document is.
 */
function documentsWanted(text: string | null, wanted: (documentText: string) => boolean): (documentIndex: number) => boolean {
  let answers: boolean[] | undefined;
  return (documentIndex) => {
    // A file with a suppression comment is parsed whole (src/parse/prefilter.ts): every document is read.
    if (text === null || text.includes(SUPPRESSION_MARK)) return true;
    answers ??= documentLines(text)?.map((document) => wanted(text.slice(document.start, document.end))) ?? [];
    return answers.length === 0 || (answers[documentIndex] ?? true);
  };
}

/**
 * The second pass of a `labelled` run: the workloads in checked namespaces, every Namespace
 * read by now. A document is read here when it names a workload kind and a checked namespace
 * (any, once the default namespace is checked), unless its value settles it (src/parse/read.ts).
 * The first pass took no workload from these files (it may have parsed a document that names a
 * kind it reads, as an admission object): the workloads join its files, the manifests added to
 * the file already kept for the path, with the syntax problems of documents that had none there.
 * Returns how many workloads were settled from their value.
 */
function readLaterWorkloads(
  revisits: readonly Revisit[],
  checked: CheckedNamespaces,
  wanted: (documentText: string) => boolean,
  settle: ValueSettle,
  into: { readonly files: ParsedFile[]; readonly filePaths: string[]; readonly workloads: WorkloadObject[] },
): number {
  let settled = 0;
  const names = new NamespaceNames(checked.names);
  const kept = new Map(into.files.map((file, index) => [file.source.path, index]));
  const listed = new Set(into.filePaths);
  for (const revisit of revisits) {
    // None of its namespaces is checked (and no workload without one can be in a checked namespace).
    if (!checked.every && revisit.namespaces !== undefined && !revisit.namespaces.some((name) => names.set.has(name))) continue;
    let raw;
    try {
      raw = revisit.kept ?? readBytes(revisit.path, () => new Uint8Array());
    } catch (error) {
      // Read a moment ago; gone now. The first pass saw it: nothing more to add.
      if (error instanceof InputError) continue;
      throw error;
    }
    if (raw.tooLarge !== undefined) continue;
    // Namespace values the first pass read come from a file that names a workload kind, and one of
    // them is checked (above, unless every namespace is): bytesMayHoldWorkload would say yes again.
    if (revisit.namespaces === undefined && !bytesMayHoldWorkload(raw.bytes, checked.every ? undefined : names)) continue;
    const text = decode(raw.bytes);
    if (text === null) continue;
    // The documents this pass reads; others a whole parse may return are left to the first pass.
    const lines = documentLines(text);
    // A document larger than the API server accepts was reported by the first pass: never read here.
    // A workload its value settles is not parsed (src/psa/screen.ts).
    const eligible = lines === undefined ? undefined : new Set(lines.flatMap((document, index) => {
      const documentText = text.slice(document.start, document.end);
      if (exceedsObjectLimit(documentText) || !wanted(documentText)) return [];
      const answer = settleDocument(documentText, settle);
      if (answer === 'read') settled++;
      return answer === undefined ? [index] : [];
    }));
    if (eligible !== undefined && eligible.size === 0) continue;
    // The prefilter asks its question of the whole text too (is there anything to parse?): yes.
    const chosen = eligible === undefined ? undefined : new Set([...eligible].map((index) => text.slice(lines![index]!.start, lines![index]!.end)));
    const whole = readFile({ path: raw.path, text }, { reads: chosen === undefined ? wanted : (document) => document === text || chosen.has(document) });
    for (const parsed of splitRendered(whole)) {
      const index = kept.get(parsed.source.path);
      const before = index === undefined ? undefined : into.files[index]!;
      const known = new Set(before?.problems.map((problem) => problem.documentIndex));
      const fresh = (documentIndex: number): boolean => !known.has(documentIndex) && (eligible === undefined || eligible.has(documentIndex));
      const problems = parsed.problems.filter((problem) => fresh(problem.documentIndex));
      const read: Manifest[] = [];
      for (const manifest of parsed.manifests) {
        if (eligible !== undefined && !eligible.has(manifest.documentIndex)) continue;
        const recognized = recognize(manifest, { read: 'workloads' });
        if (recognized.type === 'workload') {
          into.workloads.push(recognized.object);
          read.push(manifest);
        } else if (recognized.type === 'unreadable' && fresh(manifest.documentIndex)) problems.push({ ...recognized.problem, documentText: manifest.kind ?? '' });
      }
      if (read.length === 0 && problems.length === 0) continue;
      if (before !== undefined) {
        into.files[index!] = { ...before, problems: [...before.problems, ...problems], manifests: [...before.manifests, ...read] };
      } else {
        kept.set(parsed.source.path, into.files.length);
        into.files.push({ ...parsed, problems, manifests: read });
      }
      if (!listed.has(parsed.source.path)) {
        listed.add(parsed.source.path);
        into.filePaths.push(parsed.source.path);
      }
    }
  }
  return settled;
}

/**
 * In a kustomize patch file: an admission object that is applied as it is by anyone who applies
 * the file. It would do something (doesNothing), and a v1 webhook configuration sets, in some
 * webhook, the fields v1 requires and never defaults (sideEffects, admissionReviewVersions): a
 * strategic-merge patch that restates a webhook's rules and clientConfig takes those from its
 * base, which the API server would reject alone (attack s44b 2); so does a policy without its
 * matchConstraints.
 */
function standsAlone(object: WebhookConfigurationObject | PolicyObject): boolean {
  if (doesNothing(object)) return false;
  // A policy needs its matchConstraints (required): a patch that restates its validations alone takes them from its base (s44c 3).
  if (object.category !== 'webhook-configuration') return isBinding(object) || specOf(object)?.matchConstraints != null;
  if (object.apiVersion !== 'admissionregistration.k8s.io/v1') return true;
  const webhooks = object.written !== null && typeof object.written === 'object' ? (object.written as { webhooks?: unknown }).webhooks : undefined;
  return Array.isArray(webhooks) && webhooks.some((webhook) => webhook !== null && typeof webhook === 'object' && ((webhook as Record<string, unknown>).sideEffects != null || (webhook as Record<string, unknown>).admissionReviewVersions != null));
}

/** A webhook that has both a clientConfig and rules: one the API server can call. */
function callsAndMatches(webhook: unknown): boolean {
  return webhook !== null && typeof webhook === 'object' && (webhook as { clientConfig?: unknown }).clientConfig != null && (webhook as { rules?: unknown }).rules != null;
}

/** A policy's or binding's spec, when it is an object. */
function specOf(object: PolicyObject): Record<string, unknown> | undefined {
  const spec = (object.effective as { spec?: unknown }).spec;
  return spec !== null && typeof spec === 'object' ? (spec as Record<string, unknown>) : undefined;
}

/**
 * Whether an admission object, applied, would do nothing (a kustomize fragment's shape, not
 * linted in a patch file or an unlisted one): a webhook configuration none of whose webhooks has
 * both rules and a clientConfig (a webhook without rules matches nothing), a
 * ValidatingAdmissionPolicy with neither validations nor auditAnnotations, a
 * MutatingAdmissionPolicy without mutations, a binding without a policyName (the API server
 * rejects the last three). Anything that may intercept a request is not this (s40 H2, H3).
 */
function doesNothing(object: WebhookConfigurationObject | PolicyObject): boolean {
  const some = (value: unknown): boolean => Array.isArray(value) && value.length > 0;
  if (object.category === 'webhook-configuration') {
    const webhooks = object.effective.webhooks;
    return !(Array.isArray(webhooks) && webhooks.some(callsAndMatches));
  }
  const spec = specOf(object);
  if (spec === undefined) return true;
  if (object.kind === 'ValidatingAdmissionPolicy') return !some(spec.validations) && !some(spec.auditAnnotations);
  if (object.kind === 'MutatingAdmissionPolicy') return !some(spec.mutations);
  return spec.policyName == null || spec.policyName === '';
}

/** Suppression comments are reported (unused, without a reason) even in a file with nothing else. */
function hasDirectives(file: ParsedFile): boolean {
  return file.source.text?.includes(SUPPRESSION_MARK) ?? false;
}

/** A loaded run as the analyses see it: its objects, discovery (built-in APIs plus its CRDs) and a fresh memo. */
export function runScope(run: LintRun, kubeVersion: KubeVersion, kubeVersionDefaulted = false): RunScope {
  const discovery = new Discovery(kubeVersion);
  const unreadable = unreadableDocuments(run.files);
  // A group whose CRDs may be incomplete (one of them may be in a document the run could not
  // read) is left unknown, as a group without CRDs in the run is: rules judge no resource of it.
  const complete = (group: string): boolean => !unreadableMayHoldNaming({ unreadable }, 'CustomResourceDefinition', group);
  for (const crd of run.customResourceDefinitions) if (complete(crd.group)) discovery.addCustomResource(crd);
  return {
    webhookConfigurations: run.webhookConfigurations,
    namespaces: run.namespaces,
    policies: run.policies,
    workloads: run.workloads,
    bundleWorkloads: run.bundleWorkloads,
    bundlesWithUnreadWorkloads: run.bundlesWithUnreadWorkloads,
    services: run.services,
    servicesOutsideBundles: run.servicesOutsideBundles,
    networkPolicies: run.networkPolicies,
    networkPoliciesOutsideBundles: run.networkPoliciesOutsideBundles,
    secretKeys: run.secretKeys,
    podSecurity: run.podSecurity,
    unreadable,
    kustomizePatches: run.kustomizePatches,
    kustomizations: run.kustomizations,
    kubeVersion,
    kubeVersionDefaulted,
    discovery,
    memo: new RunMemo(),
  };
}

/**
 * Problems that do not keep a document from being read: a key written twice (read with its last
 * value) and a line kubectl stops at (the linter reads on).
 */
const READ_ANYWAY = new Set(['DUPLICATE_KEY', 'KUBECTL_SPLIT']);

/**
 * The documents of the run that could not be read, each once, with their text where it is known;
 * and the objects of a kind admissionregistration.k8s.io never had, with that kind as their text
 * (a misspelled policy is still the policy its binding means: rule unknown-kind names the cause,
 * and the analyses of absence say nothing more of it).
 */
export function unreadableDocuments(files: readonly ParsedFile[]): UnreadableDocument[] {
  const out: UnreadableDocument[] = [];
  for (const file of files) {
    const seen = new Set<number>();
    for (const problem of file.problems) {
      if (problem.severity !== 'error' || READ_ANYWAY.has(problem.code) || seen.has(problem.documentIndex)) continue;
      seen.add(problem.documentIndex);
      out.push({ file: file.source.path, documentIndex: problem.documentIndex, text: problem.documentText });
    }
    for (const manifest of file.manifests) {
      if (isUnknownAdmissionKind(manifest.apiVersion, manifest.kind)) out.push({ file: file.source.path, documentIndex: manifest.documentIndex, text: manifest.kind });
    }
  }
  return out;
}

/**
 * The workloads of a bundle's text, read with the fast reader, which gives exactly the value
 * kubectl reads or nothing: none is reported or linted (a bundle's broken workload changes no
 * finding). A document that may be a workload and is not read so marks the bundle: what runs its
 * webhooks is then not known.
 */
function readBundleWorkloads(path: string, text: string, into: BundleWorkload[], unread: Set<string>): void {
  for (const document of documentLines(text) ?? []) {
    const documentText = text.slice(document.start, document.end);
    if (!mightBeWorkload(documentText)) continue;
    const value = readSimpleDocument(documentText);
    if (value === undefined || Array.isArray(value.items)) {
      unread.add(path);
      continue;
    }
    const workload = bundleWorkloadOf(value, path);
    if (workload !== undefined) into.push(workload);
  }
}
