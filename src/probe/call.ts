/**
 * One webhook call over the network, as the API server's client makes it (util/webhook/client.go,
 * client-go rest): a TLS connection to the address the user named, the server name of the
 * webhook's configuration for SNI and for the certificate check (./tls-check.ts, against the
 * caBundle only), HTTP/1.1, one POST of the AdmissionReview with the API server's headers, and
 * a deadline of timeoutSeconds over the whole call. Nothing is sent before the certificate
 * passes; nothing is retried, redirected or resolved except the address given.
 * Failures are said as Go's client says them (`Post "URL": …`).
 */
import { X509Certificate } from 'node:crypto';
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { isIP } from 'node:net';
import { connect, type TLSSocket } from 'node:tls';
import { gunzipSync } from 'node:zlib';
import { certificateError, parseSubjectAltName, type CertificateFacts } from './tls-check.js';

export interface CallTarget {
  /** Where to connect: what the user named (--address, --url). */
  readonly host: string;
  readonly port: number;
  /** The TLS server name: <service>.<namespace>.svc, or the host of the configuration's url. */
  readonly serverName: string;
  /** The Host header, as Go writes it from the URL: serverName:port. */
  readonly hostHeader: string;
  /** The request path with the API server's ?timeout= query. */
  readonly path: string;
  /** The URL as the API server's messages name it. */
  readonly url: string;
  /** The roots: the caBundle's PEM; undefined for the system's roots. */
  readonly ca: string | undefined;
}

export interface TlsFacts {
  readonly protocol: string | null;
  readonly certificate: CertificateFacts | null;
  /** Node's verdict on the chain (an OpenSSL code), or null when the chain reaches the roots. */
  readonly chainError: string | null;
  /** Go's verdict, in Go's words; null when the certificate passes. */
  readonly problem: string | null;
}

export type CallResult =
  | {
      readonly kind: 'response';
      readonly status: number;
      readonly contentType: string | undefined;
      readonly location: string | undefined;
      readonly body: Buffer;
      readonly latencyMs: number;
      readonly tls: TlsFacts;
    }
  | {
      readonly kind: 'failed';
      readonly stage: 'dial' | 'tls' | 'timeout' | 'connection' | 'too-large';
      /** Go's error: `Post "URL": …`. */
      readonly reason: string;
      readonly latencyMs: number;
      readonly tls?: TlsFacts;
    };

/** The most of a response body the probe reads (the API server reads all of it). */
export const MAX_RESPONSE_BYTES = 16 * 1024 * 1024;

function hostPort(host: string, port: number | undefined): string {
  return `${isIP(host) === 6 ? `[${host}]` : host}:${port ?? ''}`;
}

/** A socket error before or after the request, as Go's net package says it. */
function socketReason(error: NodeJS.ErrnoException & { address?: string; port?: number }, target: CallTarget, secured: boolean): { stage: 'dial' | 'connection'; reason: string } {
  const address = hostPort(error.address ?? target.host, error.port ?? target.port);
  switch (error.code) {
    case 'ECONNREFUSED':
      return { stage: 'dial', reason: `dial tcp ${address}: connect: connection refused` };
    case 'EHOSTUNREACH':
      return { stage: 'dial', reason: `dial tcp ${address}: connect: no route to host` };
    case 'ENETUNREACH':
      return { stage: 'dial', reason: `dial tcp ${address}: connect: network is unreachable` };
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return { stage: 'dial', reason: `dial tcp: lookup ${target.host}: no such host` };
    case 'ERR_SSL_WRONG_VERSION_NUMBER':
    case 'ERR_SSL_PACKET_LENGTH_TOO_LONG':
    case 'ERR_SSL_HTTP_REQUEST':
      // Go's transport recognises a plain-HTTP answer to its ClientHello.
      return { stage: 'dial', reason: 'http: server gave HTTP response to HTTPS client' };
    case 'ECONNRESET':
      // Closed without an answer: Go's transport reads EOF; a reset after the request is "connection reset by peer".
      return secured && error.message !== 'socket hang up' ? { stage: 'connection', reason: `read tcp ${address}: read: connection reset by peer` } : { stage: 'connection', reason: 'EOF' };
    default:
      return { stage: secured ? 'connection' : 'dial', reason: error.message };
  }
}

function certificateFacts(socket: TLSSocket): CertificateFacts | null {
  const peer = socket.getPeerX509Certificate();
  if (peer === undefined) return null;
  return facts(peer);
}

