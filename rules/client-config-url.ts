/**
 * clientConfig.url whose host only works by accident: an in-cluster Service DNS name, the API
 * server's own loopback, or an IP literal. The host is taken apart as Go's net/url does
 * (src/validate/client-config.ts parseGoUrl): user info dropped, IPv6 in brackets (with an
 * optional zone), port after the last colon.
 */
import { isIPv4, isIPv6 } from 'node:net';
import { webhooksOf } from '../src/model/webhooks.js';
import { ALL_WEBHOOK_KINDS, defineObjectRule, type Violation } from '../src/rule.js';
import { parseGoUrl } from '../src/validate/client-config.js';
import { filePlaceholders } from '../src/validate/placeholder-findings.js';
import { apiErrorsOf, namespaceErrorsOf } from '../src/match/api-errors.js';
import { filledByBuild } from '../src/match/kustomize-fills.js';
import { placeholderIn } from '../src/text/placeholder.js';
import { elideMiddle } from '../src/text/list.js';

type MessageId = 'serviceName' | 'loopback' | 'ipLiteral' | 'placeholderHost';

interface Host {
  /** Lowercased, without brackets, zone or trailing dot. */
  readonly name: string;
  readonly ip: 4 | 6 | undefined;
}

function hostOf(url: string): Host | undefined {
  const parsed = parseGoUrl(url);
  if ('error' in parsed || parsed.host === '') return undefined;
  let host = parsed.host;
  if (host.startsWith('[')) {
    host = host.slice(1, host.lastIndexOf(']'));
    // A zone ("fe80::1%25eth0") names the interface, not the address.
    const zone = host.indexOf('%');
    if (zone >= 0) host = host.slice(0, zone);
    return isIPv6(host) ? { name: host.toLowerCase(), ip: 6 } : { name: host.toLowerCase(), ip: undefined };
  }
  const colon = host.lastIndexOf(':');
  if (colon >= 0) host = host.slice(0, colon);
  let name: string;
  try {
    name = decodeURIComponent(host).toLowerCase();
  } catch {
    name = host.toLowerCase();
  }
  name = name.replace(/\.$/, '');
  // Go's net.ParseIP takes dotted decimal only (no octal, hex or short forms).
  return { name, ip: isIPv4(name) ? 4 : undefined };
}

/** The url's host as written (Go's parse, the API server's), when Go reads the url; undefined otherwise. */
function writtenHost(url: unknown): string | undefined {
  if (typeof url !== 'string') return undefined;
  const parsed = parseGoUrl(url);
  return 'error' in parsed || parsed.host === '' ? undefined : parsed.host;
}

function isLoopback(host: Host): boolean {
  if (host.ip === 4) return host.name.startsWith('127.') || host.name === '0.0.0.0';
  if (host.ip === 6) {
    const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(host.name);
    if (mapped) return mapped[1]!.startsWith('127.') || mapped[1] === '0.0.0.0';
    // ::1 and :: (unspecified: connecting to it reaches the local host), in any spelling.
    const groups = expandIPv6(host.name);
    if (groups === undefined) return false;
    // ::ffff:7f00:1 is ::ffff:127.0.0.1 written in hex.
    if (groups.slice(0, 5).every((group) => group === 0) && groups[5] === 0xffff) return groups[6]! >> 8 === 127 || (groups[6] === 0 && groups[7] === 0);
    return groups.slice(0, 7).every((group) => group === 0) && (groups[7] === 1 || groups[7] === 0);
  }
  return host.name === 'localhost' || host.name.endsWith('.localhost');
}

function expandIPv6(address: string): number[] | undefined {
  if (address.includes('.')) return undefined;
  const [head, tail] = address.split('::') as [string, string | undefined];
  const left = head === '' ? [] : head.split(':');
  const right = tail === undefined || tail === '' ? [] : tail.split(':');
  const missing = 8 - left.length - right.length;
  if (tail === undefined && missing !== 0) return undefined;
  const groups = [...left, ...Array<string>(Math.max(missing, 0)).fill('0'), ...right].map((group) => parseInt(group, 16));
  return groups.length === 8 && groups.every((group) => Number.isInteger(group)) ? groups : undefined;
}

/** `<name>.<namespace>.svc` or `….svc.cluster.local`: names only the cluster's DNS serves. */
function isServiceName(host: Host): boolean {
  return host.ip === undefined && (host.name.endsWith('.svc') || host.name.endsWith('.svc.cluster.local'));
}

