/**
 * clientConfig.caBundle: missing on a Service-backed webhook with nothing in the file that
 * provides it, or present but unusable (not PEM, no certificate, a private key, nothing valid now).
 *
 * The API server builds its webhook client with the bundle as the TLS roots (client-go
 * rootCertPool: x509.CertPool.AppendCertsFromPEM, which keeps the CERTIFICATE blocks it can
 * parse and fails when none is left). Without a bundle it uses its own system roots, which
 * never contain the CA of an in-cluster Service name (`<svc>.<ns>.svc`).
 *
 * Published manifests omit the bundle on purpose: cert-manager's cainjector, a CA-patching Job, an
 * install script or the webhook's own controller writes it at install or run time, and a file
 * cannot show which. So a missing bundle is one `info` per configuration, stating the condition
 * (it must be provided at install time); only a written bundle that cannot work is a problem.
 */
import { rulesMatchBuiltins } from '../src/match/builtin-rules.js';
import { X509Certificate } from 'node:crypto';
import type { SecretKeysObject, WebhookConfigurationObject } from '../src/model/objects.js';
import type { FieldPath } from '../src/field-path.js';
import { certificateKey } from '../src/kube/private-keys.js';
import { decodePem, type PemBlock } from '../src/kube/pem.js';
import { isPublicRoot } from '../src/kube/public-roots.js';
import { webhookReachability } from '../src/match/reachability.js';
import { isFragment, isV1beta1, webhooksOf, type WebhookEntry } from '../src/model/webhooks.js';
import { isAtLeast } from '../src/kube/version.js';
import { ALL_WEBHOOK_KINDS, defineObjectRule, type Violation } from '../src/rule.js';
import { isBase64 } from '../src/validate/webhook-schema.js';
import { elideMiddle, joinCapped } from '../src/text/list.js';
import { groupBy } from '../src/collections.js';
import { namePatternMatcher } from '../src/text/glob.js';
import { INJECTION_ANNOTATIONS } from '../src/kube/ca-injection.js';
import { patchesOf, type PatchScope } from '../src/match/patched.js';
import { mayMoveWebhooks, type KustomizePatch } from '../src/parse/kustomize-patches.js';
import { streamOf } from '../src/match/namespaces.js';

type MessageId = 'missing' | 'notPem' | 'noCertificate' | 'privateKey' | 'expired' | 'notYetValid' | 'keyWritten' | 'publicRoots' | 'missingBesideBundle';



/**
 * A setting in the same file that hands this configuration's name to a CA patcher, such as
 * a CA-patching Job's `--webhook-name=<name>`, `--validating-webhook-name`, or a config key
 * `webhookConfigurationName: <name>`: any flag or key containing "webhook" and ending in "name",
 * followed by exactly the configuration's name. The file itself shows that something patches it.
 */
function namedByPatcher(object: WebhookConfigurationObject, patcherNamesByText: Map<string, Set<string>>): boolean {
  const name = object.name;
  const text = object.manifest.file.text;
  if (!name || !text) return false;
  return patcherNames(text, patcherNamesByText).has(name.toLowerCase());
}

/**
 * Every value that follows a patcher setting in a text (lower-cased), computed once per text:
 * testing one regex per object against the whole text made a file of N configurations
 * O(N × size), and so did one search per template of a rendered stream, whose templates share
 * the stream's text (s39a 8). The map is the rule's, per run.
 *
 * A setting is a token (a run of [A-Za-z0-9_.-] after a line start, a blank, a quote, `{`, `,`
 * or `[`) that holds "webhook" and ends in "name", then an optional quote, a separator (`=`,
 * `:`, `,` or a blank) and the value. Tokens are found in one pass and tested with indexOf: a
 * regular expression that searched each token for "webhook" backtracked quadratically on a long
 * one (s39a 9). Names are DNS names, so they never contain the value's terminators.
 */
function patcherNames(text: string, patcherNamesByText: Map<string, Set<string>>): Set<string> {
  const known = patcherNamesByText.get(text);
  if (known) return known;
  const names = new Set<string>();
  const settingValue = new RegExp(SETTING_VALUE, 'y');
  for (const match of text.matchAll(SETTING_TOKEN)) {
    const token = match[1]!.toLowerCase();
    const webhook = token.indexOf('webhook');
    if (webhook < 0 || !token.endsWith('name') || webhook + 'webhook'.length > token.length - 'name'.length) continue;
    settingValue.lastIndex = match.index + match[0].length;
    const value = settingValue.exec(text);
    if (value !== null) names.add(value[1]!.toLowerCase());
  }
  patcherNamesByText.set(text, names);
  return names;
}

