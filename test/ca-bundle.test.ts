/** ca-bundle: the cases the fixtures cannot hold (structural errors) and the patcher detection. */
import { describe, expect, it } from 'vitest';
import { generateKeyPairSync } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { rules } from '../rules/index.js';
import { lint } from '../src/engine/lint.js';
import { DEFAULT_KUBE_VERSION } from '../src/kube/version.js';
import { lintText } from './helpers.js';
import { keyBudget, publicKeysOf, runKeyBudget } from '../src/kube/private-keys.js';
import { mightHoldPrivateKey } from '../src/parse/prefilter.js';
import { tempFolders } from './temp-folders.js';

function configuration(name: string, clientConfig: string, extraDocuments = ''): string {
  return `apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingWebhookConfiguration
metadata:
  name: ${name}
webhooks:
  - name: pods.${name}.example.com
    admissionReviewVersions: ["v1"]
    sideEffects: None
    failurePolicy: Fail
    clientConfig:
${clientConfig}
    rules:
      - {operations: ["CREATE"], apiGroups: [""], apiVersions: ["v1"], resources: ["pods"]}
${extraDocuments}`;
}

const SERVICE = '      service: {namespace: policy, name: webhook, path: /validate}';

async function ruleIds(text: string): Promise<string[]> {
  return (await lintText(text, { only: ['ca-bundle', 'schema', 'api-validation'] })).map((f) => f.ruleId);
}

describe('ca-bundle', () => {
  it('leaves a caBundle that is not base64 to the schema check', async () => {
    expect(await ruleIds(configuration('policy', `      caBundle: "-----BEGIN CERTIFICATE-----"\n${SERVICE}`))).toEqual(['schema']);
  });

  it('leaves clientConfig with both url and service (or neither) to api-validation', async () => {
    expect(await ruleIds(configuration('policy', `      url: https://webhook.example.com/\n${SERVICE}`))).toEqual(['api-validation']);
    expect(await ruleIds(configuration('policy', '      {}'))).toEqual(['api-validation']);
  });

  it.each([
    ['a certgen Job argument', '        - --webhook-name=policy', true],
    ['a separated flag value', '        - --webhook-name policy', true],
    ['a JSON argument list', '        command: ["certgen", "patch", "--webhook-name", "policy"]', true],
    ['a validating-webhook-name flag', '        - --validating-webhook-name=policy', true],
    ['a camelCase setting', '        validatingWebhookConfigurationName: policy', true],
    ['another configuration', '        - --webhook-name=policy-other', false],
    ['a secret of the same name', '        - --secret-name=policy', false],
  ])('is silent when the same file names the configuration to a patcher: %s', async (_what, line, silent) => {
    const job = `---\napiVersion: batch/v1\nkind: Job\nmetadata: {name: patch, namespace: policy}\nspec:\n  template:\n    spec:\n      restartPolicy: OnFailure\n      containers:\n      - name: patch\n        image: certgen\n        args:\n${line}\n`;
    expect(await ruleIds(configuration('policy', SERVICE, job))).toEqual(silent ? [] : ['ca-bundle']);
  });

  it('reads PEM blocks as Go does: a BEGIN line without its END is skipped, and so is a block with another BEGIN in it (attack s47c 4)', async () => {
    const good = readFileSync('fixtures/ca-bundle/valid/good-bundles.yaml', 'utf8').split('\n')[11]!.replace(/^.*caBundle: /, '');
    const pem = Buffer.from(good, 'base64').toString('latin1');
    const bundle = (text: string): string => `      caBundle: ${Buffer.from(text, 'latin1').toString('base64')}\n${SERVICE}`;
    // Thousands of unterminated BEGIN lines (a regular expression over them was quadratic) before a valid certificate.
    expect(await ruleIds(configuration('policy', bundle(`${'-----BEGIN CERTIFICATE-----\n'.repeat(20_000)}${pem}`)))).toEqual([]);
    expect(await ruleIds(configuration('policy', bundle('-----BEGIN CERTIFICATE-----\n'.repeat(20_000))))).toEqual(['ca-bundle']);
  });

  it('matches the injected option as globs', async () => {
    const text = configuration('team-a-policy', SERVICE);
    const ruleOptions = (value: string) => new Map([['ca-bundle', { injected: value }]]);
    expect(await lintText(text, { only: ['ca-bundle'], ruleOptions: ruleOptions('team-*-policy') })).toEqual([]);
    expect(await lintText(text, { only: ['ca-bundle'], ruleOptions: ruleOptions('other, team-a-policy') })).toEqual([]);
    expect((await lintText(text, { only: ['ca-bundle'], ruleOptions: ruleOptions('team-a') })).length).toBe(1);
  });
});

