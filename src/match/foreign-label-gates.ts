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
 * A key prefix the system never uses, tested over every key of the map, is read the same way: a
 * policy that reserves the keys of its own domain for its controller,
 *
 *     !has(object.metadata.annotations) ||
 *       object.metadata.annotations.all(k, !k.startsWith('example.io/restore.') || <check>)
 *
 * is true for every system object (no key has the prefix, so each key's `!startsWith` is true,
 * and CEL's `||` is true when any side is, whatever the others give; without the map, `!has` is
 * true), and `has(X.metadata.M) && X.metadata.M.exists(k, k.startsWith('example.io/') && …)`
 * is false. Such prefixes, and annotation keys, are read so only with `likely`: a project may put
 * its own objects with keys of its domain into kube-system (foreignPrefix), and no list says which
 * annotation keys the system's objects carry, only which domains they come from
 * (src/match/kube-system.ts systemObjectsMayCarryAnnotation).
 *
 * withForeignLabelGates replaces each such conjunction by `false`, and each such disjunction by
 * `true`, so that the evaluation of the system's requests (src/match/system-requests.ts) decides
 * the expression around it (`!gate || check` is true). Only the forms above are recognized, token
 * by token; a conjunction or disjunction missing one of its guards is left as written (reading
 * `labels[key]` where the key is absent errors, and under failurePolicy Fail an error rejects the
 * request).
 */
import { tokenize, type Token } from '../cel/check/parser.js';
import { systemLabelKeyMayStartWith, systemObjectsCarry, systemObjectsMayCarryAnnotation, systemObjectsNeverCarry } from './kube-system.js';

/** The variables that hold an object (null on DELETE and CREATE respectively). */
const OBJECTS = new Set(['object', 'oldObject']);

/** Tokens that end a conjunction chain at its depth: operators of lower precedence than `&&`, and separators. */
const CHAIN_ENDS = new Set(['||', '?', ':', ',']);
/** The maps of an object's metadata read here: labels, and (with `likely`) annotations. */
type MetadataMap = 'labels' | 'annotations';
const MAPS: readonly MetadataMap[] = ['labels', 'annotations'];
const OPENS = new Set(['(', '[', '{']);
/** A `?` after these is optional syntax (`a.?b`, `m[?k]`, `{?k: v}`, `[?x]`), not a conditional. */
const OPTIONAL_BEFORE = new Set(['.', '[', '{', ',']);
const CLOSES = new Set([')', ']', '}']);

interface Chain {
  /** Index of the chain's first token. */
  readonly start: number;
  /** Indexes where each conjunct (or disjunct) starts (the first is `start`). */
  readonly conjuncts: number[];
}

/** A part of a chain: tokens [from, to). */
interface Part {
  readonly from: number;
  readonly to: number;
}

/**
 * `expression` with each conjunction that tests a label of the policy's own (above) replaced by
 * `false`. `nonNull`: the object variables known not to be null for the request's operation.
 */
export function withForeignLabelGates(expression: string, nonNull: ReadonlySet<string>, likely = false): string {
  if (!expression.includes('labels') && !(likely && expression.includes('annotations'))) return expression;
  const { tokens, issues } = tokenize(expression);
  if (issues.length > 0) return expression;
  // `object` bound by a macro or cel.bind (`list.all(object, …)`) is not the request's object.
  if (tokens.some((token, index) => token.type === 'ident' && OBJECTS.has(token.text) && tokens[index + 1]?.text === ',')) return expression;
  const replaced: { readonly start: number; readonly end: number; readonly by: string }[] = [];
  const closing = closingOf(tokens);
  if (closing === undefined) return expression;
  const gates = { tokens, closing, nonNull, likely };
  const partsOf = (chain: Chain, end: number): Part[] => chain.conjuncts.map((from, index) => unwrapRange(tokens, closing, from, (chain.conjuncts[index + 1] ?? end + 1) - 1));
  /** A chain closes at `end`: replaced when its parts are one of the gates (`&&`: false, `||`: true). */
  const close = (chain: Chain, end: number, operator: '&&' | '||'): void => {
    if (chain.conjuncts.length < 2 || end <= chain.start) return;
    const parts = partsOf(chain, end);
    if (operator === '&&' ? isForeignLabelGate(gates, parts) : isForeignKeyDisjunction(gates, parts)) replaced.push({ start: tokens[chain.start]!.start, end: tokens[end - 1]!.end, by: operator === '&&' ? 'false' : 'true' });
  };
  const fresh = (start: number): Chain => ({ start, conjuncts: [start] });
  /** Per bracket depth: the conjunction and the disjunction being read (`&&` binds tighter, so one `||` chain holds `&&` chains). */
  const stack: { and: Chain; or: Chain }[] = [{ and: fresh(0), or: fresh(0) }];
  for (let i = 0; i < tokens.length; i++) {
    const token = tokens[i]!;
    const frame = stack[stack.length - 1]!;
    if (token.type === 'eof') {
      close(frame.and, i, '&&');
      close(frame.or, i, '||');
      break;
    }
    if (token.type !== 'punct') continue;
    if (OPENS.has(token.text)) stack.push({ and: fresh(i + 1), or: fresh(i + 1) });
    else if (CLOSES.has(token.text)) {
      close(frame.and, i, '&&');
      close(frame.or, i, '||');
      if (stack.length === 1) return expression;
      stack.pop();
    } else if (CHAIN_ENDS.has(token.text) && !(token.text === '?' && OPTIONAL_BEFORE.has(tokens[i - 1]?.text ?? ''))) {
      close(frame.and, i, '&&');
      frame.and = fresh(i + 1);
      if (token.text === '||') frame.or.conjuncts.push(i + 1);
      else {
        close(frame.or, i, '||');
        frame.or = fresh(i + 1);
      }
    } else if (token.text === '&&') frame.and.conjuncts.push(i + 1);
  }
  if (replaced.length === 0) return expression;
  // Chains close inner first: keep the outermost of nested replacements.
  replaced.sort((a, b) => a.start - b.start || b.end - a.end);
  let out = '';
  let at = 0;
  for (const { start, end, by } of replaced) {
    if (start < at) continue;
    out += `${expression.slice(at, start)}${by}`;
    at = end;
  }
  return out + expression.slice(at);
}