const SETTING_TOKEN = /(?:^|[\s"'{,[])([A-Za-z0-9_.-]+)/gm;
/** What follows a setting's token: a quote, a separator, the value (a sticky copy is made per text). */
const SETTING_VALUE = /["']?[ \t]*[=:,\s][ \t]*["']?([^"'\s,}\]]+)/.source;

/**
 * Why the bundle written in the file is not the one the API server will use, or undefined when
 * it is: a documented injector annotation, a CA patcher named in the same file, the `injected`
 * option, or a webhook without rules (never called as written; its controller fills it in).
 */
function bundleReplaced(object: WebhookConfigurationObject, entry: WebhookEntry, injected: (name: string) => boolean, patcherNamesByText: Map<string, Set<string>>, run: PatchScope): string | undefined {
  const annotations = object.effective.metadata?.annotations ?? {};
  const name = object.name ?? '';
  if ((entry.webhook.rules ?? []).length === 0) return 'no rules: never called as written';
  for (const { key, value } of INJECTION_ANNOTATIONS) {
    const written = annotations[key];
    if (typeof written === 'string' && (value === undefined ? written !== '' : written === value)) return `annotation ${key}`;
  }
  if (injected(name)) return 'the injected option';
  if (namedByPatcher(object, patcherNamesByText)) return 'named by a CA patcher setting in the same file';
  // A kustomization of the run writes an injector annotation or the bundle (an operator
  // scaffold's CA-injection patch, or its replacements from the Certificate): the build has it.
  if (patchesOf(run, { kind: object.kind, name: object.name, file: object.manifest.file.path, apiVersion: object.apiVersion, written: object.written }, streamOf(object.manifest.file)).some((patch) => patch.writesCaBundle === true)) return 'a kustomize patch or replacement of the run';
  return undefined;
}

/**
 * Whether the bytes are one DER SEQUENCE and nothing more, its length in DER's minimal form, as
 * Go's x509.ParseCertificate requires ("x509: trailing data"). Node's X509Certificate takes more:
 * bytes after the certificate, and PEM text where DER belongs (attack s48b 1, 2).
 */
function isOneDerSequence(bytes: Buffer): boolean {
  if (bytes.length < 2 || bytes[0] !== 0x30) return false;
  const first = bytes[1]!;
  if (first < 0x80) return bytes.length === 2 + first;
  const count = first & 0x7f;
  if (count === 0 || count > 4 || bytes.length < 2 + count || bytes[2] === 0) return false;
  let length = 0;
  for (let i = 0; i < count; i++) length = length * 256 + bytes[2 + i]!;
  return length >= 0x80 && bytes.length === 2 + count + length;
}

/** The CERTIFICATE blocks Go's AppendCertsFromPEM keeps (parsed, without PEM headers), and how many it skips. */
function certificatesOf(blocks: readonly PemBlock[]): { certificates: X509Certificate[]; unparsable: number } {
  const certificates: X509Certificate[] = [];
  let unparsable = 0;
  for (const block of blocks) {
    if (block.type !== 'CERTIFICATE') continue;
    if (block.headers) {
      unparsable++;
      continue;
    }
    if (!isOneDerSequence(block.bytes)) {
      unparsable++;
      continue;
    }
    try {
      certificates.push(new X509Certificate(block.bytes));
    } catch {
      unparsable++;
    }
  }
  return { certificates, unparsable };
}

function plural(count: number, word: string): string {
  return count === 1 ? `a ${word}` : `${count} ${word}s`;
}

function isoDate(date: Date): string {
  return date.toISOString().slice(0, 10);
}

