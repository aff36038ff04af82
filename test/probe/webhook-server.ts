/**
 * A webhook server for the probe tests, on 127.0.0.1 with certificates made at test time by the
 * openssl CLI (no network): a CA, a serving certificate for <svc>.<ns>.svc, one for another
 * name, an expired one, and one from another CA. What it answers is set per server (and can be
 * changed between calls); every request it receives is recorded.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:https';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export const SERVICE = 'probe-hook';
export const NAMESPACE = 'hooks';
export const SERVER_NAME = `${SERVICE}.${NAMESPACE}.svc`;

export interface Certificates {
  readonly dir: string;
  readonly caPem: string;
  readonly otherCaPem: string;
  readonly pairs: Readonly<Record<CertificateName, { readonly key: string; readonly cert: string }>>;
}

export type CertificateName = 'good' | 'expiring' | 'wrong-name' | 'expired' | 'other-ca';

function openssl(args: string[], cwd: string): void {
  execFileSync('openssl', args, { cwd, stdio: 'pipe' });
}

function makeCa(dir: string, name: string): void {
  openssl(['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-keyout', `${name}.key`, '-out', `${name}.crt`, '-days', '60', '-subj', `/CN=${name}`], dir);
}

function makeLeaf(dir: string, name: string, ca: string, dnsName: string, days: number): void {
  openssl(['req', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-keyout', `${name}.key`, '-out', `${name}.csr`, '-subj', `/CN=${dnsName}`], dir);
  writeFileSync(join(dir, `${name}.ext`), `subjectAltName=DNS:${dnsName}\n`);
  openssl(['x509', '-req', '-in', `${name}.csr`, '-CA', `${ca}.crt`, '-CAkey', `${ca}.key`, '-set_serial', String(Math.floor(Math.random() * 1e9)), '-out', `${name}.crt`, '-days', String(days), '-extfile', `${name}.ext`], dir);
}

export function makeCertificates(): Certificates {
  const dir = mkdtempSync(join(tmpdir(), 'admission-lint-probe-certs-'));
  makeCa(dir, 'ca');
  makeCa(dir, 'other-ca');
  makeLeaf(dir, 'good', 'ca', SERVER_NAME, 30);
  makeLeaf(dir, 'expiring', 'ca', SERVER_NAME, 2);
  makeLeaf(dir, 'wrong-name', 'ca', 'other.example.com', 30);
  // Valid until a day before it was made.
  makeLeaf(dir, 'expired', 'ca', SERVER_NAME, -1);
  makeLeaf(dir, 'by-other-ca', 'other-ca', SERVER_NAME, 30);
  const read = (file: string) => readFileSync(join(dir, file), 'utf8');
  const pair = (name: string) => ({ key: read(`${name}.key`), cert: read(`${name}.crt`) });
  return {
    dir,
    caPem: read('ca.crt'),
    otherCaPem: read('other-ca.crt'),
    pairs: { good: pair('good'), expiring: pair('expiring'), 'wrong-name': pair('wrong-name'), expired: pair('expired'), 'other-ca': pair('by-other-ca') },
  };
}

export function removeCertificates(certificates: Certificates | undefined): void {
  if (certificates !== undefined) rmSync(certificates.dir, { recursive: true, force: true });
}

export type Mode =
  | 'allow'
  | 'deny'
  /** Adds an annotation; the same again on the second call (idempotent). */
  | 'annotate'
  /** Increments an annotation on every call (not idempotent). */
  | 'count'
  /** Denies ConfigMaps whose data.deny is "true" (the seed experiment's validating webhook). */
  | 'deny-data'
  | 'slow'
  | 'close'
  | 'status-500'
  | 'no-uid'
  | 'v1beta1'
  | 'no-type-meta'
  | 'patch-without-type'
  | 'bad-patch';

export interface ReceivedRequest {
  readonly method: string;
  readonly url: string;
  readonly headers: IncomingMessage['headers'];
  readonly servername: string | undefined;
  readonly review: { apiVersion: string; kind: string; request: Record<string, unknown> & { uid: string; object: Record<string, unknown> | null } };
}