describe('ca-bundle and the kustomizations of the run', () => {
  const kustomization = (body: string): string => `---\napiVersion: kustomize.config.k8s.io/v1beta1\nkind: Kustomization\nresources: [webhooks.yaml]\n${body}`;

  it('takes a bundle as provided when a patch or a replacement of the run writes an injector annotation into the configuration', async () => {
    const bare = configuration('policy', SERVICE);
    expect(await ruleIds(bare)).toEqual(['ca-bundle']);
    const patch = kustomization(`patches:\n  - target: {kind: ValidatingWebhookConfiguration, name: policy}\n    patch: |-\n      - op: add\n        path: /metadata/annotations\n        value: {cert-manager.io/inject-ca-from: policy/serving-cert}\n`);
    expect(await ruleIds(`${bare}${patch}`)).toEqual([]);
    const replacement = kustomization(
      `replacements:\n  - source: {kind: Certificate, group: cert-manager.io, version: v1, name: serving-cert, fieldPath: .metadata.name}\n    targets:\n      - select: {kind: ValidatingWebhookConfiguration}\n        fieldPaths: [".metadata.annotations.[cert-manager.io/inject-ca-from]"]\n        options: {delimiter: /, index: 1, create: true}\n`,
    );
    expect(await ruleIds(`${bare}${replacement}`)).toEqual([]);
    // kubebuilder's older scaffold: the annotation names the Certificate through vars, whose
    // fieldref it spells `fieldpath` (Go reads it as fieldPath).
    const scaffold = kustomization(
      `patches:\n  - target: {kind: ValidatingWebhookConfiguration, name: policy}\n    patch: |-\n      - op: add\n        path: /metadata/annotations\n        value: {cert-manager.io/inject-ca-from: $(CERTIFICATE_NAMESPACE)/$(CERTIFICATE_NAME)}\nvars:\n  - name: CERTIFICATE_NAMESPACE\n    objref: {kind: Certificate, group: cert-manager.io, version: v1, name: serving-cert}\n    fieldref:\n      fieldpath: metadata.namespace\n  - name: CERTIFICATE_NAME\n    objref: {kind: Certificate, group: cert-manager.io, version: v1, name: serving-cert}\n`,
    );
    expect(await ruleIds(`${bare}${scaffold}`)).toEqual([]);
  });

  it('follows a rename: a patch of the configuration by the name another patch gives it', async () => {
    const bare = configuration('policy', SERVICE);
    const rename = `patches:\n  - target: {kind: ValidatingWebhookConfiguration, name: policy}\n    patch: '[{"op": "replace", "path": "/metadata/name", "value": "team-policy"}]'\n`;
    const annotate = (name: string) => `  - target: {kind: ValidatingWebhookConfiguration, name: ${name}}\n    patch: '[{"op": "add", "path": "/metadata/annotations", "value": {"cert-manager.io/inject-ca-from": "a/b"}}]'\n`;
    expect(await ruleIds(`${bare}${kustomization(`${rename}${annotate('team-policy')}`)}`)).toEqual([]);
    // A patch by a name nothing gives it annotates another object.
    expect(await ruleIds(`${bare}${kustomization(`${rename}${annotate('other-policy')}`)}`)).toEqual(['ca-bundle']);
    expect(await ruleIds(`${bare}${kustomization(`patches:\n${annotate('team-policy')}`)}`)).toEqual(['ca-bundle']);
  });

  it('holds back "no bundle beside one written" where a patch may change the webhooks: it may remove one, or point it at a URL (attack s47d 2)', async () => {
    const good = readFileSync('fixtures/ca-bundle/valid/good-bundles.yaml', 'utf8').split('\n')[11]!.replace(/^.*caBundle: /, '');
    const two = `${configuration('policy', `      caBundle: ${good}\n${SERVICE}`)}  - name: configmaps.policy.example.com\n    admissionReviewVersions: ["v1"]\n    sideEffects: None\n    failurePolicy: Fail\n    clientConfig:\n${SERVICE}\n    rules:\n      - {operations: ["CREATE"], apiGroups: [""], apiVersions: ["v1"], resources: ["configmaps"]}\n`;
    const severities = async (text: string): Promise<string[]> => (await lintText(text, { only: ['ca-bundle'] })).map((f) => f.severity);
    expect(await severities(two)).toEqual(['warning']);
    const remove = kustomization(`patches:\n  - target: {kind: ValidatingWebhookConfiguration, name: policy}\n    patch: '[{"op": "remove", "path": "/webhooks/1"}]'\n`);
    expect(await severities(`${two}${remove}`)).toEqual(['info']);
    const label = kustomization(`patches:\n  - target: {kind: ValidatingWebhookConfiguration, name: policy}\n    patch: '[{"op": "add", "path": "/metadata/labels", "value": {"team": "a"}}]'\n`);
    expect(await severities(`${two}${label}`)).toEqual(['warning']);
    // A patch of a setting leaves the bundles as they are (attack s47e 13).
    const timeout = kustomization(`patches:\n  - target: {kind: ValidatingWebhookConfiguration, name: policy}\n    patch: '[{"op": "replace", "path": "/webhooks/1/timeoutSeconds", "value": 5}]'\n`);
    expect(await severities(`${two}${timeout}`)).toEqual(['warning']);
    const url = kustomization(`patches:\n  - target: {kind: ValidatingWebhookConfiguration, name: policy}\n    patch: '[{"op": "replace", "path": "/webhooks/1/clientConfig", "value": {"url": "https://x.example.com/"}}]'\n`);
    expect(await severities(`${two}${url}`)).toEqual(['info']);
  });

  it('still reports it when the patches write something else, or another object', async () => {
    const bare = configuration('policy', SERVICE);
    const other = kustomization(`patches:\n  - target: {kind: ValidatingWebhookConfiguration, name: policy}\n    patch: '[{"op": "replace", "path": "/webhooks/0/timeoutSeconds", "value": 5}]'\n  - target: {kind: MutatingWebhookConfiguration}\n    patch: '[{"op": "add", "path": "/metadata/annotations", "value": {"cert-manager.io/inject-ca-from": "a/b"}}]'\n`);
    expect(await ruleIds(`${bare}${other}`)).toEqual(['ca-bundle']);
  });
});

