/**
 * Which edit each finding gets, keyed by its rule id, field path and object, computed from the
 * defaulted model (src/defaults records which fields the API server fills in):
 *
 * - a default left implicit (failurePolicy, timeoutSeconds, matchPolicy, reinvocationPolicy) is
 *   written with the value the API server applies: a fix, the effective configuration is the same;
 *   an implicit failurePolicy's fix writes the webhook's (or policy's) other implicit call
 *   settings with it (implicitDefaults);
 * - a v1beta1 webhook configuration moves to v1 with v1beta1's defaults written (failurePolicy
 *   Ignore, matchPolicy Exact, timeoutSeconds 30, the review versions it had): a fix, the same
 *   configuration in an API that is served; unless v1 needs a decision the object does not hold
 *   (sideEffects Unknown, Some or unset), then a suggestion;
 * - a resource that no API serves is removed from its rule's list: a fix (it matched nothing);
 * - behaviour-changing edits (src/fix/suggestions.ts) are suggestions, shown and never applied.
 *
 * Documents with unrendered template placeholders get no edits.
 */
import type { Finding } from '../engine/finding.js';
import type { FixHint } from '../rule.js';
import { cloneData } from '../defaults/clone.js';
import { formatFieldPath, valueAtPath, type FieldPath } from '../field-path.js';
import { documentText, insertPair, isPlainScalarAt, removeItem, replaceScalar, type EditableFile } from '../parse/edit.js';
import { templateIn } from '../text/placeholder.js';
import type { FixableObject } from './objects.js';
import { SUGGESTING_RULES, suggestionsFor } from './suggestions.js';
import type { Fix, TextEdit } from './types.js';

/** The defaults a fix may write: what they do is the same written or not. Selectors stay as they are. */
const EXPLICIT_DEFAULTS = new Set(['failurePolicy', 'timeoutSeconds', 'matchPolicy', 'reinvocationPolicy']);
/** The rule whose finding is the implicit default itself (the others report a value, defaulted or not). */
const RESOLVED_BY_WRITING = new Set(['implicit-failure-policy']);
const V1 = 'admissionregistration.k8s.io/v1';
/** v1 accepts only these (validation.go: sideEffects must be None or NoneOnDryRun). */
const V1_SIDE_EFFECTS = new Set(['None', 'NoneOnDryRun']);

type Planned = Omit<Fix, 'ruleId' | 'file' | 'documentIndex' | 'fieldPath' | 'line'>;

function objectFor(objects: readonly FixableObject[], finding: Finding): FixableObject | undefined {
  if (finding.object === null) return undefined;
  const matches = objects.filter(
    (object) => object.manifest.documentIndex === finding.documentIndex && object.kind === finding.object!.kind && (object.name ?? null) === finding.object!.name,
  );
  return matches.length === 1 ? matches[0] : undefined;
}

function definedEdits(edits: readonly (TextEdit | undefined)[]): readonly TextEdit[] | undefined {
  return edits.every((edit): edit is TextEdit => edit !== undefined) ? edits : undefined;
}

/** A value re-quoted the way the scalar it replaces was written. */
function requote(source: string, value: string): string {
  if (source.startsWith('"')) return JSON.stringify(value);
  if (source.startsWith("'")) return `'${value.replace(/'/g, "''")}'`;
  return value;
}

function explicitDefault(object: FixableObject, file: EditableFile, ruleId: string, path: FieldPath): Planned | undefined {
  const field = path[path.length - 1];
  if (typeof field !== 'string' || !EXPLICIT_DEFAULTS.has(field)) return undefined;
  if (!object.defaulted.has(formatFieldPath(path))) return undefined;
  const value = valueAtPath(object.effective, path);
  if (typeof value !== 'string' && typeof value !== 'number') return undefined;
  const edit = insertPair(file, object.manifest.documentIndex, [...object.manifest.basePath, ...path.slice(0, -1)], field, value);
  if (edit === undefined) return undefined;
  return {
    description: `write ${field}: ${value} (the API default, so nothing changes)`,
    kind: 'fix',
    resolves: RESOLVED_BY_WRITING.has(ruleId),
    edits: [edit],
    object: { documentIndex: object.manifest.documentIndex, basePath: object.manifest.basePath },
    expect: (before) => before,
    written: [path],
  };
}

