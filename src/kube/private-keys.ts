/**
 * The public halves of the private keys written in a text (PEM): what ties a Secret's key to a
 * certificate a caBundle trusts (rules/ca-bundle.ts). Node's crypto reads PKCS#1, PKCS#8 and SEC 1
 * keys; an encrypted key (no passphrase here) or a form it does not read is not a key in the clear.
 * Only the key types a TLS server uses (RSA, ECDSA on a named curve, Ed25519, Ed448) are derived:
 * a DSA or DH key costs a modular exponentiation of any size a hostile file chooses, and serves no
 * TLS certificate.
 */
import { createPrivateKey, createPublicKey, type X509Certificate } from 'node:crypto';

/** The PEM private key blocks of the TLS key types: PKCS#8, and PKCS#1 RSA and SEC 1 EC keys. */
const BEGIN = /-----BEGIN ((?:RSA |EC )?PRIVATE KEY)-----/g;
/** Keys read per Secret (a Secret may hold many: every component's, then the CA's): past this many, the rest are not read. */
const MAX_KEYS = 16;
/** Blocks tried per Secret (a block that is no key costs a parse too): past this many, none more. */
const MAX_ATTEMPTS = 16;

/**
 * Blocks tried in a whole run: a key on a curve written without its public half costs a scalar
 * multiplication to derive (about 2 ms for P-521), so the per-Secret limits alone let a file of
 * many such Secrets cost seconds per megabyte (s36e 2-B). Real inputs hold a few keys.
 */
const MAX_RUN_ATTEMPTS = 128;

/** What reading keys may still spend: a Secret's budget, shared by its values, and the run's, shared by its Secrets. */
export interface KeyBudget {
  keys: number;
  attempts: number;
  readonly run?: KeyBudget;
}

/** The budget of one run's key reading: pass it to each Secret's `keyBudget`. */
export function runKeyBudget(): KeyBudget {
  return { keys: Number.POSITIVE_INFINITY, attempts: MAX_RUN_ATTEMPTS };
}

/** The budget of one Secret, drawing on `run` too when given. */
export function keyBudget(run?: KeyBudget): KeyBudget {
  return { keys: MAX_KEYS, attempts: MAX_ATTEMPTS, ...(run === undefined ? {} : { run }) };
}

function spent(budget: KeyBudget): boolean {
  return budget.keys <= 0 || budget.attempts <= 0 || (budget.run !== undefined && spent(budget.run));
}

function spend(budget: KeyBudget, field: 'keys' | 'attempts'): void {
  budget[field]--;
  if (budget.run !== undefined) spend(budget.run, field);
}

/** A PEM key larger than this is not read (an RSA key of 16,384 bits is about 13 KB). */
const MAX_KEY_CHARACTERS = 64 * 1024;
const TLS_KEY_TYPES = new Set(['rsa', 'rsa-pss', 'ec', 'ed25519', 'ed448']);

/** The SPKI (DER) of each private key in the text, within `budget` (spent); one pass over the text. */
export function publicKeysOf(text: string, budget: KeyBudget = keyBudget()): Buffer[] {
  if (!text.includes('PRIVATE KEY')) return [];
  const keys: Buffer[] = [];
  /** Per block type: where its next END line is (-1: none after the last BEGIN looked at). */
  const ends = new Map<string, number>();
  for (const match of text.matchAll(BEGIN)) {
    if (spent(budget)) break;
    const type = match[1]!;
    const footer = `-----END ${type}-----`;
    let end = ends.get(type);
    if (end === -1) continue;
    if (end === undefined || end < match.index) {
      end = text.indexOf(footer, match.index);
      ends.set(type, end);
      if (end === -1) continue;
    }
    if (end - match.index > MAX_KEY_CHARACTERS) continue;
    const pem = text.slice(match.index, end + footer.length);
    if (!isTlsKeyType(type, pem.slice(match[0].length, pem.length - footer.length))) continue;
    spend(budget, 'attempts');
    try {
      const key = createPrivateKey(pem);
      if (!TLS_KEY_TYPES.has(key.asymmetricKeyType ?? '')) continue;
      keys.push(createPublicKey(key).export({ type: 'spki', format: 'der' }));
      spend(budget, 'keys');
    } catch {
      // Encrypted, or not a key Node reads: not one anyone can use as it is.
    }
  }
  return keys;
}

