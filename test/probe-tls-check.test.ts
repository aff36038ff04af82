/** The certificate checks the probe makes as Go's crypto/x509 makes them for the API server (src/probe/tls-check.ts). */
import { describe, expect, it } from 'vitest';
import { certificateError, hostnameError, matchHostname, parseSubjectAltName, rfc3339, type CertificateFacts } from '../src/probe/tls-check.js';

const cert = (over: Partial<CertificateFacts> = {}): CertificateFacts => ({
  subject: 'CN=hook.ns.svc',
  issuer: 'CN=ca',
  commonName: 'hook.ns.svc',
  dnsNames: ['hook.ns.svc'],
  ipAddresses: [],
  validFrom: new Date('2026-01-01T00:00:00Z'),
  validTo: new Date('2027-01-01T00:00:00Z'),
  hasSans: true,
  ...over,
});
const now = new Date('2026-06-01T12:00:00Z');

describe('certificate checks in Go\'s order and words', () => {
  it('passes a certificate for the name, in its validity period, from the roots', () => {
    expect(certificateError(cert(), 'hook.ns.svc', null, now)).toBeNull();
  });

  it('dates first, then the name, then the chain', () => {
    const expired = cert({ validTo: new Date('2026-05-01T00:00:00Z'), dnsNames: ['other'] });
    expect(certificateError(expired, 'hook.ns.svc', 'UNABLE_TO_VERIFY_LEAF_SIGNATURE', now)).toBe('x509: certificate has expired or is not yet valid: current time 2026-06-01T12:00:00Z is after 2026-05-01T00:00:00Z');
    expect(certificateError(cert({ validFrom: new Date('2026-07-01T00:00:00Z') }), 'hook.ns.svc', null, now)).toBe('x509: certificate has expired or is not yet valid: current time 2026-06-01T12:00:00Z is before 2026-07-01T00:00:00Z');
    expect(certificateError(cert({ dnsNames: ['a.example', 'b.example'] }), 'hook.ns.svc', 'SELF_SIGNED_CERT_IN_CHAIN', now)).toBe('x509: certificate is valid for a.example, b.example, not hook.ns.svc');
    expect(certificateError(cert(), 'hook.ns.svc', 'UNABLE_TO_VERIFY_LEAF_SIGNATURE', now)).toBe('x509: certificate signed by unknown authority');
  });

  it('the Common Name does not count (Go 1.15 and later)', () => {
    expect(hostnameError(cert({ dnsNames: [], hasSans: false }), 'hook.ns.svc')).toBe('x509: certificate relies on legacy Common Name field, use SANs instead');
    expect(hostnameError(cert({ dnsNames: [], commonName: 'x', hasSans: false }), 'hook.ns.svc')).toBe('x509: certificate is not valid for any names, but wanted to match hook.ns.svc');
  });

  it('IP server names match IP SANs only', () => {
    expect(hostnameError(cert({ ipAddresses: ['10.0.0.1'] }), '10.0.0.1')).toBeNull();
    expect(hostnameError(cert(), '10.0.0.1')).toBe("x509: cannot validate certificate for 10.0.0.1 because it doesn't contain any IP SANs");
    expect(hostnameError(cert({ ipAddresses: ['10.0.0.2'] }), '10.0.0.1')).toBe('x509: certificate is valid for 10.0.0.2, not 10.0.0.1');
  });

  it('wildcards match one leftmost label', () => {
    expect(matchHostname('*.ns.svc', 'hook.ns.svc')).toBe(true);
    expect(matchHostname('*.svc', 'hook.ns.svc')).toBe(false);
    expect(matchHostname('HOOK.ns.svc.', 'hook.ns.svc')).toBe(true);
    expect(matchHostname('h*.ns.svc', 'hook.ns.svc')).toBe(false);
  });

  it('reads Node\'s subjectAltName text', () => {
    expect(parseSubjectAltName('DNS:a.example, DNS:b.example, IP Address:127.0.0.1')).toEqual({ dnsNames: ['a.example', 'b.example'], ipAddresses: ['127.0.0.1'] });
    expect(parseSubjectAltName(undefined)).toEqual({ dnsNames: [], ipAddresses: [] });
    expect(rfc3339(new Date('2026-12-03T08:00:00.123Z'))).toBe('2026-12-03T08:00:00Z');
  });
});
