/**
 * Label-selector evaluation as metav1.LabelSelectorAsSelector and labels.Selector.Matches do
 * it (facts §5): every matchLabels pair and every expression must hold. `In` needs the key
 * present with a listed value; `NotIn` holds when the key is absent or its value is not listed;
 * `Exists` / `DoesNotExist` test the key only. An empty or absent selector matches everything.
 */
import type { LabelSelector, LabelSelectorRequirement } from '../model/types.js';
import { isPlaceholder } from '../text/placeholder.js';
import { splitTopLevel } from '../text/split.js';

export type Labels = Readonly<Record<string, string>>;

export const SELECTOR_OPERATORS = ['In', 'NotIn', 'Exists', 'DoesNotExist'] as const;

function requirementHolds(requirement: LabelSelectorRequirement, labels: Labels): boolean | undefined {
  // A null requirement (`matchExpressions: [null]`) decodes as an empty one: an invalid selector.
  if (requirement === null || typeof requirement !== 'object') return undefined;
  const has = Object.prototype.hasOwnProperty.call(labels, requirement.key);
  const values = requirement.values ?? [];
  switch (requirement.operator) {
    case 'In':
      return has && values.includes(labels[requirement.key]!);
    case 'NotIn':
      return !has || !values.includes(labels[requirement.key]!);
    case 'Exists':
      return has;
    case 'DoesNotExist':
      return !has;
    default:
      return undefined;
  }
}

/**
 * Whether `labels` satisfy `selector`; undefined when the selector is invalid (an unknown
 * operator), in which case the API server fails the request instead of deciding.
 */
export function selectorMatches(selector: LabelSelector | undefined, labels: Labels): boolean | undefined {
  if (selector === undefined) return true;
  for (const [key, value] of Object.entries(selector.matchLabels ?? {})) {
    if (labels[key] !== (value ?? '')) return false;
  }
  let result: boolean | undefined = true;
  for (const requirement of selector.matchExpressions ?? []) {
    const holds = requirementHolds(requirement, labels);
    if (holds === undefined) result = undefined;
    else if (!holds) return false;
  }
  return result;
}

export function isEmptySelector(selector: LabelSelector | undefined): boolean {
  return selector === undefined || (Object.keys(selector.matchLabels ?? {}).length === 0 && (selector.matchExpressions ?? []).length === 0);
}

/**
 * Every label key the selector reads, with the field path of the place that names it (the API
 * server's notation has no key under matchLabels, so the key travels separately).
 */
export function selectorKeys(selector: LabelSelector | undefined): { key: string; where: ['matchLabels', string] | ['matchExpressions', number, 'key'] }[] {
  if (selector === undefined) return [];
  const keys: { key: string; where: ['matchLabels', string] | ['matchExpressions', number, 'key'] }[] = [];
  for (const key of Object.keys(selector.matchLabels ?? {})) keys.push({ key, where: ['matchLabels', key] });
  (selector.matchExpressions ?? []).forEach((requirement, index) => {
    if (typeof requirement?.key === 'string') keys.push({ key: requirement.key, where: ['matchExpressions', index, 'key'] });
  });
  return keys;
}

/**
 * Whether a key or value of the selector is an unrendered template placeholder (`${NAMESPACE}`,
 * `{{ .Values.x }}`): what it selects is unknown until the manifest is rendered.
 */
export function selectorHasPlaceholder(selector: LabelSelector | undefined): boolean {
  if (selector === undefined || selector === null) return false;
  for (const [key, value] of Object.entries(selector.matchLabels ?? {})) {
    if (isPlaceholder(key) || isPlaceholder(value)) return true;
  }
  return (selector.matchExpressions ?? []).some((requirement) => requirement !== null && (isPlaceholder(requirement.key) || (requirement.values ?? []).some(isPlaceholder)));
}

/** A key as the string form writes it: anything but blanks and the syntax's own characters. */
const KEY = String.raw`[^\s=!<>(),]+`;
const EXISTS = new RegExp(`^(!?)\\s*(${KEY})$`);
const SET = new RegExp(`^(${KEY})\\s+(in|notin)\\s*\\(([^()]*)\\)$`);
const EQUALS = new RegExp(`^(${KEY})\\s*(==|=|!=)\\s*([^\\s,()=!]*)$`);

/**
 * The string form of a selector (`a=b,!c,d in (e, f)`: labels.Parse, as kustomize's
 * `labelSelector` and `annotationSelector` take it) as a LabelSelector; undefined for a form this
 * does not read (`>`, `<`, anything unexpected), which the caller then takes as possibly matching.
 * `!=` holds where the key is absent too, as NotIn does.
 */
export function parseSelectorString(text: string): LabelSelector | undefined {
  const terms = splitTopLevel(text);
  const matchExpressions: LabelSelectorRequirement[] = [];
  for (const raw of terms) {
    const term = raw.trim();
    if (term === '') return undefined;
    const set = SET.exec(term);
    const equals = EQUALS.exec(term);
    const exists = EXISTS.exec(term);
    if (set !== null) matchExpressions.push({ key: set[1]!, operator: set[2] === 'in' ? 'In' : 'NotIn', values: set[3]!.split(',').map((value) => value.trim()) });
    else if (equals !== null) matchExpressions.push({ key: equals[1]!, operator: equals[2] === '!=' ? 'NotIn' : 'In', values: [equals[3]!] });
    else if (exists !== null) matchExpressions.push({ key: exists[2]!, operator: exists[1] === '!' ? 'DoesNotExist' : 'Exists' });
    else return undefined;
  }
  return { matchExpressions };
}
