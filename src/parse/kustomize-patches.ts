/**
 * The objects a kustomization's patches change, read from the kustomization alone: each entry of
 * `patches`, `patchesStrategicMerge` and `patchesJson6902`, with its target (the `target` selector,
 * or the kind and name a strategic-merge patch names in its own text). `kubectl kustomize`
 * applies them to the resources; the linter reads the resources as written, so the objects they
 * change are named in the output (the `kustomize-patched` rule), never judged silently.
 */
import { RE2JS } from 're2js';
import { BoundedCache, ObjectMemo } from '../cache.js';
import { pushAll } from '../collections.js';
import { realpathSync } from 'node:fs';
import { resolve } from 'node:path';
import { isAlias, isMap, isScalar, isSeq, LineCounter, parseAllDocuments, visit, type Document, type Node } from 'yaml';
import { writesCaBundle } from '../kube/ca-injection.js';

/** Which objects a patch applies to; a field left out matches every object. */
export interface PatchTarget {
  readonly kind?: string;
  /** A name, or a regular expression kustomize matches the whole name against. */
  readonly name?: string;
  /**
   * A legacy patchesJson6902 target's name less its kustomization's own namePrefix and nameSuffix:
   * kustomize selects by the original name too (unprefixed, below).
   */
  readonly unprefixedName?: string;
  /** A label or annotation selector the linter does not evaluate: the target may be any object of the kind. */
  readonly selector?: boolean;
  /**
   * The selectors as written (labels.Parse's string form), where they may be evaluated on the
   * object's written labels and annotations (src/match/patched.ts): set for the targets of
   * `replacements`, for the kinds of metadata the kustomization does not add itself.
   */
  readonly metadataSelectors?: { readonly labels?: string; readonly annotations?: string };
  /** A selector's `group` and `version`: kustomize matches them (as whole-value expressions) against the object's apiVersion. */
  readonly group?: string;
  readonly version?: string;
  /**
   * The target also names a namespace (a selector's `namespace`, a strategic-merge patch's
   * `metadata.namespace`), which kustomize matches too: whether it selects the object is not
   * judged here.
   */
  readonly qualified?: boolean;
  /** A strategic-merge patch's apiVersion, which kustomize matches against the object's. */
  readonly apiVersion?: string;
}

/**
 * A kustomization of the run: which files and folders it lists, and whether anything in it may
 * change webhooks after its patches (`vars`, `transformers`, `components`, `replacements` of
 * fields outside metadata, `labels` with fields of their own, `configurations` that name a
 * selector or cannot be read).
 */
export interface KustomizationListing {
  /** The kustomization file, as shown. */
  readonly file: string;
  /** Its `resources` and `bases`, resolved against its folder (symbolic links followed where they resolve). */
  readonly resources: readonly string[];
  /**
   * Those of `resources` written as a remote repository or file (a URL, `github.com/…`, `git@…`),
   * which kustomize fetches: a remote base holds nothing of this repository's, so it can be no
   * overlay of a folder here, and it patches or moves nothing outside its own build.
   */
  readonly remote?: readonly string[];
  readonly transformsAfterPatches: boolean;
  /** The kustomization file is there but was not read (too large, not a regular file, a `<<` merge key): what it builds is not known. */
  readonly unreadable?: true;
  /** It renames objects or moves them (`namePrefix`, `nameSuffix`, `namespace`): a patch may then target the new name, or a selector name the old namespace. */
  readonly renames: boolean;
  /** Its `namePrefix` and `nameSuffix`, when written as strings (src/match/kustomize-names.ts). */
  readonly namePrefix?: string;
  readonly nameSuffix?: string;
  /** It sets `namespace`: objects move, and kustomize moves a webhook's clientConfig.service with its Service. */
  readonly moves?: true;
  /** It has `vars`: they replace `$(NAME)` in the fields they are configured for, nothing else (and are counted in transformsAfterPatches). */
  readonly vars?: true;
  /** transformsAfterPatches but for `vars`; absent (unknown) for a kustomization that was not read. */
  readonly transformsOtherwise?: boolean;
  /** It is a Component (`kind: Component`): its patches apply to what the kustomization that lists it builds, after that one's resources. */
  readonly component?: true;
  /** It lists components (among its resources above): their transformers (a namePrefix) apply to all it builds. */
  readonly hasComponents?: true;
  /**
   * It may change a Namespace's labels as it builds: `commonLabels`, `labels`, any `transformers`
   * or `configurations` (a LabelTransformer, or fieldSpecs that point commonAnnotations, images or
   * a nameReference at metadata/labels), generators and helm charts (objects it makes, a
   * Namespace among them), or `replacements` that may select a Namespace. Not `vars` (see
   * `vars`): they change a label only where its value holds `$(`.
   */
  readonly mayRelabelNamespaces?: true;
  /** Its configurations, transformers or generators may make names written elsewhere than metadata.name (a policyName): src/match/kustomize-names.ts does not follow it. */
  readonly configures?: true;
  /** Its `namespace`, when written as a string. */
  readonly namespace?: string;
  /** The names its `vars` declare; absent when it has none, or one is not written as `name: <string>`. */
  readonly varNames?: readonly string[];
  /**
   * The varReference and namespace field specs of its `configurations`, when it has any and every
   * file they list was read (src/match/kustomize-fills.ts); absent otherwise.
   */
  readonly fieldSpecs?: readonly ConfiguredFieldSpec[];
}

/** A field spec of a transformer configuration (kustomize's FieldSpec): what a transformer writes. */
export interface ConfiguredFieldSpec {
  readonly transformer: 'varReference' | 'namespace';
  readonly path: string;
  readonly kind?: string;
  readonly group?: string;
  readonly version?: string;
  readonly create: boolean;
}

/**
 * How a patch selects its objects, which decides the names it sees them by (kustomize's builtin
 * transformer order, kusttarget.go): `target`, a `patches` entry's selector, runs before the
 * kustomization's own namePrefix and nameSuffix; `legacy`, a patchesJson6902 target, after them;
 * `content`, a strategic-merge patch without a target, by the kind and name it writes (any name
 * the object had); `replacement`, a replacement's `select`, after them and compared whole, not as
 * a regular expression.
 */
export type PatchSelection = 'target' | 'legacy' | 'content' | 'replacement';

/**
 * The prefixes and suffixes around an object's name that one patch may select it by, besides the
 * name as written (src/match/patched.ts patchNamesOf); undefined where they are not known.
 */
export type PatchNames = (patch: KustomizePatch, renamed?: boolean) => NameAffixes;

export interface KustomizePatch {
  /** The kustomization file. */
  readonly file: string;
  /** How it selects objects (absent: as `target`). */
  readonly selection?: PatchSelection;
  /** The patch's text, when read: patches of the same text do the same to each copy they select (patchesChanging). */
  readonly text?: string;
  /** 1-based line of the patch entry in it. */
  readonly line: number;
  readonly target: PatchTarget;
  /** The patch file, as `readPatch` was given it (undefined for an inline patch). */
  readonly source?: string;
  /** What the patch does to webhooks' selectors (webhook configurations only): see SelectorChanges. */
  readonly selectors?: SelectorChanges;
  /** It writes a CA-injection annotation or caBundle itself (src/kube/ca-injection.ts): the build has a bundle. */
  readonly writesCaBundle?: true;
  /** A `replacements` entry (fields copied from another object), not a patch. */
  readonly replacement?: true;
  /** It changes the object's metadata only (a rename, an annotation): nothing a webhook matches or calls. */
  readonly metadataOnly?: true;
  /** ... and not its name: metadata.name is not written (src/match/kustomize-names.ts). */
  readonly keepsName?: true;
  /**
   * It only sets (adds or replaces with a value) labels and annotations, none of admission-lint's
   * own (`admission-lint.dev/…`) nor kustomize's local-config: no finding of an admission object
   * depends on it (rules/kustomize-patched.ts). A delete, a null, a directive is not this.
   */
  readonly setsLabelsOrAnnotationsOnly?: true;
  /** It has `options` (allowKindChange, allowNameChange): the object it patches may become another kind (a Namespace, a Service). */
  readonly changesKind?: true;
  /** A replacement that may write the objects' metadata.name (a path to it, a wildcard there, or a path not read). */
  readonly replacesName?: true;
  /** The name a JSON 6902 operation on /metadata/name gives the object: patches of a later kustomization may target it by that name. */
  readonly renamesTo?: string;
  /** It leaves each object it patches under its name, namespace and kind (see keepsPlace): a Service it patches is not moved. */
  readonly keepsPlace?: true;
  /** Its file could not be read (missing: generated by a build step; outside the folder; not a regular file): what it targets is not known. */
  readonly unread?: true;
}

/**
 * A webhook's namespaceSelector or objectSelector as a patch sets it, or the `scope` of one of its
 * rules (`rule`: its index; a JSON 6902 path only).
 */
export interface SelectorChange {
  /** The webhook: by name (a strategic-merge patch merges `webhooks` by name) or by index (a JSON 6902 path). */
  readonly webhook: { readonly name: string } | { readonly index: number };
  readonly field: 'namespaceSelector' | 'objectSelector' | 'scope';
  /** For `scope`: the index of the rule. */
  readonly rule?: number;
  /** `merge`: strategic merge (maps merged key by key, lists replaced, null deletes); `replace`; `remove`. */
  readonly op: 'merge' | 'replace' | 'remove';
  readonly value?: unknown;
}

/**
 * The selector changes of a patch, and whether they are all it may do to selectors (`known`):
 * false when the patch touches a selector in a way not read here (a path inside one, the whole
 * `webhooks` list, a `$patch` directive, an unreadable patch).
 */
