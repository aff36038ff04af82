/**
 * One cause, one finding for an unrendered template: its placeholders (src/text/placeholder.ts)
 * are named once per file, at the first placeholder that `schema` or `api-validation` reports
 * (schema first: it runs on the written values; admission objects before Namespaces), with a
 * count of the others. A file of several documents rendered by one script (`sed s/CA_BUNDLE/…/`)
 * is one thing to render, not one per document. Both rules ask here, so that they agree on which
 * finding is the one.
 */
import type { SourceFile } from '../load/sources.js';
import type { NamespaceObject, PolicyObject, WebhookConfigurationObject } from '../model/objects.js';
import { valueAtPath, type FieldPath } from '../field-path.js';
import { memoKey, type RunScope } from '../run-scope.js';
import { countPlaceholders, isPlaceholder, isWholePlaceholder } from '../text/placeholder.js';
import type { FieldError } from './field-error.js';

export type AdmissionObject = WebhookConfigurationObject | PolicyObject;

const FILE_OBJECTS = memoKey<Map<SourceFile, AdmissionObject[]>>('admission objects per file, in document order');
const FILE_NAMESPACES = memoKey<Map<SourceFile, NamespaceObject[]>>('Namespaces per file, in document order');
const PLACEHOLDER_COUNTS = memoKey<Map<AdmissionObject | NamespaceObject, number>>('template placeholders per object');

type FileScope = Pick<RunScope, 'webhookConfigurations' | 'policies' | 'namespaces' | 'memo'>;

/** Objects by their file, each file's in document order (stable: List items keep their order). */
function byFile<T extends { readonly manifest: { readonly file: SourceFile; readonly documentIndex: number } }>(objects: readonly T[]): Map<SourceFile, T[]> {
  const map = new Map<SourceFile, T[]>();
  for (const each of objects) {
    const list = map.get(each.manifest.file);
    if (list === undefined) map.set(each.manifest.file, [each]);
    else list.push(each);
  }
  for (const list of map.values()) list.sort((a, b) => a.manifest.documentIndex - b.manifest.documentIndex);
  return map;
}

/** The admission objects of the run in `file`, in document order. */
function objectsOfFile(run: FileScope, file: SourceFile): readonly AdmissionObject[] {
  return run.memo.get(FILE_OBJECTS, () => byFile<AdmissionObject>([...run.webhookConfigurations, ...run.policies])).get(file) ?? [];
}

/** The Namespaces of the run in `file`, in document order. */
function namespacesOfFile(run: FileScope, file: SourceFile): readonly NamespaceObject[] {
  return run.memo.get(FILE_NAMESPACES, () => byFile(run.namespaces)).get(file) ?? [];
}

/** How many keys and string values of the object's document are placeholders. */
export function placeholdersOf(run: Pick<RunScope, 'memo'>, object: AdmissionObject | NamespaceObject): number {
  return run.memo.perObject(PLACEHOLDER_COUNTS, object, () => countPlaceholders(object.written));
}

/** Placeholders in the file's admission objects and Namespaces. */
function fileCount(run: FileScope, file: SourceFile): number {
  return [...objectsOfFile(run, file), ...namespacesOfFile(run, file)].reduce((sum, each) => sum + placeholdersOf(run, each), 0);
}

/** Whether a schema problem of the object is about a placeholder value (schema names it as one). */
export function schemaPlaceholder(object: AdmissionObject, problem: { readonly path: FieldPath; readonly part?: string }): boolean {
  return problem.part === 'pair' && isPlaceholder(valueAtPath(object.written, problem.path));
}

/**
 * Whether an API validation error is about a placeholder: the value it rejects holds one, or its
 * field's whole written value is one (`url: WEBHOOK_URL` fails on the URL's scheme and host, parts
 * of the placeholder). A field that only holds one (`http://$HOST/x`) may fail for another reason
 * (the scheme), which a render does not change: that error is reported as it is.
 */
export function errorPlaceholder(object: AdmissionObject, error: FieldError): boolean {
  return (typeof error.value === 'string' && isPlaceholder(error.value)) || isWholePlaceholder(valueAtPath(object.written, error.path));
}

export interface FilePlaceholders {
  /** The object whose finding names the file's placeholders, and which rule names them. */
  readonly at: AdmissionObject | NamespaceObject;
  readonly rule: 'schema' | 'api-validation';
  /** Placeholders in the file's admission objects and Namespaces. */
  readonly count: number;
}

/**
 * Which finding names the placeholders of `file`: the first admission object (in document order)
 * with a schema problem about a placeholder, when schema runs; else the first with an API
 * validation error about one; else the first Namespace whose metadata the API server rejects for
 * one. Undefined when no rule would name one. `apiErrors` and `namespaceErrors` give an object's
 * API validation errors (the caller's own validation, asked only of objects that hold
 * placeholders).
 */
export function filePlaceholders(
  run: FileScope,
  file: SourceFile,
  schemaRuns: boolean,
  apiErrors: (object: AdmissionObject) => readonly FieldError[],
  namespaceErrors: (namespace: NamespaceObject) => readonly FieldError[],
): FilePlaceholders | undefined {
  const count = fileCount(run, file);
  if (count === 0) return undefined;
  const objects = objectsOfFile(run, file).filter((each) => placeholdersOf(run, each) > 0);
  if (schemaRuns) {
    const at = objects.find((each) => each.schemaProblems.some((problem) => schemaPlaceholder(each, problem)));
    if (at !== undefined) return { at, rule: 'schema', count };
  }
  const at =
    objects.find((each) => apiErrors(each).some((error) => errorPlaceholder(each, error))) ??
    namespacesOfFile(run, file).find((each) => placeholdersOf(run, each) > 0 && namespaceErrors(each).some((error) => isPlaceholder(error.value)));
  return at === undefined ? undefined : { at, rule: 'api-validation', count };
}
