/**
 * A policy or matchCondition that acts only on objects carrying a label of its own, written in CEL
 * rather than as an objectSelector:
 *
 *     object != null && has(object.metadata.labels) &&
 *       'app.kubernetes.io/managed-by' in object.metadata.labels &&
 *       object.metadata.labels['app.kubernetes.io/managed-by'] == 'my-operator'
 *
 * For the system's own objects this conjunction is false, under the assumption the risk rules
 * already make for an opt-in objectSelector (src/match/kube-system.ts systemObjectLabels): no
 * system object carries a label the system does not set (a key it never uses, or a value it never
 * gives that key). The conjunction is false, not an error, in every case: the object is null
 * (the `!= null` test), it has no labels (has()), it lacks the key (`in`), or its value is
 * another (`==`); CEL's `&&` is false when any side is false, whatever the others give.
 *
 * With `likely`, a key whose values are add-ons' own names (`app.kubernetes.io/managed-by`,
 * whose value on kube-system's add-ons may be `Helm`) compared with another value is taken as
 * false too: not known, but what an operator's own label on its own objects looks like. A rule
 * says what follows from that at a lower severity (rules/matches-kube-system.ts).
 *
 * withForeignLabelGates replaces each such conjunction by `false`, so that the evaluation of the
 * system's requests (src/match/system-requests.ts) decides the expression around it (`!gate ||
 * check` is true). Only the forms above are recognized, token by token; a conjunction missing
 * one of its guards is left as written (reading `labels[key]` where the key is absent errors,
 * and under failurePolicy Fail an error rejects the request).
 */
import { tokenize, type Token } from '../cel/check/parser.js';
import { systemObjectsCarry, systemObjectsNeverCarry } from './kube-system.js';

/** The variables that hold an object (null on DELETE and CREATE respectively). */
const OBJECTS = new Set(['object', 'oldObject']);

/** Tokens that end a conjunction chain at its depth: operators of lower precedence than `&&`, and separators. */
const CHAIN_ENDS = new Set(['||', '?', ':', ',']);
const OPENS = new Set(['(', '[', '{']);
/** A `?` after these is optional syntax (`a.?b`, `m[?k]`, `{?k: v}`, `[?x]`), not a conditional. */
const OPTIONAL_BEFORE = new Set(['.', '[', '{', ',']);
const CLOSES = new Set([')', ']', '}']);

interface Chain {
  /** Index of the chain's first token. */
  readonly start: number;
  /** Indexes where each conjunct starts (the first is `start`). */
  readonly conjuncts: number[];
}

/**
 * `expression` with each conjunction that tests a label of the policy's own (above) replaced by
 * `false`. `nonNull`: the object variables known not to be null for the request's operation.
 */
export function withForeignLabelGates(expression: string, nonNull: ReadonlySet<string>, likely = false): string {
  if (!expression.includes('labels')) return expression;
  const { tokens, issues } = tokenize(expression);
  if (issues.length > 0) return expression;
  // `object` bound by a macro or cel.bind (`list.all(object, …)`) is not the request's object.
  if (tokens.some((token, index) => token.type === 'ident' && OBJECTS.has(token.text) && tokens[index + 1]?.text === ',')) return expression;
  const replaced: { readonly start: number; readonly end: number }[] = [];
  const closing = closingOf(tokens);
  if (closing === undefined) return expression;
  const stack: Chain[] = [{ start: 0, conjuncts: [0] }];
  const close = (chain: Chain, end: number): void => {
    if (chain.conjuncts.length < 2 || end <= chain.start) return;
    const parts = chain.conjuncts.map((from, index) => unwrap(tokens, closing, from, (chain.conjuncts[index + 1] ?? end + 1) - 1));
    if (isForeignLabelGate(parts, nonNull, likely)) replaced.push({ start: tokens[chain.start]!.start, end: tokens[end - 1]!.end });
  };
  for (let i = 0; i < tokens.length; i++) {
    const token = tokens[i]!;
    const chain = stack[stack.length - 1]!;
    if (token.type === 'eof') {
      close(chain, i);
      break;
    }
    if (token.type !== 'punct') continue;
    if (OPENS.has(token.text)) stack.push({ start: i + 1, conjuncts: [i + 1] });
    else if (CLOSES.has(token.text)) {
      close(chain, i);
      if (stack.length === 1) return expression;
      stack.pop();
    } else if (CHAIN_ENDS.has(token.text) && !(token.text === '?' && OPTIONAL_BEFORE.has(tokens[i - 1]?.text ?? ''))) {
      close(chain, i);
      stack[stack.length - 1] = { start: i + 1, conjuncts: [i + 1] };
    } else if (token.text === '&&') chain.conjuncts.push(i + 1);
  }
  if (replaced.length === 0) return expression;
  // Chains close inner first: keep the outermost of nested replacements.
  replaced.sort((a, b) => a.start - b.start || b.end - a.end);
  let out = '';
  let at = 0;
  for (const { start, end } of replaced) {
    if (start < at) continue;
    out += `${expression.slice(at, start)}false`;
    at = end;
  }
  return out + expression.slice(at);
}

