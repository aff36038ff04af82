/**
 * field.Error of k8s.io/apimachinery/pkg/util/validation/field: the error types the API
 * server reports and the way it prints them (`<path>: <Type>: <value>: <detail>`).
 */
import { formatFieldPath, type FieldPath } from '../field-path.js';

export type FieldErrorType = 'Required' | 'Invalid' | 'NotSupported' | 'Duplicate' | 'Forbidden' | 'TooMany' | 'TooLong';

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
  TooLong: 'Too long',
};

/**
 * strconv.Quote (Go's %q): `\"` and `\\`, `\n`/`\t`/`\r`, `\xNN` for other ASCII controls,
 * `\uNNNN` for the common non-printable code points (C1 controls, format characters, Unicode
 * spaces other than ' '); everything else as is.
 */
export function goQuote(text: string): string {
  let out = '"';
  for (const char of text) {
    const code = char.codePointAt(0)!;
    if (char === '"' || char === '\\') out += `\\${char}`;
    else if (char === '\n') out += '\\n';
    else if (char === '\t') out += '\\t';
    else if (char === '\r') out += '\\r';
    else if (code < 0x20 || code === 0x7f) out += `\\x${code.toString(16).padStart(2, '0')}`;
    else if (/[\u0080-\u00a0\u00ad\u1680\u2000-\u200f\u2028-\u202f\u205f-\u206f\u3000\ufeff]/.test(char)) out += `\\u${code.toString(16).padStart(4, '0')}`;
    else out += char;
  }
  return `${out}"`;
}

/**
 * field.Error.ErrorBody: numbers and booleans with %v, strings with %q, anything else through
 * encoding/json (which escapes <, >, & and U+2028/U+2029).
 */
function formatValue(value: unknown): string {
  if (typeof value === 'string') return goQuote(value);
  if (value === undefined || value === null) return 'null';
  return JSON.stringify(value).replace(/[<>&\u2028\u2029]/g, (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/** The text `kubectl apply` shows for this error. */
export function formatFieldError(error: FieldError): string {
  if (error.message !== undefined) return error.message;
  let body = TYPE_TEXT[error.type];
  // ErrorBody prints no value for Required, Forbidden and TooLong.
  if (error.type !== 'Required' && error.type !== 'Forbidden' && error.type !== 'TooLong') body += `: ${formatValue(error.value)}`;
  if (error.detail) body += `: ${error.detail}`;
  return `${formatFieldPath(error.path)}: ${body}`;
}

export const required = (path: FieldPath, detail?: string): FieldError => ({ type: 'Required', path, ...(detail ? { detail } : {}) });
export const invalid = (path: FieldPath, value: unknown, detail: string): FieldError => ({ type: 'Invalid', path, value, detail });
export const forbidden = (path: FieldPath, detail: string): FieldError => ({ type: 'Forbidden', path, detail });
export const duplicate = (path: FieldPath, value: unknown): FieldError => ({ type: 'Duplicate', path, value });
/** field.TooLong: the value is never shown. */
export const tooLong = (path: FieldPath, maxBytes: number): FieldError => ({ type: 'TooLong', path, detail: `may not be more than ${maxBytes} bytes` });
export const tooMany = (path: FieldPath, actual: number, max: number): FieldError => ({ type: 'TooMany', path, value: actual, detail: `must have at most ${max} items` });
export function notSupported(path: FieldPath, value: unknown, supported: readonly string[]): FieldError {
  const list = [...supported].sort().map((s) => JSON.stringify(s)).join(', ');
  return { type: 'NotSupported', path, value, detail: `supported values: ${list}` };
}
