/**
 * clientConfig.caBundle: missing on a Service-backed webhook with nothing that injects it, or
 * present but unusable (not PEM, no certificate, a private key, nothing valid now).
 *
 * The API server builds its webhook client with the bundle as the TLS roots (client-go
 * rootCertPool: x509.CertPool.AppendCertsFromPEM, which keeps the CERTIFICATE blocks it can
 * parse and fails when none is left). Without a bundle it uses its own system roots, which
 * never contain the CA of an in-cluster Service name (`<svc>.<ns>.svc`).
 *
 * Almost every published manifest omits the bundle on purpose: cert-manager's cainjector, a
 * certgen Job or the webhook's own controller writes it at run time. So a missing bundle is
 * reported only when none of those is visible (see `runtimeInjection`).
 */
import { X509Certificate } from 'node:crypto';
import type { WebhookConfigurationObject } from '../src/model/objects.js';
import { isDefaulted, webhooksOf, type WebhookEntry } from '../src/model/webhooks.js';
import { ALL_WEBHOOK_KINDS, defineObjectRule, type RuleContext, type Violation } from '../src/rule.js';
import { isBase64 } from '../src/validate/webhook-schema.js';

type MessageId = 'missing' | 'notPem' | 'noCertificate' | 'privateKey' | 'expired' | 'notYetValid';

/** Annotations that make an injector write clientConfig.caBundle into every webhook of the object. */
const INJECTION_ANNOTATIONS: readonly { key: string; value?: string; by: string }[] = [
  { key: 'cert-manager.io/inject-ca-from', by: 'cert-manager cainjector (from a Certificate)' },
  { key: 'cert-manager.io/inject-ca-from-secret', by: 'cert-manager cainjector (from a Secret)' },
  { key: 'cert-manager.io/inject-apiserver-ca', value: 'true', by: 'cert-manager cainjector (the API server CA)' },
  { key: 'service.beta.openshift.io/inject-cabundle', value: 'true', by: 'the OpenShift service CA operator' },
];

/**
 * Projects whose own controller (or install Jobs) patch the caBundle of their webhook
 * configurations at run time, recognised by a label they put on the configuration or by its
 * fixed name. The names and labels are those of the projects' published manifests (all but
 * OpenKruise's chart are in the real-world corpus); the mechanism is the controller's own code
 * or documentation (cert-controller rotators, knative.dev/pkg reconcilers, certgen Jobs).
 */
const RUNTIME_PATCHERS: readonly { project: string; label?: string; labelValue?: string; names?: readonly string[] }[] = [
  { project: 'Gatekeeper (cert-controller rotation)', label: 'gatekeeper.sh/system' },
  { project: 'Kyverno (creates and patches its own configurations)', label: 'webhook.kyverno.io/managed-by' },
  { project: 'Istio (istiod webhook patcher)', label: 'istio.io/rev' },
  { project: 'Azure Workload Identity (cert-controller rotation)', label: 'azure-workload-identity.io/system' },
  { project: 'External Secrets (its cert controller)', label: 'external-secrets.io/component', labelValue: 'webhook' },
  { project: 'Knative and Tekton (knative.dev/pkg webhook reconcilers)', names: ['*.knative.dev', '*.tekton.dev'] },
  { project: 'Elastic ECK (operator-managed webhook certificates)', names: ['elastic-webhook.k8s.elastic.co'] },
  { project: 'KEDA (operator cert rotation)', names: ['keda-admission'] },
  { project: 'MetalLB (controller cert rotation)', names: ['metallb-webhook-configuration'] },
  { project: 'HNC (cert-controller rotation)', names: ['hnc-validating-webhook-configuration', 'hnc-mutating-webhook-configuration'] },
  { project: 'SPIRE controller manager', names: ['spire-controller-manager-webhook'] },
  { project: 'Volcano (webhook manager)', names: ['volcano-admission-service-*'] },
  { project: 'Dapr (sidecar injector)', names: ['dapr-sidecar-injector'] },
  { project: 'OpenKruise (kruise-manager)', names: ['kruise-mutating-webhook-configuration', 'kruise-validating-webhook-configuration'] },
  { project: 'Gateway API admission webhook (kube-webhook-certgen Jobs)', names: ['gateway-api-admission'] },
  { project: 'KubeVirt virt-template (deployed by virt-operator)', names: ['virt-template-validating-webhook-configuration'] },
];

