/**
 * Suggestions: the likely edit for a finding when it changes what the object does, so a person
 * must accept it (ESLint's suggestions). They are shown (`--fix-dry-run`, SARIF `fixes`,
 * rdjson `suggestions`) and never applied by `--fix`. Each is proven like a fix: the file read
 * again must hold exactly the change it describes.
 */
import { cloneData } from '../defaults/clone.js';
import { formatFieldPath, valueAtPath, type FieldPath } from '../field-path.js';
import { insertPair, replaceScalar, type EditableFile } from '../parse/edit.js';
import type { FixHint } from '../rule.js';
import type { FixableObject } from './objects.js';
import type { Fix, TextEdit } from './types.js';

type Planned = Omit<Fix, 'ruleId' | 'file' | 'documentIndex' | 'fieldPath' | 'line'>;

/** The shorter timeout suggested: long enough for a webhook in the cluster, short enough to keep a request's budget. */
const SUGGESTED_TIMEOUT = 5;
const NAME_LABEL = 'kubernetes.io/metadata.name';

/** Sets a field of the map at `at` (written or defaulted) to `value`: a replacement or an insertion. */
function setField(object: FixableObject, file: EditableFile, at: FieldPath, field: string, value: string | number): TextEdit | undefined {
  const doc = object.manifest.documentIndex;
  const base = object.manifest.basePath;
  if (object.defaulted.has(formatFieldPath([...at, field]))) return insertPair(file, doc, [...base, ...at], field, value);
  const edit = replaceScalar(file, doc, [...base, ...at, field], '');
  if (edit === undefined) return undefined;
  const source = file.text.slice(edit.start, edit.end);
  const text = typeof value === 'number' ? String(value) : source.startsWith('"') ? JSON.stringify(value) : source.startsWith("'") ? `'${value}'` : value;
  return { ...edit, text };
}

/** A suggestion whose one edit writes `field` under `at` with `value`, and what the object is then. */
function fieldSuggestion(object: FixableObject, edit: Planned['edits'][number], at: FieldPath, field: string, value: unknown, description: string): Planned {
  return {
    description,
    kind: 'suggestion',
    resolves: false,
    edits: [edit],
    object: { documentIndex: object.manifest.documentIndex, basePath: object.manifest.basePath },
    expect: (before) => {
      const after = cloneData(before);
      const target = valueAtPath(after, at);
      if (target !== null && typeof target === 'object') (target as Record<string, unknown>)[field] = cloneData(value);
      return after;
    },
    written: [[...at, field]],
  };
}

function setting(object: FixableObject, file: EditableFile, at: FieldPath, field: string, value: string | number, description: string): Planned | undefined {
  if (valueAtPath(object.effective, [...at, field]) === value) return undefined;
  const edit = setField(object, file, at, field, value);
  return edit === undefined ? undefined : fieldSuggestion(object, edit, at, field, value, description);
}

/** A namespaceSelector that leaves out kube-system and the webhook's own namespace, where none is written. */
function namespaceExclusion(object: FixableObject, file: EditableFile, webhook: FieldPath): Planned | undefined {
  if (object.category !== 'webhook-configuration') return undefined;
  if (!object.defaulted.has(formatFieldPath([...webhook, 'namespaceSelector']))) return undefined;
  const own = valueAtPath(object.effective, [...webhook, 'clientConfig', 'service', 'namespace']);
  const names = ['kube-system', ...(typeof own === 'string' && own !== 'kube-system' && /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/.test(own) ? [own] : [])];
  const selector = { matchExpressions: [{ key: NAME_LABEL, operator: 'NotIn', values: names }] };
  const edit = insertPair(file, object.manifest.documentIndex, [...object.manifest.basePath, ...webhook], 'namespaceSelector', selector);
  if (edit === undefined) return undefined;
  const description = `exclude ${names.join(' and ')} with a namespaceSelector on ${NAME_LABEL}, which the API server sets on every Namespace`;
  return fieldSuggestion(object, edit, webhook, 'namespaceSelector', selector, description);
}

/**
 * `has(field) && (expression)` for a one-line expression, quoted as the scalar was (single) or
 * double-quoted. The field is the rule's (FixHint `unguarded-field`: a plain chain of field
 * selections from object or oldObject; a map key or a loop variable gets no guard, `has()` takes
 * a field selection).
 */
