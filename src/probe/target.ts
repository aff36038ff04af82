/**
 * Where the probe connects and how it names the server, from the webhook's clientConfig and
 * the flags (util/webhook/client.go HookClient):
 *
 * - a `service` reference: the API server dials <name>.<namespace>.svc:<port> (443 by default),
 *   verifies the certificate for <name>.<namespace>.svc and posts to the service's path;
 * - a `url`: it dials the URL's host and port (443 by default) and verifies the URL's host.
 *
 * The probe connects only where the user says: `--address HOST:PORT` stands in for the dial
 * (the server name and the path stay the configuration's), `--url https://HOST:PORT/PATH` for the
 * dial and the path (the server name stays the configuration's). Cluster DNS names (*.svc) are
 * refused: they resolve inside the cluster only, and the probe makes no lookup of them.
 */
import { isIP } from 'node:net';
import { UsageError } from '../errors.js';
import type { WebhookClientConfig } from '../model/types.js';
import type { CallTarget } from './call.js';

export interface TargetFlags {
  readonly url?: string;
  readonly address?: string;
}

function isClusterName(host: string): boolean {
  const name = host.toLowerCase().replace(/\.$/, '');
  return /\.svc$/.test(name) || /\.svc\.cluster\.local$/.test(name) || name.endsWith('.cluster.local');
}

function parsePort(text: string, flag: string, given: string): number {
  if (!/^\d{1,5}$/.test(text) || Number(text) < 1 || Number(text) > 65535) throw new UsageError(`${flag} ${given}: the port must be a number from 1 to 65535`);
  return Number(text);
}

/** HOST:PORT, [IPv6]:PORT. */
export function parseAddress(address: string): { host: string; port: number } {
  const match = /^\[([^\]]+)\]:(.*)$/.exec(address) ?? /^([^:]+):(.*)$/.exec(address);
  if (match === null || match[1] === '') throw new UsageError(`--address ${address}: give HOST:PORT, e.g. 127.0.0.1:8443 (after kubectl port-forward)`);
  const host = match[1]!;
  if (isClusterName(host)) throw new UsageError(`--address ${address}: cluster DNS names resolve only inside the cluster`, 'forward a local port (kubectl port-forward -n NAMESPACE svc/NAME 8443:443) and give --address 127.0.0.1:8443');
  return { host, port: parsePort(match[2]!, '--address', address) };
}

function parseUrl(text: string, flag: string): URL {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new UsageError(`${flag} ${text}: not a URL; give https://HOST:PORT/PATH`);
  }
  if (url.protocol !== 'https:') throw new UsageError(`${flag} ${text}: the API server calls webhooks over https only`);
  if (url.username !== '' || url.password !== '') throw new UsageError(`${flag} ${text}: a webhook URL carries no user or password`);
  if (url.search !== '' || url.hash !== '') throw new UsageError(`${flag} ${text}: a webhook URL has no query or fragment`);
  return url;
}

function urlHost(url: URL): string {
  return url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname;
}

/** The call target: where to connect, the server name, the Host header and the path with the API server's ?timeout=. */
export function resolveTarget(clientConfig: WebhookClientConfig | undefined, flags: TargetFlags, timeoutSeconds: number, ca: string | undefined): CallTarget {
  if ((flags.url === undefined) === (flags.address === undefined)) {
    throw new UsageError(flags.url === undefined ? 'probe needs --address HOST:PORT or --url https://HOST:PORT/PATH: where the webhook listens' : 'give --address or --url, not both', 'e.g. kubectl port-forward -n NAMESPACE svc/NAME 8443:443, then --address 127.0.0.1:8443');
  }
  let serverName: string;
  let configuredPort: number;
  let path: string;
  const service = clientConfig?.service;
  if (service != null) {
    if (!service.name || !service.namespace) throw new UsageError('the webhook\'s clientConfig.service has no name or namespace: the API server would reject the configuration (run lint)');
    serverName = `${service.name}.${service.namespace}.svc`;
    configuredPort = typeof service.port === 'number' ? service.port : 443;
    path = service.path ?? '';
  } else if (typeof clientConfig?.url === 'string') {
    const configured = parseUrl(clientConfig.url, 'clientConfig.url');
    serverName = urlHost(configured);
    configuredPort = configured.port === '' ? 443 : Number(configured.port);
    path = configured.pathname === '/' && !/^https:\/\/[^/]+\/$/.test(clientConfig.url) ? '' : configured.pathname;
  } else {
    throw new UsageError('the webhook has neither clientConfig.service nor clientConfig.url: the API server would reject the configuration (run lint)');
  }
  let host: string;
  let port: number;
  if (flags.url !== undefined) {
    const url = parseUrl(flags.url, '--url');
    host = urlHost(url);
    if (isClusterName(host)) throw new UsageError(`--url ${flags.url}: cluster DNS names resolve only inside the cluster`, 'forward a local port (kubectl port-forward) and give https://127.0.0.1:PORT/PATH');
    port = url.port === '' ? 443 : Number(url.port);
    path = url.pathname === '/' && !flags.url.replace(/^https:\/\/[^/]+/, '').startsWith('/') ? '' : url.pathname;
  } else {
    ({ host, port } = parseAddress(flags.address!));
  }
  const hostHeader = `${isIP(serverName) === 6 ? `[${serverName}]` : serverName}:${configuredPort}`;
  const query = `?timeout=${timeoutSeconds}s`;
  return {
    host,
    port,
    serverName,
    hostHeader,
    path: `${path === '' ? '/' : path}${query}`,
    url: `https://${hostHeader}${path}${query}`,
    ca,
  };
}