/**
 * The other defaults that decide how a webhook or policy is called, written with its implicit
 * failurePolicy (docs/fixes.md): the finding says the object leaves its behaviour to the API's
 * defaults, and its fix writes all of them at once, each the value the API server applies. They
 * get no finding of their own (one cause, one finding; a default is not a problem). Selectors
 * and a rule's scope are left as they are: absent, they mean what they say.
 */
function companionDefaults(path: FieldPath): FieldPath[] {
  const owner = path.slice(0, -1);
  if (owner[0] === 'webhooks') return ['matchPolicy', 'timeoutSeconds', 'reinvocationPolicy'].map((field) => [...owner, field]);
  if (owner.length === 1 && owner[0] === 'spec') return [['spec', 'matchConstraints', 'matchPolicy']];
  return [];
}

/** failurePolicy left implicit, written with the other implicit defaults of its webhook or policy, each proven unchanged. */
function implicitDefaults(object: FixableObject, file: EditableFile, ruleId: string, path: FieldPath): Planned | undefined {
  const own = explicitDefault(object, file, ruleId, path);
  if (own === undefined) return undefined;
  const others = companionDefaults(path)
    .map((at) => ({ at, planned: explicitDefault(object, file, ruleId, at) }))
    .filter((other): other is { at: FieldPath; planned: Planned } => other.planned !== undefined);
  if (others.length === 0) return own;
  const values = others.map(({ at }) => `${String(at[at.length - 1])}: ${String(valueAtPath(object.effective, at))}`);
  return {
    ...own,
    description: `write failurePolicy: ${String(valueAtPath(object.effective, path))} and the other defaults left implicit (${values.join(', ')}): the API's values, so nothing changes`,
    edits: [...own.edits, ...others.flatMap(({ planned }) => planned.edits)],
    written: [...own.written, ...others.flatMap(({ planned }) => planned.written)],
  };
}

function migration(object: FixableObject, file: EditableFile): Planned | undefined {
  if (object.category !== 'webhook-configuration' || object.apiVersion !== 'admissionregistration.k8s.io/v1beta1' || !object.decodable) return undefined;
  const doc = object.manifest.documentIndex;
  const base = object.manifest.basePath;
  const apiVersion = replaceScalar(file, doc, [...base, 'apiVersion'], '');
  if (apiVersion === undefined) return undefined;
  const edits: (TextEdit | undefined)[] = [{ ...apiVersion, text: requote(file.text.slice(apiVersion.start, apiVersion.end), V1) }];
  const written: FieldPath[] = [];
  const decided: number[] = [];
  (object.effective.webhooks ?? []).forEach((webhook, i) => {
    const at: FieldPath = ['webhooks', i];
    for (const field of ['failurePolicy', 'matchPolicy', 'timeoutSeconds', 'admissionReviewVersions'] as const) {
      if (!object.defaulted.has(formatFieldPath([...at, field]))) continue;
      edits.push(insertPair(file, doc, [...base, ...at], field, webhook[field]));
      written.push([...at, field]);
    }
    if (V1_SIDE_EFFECTS.has(webhook.sideEffects ?? '')) return;
    decided.push(i);
    if (object.defaulted.has(formatFieldPath([...at, 'sideEffects']))) edits.push(insertPair(file, doc, [...base, ...at], 'sideEffects', 'None'));
    else {
      const edit = replaceScalar(file, doc, [...base, ...at, 'sideEffects'], '');
      edits.push(edit && { ...edit, text: requote(file.text.slice(edit.start, edit.end), 'None') });
    }
  });
  const all = definedEdits(edits);
  if (all === undefined) return undefined;
  const suggestion = decided.length > 0;
  return {
    description: suggestion
      ? `move to ${V1} with v1beta1's defaults written, and sideEffects: None (v1 accepts only None or NoneOnDryRun: decide whether the webhook has side effects)`
      : `move to ${V1} with v1beta1's defaults written (failurePolicy, matchPolicy, timeoutSeconds, admissionReviewVersions), so it does what it did`,
    kind: suggestion ? 'suggestion' : 'fix',
    resolves: true,
    edits: all,
    object: { documentIndex: doc, basePath: base },
    expect: (before) => {
      const after = cloneData(before) as { apiVersion?: string; webhooks?: { sideEffects?: string }[] };
      after.apiVersion = V1;
      for (const i of decided) if (after.webhooks?.[i]) after.webhooks[i]!.sideEffects = 'None';
      return after;
    },
    written,
  };
}