export interface SelectorChanges {
  readonly changes: readonly SelectorChange[];
  readonly known: boolean;
  /** A JSON 6902 `test` operation is among them: it changes nothing, but kustomize fails the build when it does not hold. */
  readonly tests?: true;
  /**
   * The Service namespaces a strategic merge writes into webhooks' clientConfig (a controller-gen
   * patch repeats the whole clientConfig): known only when each is the webhook's own already.
   */
  readonly serviceNamespaces?: readonly { readonly webhook: string; readonly namespace: string }[];
  /**
   * The scalar settings (WEBHOOK_SETTINGS) a strategic merge writes into webhooks, as a scaffold's
   * patch repeats `matchPolicy: Equivalent` beside the selector it adds: known only when each is
   * the value the webhook has already (written, or the API's default).
   */
  readonly settings?: readonly { readonly webhook: string; readonly field: string; readonly value: unknown }[];
}

/** A webhook's scalar settings that a selector patch may repeat (src/match/kustomize-selectors.ts compares them with the webhook's own). */
const WEBHOOK_SETTINGS: ReadonlySet<string> = new Set(['matchPolicy', 'reinvocationPolicy', 'failurePolicy', 'timeoutSeconds', 'sideEffects']);

const SELECTOR_FIELDS = ['namespaceSelector', 'objectSelector'] as const;

/**
 * Whether a patch's documents (patchDocuments) change metadata only: JSON 6902 operations on
 * paths under /metadata (no move or copy), or strategic-merge documents with nothing but
 * apiVersion, kind and metadata.
 */
function changesMetadataOnly(documents: readonly unknown[]): boolean {
  if (documents.length === 0) return false;
  return documents.every((value) => {
    if (Array.isArray(value)) {
      return value.every((operation) => {
        const { op, path } = (operation ?? {}) as { op?: unknown; path?: unknown };
        return typeof path === 'string' && path.startsWith('/metadata/') && op !== 'move' && op !== 'copy';
      });
    }
    return value !== null && typeof value === 'object' && Object.keys(value).every((key) => key === 'apiVersion' || key === 'kind' || key === 'metadata');
  });
}

/**
 * Whether a patch's documents only set labels and annotations: JSON 6902 `add` or `replace` of a
 * non-null value under /metadata/labels/ or /metadata/annotations/, or strategic-merge documents
 * of apiVersion, kind and metadata whose metadata holds name and string-valued labels and
 * annotations only; and nothing of admission-lint's own annotations, local-config or a `$patch`
 * directive, in any spelling the YAML reader resolves (the decoded documents are searched).
 */
function setsLabelsOrAnnotationsOnly(documents: readonly unknown[]): boolean {
  if (documents.length === 0 || /admission-lint|local-config|\$patch/.test(JSON.stringify(documents))) return false;
  const strings = (value: unknown): boolean => value !== null && typeof value === 'object' && !Array.isArray(value) && Object.values(value).every((item) => typeof item === 'string');
  return documents.every((value) => {
    if (Array.isArray(value)) {
      return value.length > 0 && value.every((operation) => {
        const { op, path, value: written } = (operation ?? {}) as { op?: unknown; path?: unknown; value?: unknown };
        return (op === 'add' || op === 'replace') && typeof path === 'string' && /^\/metadata\/(?:labels|annotations)\/[^/]+$/.test(path) && typeof written === 'string';
      });
    }
    if (value === null || typeof value !== 'object') return false;
    const { metadata, ...rest } = value as Record<string, unknown>;
    if (Object.keys(rest).some((key) => key !== 'apiVersion' && key !== 'kind')) return false;
    if (metadata === null || typeof metadata !== 'object' || Array.isArray(metadata)) return false;
    return Object.entries(metadata).every(([key, item]) => key === 'name' || ((key === 'labels' || key === 'annotations') && strings(item)));
  });
}

/**
 * Whether a metadata-only patch may write metadata.name (a JSON operation on it, or on the whole
 * metadata), or take the object out of the build (the local-config annotation, in any spelling
 * the YAML reader resolves).
 */
function writesName(documents: readonly unknown[]): boolean {
  if (JSON.stringify(documents).includes('local-config')) return true;
  return documents.some((value) => Array.isArray(value) && value.some((operation) => {
    const path = (operation as { path?: unknown } | null)?.path;
    return path === '/metadata/name' || path === '/metadata';
  }));
}

/** The fields that place an object (its identity), as JSON 6902 paths: the root, its kind and apiVersion, its metadata, name and namespace. */
const PLACING_PATHS = /^(?:|\/kind|\/apiVersion|\/metadata|\/metadata\/name|\/metadata\/namespace)$/;

/**
 * Whether a patch's documents leave every object they patch under its name, namespace and kind.
 * A strategic merge does: kustomize restores the object's name and kind after it (unless the
 * entry's `options` allow a change, which the caller rules out) and always its namespace
 * (api/resource Resource.ApplySmPatch). A JSON 6902 patch does when every operation's `path`, and
 * a `move`'s `from`, starts with `/` and is none of PLACING_PATHS (s40 H1).
 */
function keepsPlace(documents: readonly unknown[]): boolean {
  if (documents.length === 0) return false;
  return documents.every(
    (value) =>
      !Array.isArray(value) ||
      value.every((operation) => {
        const { op, path, from } = (operation ?? {}) as { op?: unknown; path?: unknown; from?: unknown };
        // kustomize's JSON patch drops a path's first segment whatever it says (`x/metadata/namespace`
        // is /metadata/namespace): only a path that starts with `/` reads as written. A `move`
        // takes its `from` away; a `copy` only reads it.
        const written = (pointer: unknown): boolean => typeof pointer === 'string' && pointer.startsWith('/') && !PLACING_PATHS.test(pointer);
        return written(path) && (op !== 'move' || written(from));
      }),
  );
}

/** The name the last JSON 6902 `add` or `replace` of /metadata/name writes, if a patch has one. */
function renamedTo(documents: readonly unknown[]): string | undefined {
  let name: string | undefined;
  for (const value of documents) {
    if (!Array.isArray(value)) continue;
    for (const operation of value) {
      const { op, path, value: written } = (operation ?? {}) as { op?: unknown; path?: unknown; value?: unknown };
      if (path === '/metadata/name' && (op === 'add' || op === 'replace') && typeof written === 'string') name = written;
    }
  }
  return name;
}

/** The selector changes of a strategic-merge patch document (its value). */
/** The fields of a strategic-merge patch's webhook entry that it may hold when all it changes is selectors. */
const SELECTOR_PATCH_WEBHOOK_FIELDS = new Set(['name', 'namespaceSelector', 'objectSelector']);
/** The top-level fields of such a patch: the object's identity and metadata, and its webhooks. */
const SELECTOR_PATCH_FIELDS = new Set(['apiVersion', 'kind', 'metadata', 'webhooks']);

function mergeSelectorChanges(value: unknown): SelectorChanges {
  const webhooks = (value as { webhooks?: unknown } | null)?.webhooks;
  if (webhooks === undefined) return { changes: [], known: true };
  if (!Array.isArray(webhooks) || JSON.stringify(value).includes('"$')) return { changes: [], known: false };
  // A patch that also changes other fields (a webhook's rules or clientConfig, say) changes what
  // the webhook matches or calls: the build is not the object written plus its selectors.
  if (Object.keys(value as object).some((key) => !SELECTOR_PATCH_FIELDS.has(key))) return { changes: [], known: false };
  const changes: SelectorChange[] = [];
  const serviceNamespaces: { webhook: string; namespace: string }[] = [];
  const settings: { webhook: string; field: string; value: unknown }[] = [];
  const named = new Set<string>();
  for (const webhook of webhooks) {
    const name = (webhook as { name?: unknown } | null)?.name;
    if (typeof name !== 'string') return { changes: [], known: false };
    // A webhook named twice: kustomize merges the first entry only (round 15), the linter would apply both.
    if (named.has(name)) return { changes: [], known: false };
    named.add(name);
    if (Object.keys(webhook as object).some((key) => !SELECTOR_PATCH_WEBHOOK_FIELDS.has(key) && !WEBHOOK_SETTINGS.has(key) && !(key === 'clientConfig' && keepsServiceNamespace((webhook as Record<string, unknown>)[key])))) return { changes: [], known: false };
    for (const [field, value] of Object.entries(webhook as object)) if (WEBHOOK_SETTINGS.has(field)) settings.push({ webhook: name, field, value });
    const namespace = ((webhook as { clientConfig?: { service?: { namespace?: unknown } } }).clientConfig?.service?.namespace);
    if (typeof namespace === 'string') serviceNamespaces.push({ webhook: name, namespace });
    for (const field of SELECTOR_FIELDS) {
      if (!Object.prototype.hasOwnProperty.call(webhook, field)) continue;
      const written = (webhook as Record<string, unknown>)[field];
      changes.push(written === null ? { webhook: { name }, field, op: 'remove' } : { webhook: { name }, field, op: 'merge', value: written });
    }
  }
  return { changes, known: true, ...(serviceNamespaces.length > 0 ? { serviceNamespaces } : {}), ...(settings.length > 0 ? { settings } : {}) };
}

/**
 * A webhook's clientConfig as a patch merges it, when it changes only the Service's name, path,
 * port or namespace: the namespace is all the selectors' judgment (matches-kube-system,
 * self-deadlock) reads of whom it calls, and one written is recorded (serviceNamespaces) and
 * must be the webhook's own. A URL or a bundle (or a `$patch` directive) is more.
 */