/** The algorithm identifiers (DER of the OID) of the TLS key types, as PKCS#8 writes them. */
const TLS_KEY_OIDS = [
  '06092a864886f70d010101', // rsaEncryption
  '06092a864886f70d01010a', // RSASSA-PSS
  '06072a8648ce3d0201', // id-ecPublicKey
  '06032b6570', // Ed25519
  '06032b6571', // Ed448
].map((hex) => Buffer.from(hex, 'hex'));

const EC_PUBLIC_KEY_OID = TLS_KEY_OIDS[2]!;

/**
 * A reader of the first DER elements of a PEM block's body (no more than `bytes` are decoded):
 * `enter(tag)` steps into the element at the cursor when it has that tag and returns its length,
 * `skip(length)` steps over content, `at()` is the next byte.
 */
function derReader(body: string, bytes: number): { enter(tag: number): number | undefined; skip(length: number): void; at(offset?: number): number | undefined; startsWith(bytes: Buffer): boolean } {
  const der = Buffer.from(body.slice(0, bytes * 4).replace(/\s/g, '').slice(0, Math.ceil(bytes / 3) * 4), 'base64');
  let at = 0;
  return {
    enter(tag) {
      if (der[at] !== tag) return undefined;
      const first = der[at + 1];
      if (first === undefined) return undefined;
      const extra = first & 0x80 ? first & 0x7f : 0;
      let length = first & 0x80 ? 0 : first;
      for (let i = 0; i < extra; i++) length = length * 256 + (der[at + 2 + i] ?? 0);
      at += 2 + extra;
      return length;
    },
    skip(length) {
      at += length;
    },
    at(offset = 0) {
      return der[at + offset];
    },
    startsWith(prefix) {
      return der.subarray(at, at + prefix.length).equals(prefix);
    },
  };
}

/**
 * Whether a PEM key block is of a TLS key type, read before any key is built: `RSA PRIVATE KEY`
 * by its header; `EC PRIVATE KEY` (SEC 1) by its header and a named curve; `PRIVATE KEY`
 * (PKCS#8) by the algorithm it names where the structure puts it (a DSA prime may hold the bytes
 * of another), and a named curve for EC. Anything else (DSA, DH, encrypted forms) is left unread;
 * explicit curve parameters serve no TLS certificate and cost a scalar multiplication to derive.
 */
function isTlsKeyType(type: string, body: string): boolean {
  if (type !== 'PRIVATE KEY' && body.slice(0, 256).includes(':')) return false; // Proc-Type: an encrypted key.
  if (type === 'RSA PRIVATE KEY') return true;
  if (type === 'EC PRIVATE KEY') {
    // ECPrivateKey ::= SEQUENCE { version INTEGER, privateKey OCTET STRING, [0] parameters, … }
    const der = derReader(body, 120);
    if (der.enter(0x30) === undefined) return false;
    const version = der.enter(0x02);
    if (version === undefined) return false;
    der.skip(version);
    const secret = der.enter(0x04);
    if (secret === undefined) return false;
    der.skip(secret);
    return der.enter(0xa0) !== undefined && der.at() === 0x06;
  }
  if (type !== 'PRIVATE KEY') return false;
  // PrivateKeyInfo ::= SEQUENCE { version INTEGER, algorithm SEQUENCE { OID, parameters }, … }
  const der = derReader(body, 48);
  if (der.enter(0x30) === undefined) return false;
  const version = der.enter(0x02);
  if (version !== 1) return false;
  der.skip(version);
  if (der.enter(0x30) === undefined) return false;
  const oid = TLS_KEY_OIDS.find((each) => der.startsWith(each));
  if (oid === undefined) return false;
  return !oid.equals(EC_PUBLIC_KEY_OID) || der.at(oid.length) === 0x06;
}

/** The SPKI (DER) of a certificate's public key, or undefined when Node cannot export it. */
export function certificateKey(certificate: X509Certificate): Buffer | undefined {
  try {
    return certificate.publicKey.export({ type: 'spki', format: 'der' });
  } catch {
    return undefined;
  }
}
