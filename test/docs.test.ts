/**
 * The rule docs (rules/<id>.md) cannot drift from the rules: their front matter matches the
 * rule's metadata, their sections follow the template (design.md §5), and every example block
 * is linted here: each `yaml incorrect` block must make its rule report, each `yaml correct`
 * block must not.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { rules } from '../rules/index.js';
import { lintText } from './helpers.js';

const RULES_DIR = join(dirname(fileURLToPath(import.meta.url)), '..', 'rules');

const SECTIONS = ['What it does', 'Why is this bad?', 'Example', 'Use instead', 'Options', 'When not to use it', 'References'];

/** Rules whose findings mean "the API server would not accept this manifest at all". */
const VALIDITY_RULES = ['yaml-syntax', 'schema', 'api-validation'];

interface CodeBlock {
  readonly info: string;
  readonly text: string;
  /** The `## ` section the block is in. */
  readonly section: string | undefined;
  /** 1-based line of the opening fence, for failure messages. */
  readonly line: number;
}

interface RuleDoc {
  readonly frontMatter: Record<string, string>;
  readonly title: string | undefined;
  readonly sections: string[];
  readonly blocks: CodeBlock[];
}

function parseDoc(markdown: string): RuleDoc {
  const lines = markdown.replace(/\r\n/g, '\n').split('\n');
  const frontMatter: Record<string, string> = {};
  let i = 0;
  if (lines[0] === '---') {
    const end = lines.indexOf('---', 1);
    if (end < 0) throw new Error('front matter is not closed by a --- line');
    for (const line of lines.slice(1, end)) {
      const match = /^([A-Za-z][\w-]*):\s*(.*)$/.exec(line);
      if (!match) throw new Error(`front matter line is not "key: value": ${JSON.stringify(line)}`);
      frontMatter[match[1]!] = match[2]!.trim();
    }
    i = end + 1;
  }
  let title: string | undefined;
  const sections: string[] = [];
  const blocks: CodeBlock[] = [];
  let fence: { marker: string; info: string; line: number; body: string[] } | undefined;
  for (; i < lines.length; i++) {
    const line = lines[i]!;
    if (fence) {
      if (line.trimEnd() === fence.marker) {
        blocks.push({ info: fence.info, text: `${fence.body.join('\n')}\n`, section: sections.at(-1), line: fence.line });
        fence = undefined;
      } else {
        fence.body.push(line);
      }
      continue;
    }
    const open = /^(`{3,}|~{3,})\s*(.*)$/.exec(line);
    if (open) {
      fence = { marker: open[1]!, info: open[2]!.trim(), line: i + 1, body: [] };
      continue;
    }
    if (line.startsWith('## ')) sections.push(line.slice(3).trim());
    else if (line.startsWith('# ') && title === undefined) title = line.slice(2).trim();
  }
  if (fence) throw new Error(`code block opened on line ${fence.line} is not closed`);
  return { frontMatter, title, sections, blocks };
}

function docPath(id: string): string {
  return join(RULES_DIR, `${id}.md`);
}

function readDoc(id: string): RuleDoc {
  return parseDoc(readFileSync(docPath(id), 'utf8'));
}

function examples(id: string, info: 'yaml incorrect' | 'yaml correct'): CodeBlock[] {
  if (!existsSync(docPath(id))) return [];
  return readDoc(id).blocks.filter((block) => block.info === info);
}

function brief(findings: readonly { ruleId: string; line: number; message: string }[]): string {
  return findings.map((f) => `${f.ruleId}@${f.line}: ${f.message}`).join('\n') || '(no findings)';
}

describe('rule docs', () => {
  it('every doc in rules/ belongs to a rule in rules/index.ts', () => {
    const ids = new Set(rules.map((rule) => rule.meta.id));
    const docs = readdirSync(RULES_DIR).filter((name) => name.endsWith('.md')).map((name) => name.slice(0, -'.md'.length));
    expect(docs.filter((id) => !ids.has(id))).toEqual([]);
  });

  describe.each(rules.map((rule) => [rule.meta.id, rule] as const))('%s', (id, rule) => {
    it('has a doc file', () => {
      expect(existsSync(docPath(id)), `rules/${id}.md`).toBe(true);
    });

    it('has front matter with exactly the rule id and default severity', () => {
      expect(readDoc(id).frontMatter).toEqual({ id: rule.meta.id, severity: rule.meta.severity });
    });

    it('has the title and the seven sections, in order', () => {
      const doc = readDoc(id);
      expect(doc.title).toBe(id);
      expect(doc.sections).toEqual(SECTIONS);
    });

    it('has incorrect examples under Example and correct ones under Use instead', () => {
      const doc = readDoc(id);
      const incorrect = doc.blocks.filter((block) => block.info === 'yaml incorrect');
      const correct = doc.blocks.filter((block) => block.info === 'yaml correct');
      expect(incorrect.length).toBeGreaterThanOrEqual(1);
      expect(correct.length).toBeGreaterThanOrEqual(1);
      expect(incorrect.map((block) => block.section)).toEqual(incorrect.map(() => 'Example'));
      expect(correct.map((block) => block.section)).toEqual(correct.map(() => 'Use instead'));
    });

    it.each(examples(id, 'yaml incorrect').map((block) => [block.line, block] as const))(
      'the incorrect example at line %i is flagged by the rule',
      async (_line, block) => {
        // An example about an older cluster says so in a leading `# kube-version: 1.21` comment.
        const kubeVersion = /^# kube-version: (\S+)/m.exec(block.text)?.[1];
        const findings = await lintText(block.text, { only: [id], ...(kubeVersion ? { kubeVersion } : {}) });
        expect(findings.filter((f) => f.ruleId === id).length, brief(findings)).toBeGreaterThanOrEqual(1);
      },
    );

    it.each(examples(id, 'yaml correct').map((block) => [block.line, block] as const))(
      'the correct example at line %i is not flagged by the rule',
      async (_line, block) => {
        const findings = await lintText(block.text, { only: [id] });
        expect(findings.filter((f) => f.ruleId === id), brief(findings)).toEqual([]);
      },
    );

    // A correct example must also be a manifest the API server accepts, so it is linted with
    // every rule and may have no yaml-syntax, schema or api-validation finding. This holds for
    // the docs of those three rules too: their correct examples are the fixed manifests.
    it.each(examples(id, 'yaml correct').map((block) => [block.line, block] as const))(
      'the correct example at line %i is a valid manifest',
      async (_line, block) => {
        const findings = await lintText(block.text);
        expect(findings.filter((f) => VALIDITY_RULES.includes(f.ruleId)), brief(findings)).toEqual([]);
      },
    );
  });
});
