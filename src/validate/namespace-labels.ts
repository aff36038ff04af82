/**
 * The labels of a Namespace as the API server validates them (ValidateObjectMeta: every key a
 * qualified name, every value a label value, every value a string). A Namespace with one that
 * fails is rejected whole: it never exists, and its labels select nothing.
 */
import { labelValueErrors, qualifiedNameErrors } from '../kube/names.js';
import { invalid, type FieldError } from './field-error.js';

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The errors of `metadata.labels` in a written Namespace (none when it has no labels). */
export function namespaceLabelErrors(written: unknown): FieldError[] {
  const metadata = isRecord(written) ? written.metadata : undefined;
  const labels = isRecord(metadata) ? metadata.labels : undefined;
  if (labels === undefined || labels === null) return [];
  const at = ['metadata', 'labels'];
  if (!isRecord(labels)) return [invalid(at, labels, 'must be a map of strings')];
  const errors: FieldError[] = [];
  for (const [key, value] of Object.entries(labels)) {
    const locateAt = [...at, key];
    for (const message of qualifiedNameErrors(key)) errors.push({ ...invalid(at, key, message), locateAt });
    if (typeof value !== 'string') errors.push({ ...invalid([...at, key], value, 'must be a string'), locateAt });
    else for (const message of labelValueErrors(value)) errors.push({ ...invalid(at, value, message), locateAt });
  }
  return errors;
}
