/**
 * Inline suppressions, applied after every rule has run and before de-duplication:
 *
 * - `# admission-lint-disable-next-line <id>[,<id>…] -- <reason>` on the line(s) directly before a
 *   field or list item: findings of those rules that start inside that node (and everything
 *   under it);
 * - `# admission-lint-disable-line <id>[,<id>…] -- <reason>` at the end of a line: findings of those
 *   rules that start on that line (as ESLint's; on a line of its own it covers nothing, and says so);
 * - `# admission-lint-disable-file <id>[,<id>…] -- <reason>` anywhere: those rules in the file
 *   (the only form that can suppress `yaml-syntax`);
 *
 * A next-line or line directive whose own node or line has no finding of a rule it names covers
 * that rule's findings in the webhook that holds it (else in its object): users put a directive
 * above the field they reason about (`failurePolicy`), and the finding may be anchored at the
 * webhook itself or at its rules. One that still covers nothing says where the rule's nearest
 * finding is, so the directive can be moved there. A trailing `disable-next-line` covers the
 * field on the next line.
 * - the annotation `admission-lint.dev/ignore: "<id>,…"` (with `admission-lint.dev/ignore-reason`)
 *   on an object: findings of those rules on that object.
 *
 * There is no wildcard. Directives that lack a reason are `suppression-without-reason`; ids that
 * suppressed nothing, are unknown or cannot be suppressed there are `unused-suppression`. A rule
 * that did not run (turned off) never makes its suppressions unused. The findings of those two
 * rules are not suppressible inline.
 */
import { groupBy, lastAtOrBefore } from '../collections.js';
import { formatFieldPath } from '../field-path.js';
import type { SourceFile } from '../load/sources.js';
import { SUPPRESSION_MARK } from '../parse/prefilter.js';
import { lineComments, type LineComment, type Manifest, type ParsedFile, type Span } from '../parse/yaml.js';
import { closest } from '../text/closest.js';
import { joinWords } from '../text/list.js';
import type { Finding } from './finding.js';

export const IGNORE_ANNOTATION = 'admission-lint.dev/ignore';
export const IGNORE_REASON_ANNOTATION = 'admission-lint.dev/ignore-reason';
const NEXT_LINE = 'admission-lint-disable-next-line';
const LINE = 'admission-lint-disable-line';
const FILE = 'admission-lint-disable-file';
/** The two rules about suppressions themselves (rules/suppression-without-reason.ts, rules/unused-suppression.ts): their metadata is in the registry; the engine reports them. */
export const SUPPRESSION_WITHOUT_REASON = 'suppression-without-reason';
export const UNUSED_SUPPRESSION = 'unused-suppression';
/** Rules about suppressions themselves: turned off with --rule, never by a suppression. */
const META_RULES: ReadonlySet<string> = new Set([SUPPRESSION_WITHOUT_REASON, UNUSED_SUPPRESSION]);
const WILDCARDS: ReadonlySet<string> = new Set(['all', '*']);

/** An object that may carry the ignore annotation. */
export interface SuppressibleObject {
  readonly manifest: Manifest;
  readonly apiVersion: string;
  readonly kind: string;
  readonly name: string | undefined;
  readonly written: unknown;
}

/** A finding of one of the suppression rules, for the engine to turn into a Finding. */
export interface SuppressionViolation {
  readonly ruleId: typeof SUPPRESSION_WITHOUT_REASON | typeof UNUSED_SUPPRESSION;
  readonly messageId: string;
  readonly data: Readonly<Record<string, string>>;
  readonly source: SourceFile;
  readonly span: Span;
  readonly documentIndex: number;
  readonly fieldPath: string | null;
  readonly object: Finding['object'];
}

interface RuleRef {
  readonly id: string;
  readonly span: Span;
  used: boolean;
  /** The lines of a finding's other places this reference left uncovered, where it covers one of them: the finding stays. */
  uncoveredLines?: readonly number[];
}

