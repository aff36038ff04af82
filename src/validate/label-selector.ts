/** metav1validation.ValidateLabelSelector (facts §2.1), on create (no ratcheting). */
import type { FieldPath } from '../field-path.js';
import { labelValueErrors, qualifiedNameErrors } from '../kube/names.js';
import type { LabelSelector } from '../model/types.js';
import { forbidden, invalid, required, type FieldError } from './field-error.js';

export function validateLabelSelector(selector: LabelSelector, at: FieldPath): FieldError[] {
  const errors: FieldError[] = [];
  // matchLabels first, then matchExpressions, as ValidateLabelSelector appends them.
  for (const [key, value] of Object.entries(selector.matchLabels ?? {})) {
    // The API server names only `matchLabels`; we point at the offending key in the file.
    const locateAt = [...at, 'matchLabels', key];
    for (const message of qualifiedNameErrors(key)) errors.push({ ...invalid([...at, 'matchLabels'], key, message), locateAt });
    for (const message of labelValueErrors(value ?? '')) errors.push({ ...invalid([...at, 'matchLabels'], value ?? '', message), locateAt });
  }
  selector.matchExpressions?.forEach((requirement, index) => {
    if (requirement === null) return;
    const path = [...at, 'matchExpressions', index];
    const values = requirement.values ?? [];
    switch (requirement.operator) {
      case 'In':
      case 'NotIn':
        if (values.length === 0) errors.push(required([...path, 'values'], "must be specified when `operator` is 'In' or 'NotIn'"));
        break;
      case 'Exists':
      case 'DoesNotExist':
        if (values.length > 0) errors.push(forbidden([...path, 'values'], "may not be specified when `operator` is 'Exists' or 'DoesNotExist'"));
        break;
      default:
        errors.push(invalid([...path, 'operator'], requirement.operator ?? '', 'not a valid selector operator'));
    }
    for (const message of qualifiedNameErrors(requirement.key ?? '')) errors.push(invalid([...path, 'key'], requirement.key ?? '', message));
    values.forEach((value, n) => {
      for (const message of labelValueErrors(value ?? '')) errors.push(invalid([...path, 'values', n], value ?? '', message));
    });
  });
  return errors;
}
