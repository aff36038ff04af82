/**
 * The public halves of the private keys written in a text (PEM): what ties a Secret's key to a
 * certificate a caBundle trusts (rules/ca-bundle.ts). Node's crypto reads PKCS#1, PKCS#8 and SEC 1
 * keys; an encrypted key (no passphrase here) or a form it does not read is not a key in the clear.
 */
import { createPrivateKey, createPublicKey, type X509Certificate } from 'node:crypto';

const PRIVATE_KEY_BLOCK = /-----BEGIN ([A-Z0-9 ]*PRIVATE KEY)-----[\s\S]*?-----END \1-----/g;
/** Blocks read per text: a Secret holds a few; past this many, the rest are not read. */
const MAX_KEYS = 16;

/** The SPKI (DER) of each private key in the text, at most MAX_KEYS. */
export function publicKeysOf(text: string): Buffer[] {
  if (!text.includes('PRIVATE KEY')) return [];
  const keys: Buffer[] = [];
  for (const match of text.matchAll(PRIVATE_KEY_BLOCK)) {
    if (keys.length >= MAX_KEYS) break;
    try {
      keys.push(createPublicKey(createPrivateKey(match[0])).export({ type: 'spki', format: 'der' }));
    } catch {
      // Encrypted, or not a key Node reads: not one anyone can use as it is.
    }
  }
  return keys;
}

/** The SPKI (DER) of a certificate's public key, or undefined when Node cannot export it. */
export function certificateKey(certificate: X509Certificate): Buffer | undefined {
  try {
    return certificate.publicKey.export({ type: 'spki', format: 'der' });
  } catch {
    return undefined;
  }
}
