/**
 * Template placeholders left in a manifest that was not rendered: `{{ .Values.x }}` (Helm, Go
 * templates, Jinja), `${VAR}` and `$VAR` (envsubst, shell), `$(VAR)` (kustomize vars, Makefile
 * substitutions), `__VAR__` (sed targets) and `<name>` (documentation examples). None of them can be part of a valid
 * Kubernetes name, namespace or label, so a value that holds one is not a value yet: rules that
 * reason about names, namespaces, Services or selectors treat it as unknown, and the schema and
 * API checks name it as a placeholder instead of explaining the name syntax.
 */

const PLACEHOLDER = /\{\{[^{}]*\}\}|\$\{[^{}\s]+\}|\$\([A-Za-z_][A-Za-z0-9_.-]*\)|\$[A-Za-z_][A-Za-z0-9_]*|__[A-Z][A-Z0-9_]*__|<[A-Za-z_][A-Za-z0-9_. -]*>/;

/** The first placeholder in `value`, or undefined. Only strings hold placeholders. */
/** A whole value that is an upper-case token with an underscore (`CA_BUNDLE`): a sed target, never a name or base64. */
const TOKEN = /^[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+$/;

export function placeholderIn(value: unknown): string | undefined {
  if (typeof value !== 'string') return undefined;
  if (TOKEN.test(value)) return value;
  return PLACEHOLDER.exec(value)?.[0];
}

export function isPlaceholder(value: unknown): boolean {
  return placeholderIn(value) !== undefined;
}

/** Whether the whole value is one placeholder (`WEBHOOK_URL`, `${URL}`), not a value that holds one. */
export function isWholePlaceholder(value: unknown): boolean {
  return typeof value === 'string' && placeholderIn(value.trim()) === value.trim();
}

/**
 * The first template construct in the text of a document, outside comments: a `{{ … }}` action
 * (possibly spread over lines) or a `${VAR}` substitution; undefined when there is none. A
 * document that does not parse and holds one is an unrendered template, not broken YAML.
 */
export function templateIn(text: string): string | undefined {
  for (const line of text.split(/\r\n|\r|\n/)) {
    if (line.trimStart().startsWith('#')) continue;
    const found = /\{\{[^{}]*(?:\}\}|$)|\$\{[A-Za-z_][A-Za-z0-9_]*(?::?[-=?+][^}]*)?\}/.exec(line);
    if (found) return found[0].length > 40 ? `${found[0].slice(0, 37)}...` : found[0];
  }
  return undefined;
}

/**
 * How many keys and string values of a decoded document are template placeholders: a document
 * with one is an unrendered template, and the rules that name placeholders say so once per
 * file ("render it first"), not once per field (src/validate/placeholder-findings.ts).
 */
export function countPlaceholders(value: unknown, depth = 0): number {
  if (depth > 100) return 0;
  if (typeof value === 'string') return isPlaceholder(value) ? 1 : 0;
  if (Array.isArray(value)) return value.reduce((sum: number, item) => sum + countPlaceholders(item, depth + 1), 0);
  if (value !== null && typeof value === 'object') {
    let sum = 0;
    for (const [key, item] of Object.entries(value)) sum += (isPlaceholder(key) ? 1 : 0) + countPlaceholders(item, depth + 1);
    return sum;
  }
  return 0;
}

/** The words a placeholder finding adds when the file holds more than the one it names. */
export function morePlaceholders(count: number): string {
  return count > 1 ? ` (${count} placeholders in this file: render it first)` : '';
}