/** The bundle's problems, as the API server's TLS client setup would meet them. */
function bundleProblems(decoded: Buffer): Violation<MessageId>[] {
  const text = decoded.toString('latin1');
  const blocks = decodePem(text);
  if (blocks.length === 0) {
    let hint = '';
    if (/^\s*LS0tLS1CRUdJT/.test(text)) hint = '; it is base64-encoded twice (decode it once more)';
    // Go reads a BEGIN line only at the start of a line (a byte-order mark, or two files joined without a line break, hide it), and only a body of padded base64.
    else if (text.includes('-----BEGIN ')) hint = text.startsWith('-----BEGIN ') || text.includes('\n-----BEGIN ') ? '; Go decodes none of its blocks' : '; its BEGIN line does not start a line';
    else if (decoded[0] === 0x30 && decoded.length > 64) hint = '; it looks like a DER certificate (PEM-encode it: openssl x509 -inform der)';
    return [{ messageId: 'notPem', data: { hint }, path: [] }];
  }
  const problems: Violation<MessageId>[] = [];
  const keys = blocks.filter((block) => /PRIVATE KEY$/.test(block.type));
  if (keys.length > 0) problems.push({ messageId: 'privateKey', data: { type: keys[0]!.type }, path: [] });
  const { certificates, unparsable } = certificatesOf(blocks);
  if (certificates.length === 0) {
    const others = blocks.filter((block) => block.type !== 'CERTIFICATE');
    const found = [
      ...(unparsable > 0 ? [`${plural(unparsable, 'CERTIFICATE block')} that ${unparsable === 1 ? 'does' : 'do'} not parse`] : []),
      ...[...new Set(others.map((block) => block.type))].map((type) => `${plural(others.filter((block) => block.type === type).length, `${type} block`)}`),
    ].join(', ');
    problems.push({ messageId: 'noCertificate', data: { found }, path: [] });
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
      ? { messageId: 'expired', data: { of, subject, date: isoDate(first.to) }, path: [] }
      : { messageId: 'notYetValid', data: { of, subject, date: isoDate(first.from) }, path: [] },
  );
  return problems;
}

const PUBLIC_ROOTS_HELP =
  "The API server verifies a Service's webhook against the name <service>.<namespace>.svc, and public CAs issue no certificate for internal names (CA/Browser Forum Baseline Requirements): with only their roots in the bundle, every call fails TLS verification, so the webhook's requests are rejected (failurePolicy Fail) or it is skipped (Ignore). Put the CA that signs the webhook's serving certificate in caBundle (a placeholder left from an example is often such a root), or let an injector write it.";

const MISSING_BESIDE_BUNDLE_HELP =
  "A webhook without a caBundle is verified against the API server's system roots, which sign no certificate for a Service's .svc name, so every call fails TLS: its requests are rejected (failurePolicy Fail) or it is skipped (Ignore). Another webhook of the configuration calls the same Service with a bundle written in the file; an injector (cert-manager's CA injector, OpenShift's service CA operator) fills every webhook of the configuration, so these were most likely left out by hand. Write the same bundle in them, or let an injector write all of them; if a controller of yours fills these webhooks alone at run time, set the rule's injected option to the configuration's name.";

/** The public roots' subject when every certificate of the bundle is a public web-PKI root (src/kube/public-roots.ts); else undefined. */
function onlyPublicRoots(decoded: Buffer): string | undefined {
  // Only those valid now verify anything (Go checks a root's validity too: s47c 3).
  const now = Date.now();
  const valid = certificatesOf(decodePem(decoded.toString('latin1'))).certificates.filter((certificate) => new Date(certificate.validFrom).getTime() <= now && now <= new Date(certificate.validTo).getTime());
  if (valid.length === 0 || !valid.every(isPublicRoot)) return undefined;
  return shortSubject(valid[0]!.subject);
}

/**
 * Whether a kustomize patch may take a webhook out of the configuration, change where it calls or
 * what bundle it has, or rename the configuration: by its operations or documents as read
 * (src/parse/kustomize-patches.ts mayMoveWebhooks: s47d 2a, 2b, 2d; s47f), a rename (for an
 * injector's patch: s47b 17b), a kind change, or a patch not read. One that sets a timeout, a
 * failurePolicy or a selector leaves the bundles as they are (s47c 2, s47e 13).
 */
function mayChangeWebhooks(patch: KustomizePatch, kind: string): boolean {
  if (patch.text === undefined || patch.unread === true || patch.changesKind === true || patch.renamesTo !== undefined || patch.replacesName === true) return true;
  if (patch.metadataOnly === true) return patch.keepsName !== true;
  return mayMoveWebhooks(patch.text, kind);
}