export function facts(peer: X509Certificate): CertificateFacts {
  const { dnsNames, ipAddresses } = parseSubjectAltName(peer.subjectAltName);
  const commonName = /(?:^|\n)CN=([^\n]*)/.exec(peer.subject)?.[1] ?? '';
  return {
    subject: peer.subject.replace(/\n/g, ', '),
    issuer: peer.issuer.replace(/\n/g, ', '),
    commonName,
    dnsNames,
    ipAddresses,
    validFrom: new Date(peer.validFrom),
    validTo: new Date(peer.validTo),
    hasSans: peer.subjectAltName !== undefined,
  };
}

function chainErrorOf(socket: TLSSocket): string | null {
  if (socket.authorized) return null;
  const error = socket.authorizationError as unknown;
  if (error === null || error === undefined) return 'UNABLE_TO_VERIFY_LEAF_SIGNATURE';
  if (typeof error === 'string') return error;
  return String((error as { code?: unknown }).code ?? (error as Error).message);
}

/** Sends `body` (the AdmissionReview's JSON) once; resolves with the response or Go's error, never rejects. */
export function callWebhook(target: CallTarget, body: string, timeoutMs: number, now: () => Date = () => new Date()): Promise<CallResult> {
  return new Promise((resolve) => {
    const started = performance.now();
    let settled = false;
    let secured = false;
    let tls: TlsFacts | undefined;
    const elapsed = () => performance.now() - started;
    const socket = connect({
      host: target.host,
      port: target.port,
      // SNI carries names only (RFC 6066); Go sends none for an IP either.
      ...(isIP(target.serverName) === 0 ? { servername: target.serverName } : {}),
      ...(target.ca !== undefined ? { ca: target.ca } : {}),
      // Checked here, as Go checks it, before anything is sent.
      rejectUnauthorized: false,
      checkServerIdentity: () => undefined,
      ALPNProtocols: ['http/1.1'],
    });
    const settle = (result: CallResult) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      socket.destroy();
      resolve(result);
    };
    const fail = (stage: Extract<CallResult, { kind: 'failed' }>['stage'], reason: string) =>
      settle({ kind: 'failed', stage, reason: `Post ${JSON.stringify(target.url)}: ${reason}`, latencyMs: elapsed(), ...(tls !== undefined ? { tls } : {}) });
    let connected = false;
    socket.once('connect', () => (connected = true));
    // Go's dialer says a deadline as an i/o timeout; later, the context's error.
    const timer = setTimeout(() => fail('timeout', connected ? 'context deadline exceeded' : `dial tcp ${hostPort(target.host, target.port)}: i/o timeout`), timeoutMs);
    socket.on('error', (error: NodeJS.ErrnoException) => {
      const { stage, reason } = socketReason(error, target, secured);
      fail(stage, reason);
    });
    socket.once('close', () => fail('connection', 'EOF'));
    socket.once('secureConnect', () => {
      secured = true;
      const certificate = certificateFacts(socket);
      const chainError = chainErrorOf(socket);
      const problem = certificate === null ? 'x509: certificate signed by unknown authority' : certificateError(certificate, target.serverName, chainError, now());
      tls = { protocol: socket.getProtocol(), certificate, chainError, problem };
      if (problem !== null) {
        fail('tls', `tls: failed to verify certificate: ${problem}`);
        return;
      }
      const request = httpRequest({
        createConnection: () => socket,
        method: 'POST',
        path: target.path,
        headers: {
          Host: target.hostHeader,
          'User-Agent': 'kube-apiserver-admission',
          Accept: 'application/json, */*',
          'Content-Type': 'application/json',
          'Content-Length': Buffer.byteLength(body),
          'Accept-Encoding': 'gzip',
        },
      });
      request.on('error', (error: NodeJS.ErrnoException) => {
        const { stage, reason } = socketReason(error, target, true);
        fail(stage, reason);
      });
      request.on('response', (response: IncomingMessage) => {
        const chunks: Buffer[] = [];
        let size = 0;
        response.on('data', (chunk: Buffer) => {
          size += chunk.length;
          if (size > MAX_RESPONSE_BYTES) fail('too-large', `the response is larger than ${MAX_RESPONSE_BYTES / 1024 / 1024} MiB (the probe reads no more)`);
          else chunks.push(chunk);
        });
        response.on('error', (error: NodeJS.ErrnoException) => {
          const { stage, reason } = socketReason(error, target, true);
          fail(stage, reason);
        });
        response.on('end', () => {
          let data = Buffer.concat(chunks);
          if (response.headers['content-encoding'] === 'gzip') {
            try {
              data = gunzipSync(data);
            } catch {
              fail('connection', 'gzip: invalid header');
              return;
            }
          }
          settle({
            kind: 'response',
            status: response.statusCode ?? 0,
            contentType: response.headers['content-type'],
            location: response.headers.location,
            body: data,
            latencyMs: elapsed(),
            tls: tls!,
          });
        });
      });
      request.end(body);
    });
  });
}