interface Directive {
  readonly kind: 'next-line' | 'line' | 'file' | 'annotation';
  /** How the messages name it. */
  readonly name: string;
  readonly source: SourceFile;
  readonly documentIndex: number;
  readonly span: Span;
  readonly rules: RuleRef[];
  readonly hasReason: boolean;
  /** The text after ` -- ` (or the reason annotation), for SARIF's justification. */
  readonly reason: string;
  /** next-line: the node after it (undefined: none); annotation: the object. */
  readonly scope: Span | undefined;
  readonly fieldPath: string | null;
  readonly object: Finding['object'];
  /** next-line and line: the webhook (else the object) that holds the node or line, set by applySuppressions. */
  enclosing?: Span;
}

export interface SuppressionInput {
  readonly files: readonly ParsedFile[];
  readonly objects: readonly SuppressibleObject[];
  readonly findings: readonly Finding[];
  /**
   * Where else a finding reports the same cause (the other webhooks of a grouped finding): it is
   * suppressed only when every place is covered.
   */
  readonly otherPlaces?: (finding: Finding) => readonly Span[] | undefined;
  /** The rules that ran (enabled and not turned off). */
  readonly ranRules: ReadonlySet<string>;
  /** Every rule id of the run's registry, turned off or not: a suppression naming another is unknown. */
  readonly knownRules: readonly string[];
  /**
   * false: suppression comments and annotations are ignored (`--no-inline-config`, for teams
   * that lint untrusted code: a pull request cannot silence the gate).
   */
  readonly inline?: boolean;
}

/** A finding a suppression covers: dropped from the findings, counted, and carried in SARIF. */
export interface SuppressedFinding {
  readonly finding: Finding;
  /** How it was suppressed (`# admission-lint-disable-next-line`, …). */
  readonly by: string;
  readonly reason: string;
}

export interface SuppressionResult {
  /** The findings no suppression covers. */
  readonly kept: Finding[];
  readonly suppressed: SuppressedFinding[];
  readonly violations: SuppressionViolation[];
}

export function applySuppressions(input: SuppressionInput): SuppressionResult {
  const violations: SuppressionViolation[] = [];
  if (input.inline === false) return { kept: [...input.findings], suppressed: [], violations };
  const directives = [...commentDirectives(input.files, violations), ...annotationDirectives(input.objects)];
  if (directives.length === 0) return { kept: [...input.findings], suppressed: [], violations };

  // By the file read and the name findings give it: a `# Source:` comment in one file names a
  // template, and must not carry that file's suppressions to another file's findings, nor theirs to it.
  const byFile = groupBy(directives, (directive) => placeKey(directive.source.renderedFrom ?? directive.source.path, directive.source.path));
  const enclosing = enclosingFinder(input.objects);
  for (const directive of directives) {
    if ((directive.kind === 'next-line' || directive.kind === 'line') && directive.scope !== undefined) directive.enclosing = enclosing(directive);
  }
  const candidatesOf = candidateFinder(byFile);
  // The rule ids whose directive has a finding of that rule in its own node or line: those do
  // not reach further, into the webhook or object around it.
  // Every place of a finding counts (s36a 2-A): a directive on the line of one of them is that
  // finding's own, and does not reach the object's other places of the same finding.
  const ownHit = new Set<RuleRef>();
  for (const finding of input.findings) {
    if (META_RULES.has(finding.ruleId)) continue;
    const places: readonly Position[] = [finding, ...(input.otherPlaces?.(finding) ?? [])];
    for (const place of places) {
      for (const directive of candidatesOf(keyOf(finding), place.line)) {
        for (const ref of directive.rules) if (ref.id === finding.ruleId && covers(directive, finding, place)) ownHit.add(ref);
      }
    }
  }
  const suppressed: SuppressedFinding[] = [];
  const kept = input.findings.filter((finding) => {
    if (META_RULES.has(finding.ruleId)) return true;
    const places: readonly Position[] = [finding, ...(input.otherPlaces?.(finding) ?? [])];
    let by: Directive | undefined;
    const using: RuleRef[] = [];
    // Every place of the finding must be covered (by this directive or another naming the rule).
    const uncovered = places.filter((place) => {
      let covered = false;
      for (const directive of candidatesOf(keyOf(finding), place.line)) {
        for (const ref of directive.rules) {
          if (ref.id === finding.ruleId && (covers(directive, finding, place) || (!ownHit.has(ref) && coversAround(directive, finding, place)))) {
            using.push(ref);
            by ??= directive;
            covered = true;
          }
        }
      }
      return !covered;
    });
    if (by !== undefined && uncovered.length > 0) {
      for (const ref of using) ref.uncoveredLines ??= [...new Set(uncovered.map((place) => place.line))].sort((a, b) => a - b);
    }
    if (by === undefined || uncovered.length > 0) return true;
    for (const ref of using) ref.used = true;
    suppressed.push({ finding, by: by.name, reason: by.reason });
    return false;
  });

  const known = [...new Set([...input.knownRules, ...input.ranRules])];
  // The kept findings by rule and file, for report's "move it to line N" (asked per unused directive).
  const keptByRuleAndFile = groupBy(kept, (finding) => `${finding.ruleId}\u0000${finding.file}`);
  for (const directive of directives) report(directive, known, input.ranRules, violations, (ruleId, file) => keptByRuleAndFile.get(`${ruleId}\u0000${file}`) ?? []);
  return { kept, suppressed, violations };
}