function hasGuard(object: FixableObject, file: EditableFile, path: FieldPath, hint: FixHint | undefined): Planned | undefined {
  const field = hint?.kind === 'unguarded-field' ? hint.field : undefined;
  const expression = valueAtPath(object.effective, path);
  if (field === undefined || typeof expression !== 'string' || expression.includes('\n') || expression.includes(`has(${field})`)) return undefined;
  const guarded = `has(${field}) && (${expression})`;
  const edit = replaceScalar(file, object.manifest.documentIndex, [...object.manifest.basePath, ...path], '');
  if (edit === undefined) return undefined;
  const single = file.text.slice(edit.start, edit.end).startsWith("'");
  const text = single ? `'${guarded.replace(/'/g, "''")}'` : JSON.stringify(guarded);
  return {
    description: `test for the field first: has(${field}) && (…), so an object without it gets false instead of an error`,
    kind: 'suggestion',
    resolves: false,
    edits: [{ ...edit, text }],
    object: { documentIndex: object.manifest.documentIndex, basePath: object.manifest.basePath },
    expect: (before) => {
      const after = cloneData(before);
      const parent = valueAtPath(after, path.slice(0, -1));
      if (parent !== null && typeof parent === 'object') (parent as Record<string | number, unknown>)[path[path.length - 1]!] = guarded;
      return after;
    },
    written: [],
  };
}

/** The webhook a path is in (`webhooks[i]`), or undefined. */
function webhookOf(path: FieldPath): FieldPath | undefined {
  return path[0] === 'webhooks' && typeof path[1] === 'number' ? path.slice(0, 2) : undefined;
}

type Suggester = (object: FixableObject, file: EditableFile, path: FieldPath, hint: FixHint | undefined) => (Planned | undefined)[];

const timeout: Suggester = (object, file, path) => {
  const webhook = webhookOf(path);
  return webhook ? [setting(object, file, webhook, 'timeoutSeconds', SUGGESTED_TIMEOUT, `timeoutSeconds: ${SUGGESTED_TIMEOUT}: a slow webhook holds each request for at most ${SUGGESTED_TIMEOUT}s`)] : [];
};

const exclusion: Suggester = (object, file, path, hint) => {
  const webhook = webhookOf(path);
  if (webhook === undefined) return [];
  const own = namespaceExclusion(object, file, webhook);
  // A finding that counts other webhooks (the same cause in each): one suggestion edits them all.
  const others = hint?.kind === 'webhooks' ? hint.alsoAt.map(webhookOf).filter((other) => other !== undefined) : [];
  if (own === undefined || others.length === 0) return [own];
  const all = [own, ...others.map((other) => namespaceExclusion(object, file, other))].filter((planned) => planned !== undefined);
  return [together(all)];
};

/** Suggestions for several webhooks of one object as one: their edits, each one's change to the object in turn. */
function together(planned: readonly Planned[]): Planned {
  const [first, ...rest] = planned;
  if (rest.length === 0) return first!;
  return {
    ...first!,
    description: `${first!.description} (and in ${rest.length} more webhook${rest.length === 1 ? '' : 's'})`,
    edits: planned.flatMap((each) => each.edits),
    expect: (before) => planned.reduce((value, each) => each.expect(value), before),
    written: planned.flatMap((each) => each.written),
  };
}

/** The suggestions, by the rule of the finding they are for. */
const SUGGESTERS: Readonly<Record<string, Suggester>> = {
  'implicit-failure-policy': (object, file, path) => {
    const webhook = webhookOf(path);
    if (webhook) return [setting(object, file, webhook, 'failurePolicy', 'Ignore', 'failurePolicy: Ignore: requests are admitted unchecked while the webhook is down, instead of rejected')];
    if (object.category === 'admission-policy' && path[0] === 'spec') return [setting(object, file, ['spec'], 'failurePolicy', 'Ignore', 'failurePolicy: Ignore: a policy that errors lets the request through, instead of rejecting it')];
    return [];
  },
  'long-timeout': timeout,
  'timeout-budget': timeout,
  'matches-kube-system': exclusion,
  'self-deadlock': exclusion,
  'mutator-ordering': (object, file, path) => {
    const webhook = webhookOf(path);
    return webhook && object.kind === 'MutatingWebhookConfiguration'
      ? [setting(object, file, webhook, 'reinvocationPolicy', 'IfNeeded', 'reinvocationPolicy: IfNeeded: called again when a later mutation changes the object (its patch must then be idempotent)')]
      : [];
  },
  'match-condition-missing-field': (object, file, path, hint) => (path[path.length - 1] === 'expression' ? [hasGuard(object, file, path, hint)] : []),
};

/** The rules whose findings may get a suggestion. */
export const SUGGESTING_RULES: ReadonlySet<string> = new Set(Object.keys(SUGGESTERS));

export function suggestionsFor(object: FixableObject, file: EditableFile, ruleId: string, path: FieldPath, hint: FixHint | undefined): (Planned | undefined)[] {
  return Object.hasOwn(SUGGESTERS, ruleId) ? SUGGESTERS[ruleId]!(object, file, path, hint) : [];
}
