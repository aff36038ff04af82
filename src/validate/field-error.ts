/**
 * field.Error of k8s.io/apimachinery/pkg/util/validation/field: the error types the API
 * server reports and the way it prints them (`<path>: <Type>: <value>: <detail>`).
 */
import { formatFieldPath, type FieldPath } from '../field-path.js';

export type FieldErrorType = 'Required' | 'Invalid' | 'NotSupported' | 'Duplicate' | 'Forbidden' | 'TooMany';

export interface FieldError {
  readonly type: FieldErrorType;
  /** Where the API server reports it. */
  readonly path: FieldPath;
  readonly value?: unknown;
  readonly detail?: string;
  /** Where in the file to point, when it differs from `path` (a matchLabels key, say). */
  readonly locateAt?: FieldPath;
  /** The message to show instead of the API server's text, when the API server's is misleading. */
  readonly message?: string;
}

const TYPE_TEXT: Record<FieldErrorType, string> = {
  Required: 'Required value',
  Invalid: 'Invalid value',
  NotSupported: 'Unsupported value',
  Duplicate: 'Duplicate value',
  Forbidden: 'Forbidden',
  TooMany: 'Too many',
};

function formatValue(value: unknown): string {
  if (typeof value === 'string') return JSON.stringify(value);
  if (value === undefined || value === null) return 'null';
  return JSON.stringify(value);
}

/** The text `kubectl apply` shows for this error. */
export function formatFieldError(error: FieldError): string {
  if (error.message !== undefined) return error.message;
  let body = TYPE_TEXT[error.type];
  if (error.type !== 'Required' && error.type !== 'Forbidden') body += `: ${formatValue(error.value)}`;
  if (error.detail) body += `: ${error.detail}`;
  return `${formatFieldPath(error.path)}: ${body}`;
}

export const required = (path: FieldPath, detail?: string): FieldError => ({ type: 'Required', path, ...(detail ? { detail } : {}) });
export const invalid = (path: FieldPath, value: unknown, detail: string): FieldError => ({ type: 'Invalid', path, value, detail });
export const forbidden = (path: FieldPath, detail: string): FieldError => ({ type: 'Forbidden', path, detail });
export const duplicate = (path: FieldPath, value: unknown): FieldError => ({ type: 'Duplicate', path, value });
export const tooMany = (path: FieldPath, actual: number, max: number): FieldError => ({ type: 'TooMany', path, value: actual, detail: `must have at most ${max} items` });
export function notSupported(path: FieldPath, value: unknown, supported: readonly string[]): FieldError {
  const list = [...supported].sort().map((s) => JSON.stringify(s)).join(', ');
  return { type: 'NotSupported', path, value, detail: `supported values: ${list}` };
}
