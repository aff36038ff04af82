/** JSON Patch (RFC 6902) as the probe applies a mutating webhook's patch (src/probe/json-patch.ts), with RFC 6902's own examples. */
import { describe, expect, it } from 'vitest';
import { applyPatch, decodePatch, deepEqual, PatchError, type JsonValue } from '../src/probe/json-patch.js';

const apply = (document: JsonValue, patch: unknown[]) => applyPatch(document, decodePatch(JSON.stringify(patch)));

describe('applyPatch', () => {
  it('RFC 6902 appendix A: add, remove, replace, move, copy, test', () => {
    expect(apply({ foo: 'bar' }, [{ op: 'add', path: '/baz', value: 'qux' }])).toEqual({ foo: 'bar', baz: 'qux' });
    expect(apply({ foo: ['bar', 'baz'] }, [{ op: 'add', path: '/foo/1', value: 'qux' }])).toEqual({ foo: ['bar', 'qux', 'baz'] });
    expect(apply({ baz: 'qux', foo: 'bar' }, [{ op: 'remove', path: '/baz' }])).toEqual({ foo: 'bar' });
    expect(apply({ foo: ['bar', 'qux', 'baz'] }, [{ op: 'remove', path: '/foo/1' }])).toEqual({ foo: ['bar', 'baz'] });
    expect(apply({ baz: 'qux', foo: 'bar' }, [{ op: 'replace', path: '/baz', value: 'boo' }])).toEqual({ baz: 'boo', foo: 'bar' });
    expect(apply({ foo: { bar: 'baz', waldo: 'fred' }, qux: { corge: 'grault' } }, [{ op: 'move', from: '/foo/waldo', path: '/qux/thud' }])).toEqual({ foo: { bar: 'baz' }, qux: { corge: 'grault', thud: 'fred' } });
    expect(apply({ foo: ['all', 'grass', 'cows', 'eat'] }, [{ op: 'move', from: '/foo/1', path: '/foo/3' }])).toEqual({ foo: ['all', 'cows', 'eat', 'grass'] });
    expect(apply({ baz: 'qux', foo: ['a', 2, 'c'] }, [{ op: 'test', path: '/baz', value: 'qux' }, { op: 'test', path: '/foo/1', value: 2 }])).toEqual({ baz: 'qux', foo: ['a', 2, 'c'] });
    expect(apply({ foo: 'bar' }, [{ op: 'add', path: '/child', value: { grandchild: {} } }])).toEqual({ foo: 'bar', child: { grandchild: {} } });
    expect(apply({ foo: ['bar'] }, [{ op: 'add', path: '/foo/-', value: ['abc', 'def'] }])).toEqual({ foo: ['bar', ['abc', 'def']] });
    expect(apply({ '/': 9, '~1': 10 }, [{ op: 'test', path: '/~01', value: 10 }, { op: 'copy', from: '/~1', path: '/copied' }])).toEqual({ '/': 9, '~1': 10, copied: 9 });
  });

  it('a patch that does not apply fails, and leaves the input as it was', () => {
    const document = { metadata: { name: 'a' } };
    expect(() => apply(document, [{ op: 'add', path: '/metadata/annotations/x', value: 'y' }])).toThrow(PatchError);
    expect(() => apply(document, [{ op: 'add', path: '/metadata/annotations/x', value: 'y' }])).toThrow('add operation does not apply: doc is missing path: "/metadata/annotations/x"');
    expect(() => apply(document, [{ op: 'remove', path: '/metadata/labels' }])).toThrow('remove operation does not apply');
    expect(() => apply(document, [{ op: 'replace', path: '/spec', value: 1 }])).toThrow('replace operation does not apply');
    expect(() => apply({ baz: 'qux' }, [{ op: 'test', path: '/baz', value: 'bar' }])).toThrow('testing value "/baz" failed');
    expect(() => apply({ a: [1] }, [{ op: 'add', path: '/a/2', value: 3 }])).toThrow('index out of bounds');
    expect(() => apply({ a: { b: {} } }, [{ op: 'move', from: '/a', path: '/a/b/c' }])).toThrow('cannot be moved into its own child');
    expect(() => apply({}, [{ op: 'merge', path: '/a' }])).toThrow('Unexpected kind: merge');
    expect(() => apply({}, [{ op: 'add', path: '/a' }])).toThrow('missing value');
    // A failed operation after a good one: the input is untouched.
    const before = structuredClone(document);
    expect(() => apply(document, [{ op: 'add', path: '/metadata/labels', value: {} }, { op: 'remove', path: '/nothing' }])).toThrow(PatchError);
    expect(document).toEqual(before);
  });

  it('decodePatch takes a list of objects only', () => {
    expect(decodePatch('[]')).toEqual([]);
    expect(() => decodePatch('{"op":"add"}')).toThrow('cannot unmarshal object into Go value of type jsonpatch.Patch');
    expect(() => decodePatch('[1]')).toThrow('cannot unmarshal number');
    expect(() => decodePatch('not json')).toThrow(PatchError);
  });

  it('deepEqual compares JSON values, key order aside', () => {
    expect(deepEqual({ a: [1, { b: 2 }], c: null }, { c: null, a: [1, { b: 2 }] })).toBe(true);
    expect(deepEqual({ a: 1 }, { a: 1, b: undefined })).toBe(false);
    expect(deepEqual([1, 2], [2, 1])).toBe(false);
  });
});