/** kubebuilder's config/webhook base: kustomize replaces the namespace, config/default adds cert-manager. */
const KUSTOMIZE_PLACEHOLDER_NAMESPACE = 'system';

function globMatches(pattern: string, value: string): boolean {
  const escaped = pattern.split('*').map((part) => part.replace(/[.+?^${}()|[\]\\]/g, '\\$&'));
  return new RegExp(`^${escaped.join('.*')}$`).test(value);
}

/**
 * A setting in the same file that hands this configuration's name to a CA patcher:
 * kube-webhook-certgen's `--webhook-name=<name>` (ingress-nginx, kube-prometheus-stack, …),
 * `--validating-webhook-name`, ECK's `webhook-name: <name>`, spire-controller-manager's
 * `validatingWebhookConfigurationName: <name>`: any flag or key containing "webhook" and
 * ending in "name", followed by exactly the configuration's name.
 */
function namedByPatcher(object: WebhookConfigurationObject): boolean {
  const name = object.name;
  const text = object.manifest.file.text;
  if (!name || !text) return false;
  return patcherNames(text).has(name.toLowerCase());
}

/**
 * Every value that follows a patcher setting in a file (lower-cased), computed once per file:
 * testing one regex per object against the whole text made a file of N configurations
 * O(N × size) (a 1 MB file of 2,400 configurations took 15 s). Names are DNS names, so they
 * never contain the terminators; the lookahead lets matches overlap, as per-name tests did.
 */