function keepsServiceNamespace(clientConfig: unknown): boolean {
  if (clientConfig === null || typeof clientConfig !== 'object' || Array.isArray(clientConfig)) return false;
  const keys = Object.keys(clientConfig);
  if (keys.length !== 1 || keys[0] !== 'service') return false;
  const service = (clientConfig as { service?: unknown }).service;
  if (service === null || typeof service !== 'object' || Array.isArray(service)) return false;
  return Object.entries(service).every(([key, value]) => (key === 'name' || key === 'path' || key === 'namespace') ? typeof value === 'string' : key === 'port' && typeof value === 'number');
}

/**
 * A JSON 6902 write of a webhook's Service name, path or port with a value the API server takes
 * (a DNS-1123 label, a path from `/`, a port from 1 to 65535): one it rejects fails the object,
 * and the webhook is then not judged as patched (s45a 6).
 */
function validServiceWrite(path: string, value: unknown): boolean {
  const field = /^\/webhooks\/\d+\/clientConfig\/service\/(name|path|port)$/.exec(path)?.[1];
  if (field === 'name') return typeof value === 'string' && value.length <= 63 && /^[a-z0-9](?:[-a-z0-9]*[a-z0-9])?$/.test(value);
  if (field === 'path') return typeof value === 'string' && value.startsWith('/');
  if (field === 'port') return typeof value === 'number' && Number.isInteger(value) && value >= 1 && value <= 65535;
  return false;
}

/** The selector changes of JSON 6902 operations. */
function jsonPatchSelectorChanges(operations: readonly unknown[]): SelectorChanges {
  const changes: SelectorChange[] = [];
  let tests = false;
  for (const operation of operations) {
    const { op, path, value } = (operation ?? {}) as { op?: unknown; path?: unknown; value?: unknown };
    // A move or copy takes a value from `from` (a selector may leave, or arrive from anywhere); an
    // operation on the whole object (path "") replaces everything.
    if (op === 'move' || op === 'copy' || path === '' || path === '/') return { changes: [], known: false };
    if (typeof path !== 'string') return { changes: [], known: false };
    // `test` changes nothing; metadata is no part of what a webhook matches or calls.
    if (op === 'test') tests = true;
    if (op === 'test' || path === '/metadata' || path.startsWith('/metadata/')) continue;
    const exact = /^\/webhooks\/(\d+)\/(namespaceSelector|objectSelector)$/.exec(path);
    if (exact !== null && (op === 'add' || op === 'replace' || op === 'remove')) {
      const field = exact[2] as SelectorChange['field'];
      const webhook = { index: Number(exact[1]) };
      changes.push(op === 'remove' ? { webhook, field, op: 'remove' } : { webhook, field, op: 'replace', value });
      continue;
    }
    // A rule's scope (set to narrow a wildcard rule to namespaced resources): a string, or removed.
    const scope = /^\/webhooks\/(\d+)\/rules\/(\d+)\/scope$/.exec(path);
    if (scope !== null && (op === 'remove' || ((op === 'add' || op === 'replace') && typeof value === 'string'))) {
      const webhook = { index: Number(scope[1]) };
      changes.push(op === 'remove' ? { webhook, field: 'scope', rule: Number(scope[2]), op: 'remove' } : { webhook, field: 'scope', rule: Number(scope[2]), op: 'replace', value });
      continue;
    }
    // The called Service's name, path or port (a scaffold's overlay writes its prefixed Service
    // name): as keepsServiceNamespace reads a strategic merge, the namespace is all the selectors'
    // judgment reads of whom a webhook calls, and a write of it is not read here.
    if ((op === 'add' || op === 'replace') && validServiceWrite(path, value)) continue;
    // Anything else changes what the webhooks match or call (rules, clientConfig, a selector in
    // part, a whole webhook), or the object itself: what the build holds is not read here.
    return { changes: [], known: false };
  }
  return tests ? { changes, known: true, tests: true } : { changes, known: true };
}


/**
 * A resource kustomize loads from elsewhere (api/internal/git/repospec.go, loader.IsRemoteFile):
 * a URL with a scheme, a `git::` or `gh:` prefix, an scp-style `git@host:` address, or a
 * github.com path without a scheme. Anything else is read as a local path, and so is a `file://`
 * URL (it may be this repository at another commit) or one with a `..` segment (kustomize
 * builds `gh:x/../../ns` as the local folder when there is one: s45a 4).
 */
const REMOTE_RESOURCE = /^(?!file:)(?:[A-Za-z][A-Za-z0-9+.-]*:\/\/|git::|gh:|git@|github\.com\/)(?!.*(?:^|\/)\.\.(?:\/|$|\?))/;

/** A kustomization is a few lines; a patch file is read at most this large. */
export const MAX_PATCH_BYTES = 1024 * 1024;

function str(value: unknown): string | undefined {
  return typeof value === 'string' && value !== '' ? value : undefined;
}

/** The target of a `target:` selector. */
function selectorTarget(value: unknown): PatchTarget | undefined {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
  const selector = value as Record<string, unknown>;
  const kind = str(selector.kind);
  const name = str(selector.name);
  const selects = str(selector.labelSelector) !== undefined || str(selector.annotationSelector) !== undefined;
  const group = str(selector.group);
  const version = str(selector.version);
  const qualified = selector.namespace != null;
  return {
    ...(kind === undefined ? {} : { kind }),
    ...(name === undefined ? {} : { name }),
    ...(group === undefined ? {} : { group }),
    ...(version === undefined ? {} : { version }),
    ...(selects ? { selector: true } : {}),
    ...(qualified ? { qualified: true } : {}),
  };
}

/**
 * kustomize reads its files with go-yaml, which merges `<<` keys; read without them, a merged
 * `patches:` or `labelSelector:` would be unseen. A text that may hold one is not read here: its
 * effect is unknown (src/parse/go-yaml-schema.ts reads manifests so; these files decide only
 * what the linter may take as certain).
 */
function mayMerge(text: string): boolean {
  // Also NEL, LS and PS, which go-yaml's scanner takes as line breaks (round 16): after a comment,
  // one hides from the linter lines that kustomize reads.
  return text.includes('<<') || /[\u0085\u2028\u2029]/.test(text);
}

/**
 * Whether a document has a key the linter may not read as kustomize's go-yaml does: one with a
 * tag (`!!binary cGF0Y2hlcw==` is `patches`; `!!merge "\x3c\x3c"` is a merge key though `<<` is
 * nowhere in the text), a merge key however written, or a key that is not a scalar (an alias, a
 * collection). Round 17: a key found by name (`root.get('patches')`) missed such spellings.
 */
function hasUnreadableKey(doc: Document.Parsed): boolean {
  let unreadable = false;
  visit(doc, {
    Pair(_, pair) {
      const key = pair.key;
      if (!isScalar(key) || isAlias(key) || key.tag !== undefined || String(key.value) === '<<') {
        unreadable = true;
        return visit.BREAK;
      }
      return undefined;
    },
  });
  return unreadable;
}

/**
 * Whether a document holds an alias (`*name`): a patch list's item or `path:` may be one, which
 * the entries below, read node by node, would not follow (s36a 3-A). Such a kustomization's
 * patches are not known.
 */
function hasAlias(doc: Document.Parsed): boolean {
  let found = false;
  visit(doc, {
    Alias() {
      found = true;
      return visit.BREAK;
    },
  });
  return found;
}

/** The values of a patch text's documents; undefined for one that does not parse (or may merge). */
/**
 * Whether a patch's text may take a webhook out of a configuration of `kind`, or change where one
 * calls or what bundle it has (read, not matched as text: s47f 1-4, s47g). JSON 6902 (the first
 * document, as kustomize reads it): an operation other than `test` on the root, on `/webhooks`, on
 * a webhook (`/webhooks/N`, N as Go's strconv reads it; an `add` there inserts and leaves the
 * others), on its clientConfig whole, or on its caBundle, url, or service name or namespace (a
 * move's `from` too). Strategic merge (its documents of that kind, or of none): `webhooks` written
 * other than as a list of named items (kustomize then replaces the list), a webhook's clientConfig,
 * or a `$patch: replace` or `delete`, or `$retainKeys`. A text that does not read: true.
 */
export function mayMoveWebhooks(text: string, kind: string): boolean {
  let documents: unknown[];
  try {
    documents = parseAllDocuments(text, { logLevel: 'silent', merge: true }).map((doc) => {
      if (doc.errors.length > 0) throw new Error('unreadable');
      return doc.toJS({ maxAliasCount: 100 }) as unknown;
    });
  } catch {
    return true;
  }
  const first = documents[0];
  if (Array.isArray(first)) return first.some((operation) => typeof operation !== 'object' || operation === null || movesByOperation(operation as { op?: unknown; path?: unknown; from?: unknown }));
  return documents.some((document) => {
    if (typeof document !== 'object' || document === null || Array.isArray(document)) return false;
    const written = (document as { kind?: unknown }).kind;
    if (written !== undefined && written !== kind) return false;
    if (replacesByDirective(document)) return true;
    if (!('webhooks' in document)) return false;
    const webhooks = (document as { webhooks?: unknown }).webhooks;
    return !Array.isArray(webhooks) || webhooks.some((webhook) => typeof webhook !== 'object' || webhook === null || typeof (webhook as { name?: unknown }).name !== 'string' || 'clientConfig' in webhook);
  });
}

/** A JSON 6902 path into a webhook: its index (as Go's strconv.Atoi reads it) and what follows. */
const WEBHOOK_PATH = /^\/webhooks\/(?:-|[+-]?\d+)(\/.*)?$/;
/** Under a webhook: what says where it calls and what it trusts. */
const CALLS = /^\/clientConfig(?:\/(?:caBundle|url|service(?:\/(?:name|namespace))?))?$/;