/** The part [from, to) without parentheses that enclose all of it. */
function unwrapRange(tokens: readonly Token[], closing: readonly number[], from: number, to: number): Part {
  while (to - from >= 2 && tokens[from]!.text === '(' && closing[from] === to - 1) {
    from++;
    to--;
  }
  return { from, to };
}

/** The most tokens a conjunct of the fixed patterns below has (`X.metadata.labels['K'] == 'V'`). */
const LONGEST_PATTERN = 12;

/**
 * A part's token texts (string literals as one mark), or none when it is longer than any fixed
 * pattern: such a part is none of them, and is not copied (a chain of nested groups would copy
 * each group once per level: s39b 5).
 */
function textsOf(tokens: readonly Token[], part: Part): readonly string[] {
  if (part.to - part.from > LONGEST_PATTERN) return [];
  const out: string[] = [];
  for (let i = part.from; i < part.to; i++) out.push(tokens[i]!.type === 'string' ? STRING : tokens[i]!.text);
  return out;
}

const STRING = '\0string';

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

interface Gates {
  readonly tokens: readonly Token[];
  readonly closing: readonly number[];
  readonly nonNull: ReadonlySet<string>;
  readonly likely: boolean;
}

/**
 * Whether no system object carries a key of the map `map` that starts with `prefix` (a whole
 * annotation key is its own prefix): taken so only with `likely`. A project may install its own
 * DaemonSet into kube-system with keys of its domain (s35c 1-A), and a policy that reserves those
 * keys for its controller would then reject the pods the DaemonSet controller creates: nothing in
 * the run shows that kube-system holds none, so what follows is said at a lower severity.
 */
function foreignPrefix(map: MetadataMap, prefix: string, likely: boolean): boolean {
  if (prefix === '' || !likely) return false;
  return map === 'labels' ? !systemLabelKeyMayStartWith(prefix) : !systemObjectsMayCarryAnnotation(prefix);
}

/** The conjunctions the top of this file describes, by their conjuncts. */
function isForeignLabelGate(gates: Gates, parts: readonly Part[]): boolean {
  const { tokens, nonNull, likely } = gates;
  const texts = parts.map((part) => textsOf(tokens, part));
  for (const object of OBJECTS) {
    const guardedNull = nonNull.has(object) || texts.some((part) => isNullTest(part, object, '!='));
    if (!guardedNull) continue;
    for (const map of MAPS) {
      if (map === 'annotations' && !likely) continue;
      if (!texts.some((part) => part.join(' ') === ['has', '(', object, '.', 'metadata', '.', map, ')'].join(' '))) continue;
      // A key of the map tested with `in`, or a prefix no key has, tested with exists().
      if (parts.some((part) => quantifiedPrefix(gates, part, object, map, 'exists') !== undefined)) return true;
      const keysIn = parts.flatMap((part, index) => keyTestedIn(tokens, part, texts[index]!, object, map) ?? []);
      // A key the system never sets: its presence alone is false.
      if (keysIn.some((key) => (map === 'labels' ? !systemObjectsCarry(key, undefined) : foreignPrefix(map, key, likely)))) return true;
      if (map !== 'labels') continue;
      // A key the system may set, compared with a value it never gives it (its values are all known).
      for (const [index, part] of parts.entries()) {
        const compared = valueCompared(tokens, part, texts[index]!, object, map);
        if (compared !== undefined && keysIn.includes(compared.key) && systemObjectsNeverCarry(compared.key, compared.value, likely)) return true;
      }
    }
  }
  return false;
}

/**
 * A disjunction that is true for every system object: `!has(X.metadata.M)` beside
 * `X.metadata.M.all(k, !k.startsWith('P') || …)` for a prefix P no key of theirs has, with X
 * not null (known, or a disjunct `X == null`).
 */
