/** Text edits at yaml node positions (src/parse/edit.ts): the file is never written out again. */
import { describe, expect, it } from 'vitest';
import { editableFile, insertPair, removeItem, replaceScalar, type TextEdit } from '../src/parse/edit.js';

const apply = (text: string, edit: TextEdit | undefined): string | undefined => (edit === undefined ? undefined : text.slice(0, edit.start) + edit.text + text.slice(edit.end));

describe('insertPair', () => {
  it('adds the key after a one-line first pair, keeping its comment', () => {
    const text = 'webhooks:\n  - name: a # first\n    rules: []\n';
    expect(apply(text, insertPair(editableFile(text), 0, ['webhooks', 0], 'failurePolicy', 'Fail'))).toBe('webhooks:\n  - name: a # first\n    failurePolicy: Fail\n    rules: []\n');
  });

  it('adds the key before the first key when that pair spans lines', () => {
    const text = 'spec:\n  paramKind:\n    kind: ConfigMap\n';
    expect(apply(text, insertPair(editableFile(text), 0, ['spec'], 'failurePolicy', 'Fail'))).toBe('spec:\n  failurePolicy: Fail\n  paramKind:\n    kind: ConfigMap\n');
  });

  it('writes JSON in a JSON file, and YAML 1.1 booleans quoted', () => {
    const text = '{"webhooks": [{"name": "a", "rules": []}]}';
    expect(apply(text, insertPair(editableFile(text), 0, ['webhooks', 0], 'matchPolicy', 'Exact'))).toBe('{"webhooks": [{"matchPolicy": "Exact", "name": "a", "rules": []}]}');
    const yaml = 'm: {a: 1}\n';
    expect(apply(yaml, insertPair(editableFile(yaml), 0, ['m'], 'b', 'on'))).toBe('m: {b: "on", a: 1}\n');
  });

  it('keeps CRLF and edits only the document named', () => {
    const text = 'a: 1\r\n---\r\nname: x\r\nb: 2\r\n';
    expect(apply(text, insertPair(editableFile(text), 1, [], 'c', 3))).toBe('a: 1\r\n---\r\nname: x\r\nc: 3\r\nb: 2\r\n');
  });

  it('refuses a key already written, an alias, and an anchor that an alias shares', () => {
    const written = 'm: {a: 1}\n';
    expect(insertPair(editableFile(written), 0, ['m'], 'a', 2)).toBeUndefined();
    const shared = 'base: &b {name: x}\nuse: *b\n';
    expect(insertPair(editableFile(shared), 0, ['base'], 'c', 1)).toBeUndefined();
    expect(insertPair(editableFile(shared), 0, ['use'], 'c', 1)).toBeUndefined();
  });
});

describe('replaceScalar and removeItem', () => {
  it('replaces a one-line scalar', () => {
    const text = 'apiVersion: "x/v1beta1" # old\n';
    const edit = replaceScalar(editableFile(text), 0, ['apiVersion'], '"x/v1"');
    expect(apply(text, edit)).toBe('apiVersion: "x/v1" # old\n');
  });

  it('removes a block item with its line, a flow item with its comma, never the only item', () => {
    const block = 'r:\n  - a\n  - b # gone\n  - c\n';
    expect(apply(block, removeItem(editableFile(block), 0, ['r', 1]))).toBe('r:\n  - a\n  - c\n');
    const flow = 'r: [a, b, c]\n';
    expect(apply(flow, removeItem(editableFile(flow), 0, ['r', 0]))).toBe('r: [b, c]\n');
    expect(apply(flow, removeItem(editableFile(flow), 0, ['r', 2]))).toBe('r: [a, b]\n');
    const one = 'r: [a]\n';
    expect(removeItem(editableFile(one), 0, ['r', 0])).toBeUndefined();
  });
});