const folder = tempFolders('ca-bundle-keys-test');

describe('ca-bundle and private keys written beside the bundle', () => {
  // The fixture's key and certificate (fixtures/ca-bundle/invalid/key-in-secret.yaml).
  const fixture = readFileSync(new URL('../fixtures/ca-bundle/invalid/key-in-secret.yaml', import.meta.url), 'utf8');
  const [secret, validating, mutating] = fixture.split('\n---\n');
  const keyWritten = async (text: string): Promise<string[]> =>
    (await lintText(text, { only: ['ca-bundle'] })).filter((f) => f.message.includes('in the clear')).map((f) => `${f.line} ${f.message.replace(/.*trusts/, 'trusts')}`);

  it('reports the key once, at the first configuration the API server stores and calls', async () => {
    expect(await keyWritten([secret, validating, mutating].join('\n---\n'))).toHaveLength(1);
    // Written as v1beta1 (not served since 1.22), the first is never stored: the finding is the second's.
    const unserved = validating!.replace('admissionregistration.k8s.io/v1\n', 'admissionregistration.k8s.io/v1beta1\n');
    const found = await keyWritten([secret, unserved, mutating].join('\n---\n'));
    expect(found).toHaveLength(1);
    expect(found[0]).not.toContain('more configuration');
    // A webhook no request reaches (a resource name with capitals matches nothing) trusts nothing that matters.
    expect(await keyWritten([secret, validating!.replace('resources: ["widgets"]', 'resources: ["Widgets"]')].join('\n---\n'))).toEqual([]);
  });

  it('reads Secrets only from inputs that hold a webhook configuration, and nothing from an unreadable key', async () => {
    const tree = folder({ 'secret.yaml': secret!, 'webhooks.yaml': validating! });
    const report = await lint({ paths: [tree], rules, kubeVersion: DEFAULT_KUBE_VERSION, trustedNamespaceLabels: [], severityOverrides: new Map(), toolVersion: 'test' });
    expect(report.findings.filter((f) => f.message.includes('in the clear'))).toEqual([]);
    // A key value that is not base64 of a key, or a truncated block: no key, no finding.
    expect(await keyWritten([secret!.replace(/tls\.key: (\S+)/, (_, value: string) => `tls.key: ${value.slice(0, 40)}`), validating].join('\n---\n'))).toEqual([]);
  });
});

