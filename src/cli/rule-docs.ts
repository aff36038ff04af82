/** `admission-lint rules` and `admission-lint explain`: the rule metadata and docs, for people and tools. */
import type { ChalkInstance } from 'chalk';
import type { Rule } from '../rule.js';
import { wrapWords } from '../format/wrap.js';

/** The text table fits this many columns (a terminal's usual width; `--format json` has everything). */
export const RULES_TABLE_WIDTH = 100;

const SHORT_KINDS: Record<string, string> = {
  ValidatingWebhookConfiguration: 'validating webhooks',
  MutatingWebhookConfiguration: 'mutating webhooks',
  ValidatingAdmissionPolicy: 'validating policies',
  ValidatingAdmissionPolicyBinding: 'validating bindings',
  MutatingAdmissionPolicy: 'mutating policies',
  MutatingAdmissionPolicyBinding: 'mutating bindings',
  Namespace: 'namespaces',
};

/** The kinds in a few words: the JSON output has the exact kind names. */
function kindsOf(rule: Rule): string {
  if (rule.scope === 'file') return 'files';
  let names = rule.meta.appliesTo.map((kind) => SHORT_KINDS[kind] ?? kind);
  for (const pair of ['webhooks', 'policies', 'bindings']) {
    if (names.includes(`validating ${pair}`) && names.includes(`mutating ${pair}`)) {
      names = names.filter((name) => !name.endsWith(pair)).concat(pair);
    }
  }
  return names.join(', ');
}

export function formatRulesTable(rules: readonly Rule[], format: 'text' | 'json'): string {
  if (format === 'json') {
    const list = rules.map((rule) => ({
      id: rule.meta.id,
      severity: rule.meta.severity,
      kinds: rule.scope === 'file' ? [] : [...rule.meta.appliesTo],
      title: rule.meta.title,
      options: Object.fromEntries(Object.entries(rule.meta.options ?? {}).map(([name, option]) => [name, { ...option }])),
    }));
    return `${JSON.stringify(list, null, 2)}\n`;
  }
  // Id and severity in columns; the title, then the kinds the rule applies to, wrapped beside them.
  const idWidth = Math.max('RULE'.length, ...rules.map((rule) => rule.meta.id.length));
  const severityWidth = 'SEVERITY'.length;
  const indent = ' '.repeat(idWidth + 2 + severityWidth + 2);
  const textWidth = Math.max(RULES_TABLE_WIDTH - indent.length, 30);
  const lines = [`${'RULE'.padEnd(idWidth)}  ${'SEVERITY'.padEnd(severityWidth)}  TITLE (applies to)`];
  for (const rule of rules) {
    const text = [...wrapWords(rule.meta.title, textWidth), ...wrapWords(`(${kindsOf(rule)})`, textWidth)];
    text.forEach((part, index) => lines.push(index === 0 ? `${rule.meta.id.padEnd(idWidth)}  ${rule.meta.severity.padEnd(severityWidth)}  ${part}` : `${indent}${part}`));
  }
  return `${lines.join('\n')}\n`;
}

/**
 * A rule's Markdown doc for a terminal: front matter dropped, headings bold, code blocks
 * indented (and dimmed when colour is on), `code` spans highlighted.
 */
export function renderDoc(markdown: string, chalk: ChalkInstance): string {
  const body = markdown.replace(/^---\n[\s\S]*?\n---\n/, '');
  const out: string[] = [];
  let inCode = false;
  for (const line of body.split('\n')) {
    const fence = /^```(.*)$/.exec(line);
    if (fence) {
      inCode = !inCode;
      const label = { 'yaml incorrect': 'incorrect: flagged', 'yaml correct': 'correct: not flagged' }[fence[1] ?? ''];
      if (inCode && label) out.push(chalk.dim(`    # ${label}`));
      continue;
    }
    if (inCode) out.push(`    ${chalk.dim(line)}`);
    else if (line.startsWith('# ')) out.push(chalk.bold.underline(line.slice(2)));
    else if (line.startsWith('## ')) out.push(chalk.bold(line.slice(3)));
    else out.push(line.replace(/`([^`]+)`/g, (_match, code: string) => chalk.cyan(code)));
  }
  return `${out.join('\n').replace(/\n{3,}/g, '\n\n').trim()}\n`;
}
