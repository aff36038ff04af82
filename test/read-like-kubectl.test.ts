/**
 * Objects that kubectl applies must never be skipped: the spellings and line breaks that used to
 * hide a complete webhook configuration (issue 12, item 1), checked without kubectl. The
 * differential test (test/kubectl-differential.test.ts) compares many more against kubectl.
 */
import { describe, expect, it } from 'vitest';
import { normalizeBreaks } from '../src/load/sources.js';
import { skimBytes } from '../src/parse/prefilter.js';
import { lintText } from './helpers.js';

const BODY = `metadata: {name: gate}
webhooks:
  - name: a.example.com
    admissionReviewVersions: [v1]
    sideEffects: None
    clientConfig: {url: "https://a.example.com"}
    rules: [{operations: ["*"], apiGroups: ["*"], apiVersions: ["*"], resources: ["*/*"]}]
`;
const webhookConfiguration = (head: string): string => `${head}${BODY}`;

async function objectsLinted(text: string): Promise<string[]> {
  return [...new Set((await lintText(text)).filter((f) => f.object !== null).map((f) => `${f.object!.kind}/${f.object!.name}`))];
}

describe('reading what kubectl reads', () => {
  it.each([
    ['kind through an alias', 'apiVersion: admissionregistration.k8s.io/v1\nx: &k ValidatingWebhookConfiguration\nkind: *k\n'],
    ['apiVersion and kind through a merge key', '<<: {apiVersion: admissionregistration.k8s.io/v1, kind: ValidatingWebhookConfiguration}\n'],
    ['kind as !!binary', `apiVersion: admissionregistration.k8s.io/v1\nkind: !!binary ${Buffer.from('ValidatingWebhookConfiguration').toString('base64')}\n`],
    ['a BOM after a --- line', 'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: c}\n---\n\ufeffapiVersion: admissionregistration.k8s.io/v1\nkind: ValidatingWebhookConfiguration\n'],
    ['a comment ended by a lone CR', '# note\rapiVersion: admissionregistration.k8s.io/v1\nkind: ValidatingWebhookConfiguration\n'],
    ['a comment ended by NEL (U+0085)', '# note\u0085apiVersion: admissionregistration.k8s.io/v1\nkind: ValidatingWebhookConfiguration\n'],
  ])('lints a webhook configuration written with %s', async (_what, head) => {
    expect(await objectsLinted(webhookConfiguration(head))).toEqual(['ValidatingWebhookConfiguration/gate']);
  });

  it('never skips a file on its bytes when it holds a !!binary scalar', () => {
    expect(skimBytes(new TextEncoder().encode('a: !!binary VmFsaWRhdGluZ1dlYmhvb2tDb25maWd1cmF0aW9u\n'))).toBeUndefined();
  });

  it('breaks lines where YAML 1.1 does, keeping offsets; drops BOMs only at document starts', () => {
    expect(normalizeBreaks('a\rb\r\nc\u0085d\u2028e\u2029f')).toBe('a\nb\r\nc\nd\ne\nf');
    expect(normalizeBreaks('\ufeffa: 1\n---\n\ufeffb: 2\nc: "\ufeff"\n')).toBe('a: 1\n---\nb: 2\nc: "\ufeff"\n');
  });

  it('places findings on their lines in a file with lone-CR line breaks', async () => {
    const text = webhookConfiguration('apiVersion: admissionregistration.k8s.io/v1\nkind: ValidatingWebhookConfiguration\n').replace(/\n/g, '\r');
    const findings = await lintText(text, { only: ['implicit-failure-policy'] });
    expect(findings.map((f) => f.line)).toEqual([5]);
  });
});