/** The file read and the name findings give it (a `# Source:` template), as one key. */
function placeKey(read: string, named: string): string {
  return `${read}\u0000${named}`;
}

/** The key of the directives that may cover a finding: the file it was read from, and its name. */
function keyOf(finding: Finding): string {
  return placeKey(finding.rendered?.file ?? finding.file, finding.file);
}

/** The line a next-line or line directive is about: its node's first line, or its own. */
function targetLine(directive: Directive): number | undefined {
  return directive.kind === 'line' ? directive.span.line : directive.scope?.line;
}

/**
 * The webhook (an item of `webhooks`) that holds a directive's node or line, else the object.
 * Each object's spans are located once, and its webhooks' searched by halving (s39a 6: located
 * per directive and webhook, thousands of directed webhooks were quadratic).
 */
function enclosingFinder(objects: readonly SuppressibleObject[]): (directive: Directive) => Span | undefined {
  const byDocument = groupBy(objects, (object) => `${object.manifest.file.path}\u0000${object.manifest.documentIndex}`);
  interface Spans {
    readonly root: Span;
    readonly items: readonly Span[];
    /** The items' first lines, for lastAtOrBefore. */
    readonly lines: readonly number[];
  }
  const spans = new Map<SuppressibleObject, Spans>();
  const spansOf = (object: SuppressibleObject): Spans => {
    let found = spans.get(object);
    if (found === undefined) {
      const webhooks = (object.written as { webhooks?: unknown } | null)?.webhooks;
      const items = Array.isArray(webhooks) ? webhooks.map((_, index) => object.manifest.locate(['webhooks', index])) : [];
      spans.set(object, (found = { root: object.manifest.locate([]), items, lines: items.map((item) => item.line) }));
    }
    return found;
  };
  return (directive) => {
    const line = targetLine(directive);
    if (line === undefined) return undefined;
    const holds = (span: Span): boolean => span.line <= line && line <= span.endLine;
    for (const object of byDocument.get(`${directive.source.path}\u0000${directive.documentIndex}`) ?? []) {
      const { root, items, lines } = spansOf(object);
      if (!holds(root)) continue;
      // Items are in order and do not overlap: the one that may hold the line is the last that
      // starts at or before it. Earlier items that reach the line (one that ends where the next
      // starts, a flow list on one line) come first, as a walk in order finds them.
      let first = lastAtOrBefore(lines, line);
      while (first > 0 && items[first - 1]!.endLine >= line) first--;
      for (let index = first; index >= 0 && index < items.length && items[index]!.line <= line; index++) if (holds(items[index]!)) return items[index]!;
      return root;
    }
    return undefined;
  };
}

/** Scope lines indexed per file before a file falls back to a walk of all its directives. */
const INDEXED_LINES_PER_DIRECTIVE = 64;

/**
 * The directives of a file that may cover a place on `line`, in their order: those of the whole
 * file and every directive whose scope or enclosing span holds the line, found through an index
 * by line (s39a 6: every finding tested every directive of its file). A file whose spans would
 * index too many lines is walked whole.
 */
