/**
 * The public web-PKI root certificates (the Mozilla CA store Node.js ships, `tls.rootCertificates`).
 * A webhook called through a Service is verified against the name `<service>.<namespace>.svc`,
 * and no public CA issues certificates for such internal names (CA/Browser Forum Baseline
 * Requirements, 7.1.4.2.1: internal names were phased out in 2015): a caBundle that holds only
 * these roots can verify no serving certificate of that webhook.
 */
import { X509Certificate } from 'node:crypto';
import { createRequire } from 'node:module';
import { Lazy } from '../cache.js';

/** The DER bytes of each public root, as hex, loaded on first use. */
const publicRoots = new Lazy<ReadonlySet<string>>();

/** node:tls's roots, the builtin loaded only now: with node:net, it is about 5 ms of a start. */
function rootCertificates(): readonly string[] {
  return (createRequire(import.meta.url)('node:tls') as typeof import('node:tls')).rootCertificates;
}

/** Whether the certificate is one of the public web-PKI roots (the same DER bytes). */
export function isPublicRoot(certificate: X509Certificate): boolean {
  const roots = publicRoots.get(() => new Set(rootCertificates().map((pem) => new X509Certificate(pem).raw.toString('hex'))));
  return roots.has(certificate.raw.toString('hex'));
}
