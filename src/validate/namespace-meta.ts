/**
 * The metadata of a Namespace as the API server validates it (ValidateNamespace: ValidateObjectMeta
 * with ValidateNamespaceName, a DNS-1123 label; every label key a qualified name, every value a
 * label value, every value a string). A Namespace that fails is rejected whole: it never exists,
 * and its labels select nothing.
 */
import { dns1123LabelErrors, labelValueErrors, qualifiedNameErrors } from '../kube/names.js';
import { invalid, type FieldError } from './field-error.js';

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * The errors of `metadata.name` and `metadata.labels` in a written Namespace, in that order. A
 * missing name is not one of them (the object cannot be read without one: src/recognize/).
 */
export function namespaceMetadataErrors(written: unknown): FieldError[] {
  const metadata = isRecord(written) ? written.metadata : undefined;
  const name = isRecord(metadata) ? metadata.name : undefined;
  const errors: FieldError[] = typeof name === 'string' && name !== '' ? dns1123LabelErrors(name).map((message) => invalid(['metadata', 'name'], name, message)) : [];
  const labels = isRecord(metadata) ? metadata.labels : undefined;
  if (labels === undefined || labels === null) return errors;
  const at = ['metadata', 'labels'];
  if (!isRecord(labels)) return [...errors, invalid(at, labels, 'must be a map of strings')];
  for (const [key, value] of Object.entries(labels)) {
    const locateAt = [...at, key];
    for (const message of qualifiedNameErrors(key)) errors.push({ ...invalid(at, key, message), locateAt });
    if (typeof value !== 'string') errors.push({ ...invalid([...at, key], value, 'must be a string'), locateAt });
    else for (const message of labelValueErrors(value)) errors.push({ ...invalid(at, value, message), locateAt });
  }
  return errors;
}
