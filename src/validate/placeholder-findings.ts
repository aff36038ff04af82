/**
 * One cause, one finding for an unrendered template: its placeholders (src/text/placeholder.ts)
 * are named once per file, at the first placeholder that `schema` or `api-validation` reports
 * (schema first: it runs on the written values), with a count of the others. A file of several
 * documents rendered by one script (`sed s/CA_BUNDLE/…/`) is one thing to render, not one per
 * document. Both rules ask here, so that they agree on which finding is the one.
 */
import type { SourceFile } from '../load/sources.js';
import type { PolicyObject, WebhookConfigurationObject } from '../model/objects.js';
import { valueAtPath, type FieldPath } from '../field-path.js';
import { memoKey, type RunScope } from '../run-scope.js';
import { countPlaceholders, isPlaceholder, isWholePlaceholder } from '../text/placeholder.js';
import type { FieldError } from './field-error.js';

export type AdmissionObject = WebhookConfigurationObject | PolicyObject;

const FILE_OBJECTS = memoKey<Map<SourceFile, AdmissionObject[]>>('admission objects per file, in document order');
const PLACEHOLDER_COUNTS = memoKey<Map<AdmissionObject, number>>('template placeholders per admission object');

/** The admission objects of the run in `object`'s file, in document order. */
function objectsOfFile(run: Pick<RunScope, 'webhookConfigurations' | 'policies' | 'memo'>, object: AdmissionObject): readonly AdmissionObject[] {
  const byFile = run.memo.get(FILE_OBJECTS, () => {
    const map = new Map<SourceFile, AdmissionObject[]>();
    for (const each of [...run.webhookConfigurations, ...run.policies]) {
      const list = map.get(each.manifest.file);
      if (list === undefined) map.set(each.manifest.file, [each]);
      else list.push(each);
    }
    // Stable: List items keep their order within a document.
    for (const list of map.values()) list.sort((a, b) => a.manifest.documentIndex - b.manifest.documentIndex);
    return map;
  });
  return byFile.get(object.manifest.file) ?? [object];
}

/** How many keys and string values of the object's document are placeholders. */
export function placeholdersOf(run: Pick<RunScope, 'memo'>, object: AdmissionObject): number {
  return run.memo.perObject(PLACEHOLDER_COUNTS, object, () => countPlaceholders(object.written));
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
  readonly at: AdmissionObject;
  readonly rule: 'schema' | 'api-validation';
  /** Placeholders in the file's admission objects. */
  readonly count: number;
}

/**
 * Which finding names the placeholders of `object`'s file: the first object (in document order)
 * with a schema problem about a placeholder, when schema runs; else the first with an API
 * validation error about one. Undefined when neither rule would name one. `apiErrors` gives an
 * object's API validation errors (the caller's own validation, asked only of objects that hold
 * placeholders).
 */
export function filePlaceholders(
  run: Pick<RunScope, 'webhookConfigurations' | 'policies' | 'memo'>,
  object: AdmissionObject,
  schemaRuns: boolean,
  apiErrors: (object: AdmissionObject) => readonly FieldError[],
): FilePlaceholders | undefined {
  const objects = objectsOfFile(run, object).filter((each) => placeholdersOf(run, each) > 0);
  if (objects.length === 0) return undefined;
  const count = objects.reduce((sum, each) => sum + placeholdersOf(run, each), 0);
  if (schemaRuns) {
    const at = objects.find((each) => each.schemaProblems.some((problem) => schemaPlaceholder(each, problem)));
    if (at !== undefined) return { at, rule: 'schema', count };
  }
  const at = objects.find((each) => apiErrors(each).some((error) => errorPlaceholder(each, error)));
  return at === undefined ? undefined : { at, rule: 'api-validation', count };
}
