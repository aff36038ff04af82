/** Label-selector evaluation, case by case against facts §5 (metav1.LabelSelectorAsSelector). */
import { describe, expect, it } from 'vitest';
import { isEmptySelector, parseSelectorString, selectorKeys, selectorMatches } from '../src/match/selector.js';

const labels = { team: 'a', 'kubernetes.io/metadata.name': 'team-a', empty: '' };

describe('selectorMatches', () => {
  it.each([
    ['absent selector', undefined, true],
    ['empty selector', {}, true],
    ['matchLabels equal', { matchLabels: { team: 'a' } }, true],
    ['matchLabels differ', { matchLabels: { team: 'b' } }, false],
    ['matchLabels missing key', { matchLabels: { other: 'a' } }, false],
    ['matchLabels empty value matches empty label', { matchLabels: { empty: '' } }, true],
    ['In with value', { matchExpressions: [{ key: 'team', operator: 'In', values: ['a', 'b'] }] }, true],
    ['In without the key', { matchExpressions: [{ key: 'other', operator: 'In', values: ['a'] }] }, false],
    ['NotIn with a listed value', { matchExpressions: [{ key: 'team', operator: 'NotIn', values: ['a'] }] }, false],
    ['NotIn without the key holds', { matchExpressions: [{ key: 'other', operator: 'NotIn', values: ['a'] }] }, true],
    ['Exists', { matchExpressions: [{ key: 'team', operator: 'Exists' }] }, true],
    ['Exists on a missing key', { matchExpressions: [{ key: 'other', operator: 'Exists' }] }, false],
    ['DoesNotExist on a missing key', { matchExpressions: [{ key: 'other', operator: 'DoesNotExist' }] }, true],
    ['DoesNotExist on a present key', { matchExpressions: [{ key: 'team', operator: 'DoesNotExist' }] }, false],
    ['all requirements must hold', { matchLabels: { team: 'a' }, matchExpressions: [{ key: 'team', operator: 'NotIn', values: ['a'] }] }, false],
    ['operators are case-sensitive (invalid)', { matchExpressions: [{ key: 'team', operator: 'in', values: ['a'] }] }, undefined],
    ['a false requirement wins over an invalid one', { matchExpressions: [{ key: 'team', operator: 'in', values: ['a'] }, { key: 'other', operator: 'Exists' }] }, false],
  ] as const)('%s', (_name, selector, expected) => {
    expect(selectorMatches(selector as never, labels)).toBe(expected);
  });
});

describe('selector helpers', () => {
  it('isEmptySelector', () => {
    expect(isEmptySelector(undefined)).toBe(true);
    expect(isEmptySelector({ matchLabels: {}, matchExpressions: [] })).toBe(true);
    expect(isEmptySelector({ matchLabels: { a: 'b' } })).toBe(false);
  });
  it('selectorKeys names every key with where it is written', () => {
    expect(selectorKeys({ matchLabels: { a: 'x' }, matchExpressions: [{ key: 'b', operator: 'Exists' }] })).toEqual([
      { key: 'a', where: ['matchLabels', 'a'] },
      { key: 'b', where: ['matchExpressions', 0, 'key'] },
    ]);
  });
});

describe('parseSelectorString (labels.Parse, as kustomize selectors are written)', () => {
  const holds = (text: string, labels: Record<string, string>) => {
    const selector = parseSelectorString(text);
    return selector === undefined ? undefined : selectorMatches(selector, labels);
  };
  it('reads existence, equality and set requirements, comma-separated', () => {
    expect(holds('cert-manager.io/inject-ca-from', { 'cert-manager.io/inject-ca-from': 'a/b' })).toBe(true);
    expect(holds('cert-manager.io/inject-ca-from', {})).toBe(false);
    expect(holds('!x', {})).toBe(true);
    expect(holds('a=b, c==d', { a: 'b', c: 'd' })).toBe(true);
    expect(holds('a!=b', {})).toBe(true);
    expect(holds('a in (b, c),d notin (e)', { a: 'c' })).toBe(true);
    expect(holds('a in (b, c)', { a: 'x' })).toBe(false);
  });
  it('reads no form it does not know', () => {
    expect(parseSelectorString('a > 1')).toBeUndefined();
    expect(parseSelectorString('a=b,')).toBeUndefined();
    expect(parseSelectorString('a in b')).toBeUndefined();
  });
});
