/** Every fixture and corpus file linted on its own, fixed as `lint --fix FILE` fixes it, and linted again (test/fix.test.ts, test/fix-kubectl.test.ts). */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { rules } from '../rules/index.js';
import type { Finding } from '../src/engine/finding.js';
import { lint } from '../src/engine/lint.js';
import { fixFileText, type FileFixResult } from '../src/fix/fix-file.js';
import { DEFAULT_KUBE_VERSION } from '../src/kube/version.js';
import { yamlFiles } from './yaml-files.js';

const ROOT = join(import.meta.dirname, '..');
const CORPORA = [join(ROOT, 'fixtures'), join(ROOT, 'test/corpus'), join(ROOT, '../shared/corpus/real-world')].filter((dir) => existsSync(dir));

async function lintPaths(paths: readonly string[]): Promise<Finding[]> {
  const report = await lint({ paths, rules, kubeVersion: DEFAULT_KUBE_VERSION, trustedNamespaceLabels: [], severityOverrides: new Map(), toolVersion: 'test' });
  return [...report.findings];
}

export interface FixCase {
  readonly file: string;
  readonly fixedFile: string;
  readonly text: string;
  readonly result: FileFixResult & { text: string };
}

export interface FixCases {
  readonly cases: readonly FixCase[];
  /** Findings per file before (by original path) and after (by fixed path). */
  readonly findings: ReadonlyMap<string, Finding[]>;
  readonly after: ReadonlyMap<string, Finding[]>;
  readonly suggestions: number;
}

export async function fixCases(): Promise<FixCases> {
  const files = CORPORA.flatMap((dir) => yamlFiles(dir, { json: true }));
  // Each file on its own, as `admission-lint --fix FILE` (a run's CRDs and Namespaces change findings).
  const findings = new Map<string, Finding[]>();
  for (const file of files) findings.set(file, await lintPaths([file]));
  const out = mkdtempSync(join(tmpdir(), 'admission-lint-fix-'));
  const cases: FixCase[] = [];
  let suggestions = 0;
  for (const [file, found] of findings) {
    if (!existsSync(file)) continue;
    const text = readFileSync(file, 'utf8');
    if (text.startsWith('\ufeff') || /\r(?!\n)/.test(text)) continue;
    const result = fixFileText(file, text, found);
    suggestions += result.suggestions.length;
    // As the CLI: a file with a fix that does not prove is left as it was.
    if (result.text === undefined || result.dropped.length > 0) continue;
    const fixedFile = join(out, relative('/', file));
    mkdirSync(join(fixedFile, '..'), { recursive: true });
    writeFileSync(fixedFile, result.text);
    cases.push({ file, fixedFile, text, result: { ...result, text: result.text } });
  }
  const after = new Map<string, Finding[]>();
  for (const c of cases) after.set(c.fixedFile, await lintPaths([c.fixedFile]));

  return { cases, findings, after, suggestions };
}