function movesByOperation({ op, path, from }: { op?: unknown; path?: unknown; from?: unknown }): boolean {
  if (op === 'test') return false;
  const moves = (at: unknown, inserting: boolean): boolean => {
    if (typeof at !== 'string') return true;
    if (at === '' || at === '/webhooks') return true;
    const found = WEBHOOK_PATH.exec(at);
    if (found === null) return false;
    const rest = found[1];
    return rest === undefined ? !inserting : CALLS.test(rest);
  };
  return moves(path, op === 'add') || (op === 'move' && moves(from, false));
}

function replacesByDirective(value: unknown): boolean {
  if (Array.isArray(value)) return value.some(replacesByDirective);
  if (typeof value !== 'object' || value === null) return false;
  return Object.entries(value).some(([key, each]) => (key === '$patch' && (each === 'replace' || each === 'delete')) || key === '$retainKeys' || replacesByDirective(each));
}

function patchDocuments(text: string): unknown[] | undefined {
  if (mayMerge(text)) return undefined;
  let documents;
  try {
    documents = parseAllDocuments(text, { logLevel: 'silent' });
  } catch {
    return undefined;
  }
  if (!Array.isArray(documents)) return [];
  return documents.map((doc): unknown => {
    if (doc.errors.length > 0 || hasUnreadableKey(doc)) return undefined;
    try {
      return doc.toJS({ maxAliasCount: 100 });
    } catch {
      // An alias the yaml library refuses to merge (or expand): not read.
      return undefined;
    }
  });
}

/**
 * The objects a strategic-merge patch names (each document's kind and metadata.name), with what
 * each does to webhooks' selectors; a JSON 6902 list names none.
 */
function namedTargets(text: string): { target: PatchTarget; selectors: SelectorChanges; document?: unknown }[] {
  const unknown = { changes: [], known: false };
  const documents = patchDocuments(text);
  if (documents === undefined) return [{ target: {}, selectors: unknown }];
  const targets: { target: PatchTarget; selectors: SelectorChanges; document?: unknown }[] = [];
  for (const value of documents) {
    if (Array.isArray(value) || value === null) continue;
    if (typeof value !== 'object') {
      // Unreadable: it may change anything.
      targets.push({ target: {}, selectors: unknown });
      continue;
    }
    const object = value as { kind?: unknown; apiVersion?: unknown; metadata?: { name?: unknown; namespace?: unknown } };
    const kind = str(object.kind);
    // kustomize unpacks a patch of a kind that ends in List and applies each of its items.
    if (kind !== undefined && kind.endsWith('List')) {
      targets.push({ target: {}, selectors: unknown });
      continue;
    }
    const name = str(object.metadata?.name);
    const apiVersion = str(object.apiVersion);
    const qualified = object.metadata?.namespace != null;
    targets.push({
      target: { ...(kind === undefined ? {} : { kind }), ...(name === undefined ? {} : { name }), ...(apiVersion === undefined ? {} : { apiVersion }), ...(qualified ? { qualified: true } : {}) },
      selectors: mergeSelectorChanges(value),
      // kustomize applies each document of the file to the object it names: what this one does is its own.
      document: value,
    });
  }
  return targets;
}

/** What a patch given with a target (`patches`, `patchesJson6902`) does to selectors: JSON 6902 operations, or one strategic-merge document. */
function targetedSelectorChanges(text: string | undefined): SelectorChanges {
  if (text === undefined) return { changes: [], known: false };
  const documents = patchDocuments(text);
  if (documents === undefined || documents.length !== 1) return { changes: [], known: documents !== undefined && documents.length === 0 };
  const [value] = documents;
  if (Array.isArray(value)) return jsonPatchSelectorChanges(value);
  if (value === null || typeof value !== 'object') return { changes: [], known: false };
  return mergeSelectorChanges(value);
}

/**
 * The fields of a kustomization that change objects after its patches are applied (replacements:
 * see below), or change what its patches do: `openapi` (a schema may merge `webhooks` by another
 * key, so a strategic merge lands elsewhere) and `crds` (fieldSpecs, as configurations, that may
 * point name references at a selector's values).
 */
const AFTER_PATCHES = ['vars', 'transformers', 'components', 'openapi', 'crds'] as const;

/**
 * Whether a kustomization's `replacements` may write a webhook's fields: a target that may select
 * a webhook configuration, with a field path outside `metadata` (the cert-manager annotations that
 * scaffolds write are in metadata), or replacements read from a file, which is not read here.
 */
function replacementsMayWriteWebhooks(replacements: unknown): boolean {
  if (replacements == null) return false;
  if (!Array.isArray(replacements)) return true;
  return replacements.some((replacement) => {
    const targets = (replacement as { targets?: unknown; path?: unknown } | null)?.targets;
    if (!Array.isArray(targets)) return true;
    return targets.some((target) => {
      const { fieldPaths: paths, select } = (target ?? {}) as { fieldPaths?: unknown; select?: { kind?: unknown } | null };
      // A target of another kind (a Certificate's dnsNames) never writes a webhook.
      if (selectsNoneOf(select?.kind, ['MutatingWebhookConfiguration', 'ValidatingWebhookConfiguration'])) return false;
      return !Array.isArray(paths) || paths.some((path) => typeof path !== 'string' || !/^\.?metadata\./.test(path));
    });
  });
}

/**
 * The fields of a kustomization known to leave a Namespace's labels as written (their default
 * field specs never reach metadata/labels; a generator makes ConfigMaps and Secrets only).
 * Any other field may change or make a Namespace's labels (KustomizationListing.mayRelabelNamespaces):
 * commonLabels, labels, buildMetadata's managedByLabel, transformers, configurations, helm
 * charts, generators, and what a later kustomize adds. Patches of a Namespace, replacements and
 * vars are judged apart.
 */
const KEEPS_NAMESPACE_LABELS: ReadonlySet<string> = new Set([
  'apiVersion', 'kind', 'metadata', 'resources', 'bases', 'components', 'namePrefix', 'nameSuffix', 'namespace', 'images', 'replicas',
  'patches', 'patchesStrategicMerge', 'patchesJson6902', 'replacements', 'commonAnnotations', 'configMapGenerator', 'secretGenerator',
  'generatorOptions', 'sortOptions', 'openapi',
]);

function mayRelabelNamespaces(document: Record<string, unknown>, readFile: ((path: string) => string | undefined) | undefined): boolean {
  // `vars` write `$(NAME)` references only: whether a Namespace's labels hold one is for the
  // caller, which knows the Namespaces (KustomizationListing.vars; kustomize's default
  // varReference field specs include metadata/labels of every kind).
  if (Object.keys(document).some((field) => !KEEPS_NAMESPACE_LABELS.has(field) && field !== 'configurations' && field !== 'vars' && document[field] != null)) return true;
  // Transformer configurations point the built-in transformers at fields: only one whose paths
  // reach metadata/labels (a prefix or a common label written into a label) may relabel; a file
  // not read may.
  if (anyListedFile(document.configurations, readFile, (documents) => documents.some((value) => value === undefined || pathsIn(value).some((path) => reachesLabels(path))))) return true;
  const replacements = document.replacements;
  if (replacements == null) return false;
  if (!Array.isArray(replacements)) return true;
  return replacements.some((replacement) => {
    const targets = (replacement as { targets?: unknown } | null)?.targets;
    if (!Array.isArray(targets)) return true;
    // A target of another kind, spelled plainly, never writes a Namespace.
    return targets.some((target) => !selectsNoneOf(((target ?? {}) as { select?: { kind?: unknown } | null }).select?.kind, ['Namespace']));
  });
}

/**
 * Whether a fieldSpec path may reach metadata/labels: its segments read as kustomize reads them
 * (a `[]` after a name marks a list, `/` may lead; s37c 5-A), or one the linter does not read.
 */
