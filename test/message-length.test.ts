/**
 * Every finding message on real manifests is one line of at most 160 characters (the aim is about
 * 140), after its placeholders are filled: it says what is wrong and where, in the manner of Ruff
 * and ESLint; the consequence and the fix are the finding's help (`fix:`) and the rule's doc
 * (`admission-lint explain <rule>`). Both corpora of test/corpus-review.test.ts are linted, each
 * file on its own (as its project would lint it) and each corpus as one run (where the findings
 * about several files at once, such as mutator-ordering and timeout-budget, name the most), with
 * infos too. The real-world corpus (../shared/corpus/real-world) is skipped when it is absent.
 */
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { rules } from '../rules/index.js';
import type { Finding } from '../src/engine/finding.js';
import { lint } from '../src/engine/lint.js';
import { DEFAULT_KUBE_VERSION } from '../src/kube/version.js';

const ROOT = join(import.meta.dirname, '..');
const CORPORA: readonly { readonly name: string; readonly dir: string }[] = [
  { name: 'shared', dir: join(ROOT, '..', 'shared', 'corpus', 'real-world') },
  { name: 'project', dir: join(ROOT, 'test', 'corpus') },
];

/** The hard limit; messages should stay near 140. */
const MAX_LENGTH = 160;

/**
 * Messages that quote the API server's own error, which is kept whole however long it is: a CEL
 * compilation error carries the expression and cel-go's source excerpt (three lines). Each entry
 * is `<corpus>/<file> <rule> <field path>`, and the message must have the server's form.
 */
const SERVER_TEXT: ReadonlyMap<string, RegExp> = new Map([
  // `startWith` for `startsWith` in the Kubernetes documentation's example: the API server's
  // "compilation failed" error with its source excerpt, 260 characters.
  ['project/k8s-website--vap-match-conditions.yaml api-validation spec.validations[0].expression', /^spec\.validations\[0\]\.expression: Invalid value: ".*": compilation failed: ERROR: <input>:/],
]);

const OPTIONS = { rules, kubeVersion: DEFAULT_KUBE_VERSION, trustedNamespaceLabels: [], severityOverrides: new Map(), toolVersion: 'test' } as const;

interface Linted {
  readonly corpus: string;
  readonly finding: Finding;
}

async function lintCorpora(): Promise<Linted[]> {
  const linted: Linted[] = [];
  for (const { name, dir } of CORPORA) {
    if (!existsSync(dir)) continue;
    const files = readdirSync(dir).filter((entry) => /\.(ya?ml|json)$/.test(entry)).sort();
    for (const file of files) {
      const report = await lint({ ...OPTIONS, paths: [join(dir, file)] });
      linted.push(...report.findings.map((finding) => ({ corpus: name, finding })));
    }
    // The whole corpus in one run: the sets of webhooks that several files make together.
    const report = await lint({ ...OPTIONS, paths: [dir] });
    linted.push(...report.findings.map((finding) => ({ corpus: name, finding })));
  }
  return linted;
}

function isServerText({ corpus, finding }: Linted): boolean {
  const key = `${corpus}/${finding.file.split(/[\\/]/).pop()} ${finding.ruleId} ${finding.fieldPath ?? '-'}`;
  return SERVER_TEXT.get(key)?.test(finding.message) ?? false;
}

describe('message length on the real-world corpora', () => {
  it(`every message is one line of at most ${MAX_LENGTH} characters`, async () => {
    const linted = await lintCorpora();
    expect(linted.length).toBeGreaterThan(0);
    const offenders = new Set<string>();
    for (const entry of linted) {
      const { message, ruleId, file, line } = entry.finding;
      if (message.length <= MAX_LENGTH && !/[\r\n]/.test(message)) continue;
      if (isServerText(entry)) continue;
      offenders.add(`${message.length} ${ruleId} ${entry.corpus}/${file.split(/[\\/]/).pop()}:${line} | ${message.replace(/\r?\n/g, '\\n')}`);
    }
    expect([...offenders].sort(), `messages longer than ${MAX_LENGTH} characters or on several lines: shorten them, and move the consequence and the fix to the help and the rule's doc`).toEqual([]);
  }, 120_000);
});