function isForeignKeyDisjunction(gates: Gates, parts: readonly Part[]): boolean {
  const { tokens, nonNull } = gates;
  const texts = parts.map((part) => textsOf(tokens, part));
  for (const object of OBJECTS) {
    if (!nonNull.has(object) && !texts.some((part) => isNullTest(part, object, '=='))) continue;
    for (const map of MAPS) {
      if (!texts.some((part) => part.join(' ') === ['!', 'has', '(', object, '.', 'metadata', '.', map, ')'].join(' '))) continue;
      if (parts.some((part) => quantifiedPrefix(gates, part, object, map, 'all') !== undefined)) return true;
    }
  }
  return false;
}

/**
 * `X.metadata.M.all(k, … || !k.startsWith('P') || …)` (`all`) or `X.metadata.M.exists(k, … &&
 * k.startsWith('P') && …)` (`exists`) for a prefix P that no key of the system's objects has:
 * then every key's test is true (all) or false (exists), whatever the rest of it gives. Its P, or
 * undefined.
 */
function quantifiedPrefix(gates: Gates, part: Part, object: string, map: MetadataMap, macro: 'all' | 'exists'): string | undefined {
  const { tokens, closing } = gates;
  const head = [object, '.', 'metadata', '.', map, '.', macro, '(', '', ','];
  if (part.to - part.from < head.length + 2) return undefined;
  for (let i = 0; i < head.length; i++) {
    const token = tokens[part.from + i]!;
    if (head[i] === '' ? token.type !== 'ident' : token.text !== head[i] || token.type === 'string') return undefined;
  }
  const variable = tokens[part.from + 8]!.text;
  const open = part.from + 7;
  // The macro's call is the whole part: its closing parenthesis ends it.
  if (closing[open] !== part.to - 1) return undefined;
  const bodyFrom = part.from + 10;
  const bodyTo = part.to - 1;
  // The body's parts at its own depth, split by the operator that makes one decide (`||` for
  // all, `&&` for exists); anything of lower precedence at that depth (a conditional, a third
  // argument) is another form.
  const joiner = macro === 'all' ? '||' : '&&';
  const lower = macro === 'all' ? ['?', ':', ','] : ['||', '?', ':', ','];
  const pieces: Part[] = [];
  let from = bodyFrom;
  for (let i = bodyFrom; i < bodyTo; i++) {
    const token = tokens[i]!;
    if (token.type !== 'punct') continue;
    if (OPENS.has(token.text)) {
      i = closing[i]!;
      continue;
    }
    if (lower.includes(token.text) && !(token.text === '?' && OPTIONAL_BEFORE.has(tokens[i - 1]?.text ?? ''))) return undefined;
    if (token.text === joiner) {
      pieces.push(unwrapRange(tokens, closing, from, i));
      from = i + 1;
    }
  }
  pieces.push(unwrapRange(tokens, closing, from, bodyTo));
  for (const piece of pieces) {
    let test = piece;
    if (macro === 'all') {
      if (tokens[piece.from]?.text !== '!' || tokens[piece.from]!.type !== 'punct') continue;
      test = unwrapRange(tokens, closing, piece.from + 1, piece.to);
    }
    const t = textsOf(tokens, test);
    if (t.join(' ') !== [variable, '.', 'startsWith', '(', STRING, ')'].join(' ')) continue;
    const prefix = tokens[test.from + 4]!.value;
    if (typeof prefix === 'string' && foreignPrefix(map, prefix, gates.likely)) return prefix;
  }
  return undefined;
}

/** `X != null` or `null != X` (`==`: the same with `==`). */
function isNullTest(t: readonly string[], object: string, operator: '!=' | '=='): boolean {
  return t.length === 3 && t[1] === operator && ((t[0] === object && t[2] === 'null') || (t[0] === 'null' && t[2] === object));
}

/** The key K of `'K' in X.metadata.M`. */
function keyTestedIn(tokens: readonly Token[], part: Part, t: readonly string[], object: string, map: MetadataMap): string | undefined {
  if (t.join(' ') !== [STRING, 'in', object, '.', 'metadata', '.', map].join(' ')) return undefined;
  const value = tokens[part.from]!.value;
  return typeof value === 'string' ? value : undefined;
}

/** The key and value of `X.metadata.M['K'] == 'V'` (either side first). */
function valueCompared(tokens: readonly Token[], part: Part, t: readonly string[], object: string, map: MetadataMap): { readonly key: string; readonly value: string } | undefined {
  const read = [object, '.', 'metadata', '.', map, '[', STRING, ']'];
  if (t.length !== read.length + 2) return undefined;
  let key: unknown;
  let value: unknown;
  if (t.slice(0, read.length).join(' ') === read.join(' ') && t[read.length] === '==' && t[read.length + 1] === STRING) {
    key = tokens[part.from + read.length - 2]!.value;
    value = tokens[part.from + read.length + 1]!.value;
  } else if (t[0] === STRING && t[1] === '==' && t.slice(2).join(' ') === read.join(' ')) {
    key = tokens[part.from + read.length]!.value;
    value = tokens[part.from]!.value;
  }
  return typeof key === 'string' && typeof value === 'string' ? { key, value } : undefined;
}
