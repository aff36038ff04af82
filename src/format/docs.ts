/** Where rule docs live, and the parts of a rule doc that formatters show. Pure text handling. */

/** The one place that says where a rule's documentation is published. */
export const RULE_DOCS_BASE_URL = 'https://github.com/admission-lint/admission-lint/blob/main/rules/';

/** The project's home, for SARIF's tool.driver.informationUri. */
export const INFORMATION_URI = 'https://github.com/admission-lint/admission-lint';

export function ruleDocsUrl(ruleId: string): string {
  return `${RULE_DOCS_BASE_URL}${encodeURIComponent(ruleId)}.md`;
}

/** The body of a rule doc's `## What it does` section (Markdown, trimmed), if it has one. */
export function whatItDoes(markdown: string): string | undefined {
  const body = markdown.replace(/\r\n?/g, '\n').replace(/^---\n[\s\S]*?\n---\n/, '');
  const lines = body.split('\n');
  const start = lines.findIndex((line) => /^##\s+What it does\s*$/i.test(line));
  if (start < 0) return undefined;
  const out: string[] = [];
  let inCode = false;
  for (const line of lines.slice(start + 1)) {
    if (/^```/.test(line)) inCode = !inCode;
    if (!inCode && /^#{1,2}\s/.test(line)) break;
    out.push(line);
  }
  const text = out.join('\n').trim();
  return text === '' ? undefined : text;
}

/**
 * Markdown prose as plain text: soft-wrapped lines joined, paragraphs and list items kept,
 * code spans, emphasis and links unwrapped (a link keeps its target in parentheses).
 */
export function markdownToText(markdown: string): string {
  const paragraphs = markdown.replace(/\r\n?/g, '\n').split(/\n\s*\n/);
  return paragraphs
    .map((paragraph) => {
      const lines: string[] = [];
      for (const raw of paragraph.split('\n')) {
        const line = raw.trim();
        if (line === '' || line.startsWith('```')) continue;
        const startsItem = /^([-*+]|\d+[.)])\s/.test(line);
        if (lines.length === 0 || startsItem) lines.push(line);
        else lines[lines.length - 1] += ` ${line}`;
      }
      return lines.map(inlineToText).join('\n');
    })
    .filter((paragraph) => paragraph !== '')
    .join('\n\n');
}

function inlineToText(line: string): string {
  // Code spans first, kept aside so that a `*` in code is not read as emphasis.
  const code: string[] = [];
  const text = line
    .replace(/`([^`]+)`/g, (_match, span: string) => `\u0000${code.push(span) - 1}\u0000`)
    .replace(/\[([^\]]+)\]\(([^)\s]+)\)/g, '$1 ($2)')
    .replace(/(\*\*|__)(?=\S)(.+?)\1/g, '$2')
    .replace(/(^|[\s(])([*_])(?=\S)(.+?)\2(?=$|[\s).,;:!?])/g, '$1$3');
  return text.replace(/\u0000(\d+)\u0000/g, (_match, index: string) => code[Number(index)]!);
}