function candidateFinder(byFile: ReadonlyMap<string, readonly Directive[]>): (key: string, line: number) => readonly Directive[] {
  const indexes = new Map<string, { readonly always: readonly Directive[]; readonly byLine: Map<number, Directive[]> } | undefined>();
  const indexOf = (key: string): { readonly always: readonly Directive[]; readonly byLine: Map<number, Directive[]> } | undefined => {
    if (indexes.has(key)) return indexes.get(key);
    const directives = byFile.get(key) ?? [];
    const always: Directive[] = [];
    const byLine = new Map<number, Directive[]>();
    let budget = INDEXED_LINES_PER_DIRECTIVE * directives.length + 1024;
    let index: { readonly always: readonly Directive[]; readonly byLine: Map<number, Directive[]> } | undefined = { always, byLine };
    for (const directive of directives) {
      if (directive.kind === 'file') {
        always.push(directive);
        continue;
      }
      const lines = new Set<number>();
      for (const span of [directive.scope, directive.enclosing]) {
        if (span === undefined) continue;
        budget -= span.endLine - span.line + 1;
        if (budget < 0) break;
        for (let line = span.line; line <= span.endLine; line++) lines.add(line);
      }
      if (budget < 0) {
        index = undefined;
        break;
      }
      for (const line of lines) {
        const list = byLine.get(line);
        if (list === undefined) byLine.set(line, [directive]);
        else list.push(directive);
      }
    }
    indexes.set(key, index);
    return index;
  };
  const order = new Map<Directive, number>();
  for (const directives of byFile.values()) directives.forEach((directive, at) => order.set(directive, at));
  return (key, line) => {
    const index = indexOf(key);
    if (index === undefined) return byFile.get(key) ?? [];
    const onLine = index.byLine.get(line) ?? [];
    if (index.always.length === 0) return onLine;
    // Both lists are in the file's order: merged, so are they.
    return [...index.always, ...onLine].sort((a, b) => order.get(a)! - order.get(b)!);
  };
}

/** A place in a file: a finding's start, or another place of the same finding. */
interface Position {
  readonly line: number;
  readonly column: number;
}

/** Whether the place starts in the webhook or object around the directive (its reach when its own node has none). */
function coversAround(directive: Directive, finding: Finding, place: Position = finding): boolean {
  if (directive.enclosing === undefined || finding.ruleId === 'yaml-syntax' || finding.documentIndex !== directive.documentIndex) return false;
  return startsWithin(place, directive.enclosing);
}

function covers(directive: Directive, finding: Finding, place: Position = finding): boolean {
  if (directive.kind === 'file') return true;
  // A document that does not parse has no fields or objects to hang a suppression on.
  if (finding.ruleId === 'yaml-syntax') return false;
  if (directive.kind === 'annotation' && (finding.object === null || finding.documentIndex !== directive.documentIndex)) return false;
  return directive.scope !== undefined && startsWithin(place, directive.scope);
}

function startsWithin(place: Position, scope: Span): boolean {
  const afterStart = place.line > scope.line || (place.line === scope.line && place.column >= scope.column);
  const beforeEnd = place.line < scope.endLine || (place.line === scope.endLine && place.column < scope.endColumn);
  const atStart = place.line === scope.line && place.column === scope.column;
  return afterStart && (beforeEnd || atStart);
}