function reachesLabels(path: string): boolean {
  // kustomize splits on '/' but not on an escaped '\/' (a key with a slash); only the first two
  // segments decide whether the path is metadata/labels (s37d 3-A).
  const segments = path.replace(/^\//, '').split(/(?<!\\)\//).slice(0, 2).map((segment) => segment.replace(/\[\]$/, ''));
  if (segments.some((segment) => !/^[A-Za-z][A-Za-z0-9.-]*$/.test(segment))) return true;
  return segments[0] === 'metadata' && (segments.length === 1 || segments[1] === 'labels');
}

/** Every `path` string in a transformer configuration, at any depth. */
function pathsIn(value: unknown): string[] {
  const paths: string[] = [];
  const collect = (node: unknown): void => {
    if (Array.isArray(node)) for (const item of node) collect(item);
    else if (node !== null && typeof node === 'object') {
      for (const [key, inner] of Object.entries(node as Record<string, unknown>)) {
        if (key === 'path') paths.push(typeof inner === 'string' ? inner : '');
        else collect(inner);
      }
    }
  };
  collect(value);
  return paths;
}

/**
 * Whether a kustomization's own transformer settings may write a webhook's selectors after its
 * patches: a `labels` entry with `fields` of its own, or `configurations` (fieldSpecs that point
 * the built-in transformers at other fields) unless each is read and names no selector. The
 * default fieldSpecs of commonLabels, labels, images and the namespace never reach a webhook's
 * selectors.
 */
function settingsMayWriteSelectors(document: Record<string, unknown>, readFile: ((path: string) => string | undefined) | undefined): boolean {
  const labels = document.labels;
  if (Array.isArray(labels) && labels.some((entry) => (entry as { fields?: unknown } | null)?.fields != null)) return true;
  // Read as YAML: an escape (`object\x53elector`) spells a selector that the text does not show.
  return anyListedFile(document.configurations, readFile, (documents) => documents.some((value) => value === undefined || namesSelector(value) || pointsIntoWebhooks(value)));
}

/**
 * Whether a kustomization field that lists files (`configurations`, `transformers`) may do what
 * `may` asks of a file's documents: true when the field is not a list of files that are all read
 * here (an inline entry, a file that is not there, too large, or does not parse), false when
 * the field is absent.
 */
function anyListedFile(listed: unknown, readFile: ((path: string) => string | undefined) | undefined, may: (documents: readonly unknown[]) => boolean): boolean {
  if (listed == null) return false;
  if (!Array.isArray(listed) || readFile === undefined) return true;
  return listed.some((path) => {
    const text = typeof path === 'string' ? readFile(path) : undefined;
    const documents = text === undefined ? undefined : patchDocuments(text);
    return documents === undefined || documents.some((document) => spellsConfigFieldOtherwise(document)) || may(documents);
  });
}

/**
 * The field names of transformer configurations and transformer files (kustomize's
 * TransformerConfig, FieldSpec, NameBackReferences; a builtin transformer's), which Go decodes
 * whatever their case: a key spelled otherwise (`Path:`) does what the linter would not read.
 */
const CONFIG_FIELD_NAMES = new Map(
  ['namePrefix', 'nameSuffix', 'namespace', 'commonLabels', 'templateLabels', 'commonAnnotations', 'nameReference', 'varReference', 'images', 'replicas', 'group', 'version', 'kind', 'path', 'create', 'fieldSpecs', 'apiVersion', 'metadata', 'labels', 'annotations', 'behavior']
    .map((name) => [foldName(name), name]),
);

/** Whether a key of a transformer configuration (at any depth) spells one of its fields otherwise. */
function spellsConfigFieldOtherwise(value: unknown, depth = 0): boolean {
  if (depth > 64) return true;
  if (Array.isArray(value)) return value.some((item) => spellsConfigFieldOtherwise(item, depth + 1));
  if (value === null || typeof value !== 'object') return false;
  return Object.entries(value).some(([key, inner]) => {
    const field = CONFIG_FIELD_NAMES.get(foldName(key));
    return (field !== undefined && field !== key) || spellsConfigFieldOtherwise(inner, depth + 1);
  });
}

/** The built-in transformers that only set metadata fields when their fieldSpecs say so. */
const METADATA_TRANSFORMERS = new Set(['LabelTransformer', 'AnnotationsTransformer']);

/**
 * Whether a kustomization's `transformers` may change a webhook's fields: unless each is a file
 * that is read here and holds only built-in LabelTransformer or AnnotationsTransformer
 * configurations whose every fieldSpec is a path under `metadata/` (labels and annotations of
 * the objects themselves, the common helm-metadata case). Inline transformers, plugins and
 * anything not read may.
 */
function transformersMayWriteWebhooks(transformers: unknown, readFile: ((path: string) => string | undefined) | undefined): boolean {
  return anyListedFile(transformers, readFile, (documents) =>
    documents.length === 0 ||
    documents.some((value) => {
      if (value === null || typeof value !== 'object' || Array.isArray(value)) return true;
      const { apiVersion, kind, fieldSpecs } = value as { apiVersion?: unknown; kind?: unknown; fieldSpecs?: unknown };
      if (apiVersion !== 'builtin' || typeof kind !== 'string' || !METADATA_TRANSFORMERS.has(kind)) return true;
      // Without fieldSpecs a label transformer also writes selectors (its defaults): not read as harmless.
      if (!Array.isArray(fieldSpecs) || fieldSpecs.length === 0) return true;
      return fieldSpecs.some((spec) => {
        const path = (spec as { path?: unknown } | null)?.path;
        return typeof path !== 'string' || !/^metadata\/(?:labels|annotations)$/.test(path);
      });
    }),
  );
}

/**
 * Whether transformer configurations point a transformer at a webhook's fields, but for the
 * scaffold's own: name references from a Service to `webhooks/clientConfig/service/name`, and the
 * namespace transformer on `webhooks/clientConfig/service/namespace`. Any other (a ConfigMap's
 * name into the Service's namespace, images there) changes what the webhook calls.
 */
function pointsIntoWebhooks(value: unknown): boolean {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return true;
  return Object.entries(value).some(([transformer, entries]) => {
    const paths: { path: string; referred?: unknown }[] = [];
    const collect = (node: unknown, referred: unknown): void => {
      if (Array.isArray(node)) for (const item of node) collect(item, referred);
      else if (node !== null && typeof node === 'object') {
        const record = node as Record<string, unknown>;
        if (typeof record.path === 'string') paths.push({ path: record.path, referred });
        for (const [key, inner] of Object.entries(record)) if (key !== 'path') collect(inner, transformer === 'nameReference' && key === 'fieldSpecs' ? record.kind : referred);
      }
    };
    collect(entries, undefined);
    return paths.some(({ path, referred }) => {
      if (!/^\/?webhooks/.test(path)) return false;
      if (transformer === 'nameReference' && referred === 'Service' && /^\/?webhooks\/clientConfig\/service\/name$/.test(path)) return false;
      if (transformer === 'namespace' && /^\/?webhooks\/clientConfig\/service\/namespace$/.test(path)) return false;
      return true;
    });
  });
}

/**
 * Whether `configurations` may make the names transformers write more than metadata.name (a
 * namePrefix fieldSpec on a binding's policyName) or name references point at a policyName:
 * unless each file is read and has no namePrefix or nameSuffix settings and names no policyName.
 */
function configurationsMayRename(configurations: unknown, readFile: ((path: string) => string | undefined) | undefined): boolean {
  return anyListedFile(configurations, readFile, (documents) =>
    documents.some((value) => value === undefined || (value !== null && typeof value === 'object' && ['namePrefix', 'nameSuffix', 'prefix', 'suffix'].some((key) => key in value)) || JSON.stringify(value).toLowerCase().includes('policyname')),
  );
}

/** Whether a key or a string anywhere in a value names a selector. */
function namesSelector(value: unknown): boolean {
  if (typeof value === 'string') return /selector/i.test(value);
  if (Array.isArray(value)) return value.some(namesSelector);
  if (value !== null && typeof value === 'object') return Object.entries(value).some(([key, inner]) => /selector/i.test(key) || namesSelector(inner));
  return false;
}

/** The names a kustomization's `vars` declare, when each entry is a mapping with a string `name`. */
function varNamesOf(vars: unknown): { varNames?: readonly string[] } {
  if (!Array.isArray(vars) || vars.length === 0) return {};
  const names = vars.map((entry) => (entry !== null && typeof entry === 'object' && !Array.isArray(entry) ? (entry as { name?: unknown }).name : undefined));
  return names.every((name): name is string => typeof name === 'string' && name !== '') ? { varNames: names } : {};
}

/**
 * The varReference and namespace field specs of a kustomization's `configurations` (kustomize's
 * TransformerConfig: `varReference: [{path, kind}]`, `namespace: [{path, kind, group, create}]`),
 * when every file listed is read here and spells its fields as kustomize's types do; nothing
 * otherwise (what the transformers write is then not known).
 */
function configuredFieldSpecs(configurations: unknown, readFile: ((path: string) => string | undefined) | undefined): { fieldSpecs?: readonly ConfiguredFieldSpec[] } {
  if (!Array.isArray(configurations) || configurations.length === 0 || readFile === undefined) return {};
  const specs: ConfiguredFieldSpec[] = [];
  for (const path of configurations) {
    const text = typeof path === 'string' ? readFile(path) : undefined;
    const documents = text === undefined ? undefined : patchDocuments(text);
    if (documents === undefined || documents.some((document) => spellsConfigFieldOtherwise(document))) return {};
    for (const document of documents) {
      if (document === null || typeof document !== 'object' || Array.isArray(document)) continue;
      for (const transformer of ['varReference', 'namespace'] as const) {
        const entries = (document as Record<string, unknown>)[transformer];
        if (entries == null) continue;
        if (!Array.isArray(entries)) return {};
        for (const entry of entries) {
          if (entry === null || typeof entry !== 'object' || Array.isArray(entry)) return {};
          const { path: specPath, kind, group, version, create } = entry as Record<string, unknown>;
          if (typeof specPath !== 'string' || [kind, group, version].some((field) => field != null && typeof field !== 'string')) return {};
          specs.push({
            transformer,
            path: specPath,
            ...(typeof kind === 'string' ? { kind } : {}),
            ...(typeof group === 'string' ? { group } : {}),
            ...(typeof version === 'string' ? { version } : {}),
            create: create === true,
          });
        }
      }
    }
  }
  return { fieldSpecs: specs };
}

/**
 * The kustomizations in a text (every document of a kustomization file, `whole`, else the
 * documents of kind Kustomization), with their resources resolved against `folder`.
 */
export function kustomizationListings(file: string, folder: string, text: string, whole: boolean, readListed?: (path: string) => string | undefined): KustomizationListing[] {
  // Its configurations and transformers are asked several questions: each file is read once.
  const read = new Map<string, string | undefined>();
  const readFile = readListed === undefined ? undefined : (path: string) => (read.has(path) ? read.get(path) : (read.set(path, readListed(path)), read.get(path)));
  // A merge key may hide what it lists or does (mayMerge): a kustomization whose effect is unknown.
  if (mayMerge(text) && (whole || KUSTOMIZATION_KIND.test(text))) return [{ file, resources: [], transformsAfterPatches: true, renames: true, unreadable: true }];
  const documents = patchDocuments(text) ?? [];
  // A kustomization file the linter cannot parse (kustomize's go-yaml may: a key written twice)
  // still builds what it lists: its effect is unknown. So is one of several documents: kustomize
  // reads the first, the linter would read the others' patches too.
  if (whole && (documents.some((value) => value === undefined) || documents.filter((value) => value !== null).length > 1)) return [{ file, resources: [], transformsAfterPatches: true, renames: true, unreadable: true }];
  // In a stream, a document not read (a key spelled otherwise, say) may be a Kustomization.
  if (!whole && documents.some((value) => value === undefined) && KUSTOMIZATION_KIND.test(text)) return [{ file, resources: [], transformsAfterPatches: true, renames: true, unreadable: true }];
  const out: KustomizationListing[] = [];
  for (const value of documents) {
    if (value === null || typeof value !== 'object' || Array.isArray(value)) continue;
    const document = value as Record<string, unknown>;
    if (!whole && ((document.kind !== 'Kustomization' && document.kind !== 'Component') || isFluxKustomization(document))) continue;
    // kustomize decodes its fields as Go's JSON does, whatever their case (`Patches:`,
    // `patcheſ:`): a field the linter would not read as such has an effect it does not know.
    if (hasFoldedFieldName(document)) {
      out.push({ file, resources: [], transformsAfterPatches: true, renames: true, unreadable: true });
      continue;
    }
    // A component's resources are built into the kustomization that lists it, as a base's are.
    const listed = [document.resources, document.bases, document.components].flatMap((list) => (Array.isArray(list) ? list.filter((resource): resource is string => typeof resource === 'string') : []));
    const resources = listed.map((resource) => realPath(resolve(folder, resource)));
    const remote = resources.filter((_, index) => REMOTE_RESOURCE.test(listed[index]!));
    out.push({
      file,
      resources,
      ...(remote.length > 0 ? { remote } : {}),
      transformsAfterPatches: AFTER_PATCHES.some((field) => document[field] != null) || replacementsMayWriteWebhooks(document.replacements) || settingsMayWriteSelectors(document, readFile),
      renames: ['namePrefix', 'nameSuffix', 'namespace'].some((field) => document[field] != null),
      ...(typeof document.namePrefix === 'string' ? { namePrefix: document.namePrefix } : {}),
      ...(typeof document.nameSuffix === 'string' ? { nameSuffix: document.nameSuffix } : {}),
      ...(document.namespace != null ? { moves: true as const } : {}),
      ...(document.kind === 'Component' ? { component: true as const } : {}),
      ...(Array.isArray(document.components) && document.components.length > 0 ? { hasComponents: true as const } : {}),
      ...(mayRelabelNamespaces(document, readFile) ? { mayRelabelNamespaces: true as const } : {}),
      ...(configurationsMayRename(document.configurations, readFile) || transformersMayWriteWebhooks(document.transformers, readFile) || document.generators != null ? { configures: true as const } : {}),
      ...(document.vars != null ? { vars: true as const } : {}),
      ...(typeof document.namespace === 'string' && document.namespace !== '' ? { namespace: document.namespace } : {}),
      ...varNamesOf(document.vars),
      ...configuredFieldSpecs(document.configurations, readFile),
      // Everything but vars (see `vars`): whether the kustomization may change webhooks after its patches otherwise.
      transformsOtherwise:
        AFTER_PATCHES.some((field) => field !== 'vars' && field !== 'transformers' && document[field] != null) ||
        transformersMayWriteWebhooks(document.transformers, readFile) ||
        replacementsMayWriteWebhooks(document.replacements) ||
        settingsMayWriteSelectors(document, readFile),
    });
  }
  return out;
}

/**
 * The field names of a kustomization and of what it holds (targets, labels entries,
 * replacements, generators, helm charts), as kustomize's types spell them. Go's JSON decoder
 * matches a key to a field ignoring case, with Unicode's simple folding (`ſ` is `s`, `K` is `k`).
 */
const KUSTOMIZE_FIELD_NAMES = [
  'apiVersion', 'kind', 'metadata', 'openapi', 'namePrefix', 'nameSuffix', 'namespace', 'commonLabels', 'labels', 'commonAnnotations',
  'patchesStrategicMerge', 'patchesJson6902', 'patches', 'images', 'replacements', 'replicas', 'vars', 'sortOptions', 'resources',
  'components', 'crds', 'bases', 'configMapGenerator', 'secretGenerator', 'helmGlobals', 'helmCharts', 'helmChartInflationGenerator',
  'generatorOptions', 'configurations', 'generators', 'transformers', 'validators', 'buildMetadata', 'path', 'patch', 'target', 'options',
  'group', 'version', 'name', 'labelSelector', 'annotationSelector', 'pairs', 'includeSelectors', 'includeTemplates', 'fields',
  'source', 'targets', 'select', 'reject', 'fieldPaths', 'fieldPath', 'create', 'delimiter', 'index', 'objref', 'fieldref',
  'newName', 'newTag', 'digest', 'count', 'behavior', 'literals', 'files', 'envs', 'env', 'type', 'disableNameSuffixHash', 'immutable',
  'annotations', 'allowNameChange', 'allowKindChange', 'order', 'legacySortOptions', 'orderFirst', 'orderLast',
];
const FOLDED_FIELD_NAMES = new Map(KUSTOMIZE_FIELD_NAMES.map((name) => [foldName(name), name]));
/** Values that are users' data (labels, annotations, generator contents), not kustomize's fields. */
const DATA_FIELDS = new Set(['commonLabels', 'commonAnnotations', 'pairs', 'metadata', 'literals', 'annotations']);
/**
 * A kustomization's fields whose contents are never read here, only their presence: `vars` (any
 * `$(` may be replaced). Operator scaffolds spell their `fieldPath` as `fieldpath`, which Go
 * reads alike; how they are spelled inside changes nothing the linter reads.
 */
const UNREAD_FIELDS = new Set(['vars']);

function foldName(name: string): string {
  return name.toLowerCase().replace(/\u017f/g, 's');
}

/**
 * Whether a key of the value (at any depth, past users' data) spells a kustomize field otherwise
 * than kustomize's types do. A replacement's `source` says what is copied, never what is written
 * (its targets do), and the linter reads nothing of it: how it is spelled inside changes nothing
 * (the scaffolds' `fieldpath` there: hold-out 15).
 */
function hasFoldedFieldName(value: unknown, top = true, replacement = false): boolean {
  if (Array.isArray(value)) return value.some((item) => hasFoldedFieldName(item, false, replacement));
  if (value === null || typeof value !== 'object') return false;
  return Object.entries(value).some(([key, inner]) => {
    const field = FOLDED_FIELD_NAMES.get(foldName(key));
    if (field !== undefined && field !== key) return true;
    if (replacement && key === 'source') return false;
    return !DATA_FIELDS.has(key) && !(top && UNREAD_FIELDS.has(key)) && hasFoldedFieldName(inner, false, top && key === 'replacements');
  });
}

/** The fields of a kustomization that say which objects its patches and replacements change. */
const PATCH_FIELDS: ReadonlySet<string> = new Set(['patches', 'patchesJson6902', 'patchesStrategicMerge', 'replacements']);

/**
 * Whether the patches of a kustomization are spelled otherwise than kustomize's types do: a patch
 * field itself (`Patches:`), or a key inside one (`- Path: x.yaml`). Another field spelled so
 * (`commonlabels:`, which kustomize reads as commonLabels and applies to its own resources) leaves
 * its patches as they are read (hold-out 18); what it does to the build is the listing's
 * (kustomizationListings: unreadable).
 */
function spellsPatchesOtherwise(doc: Document.Parsed): boolean {
  let value: unknown;
  try {
    value = doc.toJS({ maxAliasCount: 100 });
  } catch {
    return true;
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return hasFoldedFieldName(value);
  return Object.entries(value).some(([key, inner]) => {
    const field = FOLDED_FIELD_NAMES.get(foldName(key));
    if (field !== undefined && field !== key) return PATCH_FIELDS.has(field);
    return PATCH_FIELDS.has(key) && hasFoldedFieldName(inner, false, key === 'replacements');
  });
}

/** The path with symbolic links followed, or as it is when it does not resolve. */
export function realPath(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return path;
  }
}

/**
 * Whether a stream document is a Flux `Kustomization` (kustomize.toolkit.fluxcd.io): an object
 * of the cluster, applied as it is, not a kustomization of the run. Told by its apiVersion, and
 * only when no other top-level key is read as apiVersion or kind (Go's JSON decoding folds case:
 * the last of `apiVersion` and `apiversion` wins); kustomize builds any other, an empty
 * apiVersion too.
 */
function isFluxKustomization(value: unknown): boolean {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return false;
  const document = value as Record<string, unknown>;
  const keys = Object.keys(document);
  if (keys.some((key) => (key !== 'apiVersion' && foldName(key) === 'apiversion') || (key !== 'kind' && foldName(key) === 'kind'))) return false;
  return typeof document.apiVersion === 'string' && document.apiVersion.startsWith('kustomize.toolkit.fluxcd.io/');
}

/** A parsed document's value, or undefined when the yaml library cannot make one. */
function valueOf(doc: Document.Parsed): unknown {
  try {
    return doc.toJS({ maxAliasCount: 100 });
  } catch {
    return undefined;
  }
}

/** `kind: Kustomization` at the start of a line: a kustomization inside a stream. */
export const KUSTOMIZATION_KIND = /^kind:[ \t]*["']?Kustomization\b/m;

/**
 * The patches of the kustomizations in a text: every document of a kustomization file (`whole`),
 * else the documents of kind Kustomization. `readPatch` reads a patch file named by a relative
 * path (undefined when it cannot be read: the patch may then change anything).
 */
export function kustomizePatches(file: string, text: string, whole: boolean, readPatch: (path: string) => string | undefined): KustomizePatch[] {
  const lineCounter = new LineCounter();
  let documents;
  try {
    documents = parseAllDocuments(text, { lineCounter, logLevel: 'silent' });
  } catch {
    return [];
  }
  if (!Array.isArray(documents)) return [];
  const out: KustomizePatch[] = [];
  const lineOf = (node: Node | null | undefined): number => lineCounter.linePos(node?.range?.[0] ?? 0).line;
  const contentOf = (inline: unknown, path: unknown): string | undefined => (typeof inline === 'string' ? inline : typeof path === 'string' ? readPatch(path) : undefined);
  const contentTargets = (inline: unknown, path: unknown): { target: PatchTarget; selectors: SelectorChanges; document?: unknown }[] => {
    if (typeof inline !== 'string' && typeof path !== 'string') return [];
    const text = contentOf(inline, path);
    return text === undefined ? [{ target: {}, selectors: { changes: [], known: false } }] : namedTargets(text);
  };
  for (const doc of documents) {
    const root = doc.contents;
    if (!isMap(root)) continue;
    if (!whole && ((root.get('kind') as unknown) !== 'Kustomization' || isFluxKustomization(valueOf(doc)))) continue;
    // A key read otherwise than by name may be a patch list (a tag, a merge, a field spelled in
    // another case, which kustomize's JSON decoding folds, in or of a patch list): this kustomization's patches are not known.
    if (hasUnreadableKey(doc) || spellsPatchesOtherwise(doc) || hasAlias(doc)) {
      out.push({ file, line: lineOf(root), target: {}, selectors: { changes: [], known: false } });
      continue;
    }
    for (const field of ['patches', 'patchesJson6902', 'patchesStrategicMerge'] as const) {
      const list = root.get(field, true);
      if (!isSeq(list)) continue;
      for (const item of list.items) {
        const entry: unknown = (item as { toJSON?: () => unknown } | null)?.toJSON?.();
        const line = lineOf(item as Node | null);
        let targets: { target: PatchTarget; selectors: SelectorChanges; document?: unknown }[];
        let source: string | undefined;
        let content: string | undefined;
        /** `options` (allowNameChange, allowKindChange): the patch may rename the object or change its kind. */
        let renamesOrRekinds = false;
        let selection: PatchSelection = 'content';
        if (field === 'patchesStrategicMerge') {
          // A file path, or an inline patch (text with a line break).
          if (typeof entry !== 'string') continue;
          if (!entry.includes('\n')) source = entry;
          content = source === undefined ? entry : contentOf(undefined, entry);
          targets = source === undefined ? namedTargets(entry) : contentTargets(undefined, entry);
        } else {
          if (typeof entry !== 'object' || entry === null) continue;
          const { target, patch, path, options } = entry as { target?: unknown; patch?: unknown; path?: unknown; options?: unknown };
          renamesOrRekinds = options != null;
          if (typeof patch !== 'string' && typeof path === 'string') source = path;
          content = contentOf(patch, path);
          const selected = selectorTarget(target);
          // kustomize runs the legacy patchesJson6902 after the kustomization's own namePrefix and
          // nameSuffix (kusttarget's builtin transformer order): its target names the object so
          // renamed (hold-out 28: k8ssandra's 'k8ssandra-operator-mutating-webhook-configuration').
          // kustomize matches a target against the name as written and as renamed, so it selects both (s45a 1).
          const named = selected !== undefined && field === 'patchesJson6902' ? unprefixed(selected, root.get('namePrefix'), root.get('nameSuffix')) : selected;
          targets = named !== undefined ? [{ target: named, selectors: targetedSelectorChanges(content) }] : contentTargets(patch, path);
          if (named !== undefined) selection = field === 'patchesJson6902' ? 'legacy' : 'target';
        }
        const ca = content !== undefined && writesCaBundle(content) ? { writesCaBundle: true as const } : {};
        // Parsed once for what the patch does to metadata.
        const documents = content === undefined || renamesOrRekinds ? undefined : patchDocuments(content);
        for (const { target, selectors, document } of targets) {
          // A document that names its object is applied to that object alone (hold-out 19: a file
          // that patches the configuration's annotations and, in a second document, a Service).
          const own = documents === undefined || document === undefined ? documents : [document];
          const metadata = own !== undefined && changesMetadataOnly(own) ? { metadataOnly: true as const, ...(writesName(own) ? {} : { keepsName: true as const }) } : {};
          const sets = own !== undefined && setsLabelsOrAnnotationsOnly(own) ? { setsLabelsOrAnnotationsOnly: true as const } : {};
          const renamed = own === undefined ? undefined : renamedTo(own);
          const rename = renamed === undefined ? {} : { renamesTo: renamed };
          const place = own !== undefined && keepsPlace(own) ? { keepsPlace: true as const } : {};
          const unread = source !== undefined && content === undefined ? { unread: true as const } : {};
          out.push({ file, line, selection, ...(content === undefined ? {} : { text: content }), target, selectors, ...(source === undefined ? {} : { source }), ...ca, ...metadata, ...sets, ...rename, ...place, ...(renamesOrRekinds ? { changesKind: true as const } : {}), ...unread });
        }
      }
    }
    // Labels or annotations the kustomization adds may be what a replacement selects by: such a selector is not evaluated.
    const adds = { labels: root.has('commonLabels') || root.has('labels'), annotations: root.has('commonAnnotations') };
    pushAll(out, replacementPatches(file, root.get('replacements', true), lineOf, adds));
  }
  return out;
}

/**
 * A kustomization's `replacements`, as patches of the objects their targets select: each copies
 * a field of another object into them (an operator scaffold writes the cert-manager annotation
 * into the webhook configurations so). Inline entries only: one read from a file (`path:`) is
 * one of `transformsAfterPatches` (KustomizationListing). The selectors a replacement writes are
 * known unchanged when its field paths are all in metadata.
 */
function replacementPatches(file: string, list: unknown, lineOf: (node: Node | null | undefined) => number, adds: { readonly labels: boolean; readonly annotations: boolean }): KustomizePatch[] {
  if (!isSeq(list)) return [];
  const out: KustomizePatch[] = [];
  for (const item of list.items) {
    const entry: unknown = (item as { toJSON?: () => unknown } | null)?.toJSON?.();
    const targets = (entry as { targets?: unknown } | null)?.targets;
    if (!Array.isArray(targets)) continue;
    for (const each of targets) {
      const { select, fieldPaths } = (each ?? {}) as { select?: unknown; fieldPaths?: unknown };
      const selected = select == null ? {} : selectorTarget(select);
      if (selected === undefined) continue;
      const { labelSelector, annotationSelector } = (select ?? {}) as { labelSelector?: unknown; annotationSelector?: unknown };
      // A selector on labels (annotations) the kustomization adds itself is not evaluated: it may match.
      const written = {
        ...(typeof labelSelector === 'string' && !adds.labels ? { labels: labelSelector } : {}),
        ...(typeof annotationSelector === 'string' && !adds.annotations ? { annotations: annotationSelector } : {}),
      };
      const target = selected.selector === true && Object.keys(written).length > 0 ? { ...selected, metadataSelectors: written } : selected;
      const paths = Array.isArray(fieldPaths) ? fieldPaths.filter((path): path is string => typeof path === 'string') : [];
      const inMetadata = Array.isArray(fieldPaths) && paths.length === fieldPaths.length && paths.every((path) => /^\.?metadata\./.test(path));
      const replacesName = !Array.isArray(fieldPaths) || paths.length !== fieldPaths.length || paths.some((path) => /^\.?metadata\.(?:name|\*)(?:$|\.)/.test(path) || path.includes('local-config'));
      out.push({
        file,
        line: lineOf(item as Node | null),
        selection: 'replacement',
        target,
        selectors: { changes: [], known: inMetadata },
        replacement: true,
        ...(replacesName ? { replacesName: true as const } : {}),
        ...(paths.some(writesCaBundle) ? { writesCaBundle: true as const } : {}),
        // A field path that writes kustomize's local-config annotation takes the object out of the build (s37d 1-A).
        ...(inMetadata ? { metadataOnly: true as const, ...(paths.some((path) => /^\.?metadata\.name$/.test(path) || path.includes('local-config')) ? {} : { keepsName: true as const }) } : {}),
        // A replacement copies a value: it sets, never deletes.
        ...(paths.length > 0 && paths.length === (fieldPaths as unknown[]).length && paths.every((path) => /^\.?metadata\.(?:labels|annotations)\./.test(path) && !/admission-lint|local-config/.test(path)) ? { setsLabelsOrAnnotationsOnly: true as const } : {}),
      });
    }
  }
  return out;
}

/**
 * Prefixes and suffixes the run's kustomize builds put around an object's name, those one patch
 * may see (src/match/kustomize-names.ts affixesAt), or undefined where the builds are not
 * followed. A patch selects an object by the name it has when the patch runs: as written, or as a
 * base's namePrefix made it (an overlay's patch of `app-x`), or after its own kustomization's
 * prefix (a legacy patchesJson6902).
 */
export type NameAffixes = readonly { readonly prefix: string; readonly suffix: string }[] | undefined;

/**
 * The patches that change an object of this kind and name in `file`, its name tried as written and
 * with each of the affixes `namesOf` gives for the patch (undefined: names not known). A patch
 * file's own object (linted when it is complete, src/engine/load-run.ts) is not changed by the
 * patch it is.
 */
export function patchesChanging(patches: readonly KustomizePatch[], object: { kind: string; name: string | undefined; file: string; apiVersion?: string }, namesOf: PatchNames | undefined): KustomizePatch[] {
  // Several rules ask of each object: answered once per run's patches, names and object (s39a 7: objects × patches × rules).
  const answers = changingAnswers.get(patches, () => new Map<PatchNames | undefined, Map<string, KustomizePatch[]>>());
  let byObject = answers.get(namesOf);
  if (byObject === undefined) answers.set(namesOf, (byObject = new Map()));
  const key = JSON.stringify([object.kind, object.name ?? null, object.file, object.apiVersion ?? null]);
  let found = byObject.get(key);
  if (found === undefined) byObject.set(key, (found = patchesChangingUncached(patches, object, namesOf)));
  return [...found];
}

/** patchesChanging's answers by the run's patches, then by the names asked with and the object. */
const changingAnswers = new ObjectMemo<readonly KustomizePatch[], Map<PatchNames | undefined, Map<string, KustomizePatch[]>>>();

function patchesChangingUncached(patches: readonly KustomizePatch[], object: { kind: string; name: string | undefined; file: string; apiVersion?: string }, namesOf: PatchNames | undefined): KustomizePatch[] {
  const own = object.file === '<stdin>' ? undefined : resolve(object.file);
  // A renamed object's later names: tried with the affixes of any level (s47b E: a rename below a namePrefix).
  const changing = (name: string | undefined, renamed: boolean): KustomizePatch[] =>
    patches.filter((patch) => (own === undefined || patch.source !== own) && targets(patch.target, object.kind, name, object.apiVersion, namesOf?.(patch, renamed), isLiteral(patch), !renamed && everyCopy(patch)));
  const found = changing(object.name, false);
  // Copies patched each by a patch of their own (a- by one, b- by another: s47c 9): the patches of
  // one kustomization, of the same text, that together select every copy change the object, as
  // one that selects all does. Patches of other texts change the copies differently (s47d 4a).
  const partial = new Map<string, { copies: Set<number>; patches: KustomizePatch[]; of: number }>();
  for (const patch of patches) {
    if (found.includes(patch) || !everyCopy(patch) || patch.text === undefined || (own !== undefined && patch.source === own)) continue;
    const affixes = namesOf?.(patch);
    if (affixes === undefined || affixes.length < 2) continue;
    const copies = affixes.flatMap((affix, index) => (targets(patch.target, object.kind, object.name, object.apiVersion, [affix], isLiteral(patch), true) ? [index] : []));
    if (copies.length === 0) continue;
    const key = `${patch.file}\0${patch.selection ?? 'target'}\0${patch.text}`;
    const group = partial.get(key) ?? { copies: new Set<number>(), patches: [], of: affixes.length };
    for (const copy of copies) group.copies.add(copy);
    group.patches.push(patch);
    partial.set(key, group);
  }
  for (const group of partial.values()) if (group.copies.size === group.of) pushAll(found, group.patches);
  // A patch that renames the object (a JSON 6902 replace of /metadata/name): an overlay's patches
  // find it by its new name, as kustomize matches a resource by its current name.
  const names = new Set(object.name === undefined ? [] : [object.name]);
  for (let at = 0; at < found.length && names.size <= MAX_RENAMES; at++) {
    const next = found[at]!.renamesTo;
    if (next === undefined || names.has(next)) continue;
    names.add(next);
    for (const patch of changing(next, true)) if (!found.includes(patch)) found.push(patch);
  }
  return found;
}

/** Whether the patch selects an object of this kind, name and apiVersion, by the names `namesOf` gives for it (see targets). */
export function patchSelects(patch: KustomizePatch, object: { kind: string; name: string | undefined; apiVersion?: string }, namesOf: PatchNames | undefined): boolean {
  return targets(patch.target, object.kind, object.name, object.apiVersion, namesOf?.(patch), isLiteral(patch), everyCopy(patch));
}

/**
 * Whether the patch must select every copy its kustomization builds of the object to count (a
 * base built twice, `a-` and `b-`: a target of `a-x` patches one copy, and the other is as
 * written, s47b D): a selector that sees one name per copy. A strategic-merge patch or a
 * replacement, which see any name a copy had, counts where it selects one.
 */
function everyCopy(patch: KustomizePatch): boolean {
  return patch.selection === undefined || patch.selection === 'target' || patch.selection === 'legacy';
}

/** Whether kustomize compares the patch's selector fields whole (a replacement's select, a strategic-merge patch's own kind and name), not as regular expressions. */
function isLiteral(patch: KustomizePatch): boolean {
  return patch.selection === 'replacement' || patch.selection === 'content';
}

/** Renames followed from one object (a chain of overlays each renaming it). */
const MAX_RENAMES = 8;

/**
 * Whether a patch target selects an object of this kind, name and apiVersion (undefined: any).
 * kustomize selects by group and version too (a `target` selector's `group` and `version`; a
 * strategic-merge patch's own apiVersion, compared whole): a patch for `v1beta1` policies leaves
 * `v1` ones as they are. The name is tried as written and with each of `affixes` (the names builds
 * give it on the way); where those are not known (undefined), a name pattern with an expression's
 * characters is taken to select it.
 */
export function targets(target: PatchTarget, kind: string, name: string | undefined, apiVersion: string | undefined, affixes: NameAffixes, literal = false, every = false): boolean {
  const selects = literal ? (written: string, value: string) => written === value : selectsValue;
  if (target.kind !== undefined && !selects(target.kind, kind)) return false;
  if (target.name !== undefined && (name === undefined || !(selectsName(target.name, name, affixes, selects, every) || (target.unprefixedName !== undefined && selectsName(target.unprefixedName, name, affixes, selects, every))))) return false;
  if (apiVersion !== undefined) {
    const slash = apiVersion.indexOf('/');
    const group = slash < 0 ? '' : apiVersion.slice(0, slash);
    const version = apiVersion.slice(slash + 1);
    if (target.group !== undefined && !selects(target.group, group)) return false;
    if (target.version !== undefined && !selects(target.version, version)) return false;
    if (target.apiVersion !== undefined && target.apiVersion !== apiVersion) return false;
  }
  return true;
}

/**
 * Whether a name selector selects the object by its name as written or as the affixes make it
 * (`every`: as each of them makes it, one per copy); where they are not known, any pattern, and a
 * name that holds the written one (a prefix and suffix around it, s47b F), may.
 */
function selectsName(pattern: string, name: string, affixes: NameAffixes, selects: (pattern: string, value: string) => boolean, every: boolean): boolean {
  if (affixes === undefined) return pattern === name || EXPRESSION_CHARACTERS.test(pattern) || pattern.includes(name);
  if (selects(pattern, name)) return true;
  const named = ({ prefix, suffix }: { prefix: string; suffix: string }): boolean => selects(pattern, `${prefix}${name}${suffix}`);
  return affixes.length > 0 && (every ? affixes.every(named) : affixes.some(named));
}

/**
 * The target of a legacy patchesJson6902 entry: kustomize selects an object whose name as written
 * or as renamed is the target's (resmap Select matches the original and the current id), so a
 * name with the kustomization's own prefix and suffix around it selects both the object written
 * so and the one written without them (`unprefixedName`). One target, so the entry is one patch.
 */
function unprefixed(target: PatchTarget, prefix: unknown, suffix: unknown): PatchTarget {
  const before = typeof prefix === 'string' ? prefix : '';
  const after = typeof suffix === 'string' ? suffix : '';
  const name = target.name;
  if (name === undefined || (before === '' && after === '') || !name.startsWith(before) || !name.endsWith(after) || name.length <= before.length + after.length) return target;
  return { ...target, unprefixedName: name.slice(before.length, name.length - after.length) };
}

/** Whether a target may select objects of this kind, whatever their name (a regular expression may). */
export function mayTargetKind(target: PatchTarget, kind: string): boolean {
  return target.kind === undefined || selectsValue(target.kind, kind);
}

const EXPRESSION_CHARACTERS = /[.*+?^${}()|[\]\\]/;

/** Selector patterns longer than this are not run (a real one names a kind or an object). */
const MAX_PATTERN_LENGTH = 256;
const COUNTED_REPETITION = /\{\s*\d/;

/** Selector patterns compiled as kustomize anchors them; null where RE2 rejects the pattern. */
const selectorPatterns = new BoundedCache<string, RE2JS | null>();

/**
 * kustomize matches selector fields as regular expressions over the whole value (api/types
 * selector.go anchorRegex: `^(?:pattern)$`, Go's RE2). A pattern with an expression's characters
 * is run so, with RE2's linear-time matcher (re2js): a hostile pattern costs no backtracking. One
 * RE2 rejects (kustomize then fails the build) is taken to match: the object is named, never
 * judged silently. A DNS name's dots are such characters: `inferenceservice.example.io` selects
 * itself, not every name.
 */
function selectsValue(pattern: string, value: string): boolean {
  if (pattern === value) return true;
  if (!EXPRESSION_CHARACTERS.test(pattern)) return false;
  // A long pattern or a counted repetition (a{1000}) may compile to a program of hundreds of
  // thousands of instructions, each run costing that times the name (s47a H5): not run, taken to match.
  if (pattern.length > MAX_PATTERN_LENGTH || COUNTED_REPETITION.test(pattern)) return true;
  const compiled = selectorPatterns.get(pattern, () => {
    try {
      return RE2JS.compile(`^(?:${pattern})$`);
    } catch {
      return null;
    }
  });
  return compiled === null || compiled.matcher(value).find();
}

/** Whether a replacement target's `select.kind` is written and may select none of `kinds` (as mayTargetKind reads it). */
function selectsNoneOf(kind: unknown, kinds: readonly string[]): boolean {
  return typeof kind === 'string' && !kinds.some((each) => selectsValue(kind, each));
}