/** Whether two clientConfig.service references name the same Service (namespace and name, both written). */
function sameService(a: { namespace?: unknown; name?: unknown } | undefined, b: { namespace?: unknown; name?: unknown } | undefined): boolean {
  return a !== undefined && b !== undefined && typeof a.name === 'string' && typeof a.namespace === 'string' && a.name === b.name && a.namespace === b.namespace;
}

const KEY_WRITTEN_HELP =
  'Whoever reads these manifests holds that key: with it, anyone who can answer for the webhook (an endpoint or a pod behind its Service, its DNS name, a place on the network path) can pass as the webhook, reading every request it is sent and answering them. Issue the serving certificate at install time (cert-manager, a CA-patching Job, the webhook\'s own controller) and keep private keys out of the manifests (or encrypted in them).';

/** A certificate's common name (`CN=…`) when it has one, else its whole subject on one line. */
function shortSubject(subject: string): string {
  const cn = subject.split('\n').find((part) => part.startsWith('CN='));
  return cn ?? subject.replace(/\n/g, ', ');
}

/** The first certificate of the bundle whose private key a Secret of the run holds in the clear. */
function writtenKey(decoded: Buffer, secrets: readonly SecretKeysObject[]): { subject: string; secret: SecretKeysObject; path: FieldPath } | undefined {
  const now = Date.now();
  for (const certificate of certificatesOf(decodePem(decoded.toString('latin1'))).certificates) {
    // A certificate not valid now is no root the API server's TLS verification accepts.
    if (now < new Date(certificate.validFrom).getTime() || now > new Date(certificate.validTo).getTime()) continue;
    const key = certificateKey(certificate);
    if (key === undefined) continue;
    for (const secret of secrets) {
      const held = secret.keys.find((each) => each.publicKey.equals(key));
      if (held !== undefined) return { subject: shortSubject(certificate.subject), secret, path: held.path };
    }
  }
  return undefined;
}