function report(directive: Directive, known: readonly string[], ranRules: ReadonlySet<string>, out: SuppressionViolation[], keptOf: (ruleId: string, file: string) => readonly Finding[]): void {
  const at = (ruleId: SuppressionViolation['ruleId'], messageId: string, data: Record<string, string>, span: Span = directive.span): void => {
    out.push({ ruleId, messageId, data, source: directive.source, span, documentIndex: directive.documentIndex, fieldPath: directive.fieldPath, object: directive.object });
  };
  const listed = directive.rules.map((ref) => ref.id).join(', ');
  if (!directive.hasReason) {
    if (directive.kind === 'annotation') at(SUPPRESSION_WITHOUT_REASON, 'annotation', { rules: listed || '(no rule)' });
    else at(SUPPRESSION_WITHOUT_REASON, 'comment', { directive: directive.name, rules: listed || '(no rule)' });
  }
  if (directive.rules.length === 0) {
    at(UNUSED_SUPPRESSION, 'noRules', { directive: directive.name });
    return;
  }
  if (directive.kind === 'next-line' && directive.scope === undefined) {
    at(UNUSED_SUPPRESSION, 'noTarget', {});
    return;
  }
  if (directive.kind === 'line' && directive.scope === undefined) {
    at(UNUSED_SUPPRESSION, 'lineAlone', {});
    return;
  }
  const where = directive.kind === 'file' ? 'in this file' : directive.kind === 'annotation' ? 'on this object' : directive.kind === 'line' ? 'on this line' : 'in the field or list item after it';
  for (const ref of directive.rules) {
    const data = { directive: directive.name, rule: ref.id };
    if (WILDCARDS.has(ref.id)) at(UNUSED_SUPPRESSION, 'wildcard', data, ref.span);
    else if (!known.includes(ref.id)) {
      const suggestion = closest(ref.id, known);
      if (suggestion) at(UNUSED_SUPPRESSION, 'unknownRuleSuggestion', { ...data, suggestion }, ref.span);
      else at(UNUSED_SUPPRESSION, 'unknownRule', data, ref.span);
    } else if (META_RULES.has(ref.id)) at(UNUSED_SUPPRESSION, 'notSuppressible', data, ref.span);
    else if (ref.id === 'yaml-syntax' && directive.kind !== 'file') at(UNUSED_SUPPRESSION, 'fileOnly', data, ref.span);
    // A rule that did not run found nothing to suppress, through no fault of the suppression.
    // It covers a place of a finding that stands at others too (one cause at several places): the finding stays.
    else if (!ref.used && ref.uncoveredLines !== undefined) at(UNUSED_SUPPRESSION, 'unusedPartly', { ...data, lines: `${ref.uncoveredLines.length === 1 ? 'line' : 'lines'} ${joinWords(ref.uncoveredLines.map(String))}` }, ref.span);
    else if (!ref.used && ranRules.has(ref.id)) {
      // Where the rule did report, nearest first (this document, then the file), for the directive to move to.
      const line = targetLine(directive);
      const elsewhere =
        directive.kind === 'next-line' || directive.kind === 'line'
          ? [...keptOf(ref.id, directive.source.path)]
              .sort((a, b) => Number(a.documentIndex !== directive.documentIndex) - Number(b.documentIndex !== directive.documentIndex) || Math.abs(a.line - (line ?? 0)) - Math.abs(b.line - (line ?? 0)))[0]
          : undefined;
      if (elsewhere !== undefined) at(UNUSED_SUPPRESSION, 'unusedMove', { ...data, line: String(elsewhere.line) }, ref.span);
      else at(UNUSED_SUPPRESSION, 'unused', { ...data, where }, ref.span);
    }
  }
}

/** The directive comments of every file. Files split from one rendered stream share its text. */
function commentDirectives(files: readonly ParsedFile[], out: SuppressionViolation[]): Directive[] {
  // Templates of one rendered stream share its text: it is searched once, not once per template (s39a 8).
  const byText = new Map<string, ParsedFile[] | undefined>();
  for (const file of files) {
    const text = file.source.text;
    if (text === null) continue;
    if (!byText.has(text)) byText.set(text, text.includes(SUPPRESSION_MARK) ? [] : undefined);
    byText.get(text)?.push(file);
  }
  const directives: Directive[] = [];
  for (const [text, sharing] of byText) {
    if (sharing === undefined) continue;
    const comments = lineComments(text, SUPPRESSION_MARK);
    const ownerOf = sharing.length === 1 ? () => sharing[0]! : owners(sharing);
    for (const comment of comments) {
      const file = ownerOf(comment.documentIndex);
      const directive = parseDirective(comment, file.source, out);
      if (directive) directives.push(directive);
    }
  }
  return directives;
}

/** Of the files split from one stream, the one that holds a document (else the stream's own), indexed once. */
function owners(files: readonly ParsedFile[]): (documentIndex: number) => ParsedFile {
  const byDocument = new Map<number, ParsedFile>();
  for (const file of files) {
    for (const { documentIndex } of [...file.manifests, ...file.problems]) if (!byDocument.has(documentIndex)) byDocument.set(documentIndex, file);
  }
  const fallback = files.find((file) => file.source.renderedFrom === undefined) ?? files[0]!;
  return (documentIndex) => byDocument.get(documentIndex) ?? fallback;
}