describe('publicKeysOf (src/kube/private-keys.ts)', () => {
  const fixture = readFileSync(new URL('../fixtures/ca-bundle/invalid/key-in-secret.yaml', import.meta.url), 'utf8');
  const pem = Buffer.from(/tls\.key: (\S+)/.exec(fixture)![1]!, 'base64').toString('latin1');

  it('reads a key after other text (openssl pkcs12 writes Bag Attributes before it), and finds such a Secret', async () => {
    expect(publicKeysOf(`Bag Attributes\n    localKeyID: 01 02\n${pem}`)).toHaveLength(1);
    for (const prefix of ['Bag Attributes\n', '\n', 'x']) {
      const encoded = Buffer.from(`${prefix}${pem}`).toString('base64');
      const text = fixture.replace(/tls\.key: \S+/, `tls.key: ${encoded}`);
      expect(mightHoldPrivateKey(text.split('\n---\n')[0]!)).toBe(true);
      expect((await lintText(text, { only: ['ca-bundle'] })).filter((f) => f.message.includes('widgets-webhook-cert'))).toHaveLength(1);
    }
  });

  it('finds a key whose base64 value is split across lines (a | block), as the API server decodes it', async () => {
    // This prefix and width cut every base64 form of "PRIVATE KEY" in two (s36c 3-A).
    const encoded = Buffer.from(`Bag Attributes${' '.repeat(23)}\n${pem}`).toString('base64').replace(/(.{72})/g, '$1\n      ');
    const text = fixture.replace(/tls\.key: \S+/, `tls.key: |\n      ${encoded}`);
    expect((await lintText(text, { only: ['ca-bundle'] })).filter((f) => f.message.includes('widgets-webhook-cert'))).toHaveLength(1);
  });

  it('finds the CA key after the keys of four other components in one Secret (s36e 2-A)', async () => {
    const others = ['admission', 'apiserver', 'client', 'metrics'].map((name) => {
      const { privateKey } = generateKeyPairSync('ec', { namedCurve: 'prime256v1' });
      return `  ${name}.key: ${Buffer.from(privateKey.export({ type: 'pkcs8', format: 'pem' }) as string).toString('base64')}`;
    });
    const text = fixture.replace(/  tls\.crt: /, `${others.join('\n')}\n  tls.crt: `);
    expect((await lintText(text, { only: ['ca-bundle'] })).filter((f) => f.message.includes('widgets-webhook-cert'))).toHaveLength(1);
  });

  /** A SEC 1 EC key (P-256) written without its public half (`openssl ec -no_public`): deriving it costs a scalar multiplication. */
  const withoutPublicHalf = (): string => {
    const der = generateKeyPairSync('ec', { namedCurve: 'prime256v1' }).privateKey.export({ type: 'sec1', format: 'der' }) as Buffer;
    // SEQUENCE(119) { INTEGER 1, OCTET STRING(32), [0] OID, [1] BIT STRING(66) }: drop the [1].
    const publicAt = der.indexOf(0xa1, 2 + 3 + 34 + 12);
    const body = der.subarray(2, publicAt);
    const stripped = Buffer.concat([Buffer.from([0x30, body.length]), body]);
    return `-----BEGIN EC PRIVATE KEY-----\n${stripped.toString('base64')}\n-----END EC PRIVATE KEY-----\n`;
  };

  it('derives at most 128 keys written without their public half in a run, and says when a limit was reached (s36e 2-B, s37a 2-A)', () => {
    const derived = withoutPublicHalf();
    expect(publicKeysOf(derived)).toHaveLength(1);
    const run = runKeyBudget();
    let found = 0;
    for (let index = 0; index < 10; index++) found += publicKeysOf(derived.repeat(16), keyBudget(run)).length;
    expect(found).toBe(128);
    expect(run.skipped).toBeGreaterThan(0);
    // A key with its public half written costs no derivation: still read.
    expect(publicKeysOf(pem, keyBudget(run))).toHaveLength(1);
    // Every BEGIN line is a look, whether or not it is a key: at most 64 per Secret.
    const looks = keyBudget();
    expect(publicKeysOf('-----BEGIN EC PRIVATE KEY-----\n'.repeat(100) + pem, looks)).toEqual([]);
    expect(looks.skipped).toBe(1);
  });

  it('finds a key after the keys of many other Secrets (s37a 2-B), and the note comes only past a limit', async () => {
    // Each Secret holds blocks that read as RSA keys by their header but are none: a parse each.
    const junk = (index: number): string => `apiVersion: v1\nkind: Secret\nmetadata: {name: junk-${index}, namespace: widgets}\nstringData:\n  tls.key: "${'-----BEGIN RSA PRIVATE KEY-----\\nAAAA\\n-----END RSA PRIVATE KEY-----\\n'.repeat(16)}"\n`;
    const secrets = (count: number): string => Array.from({ length: count }, (_, index) => junk(index)).join('---\n');
    const report = async (count: number) => lint({ paths: [folder({ 'all.yaml': `${secrets(count)}---\n${fixture}` })], rules, kubeVersion: DEFAULT_KUBE_VERSION, trustedNamespaceLabels: [], severityOverrides: new Map(), toolVersion: 'test' });
    const few = await report(8);
    expect(few.findings.filter((f) => f.message.includes('widgets-webhook-cert'))).toHaveLength(1);
    expect(few.summary.privateKeysNotRead).toBeUndefined();
    // 256 parses a run (s37c 2-A: each costs 0.35-0.6 ms): seventeen Secrets of sixteen are past it.
    const many = await report(17);
    expect(many.findings.filter((f) => f.message.includes('widgets-webhook-cert'))).toHaveLength(0);
    expect(many.summary.privateKeysNotRead).toBe(true);
  });

  it('reads a key after blocks without an end, and leaves key types no TLS server uses unread', () => {
    expect(publicKeysOf('-----BEGIN PRIVATE KEY-----\nAAAA\n'.repeat(50) + pem)).toHaveLength(1);
    // A DSA key in PKCS#8 (its algorithm identifier 1.2.840.10040.4.1) is never built.
    const dsa = `-----BEGIN PRIVATE KEY-----\n${Buffer.concat([Buffer.from('3082014b0201003082012b06072a8648ce380401', 'hex'), Buffer.alloc(300)]).toString('base64')}\n-----END PRIVATE KEY-----\n`;
    expect(publicKeysOf(dsa)).toEqual([]);
    // (s36c 3-C) A DSA key whose prime holds the bytes of rsaEncryption's identifier: the
    // algorithm is read where PKCS#8 puts it, not searched for.
    const disguised = `-----BEGIN PRIVATE KEY-----\n${Buffer.concat([Buffer.from('3082014b0201003082012b06072a8648ce3804013082011e02818100', 'hex'), Buffer.from('06092a864886f70d010101', 'hex'), Buffer.alloc(300)]).toString('base64')}\n-----END PRIVATE KEY-----\n`;
    expect(publicKeysOf(disguised)).toEqual([]);
  });
});