export const rule = defineObjectRule({
  meta: {
    id: 'client-config-url',
    title: 'clientConfig.url points at an in-cluster Service, loopback or an IP literal',
    aboutCalls: true,
    severity: 'warning',
    appliesTo: ALL_WEBHOOK_KINDS,
    messages: {
      serviceName:
        'webhook "{{webhook}}" calls in-cluster Service name {{host}} by url, resolved by the API server\'s own DNS',
      loopback:
        'webhook "{{webhook}}" calls {{host}} ({{what}}) in each API server\'s own network namespace',
      ipLiteral:
        'webhook "{{webhook}}" calls the IP address {{host}}: its serving certificate must name that IP',
      placeholderHost: 'webhook "{{webhook}}" calls url host {{host}}, which holds the placeholder "{{placeholder}}": no DNS name resolves it',
    },
    help: 'The API server resolves a url host with its own DNS, from its own network namespace (its node, when it runs on the host network): on most control planes that DNS does not serve cluster names, and loopback is the API server itself, so the webhook would have to run beside every API server instance; TLS verification of an IP address needs it as a subject alternative name of the serving certificate, and the address breaks as soon as the webhook moves. For a webhook running in the cluster use clientConfig.service (namespace, name, port, path), which the API server resolves itself; otherwise give url a stable DNS name that the API server can resolve and that the serving certificate covers.',
  },
  create(run) {
    return {
      webhookConfiguration(object) {
        const violations: Violation<MessageId>[] = [];
        // One cause, one finding: where schema or api-validation names the file's placeholders
        // ("render it first", counting them all), a url host's are left to that finding; else
        // they are named here (the API server accepts such a url: hold-out 35).
        let namedElsewhere: boolean | undefined;
        const leftToOthers = (): boolean => {
          if (namedElsewhere === undefined) {
            const named = filePlaceholders(run, object.manifest.file, run.isEnabled('schema'), (each) => apiErrorsOf(run, each), (each) => namespaceErrorsOf(run, each));
            namedElsewhere = named !== undefined && run.isEnabled(named.rule);
          }
          return namedElsewhere;
        };
        for (const entry of webhooksOf(object)) {
          const clientConfig = entry.webhook.clientConfig;
          const url = clientConfig?.url;
          // url together with service is an api-validation error, and url is then not checked.
          if (typeof url !== 'string' || clientConfig?.service != null) continue;
          const host = hostOf(url);
          if (host === undefined) continue;
          const written = writtenHost(url);
          // The host without its port: `WEBHOOK_HOST:8443` is the token WEBHOOK_HOST.
          const placeholder = placeholderIn(written?.replace(/:\d*$/, ''));
          if (placeholder !== undefined) {
            // A var the kustomizations listing the file fill in as they build it is no placeholder in the build (attack s48d 2).
            const filled = filledByBuild(run, { kind: object.kind, apiVersion: object.apiVersion, file: object.manifest.file.path }, [...entry.path, 'clientConfig', 'url'], url);
            if (!filled && !leftToOthers()) {
              violations.push({
                messageId: 'placeholderHost',
                data: { webhook: entry.label, host: elideMiddle(written!, 60), placeholder: elideMiddle(placeholder, 40) },
                path: [...entry.path, 'clientConfig', 'url'],
                help: 'The API server accepts a url whose host is a template placeholder (Go reads <, > and $ in a host), and every call then fails to resolve it: the requests the webhook matches are rejected (failurePolicy Fail) or pass unchecked (Ignore). Render the file as its install does, or write the endpoint in, before applying it.',
              });
            }
            continue;
          }
          const messageId: MessageId | undefined = isLoopback(host) ? 'loopback' : host.ip !== undefined ? 'ipLiteral' : isServiceName(host) ? 'serviceName' : undefined;
          if (messageId === undefined) continue;
          const unspecified = host.name === '0.0.0.0' || (host.ip === 6 && expandIPv6(host.name)?.every((group) => group === 0) === true);
          violations.push({
            messageId,
            data: {
              webhook: entry.label,
              host: host.ip === 6 ? `[${host.name}]` : host.name,
              what: unspecified ? 'the unspecified address, which reaches the local host' : 'loopback',
            },
            path: [...entry.path, 'clientConfig', 'url'],
            // A loopback url is written on purpose: the webhook runs beside each API server (a
            // static pod or a process on the control-plane host). Info: true, and deliberate. The
            // unspecified address is a listen address copied into a url: a warning.
            ...(messageId === 'loopback' && !unspecified ? { severity: 'info' as const } : {}),
          });
        }
        return violations;
      },
    };
  },
});
