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

/**
 * The limits of key reading (s36e 2-B, s37a 2-A/2-B). Each BEGIN line costs a look (its END found,
 * its type read from the first DER bytes); each block that passes costs a parse; a key written
 * without its public half (EC, Ed448) also costs a scalar multiplication to derive it, about
 * 2-3 ms for the largest curves. Real inputs hold a few keys, most with their public half (Go and
 * OpenSSL write it): the derivations have the smallest budget, and what passes no look or parse
 * costs no derivation. A parse alone costs 0.35-0.6 ms with Node 20's OpenSSL 3.0, even of a junk
 * block (s37c 2-A): 256 per run.
 */
const LIMITS = {
  /** Per Secret: keys read, BEGIN lines looked at, blocks parsed, keys derived. */
  secret: { keys: 16, looks: 64, parses: 16, derivations: 16 },
  /** Per run. */
  run: { keys: Number.POSITIVE_INFINITY, looks: 4096, parses: 256, derivations: 128 },
} as const;

type Spend = 'keys' | 'looks' | 'parses' | 'derivations';

/** What reading keys may still spend: a Secret's budget, shared by its values, and the run's, shared by its Secrets. */
export interface KeyBudget {
  keys: number;
  looks: number;
  parses: number;
  derivations: number;
  /** Blocks passed over because a limit was reached (on the run's budget: the whole run's). */
  skipped: number;
  readonly run?: KeyBudget;
}

/** The budget of one run's key reading: pass it to each Secret's `keyBudget`. */
export function runKeyBudget(): KeyBudget {
  return { ...LIMITS.run, skipped: 0 };
}

/** The budget of one Secret, drawing on `run` too when given. */
export function keyBudget(run?: KeyBudget): KeyBudget {
  return { ...LIMITS.secret, skipped: 0, ...(run === undefined ? {} : { run }) };
}

function left(budget: KeyBudget, what: Spend): boolean {
  return budget[what] > 0 && (budget.run === undefined || left(budget.run, what));
}

function spend(budget: KeyBudget, what: Spend): void {
  budget[what]--;
  if (budget.run !== undefined) spend(budget.run, what);
}

function skip(budget: KeyBudget): void {
  budget.skipped++;
  if (budget.run !== undefined) skip(budget.run);
}

/** A PEM key larger than this is not read (an RSA key of 16,384 bits is about 13 KB; parsing one costs about 0.5 ms). */
const MAX_KEY_CHARACTERS = 16 * 1024;
const TLS_KEY_TYPES = new Set(['rsa', 'rsa-pss', 'ec', 'ed25519', 'ed448']);

/** The SPKI (DER) of each private key in the text, within `budget` (spent); one pass over the text. */
export function publicKeysOf(text: string, budget: KeyBudget = keyBudget()): Buffer[] {
  if (!text.includes('PRIVATE KEY')) return [];
  const keys: Buffer[] = [];
  /** Per block type: where its next END line is (-1: none after the last BEGIN looked at). */
  const ends = new Map<string, number>();
  for (const match of text.matchAll(BEGIN)) {
    if (!left(budget, 'looks') || !left(budget, 'keys')) {
      skip(budget);
      break;
    }
    spend(budget, 'looks');
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
    const kind = tlsKeyKind(type, pem.slice(match[0].length, pem.length - footer.length));
    if (kind === undefined) continue;
    if (!left(budget, 'parses') || (kind === 'derived' && !left(budget, 'derivations'))) {
      skip(budget);
      continue;
    }
    spend(budget, 'parses');
    if (kind === 'derived') spend(budget, 'derivations');
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
const ED448_OID = TLS_KEY_OIDS[4]!;

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
 * Whether a PEM key block is of a TLS key type, read before any key is built, and whether its
 * public half must be derived (`derived`: an EC key written without it, an Ed448 key) or is read
 * (`written`: RSA, an EC key with it, Ed25519, whose derivation is cheap). `RSA PRIVATE KEY` by its
 * header; `EC PRIVATE KEY` (SEC 1) by its header and a named curve; `PRIVATE KEY` (PKCS#8) by the
 * algorithm it names where the structure puts it (a DSA prime may hold the bytes of another), and
 * a named curve for EC. Anything else (DSA, DH, encrypted forms) is undefined: left unread;
 * explicit curve parameters serve no TLS certificate and cost a scalar multiplication to derive.
 */
function tlsKeyKind(type: string, body: string): 'written' | 'derived' | undefined {
  if (type !== 'PRIVATE KEY' && body.slice(0, 256).includes(':')) return undefined; // Proc-Type: an encrypted key.
  if (type === 'RSA PRIVATE KEY') return 'written';
  if (type === 'EC PRIVATE KEY') {
    const der = derReader(body, 240);
    if (der.enter(0x30) === undefined) return undefined;
    return ecPrivateKeyRest(der, true);
  }
  if (type !== 'PRIVATE KEY') return undefined;
  // PrivateKeyInfo ::= SEQUENCE { version INTEGER, algorithm SEQUENCE { OID, parameters }, privateKey OCTET STRING, … }
  const der = derReader(body, 320);
  if (der.enter(0x30) === undefined) return undefined;
  const version = der.enter(0x02);
  if (version !== 1) return undefined;
  der.skip(version);
  const algorithm = der.enter(0x30);
  if (algorithm === undefined) return undefined;
  const oid = TLS_KEY_OIDS.find((each) => der.startsWith(each));
  if (oid === undefined) return undefined;
  if (oid.equals(ED448_OID)) return 'derived';
  if (!oid.equals(EC_PUBLIC_KEY_OID)) return 'written';
  if (der.at(oid.length) !== 0x06) return undefined;
  der.skip(algorithm);
  // The privateKey OCTET STRING holds an ECPrivateKey (its curve usually left to the algorithm).
  if (der.enter(0x04) === undefined || der.enter(0x30) === undefined) return undefined;
  return ecPrivateKeyRest(der, false);
}

/**
 * The rest of an ECPrivateKey, the reader inside its SEQUENCE: `{ version INTEGER, privateKey
 * OCTET STRING, [0] parameters OPTIONAL, [1] publicKey OPTIONAL }`; `curveHere`: the [0] named
 * curve is required (SEC 1 alone says which curve). `written` when [1] follows.
 */
function ecPrivateKeyRest(der: ReturnType<typeof derReader>, curveHere: boolean): 'written' | 'derived' | undefined {
  const version = der.enter(0x02);
  if (version === undefined) return undefined;
  der.skip(version);
  const secret = der.enter(0x04);
  if (secret === undefined) return undefined;
  der.skip(secret);
  if (der.at() === 0xa0) {
    const parameters = der.enter(0xa0)!;
    if (der.at() !== 0x06) return undefined;
    der.skip(parameters);
  } else if (curveHere) return undefined;
  return der.at() === 0xa1 ? 'written' : 'derived';
}

/** The SPKI (DER) of a certificate's public key, or undefined when Node cannot export it. */
export function certificateKey(certificate: X509Certificate): Buffer | undefined {
  try {
    return certificate.publicKey.export({ type: 'spki', format: 'der' });
  } catch {
    return undefined;
  }
}
