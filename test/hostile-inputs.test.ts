/** Hostile inputs: each gives a clear finding or error, never a crash or hang. */
import { spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { lintText } from './helpers.js';
import { checkBytes, checkText } from './fuzz/properties.js';
import { rules } from '../rules/index.js';
import { lint } from '../src/engine/lint.js';
import { DEFAULT_KUBE_VERSION } from '../src/kube/version.js';

const NS = 'apiVersion: v1\nkind: Namespace\nmetadata:\n  name: team\n';
const lintPaths = (paths: string[]) => lint({ paths, rules, kubeVersion: DEFAULT_KUBE_VERSION, trustedNamespaceLabels: [], severityOverrides: new Map(), toolVersion: 'test' });
const ids = async (text: string) => (await lintText(text)).map((f) => f.ruleId);

describe('hostile inputs', () => {
  it('alias bomb (billion laughs) is a yaml-syntax error', async () => {
    let bomb = 'a0: &a0 [x,x,x,x,x,x,x,x,x,x]\n';
    for (let i = 1; i < 10; i++) bomb += `a${i}: &a${i} [${Array(10).fill(`*a${i - 1}`).join(',')}]\n`;
    const findings = await lintText(`${NS}${bomb}`);
    expect(findings.some((f) => f.ruleId === 'yaml-syntax' && /alias/.test(f.message))).toBe(true);
  });

  it('10,000-level nesting (flow and block) is a finding, not a crash', async () => {
    const flow = `${NS}  labels: ${'['.repeat(10000)}${']'.repeat(10000)}\n`;
    await checkText(flow);
    expect((await lintText(flow)).map((f) => f.ruleId)).toEqual(['yaml-syntax']);
    let block = 'apiVersion: v1\nkind: Namespace\nmetadata:\n';
    for (let i = 0; i < 10000; i++) block += `${' '.repeat(i + 2)}k:\n`;
    const findings = await lintText(block);
    // One clear finding, not one "Maximum call stack size exceeded" per node.
    expect(findings.map((f) => [f.ruleId, f.message])).toEqual([['yaml-syntax', expect.stringMatching(/^the document nests too deeply to be read: /)]]);
  });

  it('binary, invalid UTF-8, BOM, empty, comments only, --- only', async () => {
    await checkBytes(new Uint8Array(Array.from({ length: 4096 }, (_, i) => (i * 7919) % 256)));
    expect(await ids('\u00ff')).toEqual([]);
    const invalid = await lintText('');
    expect(invalid).toEqual([]);
    await checkBytes(new Uint8Array([0x61, 0x3a, 0x20, 0xc3, 0x28]));
    await checkBytes(new Uint8Array([0xef, 0xbb, 0xbf, ...new TextEncoder().encode(NS)]));
    expect(await ids('# only\n# comments\n')).toEqual([]);
    expect(await ids('---\n---\n---\n')).toEqual([]);
  });

  it('CRLF keeps positions exact', async () => {
    const text = 'apiVersion: admissionregistration.k8s.io/v1\nkind: ValidatingWebhookConfiguration\nmetadata:\n  name: x\nwebhooks:\n  - name: x.example.com\n    timeoutSeconds: 45\n';
    const lf = await lintText(text);
    const crlf = await lintText(text.replace(/\n/g, '\r\n'));
    const pos = (fs: typeof lf) => fs.map((f) => [f.ruleId, f.line, f.column, f.endLine].join(':'));
    expect(pos(crlf)).toEqual(pos(lf));
  });

  it('tabs as indentation, duplicate keys, scalar and list documents, non-string kind', async () => {
    expect(await ids('apiVersion: v1\nkind: Namespace\nmetadata:\n\tname: x\n')).toContain('yaml-syntax');
    expect(await ids(`${NS}kind: Namespace\n`)).toContain('yaml-syntax');
    await checkText('just a scalar\n');
    await checkText('- a\n- b\n');
    await checkText('apiVersion: v1\nkind: [Namespace]\nmetadata: {name: x}\n');
    await checkText('apiVersion: v1\nkind: 42\n');
  });

  it('a symlink loop and 50,000 files in a folder', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'al-hostile-'));
    mkdirSync(join(dir, 'loop'));
    symlinkSync('..', join(dir, 'loop', 'up'));
    symlinkSync('self.yaml', join(dir, 'loop', 'self.yaml'));
    const many = join(dir, 'many');
    mkdirSync(many);
    for (let i = 0; i < 50000; i++) writeFileSync(join(many, `f${i}.yaml`), i % 1000 === 0 ? NS.replace('team', `t${i}`) : '');
    const started = Date.now();
    try {
      const report = await lintPaths([dir]);
      console.log(`50,000 files: ${Date.now() - started} ms`);
      expect(report.summary.files).toBe(50000);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 120_000);

  it('a 50 MB file', async () => {
    const filler = `# ${'x'.repeat(98)}\n`;
    const text = `${filler.repeat(500_000)}${NS}`;
    const started = Date.now();
    await checkText(text);
    console.log(`50 MB file (comments + a Namespace): ${Date.now() - started} ms`);
  }, 120_000);

  // As root (CI, this workplace) chmod 000 denies nothing, so the check needs an ordinary user.
  const unreadable = (() => {
    const dir = mkdtempSync(join(tmpdir(), 'admission-lint-perm-'));
    const file = join(dir, 'secret.yaml');
    writeFileSync(file, 'kind: ConfigMap\n');
    chmodSync(file, 0o000);
    let denied = false;
    try {
      readFileSync(file);
    } catch {
      denied = true;
    }
    return { dir, file, denied };
  })();
  if (!unreadable.denied) console.log('hostile-inputs: permission-denied case skipped: running as root, chmod 000 does not deny reads');
  it.skipIf(!unreadable.denied)('an unreadable file is a one-line error and exit 2', () => {
    const result = spawnSync(process.execPath, [join(import.meta.dirname, '..', 'bin', 'admission-lint.js'), unreadable.file], { encoding: 'utf8' });
    expect(result.status).toBe(2);
    expect(result.stderr.trim().split('\n')).toHaveLength(1);
    expect(result.stderr).toContain('cannot read');
  });
});