/** The tokens [from, to) without parentheses that enclose all of them. */
function unwrap(tokens: readonly Token[], closing: readonly number[], from: number, to: number): readonly Token[] {
  while (to - from >= 2 && tokens[from]!.text === '(' && closing[from] === to - 1) {
    from++;
    to--;
  }
  // No pattern below is longer: a longer conjunct is none of them, and is not copied (a chain of
  // nested groups would copy each group once per level: s39b 5).
  return to - from > LONGEST_PATTERN ? [] : tokens.slice(from, to);
}

/** The most tokens a conjunct of the patterns below has (`X.metadata.labels['K'] == 'V'`). */
const LONGEST_PATTERN = 12;

/**
 * For each opening bracket token, the index of the one that closes it (found once: asking per
 * group made deep nesting quadratic, s39b 5); undefined when they do not pair up.
 */
function closingOf(tokens: readonly Token[]): number[] | undefined {
  const closing = new Array<number>(tokens.length).fill(-1);
  const open: number[] = [];
  for (let i = 0; i < tokens.length; i++) {
    const text = tokens[i]!.type === 'punct' ? tokens[i]!.text : '';
    if (OPENS.has(text)) open.push(i);
    else if (CLOSES.has(text)) {
      const at = open.pop();
      if (at === undefined) return undefined;
      closing[at] = i;
    }
  }
  return open.length === 0 ? closing : undefined;
}

/** The conjunctions the top of this file describes, by their conjuncts. */
function isForeignLabelGate(conjuncts: readonly (readonly Token[])[], nonNull: ReadonlySet<string>, likely: boolean): boolean {
  for (const object of OBJECTS) {
    const guardedNull = nonNull.has(object) || conjuncts.some((part) => isNotNull(part, object));
    if (!guardedNull || !conjuncts.some((part) => isLabelsPresence(part, object))) continue;
    const keysIn = conjuncts.flatMap((part) => keyTestedIn(part, object) ?? []);
    // A key the system never sets: its presence alone is false.
    if (keysIn.some((key) => !systemObjectsCarry(key, undefined))) return true;
    // A key the system may set, compared with a value it never gives it (its values are all known).
    for (const part of conjuncts) {
      const compared = valueCompared(part, object);
      if (compared !== undefined && keysIn.includes(compared.key) && systemObjectsNeverCarry(compared.key, compared.value, likely)) return true;
    }
  }
  return false;
}

const texts = (part: readonly Token[]): string[] => part.map((token) => (token.type === 'string' ? '\0string' : token.text));
const LABELS_PATH = ['.', 'metadata', '.', 'labels'];

/** `X != null` or `null != X`. */
function isNotNull(part: readonly Token[], object: string): boolean {
  const t = texts(part);
  return t.length === 3 && t[1] === '!=' && ((t[0] === object && t[2] === 'null') || (t[0] === 'null' && t[2] === object));
}

/** `has(X.metadata.labels)`. */
function isLabelsPresence(part: readonly Token[], object: string): boolean {
  const t = texts(part);
  return t.join(' ') === ['has', '(', object, ...LABELS_PATH, ')'].join(' ');
}

/** The key K of `'K' in X.metadata.labels`. */
function keyTestedIn(part: readonly Token[], object: string): string | undefined {
  const t = texts(part);
  if (t.join(' ') !== ['\0string', 'in', object, ...LABELS_PATH].join(' ')) return undefined;
  const value = part[0]!.value;
  return typeof value === 'string' ? value : undefined;
}

/** The key and value of `X.metadata.labels['K'] == 'V'` (either side first). */
function valueCompared(part: readonly Token[], object: string): { readonly key: string; readonly value: string } | undefined {
  const read = [object, ...LABELS_PATH, '[', '\0string', ']'];
  const t = texts(part);
  if (t.length !== read.length + 2) return undefined;
  let key: unknown;
  let value: unknown;
  if (t.slice(0, read.length).join(' ') === read.join(' ') && t[read.length] === '==' && t[read.length + 1] === '\0string') {
    key = part[read.length - 2]!.value;
    value = part[read.length + 1]!.value;
  } else if (t[0] === '\0string' && t[1] === '==' && t.slice(2).join(' ') === read.join(' ')) {
    key = part[read.length]!.value;
    value = part[0]!.value;
  }
  return typeof key === 'string' && typeof value === 'string' ? { key, value } : undefined;
}