let lastText: string | undefined;
let lastNames: Set<string> | undefined;
function patcherNames(text: string): Set<string> {
  if (text === lastText && lastNames) return lastNames;
  const names = new Set<string>();
  const pattern = /(?=(?:^|[\s"'{,\[])-{0,2}[A-Za-z0-9_.-]*webhook[A-Za-z0-9_.-]*name["']?[ \t]*[=:,\s][ \t]*["']?([^"'\s,}\]]+)(?=["'\s,}\]]|$))/gim;
  for (const match of text.matchAll(pattern)) names.add(match[1]!.toLowerCase());
  lastText = text;
  lastNames = names;
  return names;
}

function configuredNames(context: RuleContext): string[] {
  return String(context.option(rule.meta, 'injected'))
    .split(',')
    .map((name) => name.trim())
    .filter((name) => name !== '');
}

/**
 * What writes the caBundle at run time, or why the webhook is never called as written; undefined
 * when nothing visible does (then the bundle in the file is what the API server uses).
 */
export function runtimeInjection(object: WebhookConfigurationObject, entry: WebhookEntry, injected: readonly string[] = []): string | undefined {
  const metadata = object.effective.metadata ?? {};
  const annotations = metadata.annotations ?? {};
  const labels = metadata.labels ?? {};
  const name = object.name ?? '';
  // A webhook without rules is never called as written; its controller fills rules and CA in.
  if ((entry.webhook.rules ?? []).length === 0) return 'no rules: never called as written';
  if (entry.webhook.clientConfig?.service?.namespace === KUSTOMIZE_PLACEHOLDER_NAMESPACE) return 'kustomize base (service namespace "system")';
  for (const { key, value, by } of INJECTION_ANNOTATIONS) {
    const written = annotations[key];
    if (typeof written === 'string' && (value === undefined ? written !== '' : written === value)) return `annotation ${key}: ${by}`;
  }
  for (const patcher of RUNTIME_PATCHERS) {
    if (patcher.label !== undefined && Object.hasOwn(labels, patcher.label) && (patcher.labelValue === undefined || labels[patcher.label] === patcher.labelValue)) {
      return patcher.project;
    }
    if (patcher.names?.some((pattern) => globMatches(pattern, name))) return patcher.project;
  }
  if (injected.some((pattern) => globMatches(pattern, name))) return 'the injected option';
  if (namedByPatcher(object)) return 'named by a CA patcher setting in the same file';
  return undefined;
}

interface PemBlock {
  readonly type: string;
  readonly body: string;
  readonly hasHeaders: boolean;
}

function pemBlocks(text: string): PemBlock[] {
  const blocks: PemBlock[] = [];
  for (const match of text.matchAll(/-----BEGIN ([^\r\n-]+(?:-[^\r\n-]+)*)-----([\s\S]*?)-----END \1-----/g)) {
    const body = match[2]!;
    // RFC 1421 headers ("Proc-Type: …") end with a blank line; Go skips such certificate blocks.
    const firstLine = body.replace(/^\r?\n/, '').split(/\r?\n/)[0] ?? '';
    blocks.push({ type: match[1]!, body, hasHeaders: firstLine.includes(':') });
  }
  return blocks;
}

function plural(count: number, word: string): string {
  return count === 1 ? `a ${word}` : `${count} ${word}s`;
}

function isoDate(date: Date): string {
  return date.toISOString().slice(0, 10);
}

function consequence(object: WebhookConfigurationObject, entry: WebhookEntry): string {
  if (entry.webhook.failurePolicy === 'Ignore') return 'with failurePolicy Ignore the webhook is skipped for every request it matches';
  const defaulted = isDefaulted(object, [...entry.path, 'failurePolicy']) ? ' (the API default)' : '';
  return `with failurePolicy Fail${defaulted} every request it matches is rejected`;
}

/** The bundle's problems, as the API server's TLS client setup would meet them. */
function bundleProblems(decoded: Buffer, base: Record<string, string>): Violation<MessageId>[] {
  const text = decoded.toString('latin1');
  const blocks = pemBlocks(text);
  if (blocks.length === 0) {
    let hint = '';
    if (/^\s*LS0tLS1CRUdJT/.test(text)) hint = '; it is base64-encoded twice (decode it once more)';
    else if (decoded[0] === 0x30 && decoded.length > 64) hint = '; it looks like a DER certificate (PEM-encode it: openssl x509 -inform der)';
    return [{ messageId: 'notPem', data: { ...base, hint }, path: [] }];
  }
  const problems: Violation<MessageId>[] = [];
  const keys = blocks.filter((block) => /PRIVATE KEY$/.test(block.type));
  if (keys.length > 0) problems.push({ messageId: 'privateKey', data: { ...base, type: keys[0]!.type }, path: [] });
  const certificates: X509Certificate[] = [];
  let unparsable = 0;
  for (const block of blocks) {
    if (block.type !== 'CERTIFICATE') continue;
    if (block.hasHeaders) {
      unparsable++;
      continue;
    }
    try {
      certificates.push(new X509Certificate(`-----BEGIN CERTIFICATE-----${block.body}-----END CERTIFICATE-----\n`));
    } catch {
      unparsable++;
    }
  }
  if (certificates.length === 0) {
    const others = blocks.filter((block) => block.type !== 'CERTIFICATE');
    const found = [
      ...(unparsable > 0 ? [`${plural(unparsable, 'CERTIFICATE block')} that ${unparsable === 1 ? 'does' : 'do'} not parse`] : []),
      ...[...new Set(others.map((block) => block.type))].map((type) => `${plural(others.filter((block) => block.type === type).length, `${type} block`)}`),
    ].join(', ');
    problems.push({ messageId: 'noCertificate', data: { ...base, found }, path: [] });
    return problems;
  }
  const now = Date.now();
  const window = certificates.map((certificate) => ({ certificate, from: new Date(certificate.validFrom), to: new Date(certificate.validTo) }));
  if (window.some(({ from, to }) => from.getTime() <= now && now <= to.getTime())) return problems;
  const first = window[0]!;
  const of = certificates.length === 1 ? 'its certificate' : `none of its ${certificates.length} certificates is valid now; the first`;
  const subject = first.certificate.subject.replace(/\n/g, ', ');
  problems.push(
    now > first.to.getTime()
      ? { messageId: 'expired', data: { ...base, of, subject, date: isoDate(first.to) }, path: [] }
      : { messageId: 'notYetValid', data: { ...base, of, subject, date: isoDate(first.from) }, path: [] },
  );
  return problems;
}

export const rule = defineObjectRule({
  meta: {
    id: 'ca-bundle',
    title: 'A missing, malformed or expired caBundle',
    severity: 'warning',
    appliesTo: ALL_WEBHOOK_KINDS,
    messages: {
      missing:
        'webhook "{{webhook}}" calls Service {{service}} without a caBundle, and nothing in the manifest injects one: the API server then checks the webhook\'s certificate against its own system roots, which do not contain the CA of an in-cluster Service name, so every call fails TLS verification; {{consequence}}',
      notPem:
        'caBundle of webhook "{{webhook}}" is base64 but does not decode to PEM (no "-----BEGIN CERTIFICATE-----" block){{hint}}: the API server cannot load it as TLS roots, so every call fails; {{consequence}}',
      noCertificate:
        'caBundle of webhook "{{webhook}}" holds no certificate the API server can use ({{found}}): it cannot load it as TLS roots, so every call fails; {{consequence}}',
      privateKey:
        'caBundle of webhook "{{webhook}}" contains a private key ({{type}} block): webhook configurations are readable by anyone who may list them, so the key is disclosed; the bundle needs the CA certificate only',
      expired:
        'caBundle of webhook "{{webhook}}" has no valid certificate: {{of}} ("{{subject}}") expired on {{date}}, so TLS verification of the webhook fails; {{consequence}}',
      notYetValid:
        'caBundle of webhook "{{webhook}}" has no valid certificate: {{of}} ("{{subject}}") is not valid before {{date}}, so TLS verification of the webhook fails; {{consequence}}',
    },
    help: 'Put the base64 of the PEM CA certificate that signed the webhook\'s serving certificate in caBundle, or let an injector write it (for example the cert-manager.io/inject-ca-from annotation).',
    options: {
      injected: {
        type: 'string',
        default: '',
        description:
          'Comma-separated names of webhook configurations (`*` matches any characters) whose caBundle a controller writes at run time; a missing or placeholder caBundle is not reported for them',
      },
    },
  },
  check(object, context) {
    const violations: Violation<MessageId>[] = [];
    for (const entry of webhooksOf(object)) {
      const clientConfig = entry.webhook.clientConfig;
      if (!clientConfig) continue;
      const hasUrl = clientConfig.url != null;
      const hasService = clientConfig.service != null;
      // Neither or both: api-validation reports it.
      if (hasUrl === hasService) continue;
      const bundle = clientConfig.caBundle;
      // Not base64: the schema check reports it.
      if (typeof bundle === 'string' && !isBase64(bundle)) continue;
      if (runtimeInjection(object, entry, configuredNames(context)) !== undefined) continue;
      const decoded = Buffer.from((bundle ?? '').replace(/[\r\n]/g, ''), 'base64');
      const at = [...entry.path, 'clientConfig', 'caBundle'];
      const base = { webhook: entry.label, consequence: consequence(object, entry) };
      if (decoded.toString('latin1').trim() === '') {
        // A URL without a bundle is verified against the system roots, which is fine for a
        // public certificate. An empty value written as such is a slot something fills in.
        if (hasUrl || bundle != null) continue;
        const service = clientConfig.service!;
        violations.push({
          messageId: 'missing',
          data: { ...base, service: `${service.namespace ?? ''}/${service.name ?? ''}` },
          path: at,
        });
        continue;
      }
      for (const problem of bundleProblems(decoded, base)) violations.push({ ...problem, path: at, severity: 'error' });
    }
    return violations;
  },
});
