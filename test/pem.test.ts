/**
 * src/kube/pem.ts reads PEM as Go's encoding/pem Decode does (the cases below follow its source,
 * encoding/pem/pem.go, and its tests): where Go and OpenSSL differ, Go's reading is what the API
 * server trusts.
 */
import { describe, expect, it } from 'vitest';
import { decodePem } from '../src/kube/pem.js';

const body = Buffer.from('admission-lint').toString('base64'); // YWRtaXNzaW9uLWxpbnQ=
const block = (type = 'CERTIFICATE', inner = body): string => `-----BEGIN ${type}-----\n${inner}\n-----END ${type}-----\n`;
const read = (text: string): string[] => decodePem(text).map((each) => `${each.type}${each.headers ? ' (headers)' : ''}: ${each.bytes.toString('latin1')}`);

describe('decodePem', () => {
  it('reads blocks in order, with text between and around them', () => {
    expect(read(`junk\n${block()}between\n${block('PUBLIC KEY')}after`)).toEqual(['CERTIFICATE: admission-lint', 'PUBLIC KEY: admission-lint']);
  });

  it('finds a BEGIN line only at the start of the data or of a line', () => {
    expect(read(`\ufeff${block()}`)).toEqual([]);
    expect(read(`  ${block()}`)).toEqual([]);
    // Two files joined without a line break: the first END line goes on, the second BEGIN is inside a line.
    expect(read(`${block().trimEnd()}${block()}`)).toEqual([]);
  });

  it('reads spaces, tabs, blank lines and CRLF in the body, and trailing blanks on the marker lines', () => {
    expect(read(`-----BEGIN CERTIFICATE----- \t\r\nYWRt\r\n\r\n \taXNz aW9u\r\n  \r\nLWxpbnQ=\r\n-----END CERTIFICATE-----  \r\n`)).toEqual(['CERTIFICATE: admission-lint']);
  });

  it('wants standard padded base64', () => {
    expect(read(block('CERTIFICATE', body.replace('=', '')))).toEqual([]);
    expect(read(block('CERTIFICATE', `${body}=`))).toEqual([]);
    expect(read(block('CERTIFICATE', body.replace('Y', '-')))).toEqual([]);
    expect(read(block('CERTIFICATE', body.replace('Y', '\v')))).toEqual([]);
  });

  it('wants the END line of the same type, with nothing after it on its line', () => {
    expect(read(`-----BEGIN CERTIFICATE-----\n${body}\n-----END PUBLIC KEY-----\n`)).toEqual([]);
    expect(read(`-----BEGIN CERTIFICATE-----\n${body}\n-----END CERTIFICATE----- x\n`)).toEqual([]);
    expect(read(`-----BEGIN CERTIFICATE\n${body}\n-----END CERTIFICATE-----\n`)).toEqual([]);
  });

  it('reads header lines, and an empty block whose END follows its BEGIN line', () => {
    expect(read(`-----BEGIN CERTIFICATE-----\nProc-Type: 4,ENCRYPTED\nDEK-Info: x\n\n${body}\n-----END CERTIFICATE-----\n`)).toEqual(['CERTIFICATE (headers): admission-lint']);
    expect(read('-----BEGIN CERTIFICATE-----\n-----END CERTIFICATE-----\n')).toEqual(['CERTIFICATE: ']);
    // Data that ends among the headers: Go returns no block at all, not even a later one.
    expect(read(`-----BEGIN CERTIFICATE-----\nProc-Type: 4`)).toEqual([]);
  });

  it('starts again after a BEGIN line whose body does not decode (it runs into the next block)', () => {
    expect(read(`-----BEGIN CERTIFICATE-----\n${body}\n${block()}`)).toEqual(['CERTIFICATE: admission-lint']);
  });

  it('stays linear on BEGIN lines without an END, or with one far END', () => {
    const many = '-----BEGIN CERTIFICATE-----\n'.repeat(100_000);
    expect(read(many)).toEqual([]);
    expect(read(`${many}${body}\n-----END CERTIFICATE-----\n`)).toEqual(['CERTIFICATE: admission-lint']);
    expect(read(`${'-----BEGIN CERTIFICATE-----\nQUJD\n'.repeat(50_000)}-----END CERTIFICATE-----\n`)).toHaveLength(1);
  });
});