/** A resource that no API of the target version serves (the rule says so: FixHint `unserved-resource`), removed from its list. */
function removeResource(object: FixableObject, file: EditableFile, path: FieldPath, hint: FixHint | undefined): Planned | undefined {
  if (hint?.kind !== 'unserved-resource' || path[path.length - 2] !== 'resources') return undefined;
  const value = valueAtPath(object.effective, path);
  const list = valueAtPath(object.effective, path.slice(0, -1));
  if (typeof value !== 'string' || !Array.isArray(list) || list.filter((item) => item === value).length !== 1) return undefined;
  const edit = removeItem(file, object.manifest.documentIndex, [...object.manifest.basePath, ...path]);
  if (edit === undefined) return undefined;
  return {
    description: `remove "${value}": no API the target version serves has it, so it matches nothing`,
    kind: 'fix',
    resolves: true,
    edits: [edit],
    object: { documentIndex: object.manifest.documentIndex, basePath: object.manifest.basePath },
    expect: (before) => {
      const after = cloneData(before);
      const items = valueAtPath(after, path.slice(0, -1));
      if (Array.isArray(items)) items.splice(items.indexOf(value), 1);
      return after;
    },
    written: [],
  };
}

/**
 * A plain `on`, `yes`, `off`, `no` (or `true`) where the API wants a string: YAML 1.1, as kubectl
 * reads it, makes a boolean of it, which the API server cannot decode. Quoted, it is the string
 * as written, which is what the author meant. (The schema rule says so: FixHint `boolean-for-string`.)
 */
function quoteBoolean(object: FixableObject, file: EditableFile, path: FieldPath, hint: FixHint | undefined): Planned | undefined {
  if (hint?.kind !== 'boolean-for-string') return undefined;
  // The finding's place, and the other webhooks it counts (the same value copied into each).
  const places = [path, ...(hint.alsoAt ?? [])].map((place) => {
    const at = [...object.manifest.basePath, ...place];
    if (typeof valueAtPath(object.written, place) !== 'boolean' || !isPlainScalarAt(file, object.manifest.documentIndex, at)) return undefined;
    const edit = replaceScalar(file, object.manifest.documentIndex, at, '');
    return edit && { place, edit, source: file.text.slice(edit.start, edit.end) };
  });
  const own = places[0];
  if (own === undefined) return undefined;
  const quoted = places.filter((place) => place !== undefined);
  const more = quoted.length - 1;
  return {
    description: `quote ${own.source}${more > 0 ? ` (and in ${more} more webhook${more === 1 ? '' : 's'})` : ''}: YAML 1.1 reads it as a boolean, and the API wants the string "${own.source}"`,
    kind: 'fix',
    // Every place the finding counts, quoted: it is gone.
    resolves: quoted.length === places.length,
    edits: quoted.map(({ edit, source }) => ({ ...edit, text: JSON.stringify(source) })),
    object: { documentIndex: object.manifest.documentIndex, basePath: object.manifest.basePath },
    expect: (before) => {
      const after = cloneData(before);
      for (const { place, source } of quoted) {
        const parent = valueAtPath(after, place.slice(0, -1));
        if (parent !== null && typeof parent === 'object') (parent as Record<string | number, unknown>)[place[place.length - 1]!] = source;
      }
      return after;
    },
    written: [],
    decodes: true,
  };
}

/** The same field in every webhook of the object where it is defaulted, the finding's own first. */
function siblingPaths(object: FixableObject, path: FieldPath): FieldPath[] {
  if (object.category !== 'webhook-configuration') return [path];
  const field = path[path.length - 1]!;
  const others = (object.effective.webhooks ?? []).map((_, i): FieldPath => ['webhooks', i, field]).filter((at) => at[1] !== path[1] && object.defaulted.has(formatFieldPath(at)));
  return [path, ...others];
}

/**
 * Whether planFixes may plan an edit for the finding: the rules and fields it makes edits for.
 * planFixes looks at no other finding, so a file with none of these is not read again (SARIF and
 * rdjson plan the fixes of every file with findings: src/fix/report-fixes.ts).
 */
export function mayPlanEdit(finding: Finding): boolean {
  if (finding.fieldPath === null || finding.object === null) return false;
  if (finding.ruleId === 'removed-api-version' || RESOLVED_BY_WRITING.has(finding.ruleId) || SUGGESTING_RULES.has(finding.ruleId) || finding.fixHint !== undefined) return true;
  // explicitDefault: a finding on a default left implicit (long-timeout, match-policy-exact on a defaulted field).
  const field = /(\w+)$/.exec(finding.fieldPath)?.[1];
  return field !== undefined && EXPLICIT_DEFAULTS.has(field);
}

