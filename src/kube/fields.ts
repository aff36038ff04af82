/**
 * The fields a built-in object can have (src/kube/fields-data.ts, generated from k8s.io/api's Go
 * types). The API server decodes a built-in object into its Go type, so a field the type does
 * not declare never survives into the object an admission expression reads: selecting it is a
 * CEL runtime error ("no such key") on every object of the kind, and `has()` of it is false.
 */
import { FIELDS_SOURCE, KIND_STRUCTS, STRUCT_FIELDS } from './fields-data.js';

export { FIELDS_SOURCE };

/** What a value holds: a struct whose fields are known, a list or map of such values, or undefined when not known here. */
export type FieldShape =
  | { readonly kind: 'struct'; readonly type: string; readonly fields: Readonly<Record<string, string>> }
  | { readonly kind: 'list'; readonly element: FieldShape | undefined }
  | { readonly kind: 'map'; readonly element: FieldShape | undefined };

function shapeOf(reference: string): FieldShape | undefined {
  if (reference.startsWith('!') || reference.startsWith('?')) return shapeOf(reference.slice(1));
  if (reference.startsWith('[]')) return { kind: 'list', element: shapeOf(reference.slice(2)) };
  if (reference.startsWith('{}')) return { kind: 'map', element: shapeOf(reference.slice(2)) };
  const fields = reference === '' ? undefined : STRUCT_FIELDS[reference];
  return fields === undefined ? undefined : { kind: 'struct', type: reference.slice(reference.lastIndexOf('.') + 1), fields };
}

/** The shape of an object of a built-in kind (group "" for the core group), or undefined when not known here. */
export function kindShape(group: string, version: string, kind: string): FieldShape | undefined {
  const reference = KIND_STRUCTS[`${group === '' ? '' : `${group}/`}${version}/${kind}`];
  return reference === undefined ? undefined : shapeOf(reference);
}

/**
 * A field of a struct: `declared` false when the type has no such field; otherwise whether an
 * object always has it (`required`: declared without omitempty, or a struct held by value, so
 * runtime/converter.go's toUnstructured always writes the key), whether it may then be null
 * (`nullable`: a nil pointer, list or map written without omitempty; a field written only when
 * set is never null) and the shape of its value (undefined when not known here). Field names
 * are the JSON names, as CEL reads them.
 */
export function fieldShape(
  struct: Extract<FieldShape, { kind: 'struct' }>,
  name: string,
): { readonly declared: boolean; readonly required?: boolean; readonly nullable?: boolean; readonly shape?: FieldShape } {
  if (!Object.hasOwn(struct.fields, name)) return { declared: false };
  const reference = struct.fields[name]!;
  const required = reference.startsWith('!');
  const nullable = required && reference[1] === '?';
  const shape = shapeOf(reference);
  return shape === undefined ? { declared: true, required, nullable } : { declared: true, required, nullable, shape };
}