export interface WebhookServer {
  readonly port: number;
  readonly address: string;
  readonly received: ReceivedRequest[];
  mode: Mode;
  /** The delay of `slow`, in milliseconds. */
  delayMs: number;
  close(): Promise<void>;
}

function patchOf(operations: unknown[]): { patch: string; patchType: string } {
  return { patch: Buffer.from(JSON.stringify(operations)).toString('base64'), patchType: 'JSONPatch' };
}

function answer(server: WebhookServer, review: ReceivedRequest['review'], res: ServerResponse): void {
  const uid = review.request.uid;
  const object = review.request.object ?? {};
  const metadata = (object.metadata ?? {}) as { annotations?: Record<string, string> };
  const send = (response: Record<string, unknown>, extra: Record<string, unknown> = {}) => {
    res.writeHead(200, { 'Content-Type': 'application/json' });
    res.end(JSON.stringify({ apiVersion: 'admission.k8s.io/v1', kind: 'AdmissionReview', ...extra, response: { uid, ...response } }));
  };
  switch (server.mode) {
    case 'allow':
      return send({ allowed: true });
    case 'deny':
      return send({ allowed: false, status: { code: 403, message: 'denied by the test server' } });
    case 'annotate':
      return send({
        allowed: true,
        ...patchOf(metadata.annotations === undefined ? [{ op: 'add', path: '/metadata/annotations', value: { 'probe.example.com/seen': 'true' } }] : [{ op: 'add', path: '/metadata/annotations/probe.example.com~1seen', value: 'true' }]),
      });
    case 'count': {
      const count = Number(metadata.annotations?.['probe.example.com/count'] ?? '0') + 1;
      return send({
        allowed: true,
        ...patchOf(metadata.annotations === undefined ? [{ op: 'add', path: '/metadata/annotations', value: { 'probe.example.com/count': String(count) } }] : [{ op: 'add', path: '/metadata/annotations/probe.example.com~1count', value: String(count) }]),
      });
    }
    case 'deny-data': {
      const data = (object.data ?? {}) as Record<string, string>;
      return data.deny === 'true' ? send({ allowed: false, status: { code: 403, message: 'data.deny is true' } }) : send({ allowed: true });
    }
    case 'slow':
      setTimeout(() => send({ allowed: true }), server.delayMs);
      return;
    case 'close':
      res.socket?.destroy();
      return;
    case 'status-500':
      res.writeHead(500, { 'Content-Type': 'text/plain' });
      res.end('deny');
      return;
    case 'no-uid':
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.end(JSON.stringify({ apiVersion: 'admission.k8s.io/v1', kind: 'AdmissionReview', response: { allowed: true } }));
      return;
    case 'v1beta1':
      return send({ allowed: true }, { apiVersion: 'admission.k8s.io/v1beta1' });
    case 'no-type-meta':
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.end(JSON.stringify({ response: { uid, allowed: true } }));
      return;
    case 'patch-without-type':
      return send({ allowed: true, patch: patchOf([{ op: 'add', path: '/metadata/labels', value: { a: 'b' } }]).patch });
    case 'bad-patch':
      return send({ allowed: true, ...patchOf([{ op: 'replace', path: '/metadata/nothing/here', value: 'x' }]) });
  }
}

export async function startWebhookServer(certificates: Certificates, certificate: CertificateName, mode: Mode): Promise<WebhookServer> {
  const pair = certificates.pairs[certificate];
  let httpsServer: Server | undefined;
  const state: WebhookServer = {
    port: 0,
    address: '',
    received: [],
    mode,
    delayMs: 1500,
    close: () =>
      new Promise((resolve) => {
        httpsServer!.closeAllConnections();
        httpsServer!.close(() => resolve());
      }),
  };
  httpsServer = createServer({ key: pair.key, cert: pair.cert }, (req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const review = JSON.parse(Buffer.concat(chunks).toString('utf8')) as ReceivedRequest['review'];
      const servername = (req.socket as unknown as { servername?: string }).servername;
      state.received.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, servername: servername || undefined, review });
      answer(state, review, res);
    });
  });
  await new Promise<void>((resolve) => httpsServer!.listen(0, '127.0.0.1', resolve));
  const port = (httpsServer.address() as AddressInfo).port;
  return Object.assign(state, { port, address: `127.0.0.1:${port}` });
}