export const rule = defineObjectRule({
  meta: {
    id: 'ca-bundle',
    title: 'A missing, malformed or expired caBundle',
    aboutCalls: true,
    severity: 'error',
    appliesTo: ALL_WEBHOOK_KINDS,
    messages: {
      missing: 'no caBundle for {{which}}, and nothing in this file provides it',
      notPem: 'caBundle of {{which}} does not decode to PEM{{hint}}',
      noCertificate: 'caBundle of {{which}} holds no usable certificate ({{found}})',
      privateKey: 'caBundle of {{which}} contains a private key ({{type}} block), readable by whoever can read the configuration',
      expired: 'caBundle of {{which}}: {{of}} ("{{subject}}") expired on {{date}}',
      notYetValid: 'caBundle of {{which}}: {{of}} ("{{subject}}") is not valid before {{date}}',
      keyWritten: 'caBundle of {{which}} trusts "{{subject}}", whose private key Secret "{{secret}}" holds in the clear ({{where}}){{also}}',
      publicRoots: 'caBundle of {{which}} holds only public roots ("{{subject}}"), which sign no certificate for a Service\'s .svc name',
      missingBesideBundle: 'no caBundle for {{which}}, although "{{sibling}}" calls Service {{service}} with one',
    },
    help: 'With a bundle that is not PEM or holds no certificate valid now, every call fails TLS verification: the webhook\'s requests are rejected (failurePolicy Fail) or it is skipped (Ignore); a bundle left out must be provided at install time. Put the base64 of the PEM CA certificate that signed the webhook\'s serving certificate in caBundle, or let an injector write it (for example the cert-manager.io/inject-ca-from annotation).',
    options: {
      injected: {
        type: 'string',
        default: '',
        namePatterns: true,
        description:
          'Comma-separated names of webhook configurations (`*` matches any characters) whose caBundle a controller writes at run time; their bundle is not checked',
      },
    },
  },
  create(run) {
    const injected = namePatternMatcher(run.options.injected);
    /** Per file of the run: the names its CA patcher settings give. */
    const patcherNamesByText = new Map<string, Set<string>>();
    /**
     * The webhooks whose written caBundle is the one the API server uses: a Service or a URL (not
     * both, not neither: api-validation's), base64 (else schema's), not replaced by an injector.
     */
    function* bundlesUsed(object: WebhookConfigurationObject): Generator<{ entry: WebhookEntry; decoded: Buffer; hasService: boolean }> {
      for (const entry of webhooksOf(object)) {
        const clientConfig = entry.webhook.clientConfig;
        if (!clientConfig) continue;
        const hasUrl = clientConfig.url != null;
        const hasService = clientConfig.service != null;
        if (hasUrl === hasService) continue;
        const bundle = clientConfig.caBundle;
        if (typeof bundle === 'string' && !isBase64(bundle)) continue;
        if (bundleReplaced(object, entry, injected, patcherNamesByText, run) !== undefined) continue;
        yield { entry, decoded: Buffer.from((bundle ?? '').replace(/[\r\n]/g, ''), 'base64'), hasService };
      }
    }
    const entryKey = (object: WebhookConfigurationObject, entry: WebhookEntry): string => `${run.webhookConfigurations.indexOf(object)}/${entry.index}`;
    type Written = NonNullable<ReturnType<typeof writtenKey>> & { readonly id: string };
    let written: Map<string, Written> | undefined;
    let trusting: Map<string, WebhookConfigurationObject[]> | undefined;
    /** Per webhook of the run (entryKey): the Secret key its bundle trusts, if one does. Computed once. */
    const writtenKeys = (): Map<string, Written> => {
      if (written !== undefined) return written;
      written = new Map();
      trusting = new Map();
      if (run.secretKeys.length === 0) return written;
      // The configurations the API server stores (decodable, no patch fragment, a served version)
      // and their webhooks that requests reach: a key trusted by no call is no risk.
      const stored = run.webhookConfigurations.filter((object) => object.decodable && !isFragment(object) && !(isV1beta1(object) && isAtLeast(run.kubeVersion, 1, 22)));
      for (const object of stored) {
        for (const { entry, decoded } of bundlesUsed(object)) {
          if (webhookReachability(entry.webhook, entry.path, entry.label, run).neverCalled) continue;
          const key = writtenKey(decoded, run.secretKeys);
          if (key === undefined) continue;
          const id = `${run.secretKeys.indexOf(key.secret)}/${JSON.stringify(key.path)}`;
          written.set(entryKey(object, entry), { ...key, id });
          const list = trusting.get(id) ?? [];
          if (!list.includes(object)) list.push(object);
          trusting.set(id, list);
        }
      }
      return written;
    };
    /** Per Secret key: the configurations whose bundles trust it, in run order. */
    const trustedBy = (): Map<string, WebhookConfigurationObject[]> => (writtenKeys(), trusting!);
    return {
      webhookConfiguration(object) {
        const violations: Violation<MessageId>[] = [];
        /** Service-backed webhooks with no bundle that nothing in the file provides. */
        let unprovided: WebhookEntry[] = [];
        /** Service-backed webhooks whose bundle is written (and used, and not empty). */
        const bundled: WebhookEntry[] = [];
        const bundleGroups = new Map<string, { problem: Violation<MessageId>; path: (string | number)[]; entries: WebhookEntry[] }>();
        for (const { entry, decoded, hasService } of bundlesUsed(object)) {
          if (decoded.toString('latin1').trim() === '') {
            // A URL without a bundle is verified against the system roots, which is fine for a
            // public certificate. A Service's webhook without one (or with an empty one, a slot to
            // fill in: the API server accepts it and uses the system roots too) needs it provided.
            if (hasService && !webhookReachability(entry.webhook, entry.path, entry.label, run).neverCalled) unprovided.push(entry);
            continue;
          }
          const at = [...entry.path, 'clientConfig', 'caBundle'];
          // Grouped below by the problem and the bundle, whatever each webhook's failurePolicy (hold-out 31).
          const problems = bundleProblems(decoded);
          if (hasService && problems.length === 0) {
            const roots = onlyPublicRoots(decoded);
            if (roots !== undefined) problems.push({ messageId: 'publicRoots', data: { subject: roots }, path: [], help: PUBLIC_ROOTS_HELP });
          }
          // A bundle to copy into the webhooks without one: not one with a problem of its own (s47c 5).
          if (hasService && problems.length === 0) bundled.push(entry);
          const written = writtenKeys().get(entryKey(object, entry));
          // One cause, one finding: a key trusted by the bundles of several configurations is
          // reported at the first of them, counting the others.
          const sharing = written === undefined ? [] : trustedBy().get(written.id) ?? [];
          if (written !== undefined && sharing[0] === object) {
            const { secret, path, subject } = written;
            const line = secret.manifest.locate(path, 'key').line;
            const where = secret.manifest.file === object.manifest.file ? `line ${line}` : `${secret.manifest.file.path}:${line}`;
            const name = secret.namespace === undefined ? secret.name : `${secret.namespace}/${secret.name}`;
            const others = sharing.length - 1;
            const also = others === 0 ? '' : others === 1 ? '; so does the bundle of 1 more configuration' : `; so do the bundles of ${others} more configurations`;
            problems.push({ messageId: 'keyWritten', data: { subject, secret: name, where, also }, path: [], severity: 'warning', help: KEY_WRITTEN_HELP });
          }
          for (const problem of problems) {
            // One cause, one finding: the same problem of the same bundle in several webhooks of the configuration, together.
            const key = `${problem.messageId}/${JSON.stringify(problem.data)}/${decoded.toString('latin1').trim()}`;
            const group = bundleGroups.get(key) ?? { problem, path: at, entries: [] };
            group.entries.push(entry);
            bundleGroups.set(key, group);
          }
        }
        for (const { problem, path, entries } of bundleGroups.values()) {
          const which = entries.length === 1 ? `webhook "${entries[0]!.label}"` : `webhooks ${joinCapped(entries.map((entry) => `"${entry.label}"`), 2, { width: 50 })}`;
          // What fails with the bundle is what the webhooks intercept: the project's own custom
          // resources only (a correctness check of its objects), or what Kubernetes itself serves.
          const severity = problem.severity ?? (entries.some((entry) => rulesMatchBuiltins(entry.webhook.rules, run.discovery)) ? 'error' : 'warning');
          violations.push({ ...problem, data: { ...problem.data, which }, path, alsoAt: entries.slice(1).map((entry) => [...entry.path, 'clientConfig', 'caBundle']), severity });
        }
        // A webhook that calls the same Service with a bundle written in the file: the bundles are
        // written by hand (an injector fills every webhook of a configuration), so the ones left
        // empty are not filled in at install (hold-out 33): every call to them fails TLS.
        // (Not where a kustomize patch of the run may change the configuration: it may rename it
        // for an injector's patch, or write the bundles, as the build shows and the file does not: s47b 17b.)
        const patched =
          bundled.length > 0 &&
          unprovided.length > 0 &&
          patchesOf(run, { kind: object.kind, name: object.name, file: object.manifest.file.path, apiVersion: object.apiVersion, written: object.written }, streamOf(object.manifest.file)).some((patch) => mayChangeWebhooks(patch, object.kind));
        const besideBundle = (entry: WebhookEntry): WebhookEntry | undefined =>
          patched ? undefined : bundled.find((other) => sameService(other.webhook.clientConfig?.service, entry.webhook.clientConfig?.service));
        for (const [sibling, entries] of groupBy(unprovided.filter((entry) => besideBundle(entry) !== undefined), (entry) => besideBundle(entry)!)) {
          const first = entries[0]!;
          const service = first.webhook.clientConfig!.service!;
          violations.push({
            messageId: 'missingBesideBundle',
            // 160 characters at most: 62 of text, the webhooks 36, the one with a bundle 28, the Service 34.
            data: {
              which: entries.length === 1 ? `webhook "${elideMiddle(first.label, 36)}"` : `${entries.length} webhooks (first: "${elideMiddle(first.label, 30)}")`,
              sibling: elideMiddle(sibling.label, 28),
              service: elideMiddle(`${service.namespace ?? ''}/${service.name ?? ''}`, 34),
            },
            path: [...first.path, 'clientConfig'],
            alsoAt: entries.slice(1).map((entry) => [...entry.path, 'clientConfig']),
            part: 'key',
            severity: 'warning',
            help: MISSING_BESIDE_BUNDLE_HELP,
          });
        }
        unprovided = unprovided.filter((entry) => besideBundle(entry) === undefined);
        if (unprovided.length > 0) {
          const first = unprovided[0]!;
          const service = first.webhook.clientConfig!.service!;
          const which = unprovided.length === 1 ? `webhook "${first.label}"` : `${unprovided.length} webhooks (first: "${first.label}")`;
          violations.push({
            messageId: 'missing',
            data: { which, service: `${service.namespace ?? ''}/${service.name ?? ''}` },
            path: [...first.path, 'clientConfig'],
            alsoAt: unprovided.slice(1).map((entry) => [...entry.path, 'clientConfig']),
            part: 'key',
            severity: 'info',
          });
        }
        return violations;
      },
    };
  },
});
