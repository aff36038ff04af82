/** `--format junit`: JUnit XML, well-formed whatever the messages contain. */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { escapeAttribute, escapeText, formatJunit, stripForbidden } from '../src/format/junit.js';
import type { Inventory } from '../src/format/types.js';
import { finding, report } from './format-report.js';

const ROOT = join(import.meta.dirname, '..');

interface XmlElement {
  readonly name: string;
  readonly attributes: Record<string, string>;
  readonly children: XmlElement[];
  text: string;
}

/**
 * A strict parser for the XML subset a JUnit report uses (declaration, elements, attributes,
 * text, the five entities and character references). Throws on anything malformed, on characters
 * XML 1.0 forbids, and on `]]>` in text, so "it parses" means "it is well-formed".
 */
function parseXml(xml: string): XmlElement {
  if (/[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/u.test(xml)) throw new Error('a character XML 1.0 forbids');
  const decode = (value: string): string => {
    if (/&(?!(amp|lt|gt|quot|apos|#\d+|#x[0-9a-fA-F]+);)/.test(value)) throw new Error(`a bare & in ${JSON.stringify(value)}`);
    return value.replace(/&(amp|lt|gt|quot|apos|#\d+|#x[0-9a-fA-F]+);/g, (_m, ref: string) => {
      const named: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };
      if (named[ref]) return named[ref]!;
      return String.fromCodePoint(ref.startsWith('#x') ? parseInt(ref.slice(2), 16) : Number(ref.slice(1)));
    });
  };
  let rest = xml.replace(/^<\?xml version="1\.0" encoding="UTF-8"\?>\n/, '');
  if (rest === xml) throw new Error('no XML declaration');
  const stack: XmlElement[] = [];
  let root: XmlElement | undefined;
  while (rest.length > 0) {
    if (rest.startsWith('</')) {
      const close = /^<\/([A-Za-z]+)>/.exec(rest);
      const open = stack.pop();
      if (!close || !open || close[1] !== open.name) throw new Error(`bad end tag near ${rest.slice(0, 40)}`);
      rest = rest.slice(close[0].length);
    } else if (rest.startsWith('<')) {
      const tag = /^<([A-Za-z]+)((?:\s+[A-Za-z]+="[^"<]*")*)\s*(\/?)>/.exec(rest);
      if (!tag) throw new Error(`bad start tag near ${rest.slice(0, 40)}`);
      const attributes: Record<string, string> = {};
      for (const [, key, value] of tag[2]!.matchAll(/([A-Za-z]+)="([^"]*)"/g)) {
        if (key! in attributes) throw new Error(`duplicate attribute ${key}`);
        attributes[key!] = decode(value!);
      }
      const element: XmlElement = { name: tag[1]!, attributes, children: [], text: '' };
      if (stack.length > 0) stack[stack.length - 1]!.children.push(element);
      else if (root) throw new Error('two root elements');
      else root = element;
      if (tag[3] !== '/') stack.push(element);
      rest = rest.slice(tag[0].length);
    } else {
      const end = rest.indexOf('<');
      const text = end < 0 ? rest : rest.slice(0, end);
      if (text.includes(']]>')) throw new Error(']]> in text');
      if (stack.length > 0) stack[stack.length - 1]!.text += decode(text);
      else if (text.trim() !== '') throw new Error('text outside the root');
      rest = end < 0 ? '' : rest.slice(end);
    }
  }
  if (!root || stack.length > 0) throw new Error('unclosed elements');
  return root;
}

const suites = (xml: string) => parseXml(xml).children;

describe('junit: structure', () => {
  it('has one suite per file, one case per object, one failure per finding, and counts', () => {
    const xml = formatJunit(
      report([
        finding(),
        finding({ ruleId: 'implicit-failure-policy', severity: 'warning', message: 'failurePolicy omitted' }),
        finding({ file: 'deploy/other.yaml', object: { apiVersion: 'v1', kind: 'MutatingWebhookConfiguration', name: 'inject' } }),
      ]),
    );
    const root = parseXml(xml);
    expect(root.name).toBe('testsuites');
    expect(root.attributes).toMatchObject({ name: 'admission-lint', tests: '2', failures: '2', errors: '0' });
    expect(root.children.map((s) => [s.name, s.attributes.name, s.attributes.tests, s.attributes.failures])).toEqual([
      ['testsuite', 'deploy/webhook.yaml', '1', '1'],
      ['testsuite', 'deploy/other.yaml', '1', '1'],
    ]);
    const [testCase] = root.children[0]!.children;
    expect(testCase!.attributes).toEqual({ classname: 'ValidatingWebhookConfiguration', name: 'policy', file: 'deploy/webhook.yaml' });
    expect(testCase!.children.map((f) => [f.name, f.attributes.type, f.attributes.message])).toEqual([
      ['failure', 'timeout-out-of-range', 'timeoutSeconds is 45; the API server accepts 1 to 30 seconds'],
      ['failure', 'implicit-failure-policy', 'failurePolicy omitted'],
    ]);
    expect(testCase!.children[0]!.text).toBe(
      [
        'deploy/webhook.yaml:14:5',
        'severity: error',
        'rule: timeout-out-of-range',
        'webhook: validate.policy.example.com',
        'field: webhooks[0].timeoutSeconds',
        'message: timeoutSeconds is 45; the API server accepts 1 to 30 seconds',
        'help: Set timeoutSeconds between 1 and 30.',
      ].join('\n'),
    );
  });

  it('puts file-level findings under "document N" (1-based) and names unnamed objects', () => {
    const xml = formatJunit(
      report([
        finding({ ruleId: 'yaml-syntax', documentIndex: 1, object: null, webhook: null, fieldPath: null }),
        finding({ documentIndex: 2, object: { apiVersion: 'v1', kind: 'ValidatingWebhookConfiguration', name: null } }),
      ]),
    );
    const cases = suites(xml)[0]!.children.map((c) => c.attributes);
    expect(cases).toEqual([
      { classname: 'deploy/webhook.yaml', name: 'document 2', file: 'deploy/webhook.yaml' },
      { classname: 'ValidatingWebhookConfiguration', name: '(no name, document 3)', file: 'deploy/webhook.yaml' },
    ]);
  });

  it('lists files and objects without findings as passing cases, from the inventory', () => {
    const inventory: Inventory = {
      files: [
        { path: 'clean.yaml', objects: [{ documentIndex: 0, kind: 'ValidatingWebhookConfiguration', name: 'fine' }] },
        {
          path: 'deploy/webhook.yaml',
          objects: [
            { documentIndex: 0, kind: 'ValidatingWebhookConfiguration', name: 'policy' },
            { documentIndex: 1, kind: 'Namespace', name: 'team-a' },
          ],
        },
        { path: 'values.yaml', objects: [] },
      ],
    };
    const root = parseXml(formatJunit(report([finding()]), { inventory }));
    expect(root.attributes).toMatchObject({ tests: '3', failures: '1' });
    expect(root.children.map((s) => [s.attributes.name, s.attributes.tests, s.attributes.failures])).toEqual([
      ['clean.yaml', '1', '0'],
      ['deploy/webhook.yaml', '2', '1'],
      ['values.yaml', '0', '0'],
    ]);
    const passing = root.children[0]!.children[0]!;
    expect(passing.attributes).toEqual({ classname: 'ValidatingWebhookConfiguration', name: 'fine', file: 'clean.yaml' });
    expect(passing.children).toEqual([]);
    expect(root.children[1]!.children.map((c) => [c.attributes.name, c.children.length])).toEqual([
      ['policy', 1],
      ['team-a', 0],
    ]);
  });

  it('is an empty, valid report when nothing was linted', () => {
    const root = parseXml(formatJunit(report([])));
    expect(root.attributes).toMatchObject({ tests: '0', failures: '0' });
    expect(root.children).toEqual([]);
  });
});

describe('junit: escaping', () => {
  it('escapes markup and quotes, and keeps line breaks in attributes', () => {
    expect(escapeText('a < b && c > d ]]>\r\n')).toBe('a &lt; b &amp;&amp; c &gt; d ]]&gt;&#13;\n');
    expect(escapeAttribute('say "hi"\n\tthen\r')).toBe('say &quot;hi&quot;&#10;&#9;then&#13;');
  });

  it('strips characters XML 1.0 forbids (controls, lone surrogates, U+FFFE/U+FFFF) and keeps the rest', () => {
    expect(stripForbidden('a\u0000b\u0008c\u001Fd\uFFFEe\uFFFFf\uD800g\uDC00h')).toBe('abcdefgh');
    expect(stripForbidden('tab\tnl\ncr\r é 😀 \uE000')).toBe('tab\tnl\ncr\r é 😀 \uE000');
  });

  it('round-trips hostile messages, file names and object names through a strict parser', () => {
    const message = 'CEL: <bad> & "quoted" \'single\' ]]> \u0000\u001B[31m\nline 2\r\n\t^ here 😀';
    const xml = formatJunit(
      report([finding({ message, file: 'a&b<c>"d".yaml', help: 'use <x> & y', object: { apiVersion: 'v1', kind: 'ValidatingWebhookConfiguration', name: 'n"<&>' } })]),
    );
    const [suite] = suites(xml);
    expect(suite!.attributes.name).toBe('a&b<c>"d".yaml');
    const [testCase] = suite!.children;
    expect(testCase!.attributes.name).toBe('n"<&>');
    const [failure] = testCase!.children;
    const clean = 'CEL: <bad> & "quoted" \'single\' ]]> [31m\nline 2\r\n\t^ here 😀';
    expect(failure!.attributes.message).toBe(clean);
    expect(failure!.text).toContain(`message: ${clean}`);
    expect(failure!.text).toContain('help: use <x> & y');
  });
});

describe('junit: the built CLI', () => {
  const cli = (args: string[], cwd: string, input = '') =>
    spawnSync(process.execPath, [join(ROOT, 'bin', 'admission-lint.js'), ...args], { cwd, input, encoding: 'utf8', env: { PATH: process.env.PATH ?? '' } });

  it('lists every file and object, passing ones included, when linting stdin', () => {
    const dir = mkdtempSync(join(tmpdir(), 'admission-lint-junit-'));
    const clean = readFileSync(join(ROOT, 'fixtures/removed-api-version/valid/v1.yaml'), 'utf8');
    writeFileSync(join(dir, 'clean.yaml'), clean);
    writeFileSync(join(dir, 'broken.yaml'), 'kind: [Namespace\n');
    writeFileSync(join(dir, 'config.yaml'), 'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: x}\n');
    const stdin = 'apiVersion: admissionregistration.k8s.io/v1\nkind: ValidatingWebhookConfiguration\nmetadata: {name: piped}\nwebhooks: []\n';
    const run = cli(['--format', 'junit', '.', '-'], dir, stdin);
    expect(run.stderr).toBe('');
    expect(run.status).toBe(1);
    const root = parseXml(run.stdout);
    const byName: Record<string, XmlElement> = Object.fromEntries(root.children.map((s) => [s.attributes.name!, s] as const));
    expect(Object.keys(byName).sort()).toEqual(['<stdin>', 'broken.yaml', 'clean.yaml', 'config.yaml']);
    expect(byName['clean.yaml']!.attributes).toMatchObject({ tests: '1', failures: '0' });
    expect(byName['clean.yaml']!.children[0]!.attributes.classname).toBe('ValidatingWebhookConfiguration');
    expect(byName['broken.yaml']!.children.map((c) => [c.attributes.name, c.children[0]?.attributes.type])).toEqual([['document 1', 'yaml-syntax']]);
    expect(byName['config.yaml']!.attributes).toMatchObject({ tests: '0', failures: '0' });
    expect(byName['<stdin>']!.children.map((c) => c.attributes.name)).toEqual(['piped']);
  });
});