/** The findings' fixes and suggestions in one file (`objects` read from `file.text`). */
export function planFixes(findings: readonly Finding[], objects: readonly FixableObject[], file: EditableFile): Fix[] {
  const fixes: Fix[] = [];
  /** Defaults already planned for another finding (a grouped finding's siblings). */
  const written = new Set<string>();
  for (const finding of findings) {
    if (!mayPlanEdit(finding)) continue;
    const object = objectFor(objects, finding);
    if (object === undefined || finding.fieldPath === null) continue;
    const text = documentText(file, object.manifest.documentIndex);
    if (text === undefined || templateIn(text) !== undefined) continue;
    const path = pathOf(object, finding.fieldPath);
    if (path === undefined) continue;
    const planned: (Planned | undefined)[] = [];
    if (finding.ruleId === 'removed-api-version' && finding.fieldPath === 'apiVersion') planned.push(migration(object, file));
    else if (RESOLVED_BY_WRITING.has(finding.ruleId) && path[0] === 'webhooks') {
      // One finding stands for every webhook of the configuration that omits the field (one cause,
      // one finding, at the first): write it in each, once.
      for (const sibling of siblingPaths(object, path)) {
        const key = `${object.manifest.documentIndex} ${object.manifest.basePath.join('.')} ${formatFieldPath(sibling)}`;
        if (written.has(key)) continue;
        written.add(key);
        planned.push(implicitDefaults(object, file, finding.ruleId, sibling));
      }
    }
    else if (RESOLVED_BY_WRITING.has(finding.ruleId)) planned.push(implicitDefaults(object, file, finding.ruleId, path));
    else if (finding.ruleId === 'unknown-resource') planned.push(removeResource(object, file, path, finding.fixHint));
    else if (finding.ruleId === 'schema') planned.push(quoteBoolean(object, file, path, finding.fixHint));
    else planned.push(explicitDefault(object, file, finding.ruleId, path));
    planned.push(...suggestionsFor(object, file, finding.ruleId, path, finding.fixHint));
    for (const plan of planned) {
      if (plan !== undefined) fixes.push({ ruleId: finding.ruleId, file: finding.file, documentIndex: finding.documentIndex, fieldPath: finding.fieldPath, line: finding.line, ...plan });
    }
  }
  return withoutEmptiedLists(fixes, objects);
}

/** Removals that together would empty a list (an empty or missing list means something else) are not made. */
function withoutEmptiedLists(fixes: readonly Fix[], objects: readonly FixableObject[]): Fix[] {
  const listOf = (fix: Fix): string | undefined => (fix.ruleId === 'unknown-resource' && fix.fieldPath !== null ? `${fix.documentIndex} ${fix.object.basePath.join('.')} ${fix.fieldPath.replace(/\[\d+\]$/, '')}` : undefined);
  const counts = new Map<string, number>();
  for (const fix of fixes) {
    const list = listOf(fix);
    if (list !== undefined) counts.set(list, (counts.get(list) ?? 0) + 1);
  }
  return fixes.filter((fix) => {
    const list = listOf(fix);
    if (list === undefined) return true;
    const object = objects.find((candidate) => candidate.manifest.documentIndex === fix.documentIndex && candidate.manifest.basePath.join('.') === fix.object.basePath.join('.'));
    const path = object && fix.fieldPath ? pathOf(object, fix.fieldPath) : undefined;
    const items = object && path ? valueAtPath(object.effective, path.slice(0, -1)) : undefined;
    return Array.isArray(items) && items.length > (counts.get(list) ?? 0);
  });
}

/** The field path a finding names, as segments (findings carry it formatted). */
function pathOf(object: FixableObject, formatted: string): FieldPath | undefined {
  if (formatted === 'apiVersion') return ['apiVersion'];
  const found: FieldPath[] = [];
  const walk = (value: unknown, path: (string | number)[]): void => {
    if (found.length > 0) return;
    if (formatFieldPath(path) === formatted) {
      found.push([...path]);
      return;
    }
    if (path.length > 0 && !formatted.startsWith(formatFieldPath(path))) return;
    if (Array.isArray(value)) value.forEach((item, i) => walk(item, [...path, i]));
    else if (value !== null && typeof value === 'object') for (const [key, item] of Object.entries(value)) walk(item, [...path, key]);
  };
  walk(object.effective, []);
  return found[0];
}
