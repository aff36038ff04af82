/**
 * The serving certificate as the API server's Go client checks it (crypto/x509 Verify, called by
 * crypto/tls with the webhook's server name): the leaf's validity period first, then the name
 * (Subject Alternative Names only: the Common Name has not counted since Go 1.15), then the chain
 * to the roots (the caBundle; the system roots when there is none). Each failure is said as Go
 * says it. Pure: the facts come from Node's TLS socket (./call.ts).
 */
import { isIP } from 'node:net';

export interface CertificateFacts {
  readonly subject: string;
  readonly issuer: string;
  readonly commonName: string;
  readonly dnsNames: readonly string[];
  readonly ipAddresses: readonly string[];
  readonly validFrom: Date;
  readonly validTo: Date;
  /** Whether the certificate has a Subject Alternative Name extension at all. */
  readonly hasSans: boolean;
}

/** Go's time.RFC3339 for a UTC time: 2026-12-03T08:00:00Z. */
export function rfc3339(date: Date): string {
  return date.toISOString().replace(/\.\d{3}Z$/, 'Z');
}

/** Node's subjectAltName text ("DNS:a, IP Address:127.0.0.1") as DNS names and IP addresses. */
export function parseSubjectAltName(text: string | undefined): { dnsNames: string[]; ipAddresses: string[] } {
  const dnsNames: string[] = [];
  const ipAddresses: string[] = [];
  for (const raw of (text ?? '').split(/,\s*/)) {
    const entry = raw.replace(/^"|"$/g, '');
    if (entry.startsWith('DNS:')) dnsNames.push(entry.slice(4));
    else if (entry.startsWith('IP Address:')) ipAddresses.push(entry.slice(11));
  }
  return { dnsNames, ipAddresses };
}

function normaliseIp(ip: string): string {
  const bare = ip.startsWith('[') && ip.endsWith(']') ? ip.slice(1, -1) : ip;
  // ::ffff:127.0.0.1 and 127.0.0.1 are one address in Go's net.IP.Equal.
  return bare.toLowerCase().replace(/^::ffff:(\d+\.\d+\.\d+\.\d+)$/, '$1');
}

/** crypto/x509 matchHostnames: label by label, a leading "*" label matching one label; trailing dots ignored. */
export function matchHostname(pattern: string, host: string): boolean {
  const p = pattern.toLowerCase().replace(/\.$/, '');
  const h = host.toLowerCase().replace(/\.$/, '');
  if (p === '' || h === '') return false;
  const patternParts = p.split('.');
  const hostParts = h.split('.');
  if (patternParts.length !== hostParts.length) return false;
  return patternParts.every((part, i) => (i === 0 && part === '*') || part === hostParts[i]);
}

/** crypto/x509 VerifyHostname and HostnameError.Error(): null when the name matches. */
export function hostnameError(cert: CertificateFacts, serverName: string): string | null {
  const candidateIp = serverName.startsWith('[') && serverName.endsWith(']') ? serverName.slice(1, -1) : serverName;
  if (isIP(candidateIp) !== 0) {
    if (cert.ipAddresses.some((ip) => normaliseIp(ip) === normaliseIp(candidateIp))) return null;
    if (cert.ipAddresses.length === 0) return `x509: cannot validate certificate for ${candidateIp} because it doesn't contain any IP SANs`;
    return `x509: certificate is valid for ${cert.ipAddresses.join(', ')}, not ${candidateIp}`;
  }
  if (cert.dnsNames.some((name) => matchHostname(name, serverName))) return null;
  if (!cert.hasSans && matchHostname(cert.commonName, serverName)) return 'x509: certificate relies on legacy Common Name field, use SANs instead';
  if (cert.dnsNames.length === 0) return `x509: certificate is not valid for any names, but wanted to match ${serverName}`;
  return `x509: certificate is valid for ${cert.dnsNames.join(', ')}, not ${serverName}`;
}

/** Node's chain errors (OpenSSL codes) that mean a certificate's dates, not its issuer. */
const DATE_CODES = new Set(['CERT_HAS_EXPIRED', 'CERT_NOT_YET_VALID']);

/**
 * The first thing Go's verification rejects, in Go's words, or null when the certificate passes.
 * `chainError` is Node's verdict on the chain against the same roots (an OpenSSL code), or null.
 */
export function certificateError(cert: CertificateFacts, serverName: string, chainError: string | null, now: Date): string | null {
  if (now.getTime() > cert.validTo.getTime()) return `x509: certificate has expired or is not yet valid: current time ${rfc3339(now)} is after ${rfc3339(cert.validTo)}`;
  if (now.getTime() < cert.validFrom.getTime()) return `x509: certificate has expired or is not yet valid: current time ${rfc3339(now)} is before ${rfc3339(cert.validFrom)}`;
  const name = hostnameError(cert, serverName);
  if (name !== null) return name;
  if (chainError === null) return null;
  if (DATE_CODES.has(chainError)) return 'x509: certificate has expired or is not yet valid';
  return 'x509: certificate signed by unknown authority';
}
