/** `k=v,k2=v2` label lists from the command line, checked as the API server checks labels. */
import { UsageError } from '../errors.js';
import type { Labels } from '../match/selector.js';

const NAME = /^[A-Za-z0-9]([-A-Za-z0-9_.]{0,61}[A-Za-z0-9])?$/;
const PREFIX = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;
const VALUE = /^([A-Za-z0-9]([-A-Za-z0-9_.]{0,61}[A-Za-z0-9])?)?$/;

function validKey(key: string): boolean {
  const slash = key.lastIndexOf('/');
  if (slash < 0) return NAME.test(key);
  const prefix = key.slice(0, slash);
  return prefix.length <= 253 && PREFIX.test(prefix) && NAME.test(key.slice(slash + 1));
}

/** Parses `k=v,k2=v2` (an empty string is no labels); `flag` names the option in errors. */
export function parseLabels(text: string, flag: string): Labels {
  const labels: Record<string, string> = {};
  if (text.trim() === '') return labels;
  for (const part of text.split(',')) {
    const eq = part.indexOf('=');
    if (eq < 0) throw new UsageError(`${flag}: "${part}" is not key=value`, `e.g. ${flag} sidecar-injection=enabled,team=a`);
    const key = part.slice(0, eq).trim();
    const value = part.slice(eq + 1).trim();
    if (!validKey(key)) throw new UsageError(`${flag}: "${key}" is not a valid label key`, 'a label key is [prefix/]name: name up to 63 characters of letters, digits, -, _ and . (starting and ending with a letter or digit); prefix a DNS subdomain');
    if (!VALUE.test(value)) throw new UsageError(`${flag}: "${value}" is not a valid value for label ${key}`, 'a label value is up to 63 characters of letters, digits, -, _ and . (starting and ending with a letter or digit), or empty');
    if (Object.prototype.hasOwnProperty.call(labels, key) && labels[key] !== value) throw new UsageError(`${flag}: label ${key} is given twice, as "${labels[key]}" and "${value}"`);
    labels[key] = value;
  }
  return labels;
}

/** `k=v, k2=v2` for messages; "(none)" when empty. */
export function formatLabels(labels: Labels): string {
  const entries = Object.entries(labels);
  return entries.length === 0 ? '(none)' : entries.map(([key, value]) => `${key}=${value}`).join(', ');
}