const DIRECTIVE = new RegExp(`^\\s*${SUPPRESSION_MARK}(\\S*)`);

function parseDirective(comment: LineComment, source: SourceFile, out: SuppressionViolation[]): Directive | undefined {
  const match = DIRECTIVE.exec(comment.text);
  if (!match) return undefined;
  const kind = match[1] === 'disable-next-line' ? 'next-line' : match[1] === 'disable-line' ? 'line' : match[1] === 'disable-file' ? 'file' : undefined;
  if (kind === undefined) {
    out.push({ ruleId: UNUSED_SUPPRESSION, messageId: 'unknownDirective', data: { name: match[1]! }, source, span: comment.span, documentIndex: comment.documentIndex, fieldPath: null, object: null });
    return undefined;
  }
  const restStart = match[0].length;
  const rest = comment.text.slice(restStart);
  const separator = /(^|\s)--(\s|$)/.exec(rest);
  const idsPart = separator ? rest.slice(0, separator.index) : rest;
  const reason = separator ? rest.slice(separator.index + separator[0].length) : '';
  const rules: RuleRef[] = [];
  for (const token of idsPart.matchAll(/[^\s,]+/g)) {
    // Columns inside the comment: the text starts one column after the `#`.
    const column = comment.span.column + 1 + restStart + token.index;
    rules.push({ id: token[0], span: { line: comment.span.line, column, endLine: comment.span.line, endColumn: column + token[0].length }, used: false });
  }
  return {
    kind,
    name: kind === 'file' ? FILE : kind === 'line' ? LINE : NEXT_LINE,
    source,
    documentIndex: comment.documentIndex,
    span: comment.span,
    rules,
    hasReason: reason.trim().length > 0,
    reason: reason.trim(),
    // disable-line: the line it ends (a directive on a line of its own ends none).
    scope: kind === 'next-line' ? comment.next : kind === 'line' && comment.trailing ? { line: comment.span.line, column: 1, endLine: comment.span.line, endColumn: Number.MAX_SAFE_INTEGER } : undefined,
    fieldPath: null,
    object: null,
  };
}

function annotationDirectives(objects: readonly SuppressibleObject[]): Directive[] {
  const directives: Directive[] = [];
  for (const object of objects) {
    const annotations = annotationsOf(object.written);
    const value = annotations?.[IGNORE_ANNOTATION];
    if (typeof value !== 'string') continue;
    const reason = annotations?.[IGNORE_REASON_ANNOTATION];
    const span = object.manifest.locate(['metadata', 'annotations', IGNORE_ANNOTATION]);
    const bare = { line: span.line, column: span.column, endLine: span.endLine, endColumn: span.endColumn };
    directives.push({
      kind: 'annotation',
      name: `the ${IGNORE_ANNOTATION} annotation`,
      source: object.manifest.file,
      documentIndex: object.manifest.documentIndex,
      span: bare,
      rules: [...value.matchAll(/[^\s,]+/g)].map((token) => ({ id: token[0], span: bare, used: false })),
      hasReason: typeof reason === 'string' && reason.trim().length > 0,
      reason: typeof reason === 'string' ? reason.trim() : '',
      scope: object.manifest.locate([]),
      fieldPath: formatFieldPath(['metadata', 'annotations', IGNORE_ANNOTATION]),
      object: { apiVersion: object.manifest.apiVersion ?? object.apiVersion, kind: object.kind, name: object.name ?? null },
    });
  }
  return directives;
}

function annotationsOf(written: unknown): Record<string, unknown> | undefined {
  if (typeof written !== 'object' || written === null) return undefined;
  const metadata = (written as Record<string, unknown>).metadata;
  if (typeof metadata !== 'object' || metadata === null) return undefined;
  const annotations = (metadata as Record<string, unknown>).annotations;
  return typeof annotations === 'object' && annotations !== null ? (annotations as Record<string, unknown>) : undefined;
}
