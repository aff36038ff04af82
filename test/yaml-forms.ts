/**
 * Generated YAML values of the forms rendered manifests use (issue 23: block scalars, multi-line
 * quoted and plain scalars, nested flow collections, plain scalars after a dash, anchors and
 * aliases), with the tricky variants of each (indentation too shallow, escapes, comment-like
 * lines, indicators): test/simple-yaml.test.ts compares the fast reader with `yaml` on them,
 * test/simple-yaml-kubectl.test.ts with kubectl.
 */
import fc from 'fast-check';

/** Values of the forms issue 23 added: each rendered under a key or a dash at column `indent`. */
const blockLine = fc.constantFrom('echo hi', 'set -e', '# not a comment', '', '  more indented', 'a: b', '- x', 'x \\', 'tab\there', 'trailing  ', '"quoted"', "it's", '---x', '   ');
const blockScalar = fc.record({ header: fc.constantFrom('|', '|-', '>', '>-', '| # c', '>- #c', '|+', '|2'), lines: fc.array(blockLine, { minLength: 0, maxLength: 5 }), extra: fc.constantFrom(0, 1, 2, 3), trailing: fc.constantFrom(0, 1, 2) });
const quotedPart = fc.constantFrom('word', 'two words', 'x # y', 'a: b', '\\t', '\\"', '\\\\', '\\x41', '\\u00e9', '\\ ', 'end  ', '  start', '', "it''s", '\\', '\\q', '\\N');
const multiQuoted = fc.record({ quote: fc.constantFrom('"', "'"), parts: fc.array(quotedPart, { minLength: 1, maxLength: 4 }), extra: fc.constantFrom(0, 1, 2) });
const plainPart = fc.constantFrom('word', 'two words', '-e', "'SELECT 1'", 'x:y', '1', 'true', '', '- x', 'a #b', 'a: b', '#c', '"q"', 'v1.2');
const multiPlain = fc.record({ first: fc.constantFrom('mysql -h', 'text', 'a', '1', '--flag', 'yes'), parts: fc.array(plainPart, { minLength: 1, maxLength: 4 }), extra: fc.constantFrom(0, 1, 2) });
type Flow = string | Flow[] | { [key: string]: Flow };
const flow: fc.Arbitrary<Flow> = fc.letrec<{ f: Flow }>((tie) => ({
  f: fc.oneof(
    { depthSize: 'small' },
    fc.constantFrom('a', 'x-1', '--port=80', '-x', ':9', '"q, r"', "'s'", '1', 'yes', '~', 'e1', '1.5', '0644', 'a b', 'k8s.io/x', '"\\u0041"', '*x', '&a b', '!t x', '', 'a\u00a0'),
    fc.array(tie('f'), { maxLength: 3 }),
    fc.dictionary(fc.constantFrom('a', 'b', 'key', '"q"', 'y', '1'), tie('f'), { maxKeys: 3 }),
  ),
})).f;
function flowText(value: Flow): string {
  if (typeof value === 'string') return value;
  if (Array.isArray(value)) return `[${value.map(flowText).join(', ')}]`;
  return `{${Object.entries(value).map(([k, v]) => `${k}: ${flowText(v)}`).join(', ')}}`;
}
const dashScalar = fc.constantFrom('--port=8080', '-v', '-', '-1', '- x', ':8080', '?x', ': x', '-e x', '--a=b # c', '&a x', '*a', '&a', '*b');
export type Form =
  | { t: 'block'; v: { header: string; lines: string[]; extra: number; trailing: number } }
  | { t: 'mq'; v: { quote: string; parts: string[]; extra: number } }
  | { t: 'mp'; v: { first: string; parts: string[]; extra: number } }
  | { t: 'flow'; v: Flow }
  | { t: 'dash'; v: string };
export const form: fc.Arbitrary<Form> = fc.oneof(
  fc.record({ t: fc.constant('block' as const), v: blockScalar }),
  fc.record({ t: fc.constant('mq' as const), v: multiQuoted }),
  fc.record({ t: fc.constant('mp' as const), v: multiPlain }),
  fc.record({ t: fc.constant('flow' as const), v: flow }),
  fc.record({ t: fc.constant('dash' as const), v: dashScalar }),
);
/** The text after `key:` or `-`, the form's lines below at column `indent` + 2 + extra (extra 0: at the node's own column + 1 or less). */
export function renderForm(f: Form, indent: number): string {
  if (f.t === 'flow') return ` ${flowText(f.v)}`;
  if (f.t === 'dash') return ` ${f.v}`;
  const pad = ' '.repeat(Math.max(0, indent + f.v.extra));
  if (f.t === 'block') return ` ${f.v.header}\n${f.v.lines.map((line) => (line === '' ? '' : pad + line)).join('\n')}${'\n'.repeat(f.v.trailing)}`;
  if (f.t === 'mq') return ` ${f.v.quote}${f.v.parts.map((part, i) => (i === 0 ? part : part === '' ? '' : pad + part)).join('\n')}${f.v.quote}`;
  return ` ${f.v.first}\n${f.v.parts.map((part) => (part === '' ? '' : pad + part)).join('\n')}`;
}


/** Nested block mappings and sequences of keys and scalars, the scalars full of those YAML 1.1 reads as something other than strings. */
const tricky = ['e0', 'E5', 'e', 'yes', 'No', 'ON', 'off', 'y', 'n', 'true', 'False', '~', 'null', '', '0', '07', '08', '0x1F', '1_000', '1e3', '.5', '-1', '+2', '1:20', '2001-12-14', '.inf', '100m', 'nginx:1.27', '/healthz', 'a#b', 'a #b', "'q'", '"q"', "'it''s'", '"a # b"', '[a, b]', '["a, b"]', '{a: b}', '{a: b, c: 1}', '{a:b}', '[]', '{}', '- x', '*x', '&x y', '|', '=', '<<', 'a: b', 'x:', 'é', '0o7', '1.', '1.2.3', '12e', '+', '-.5', '.', 'Y', 'NaN', '00', '1-2', 'x #', '"x" #c', "'x'#c", '[e0, 07, yes]', '{e1: a}', '65532', '123456789012345', '12345678901234567890', '1 2', '9:', 'x\u00a0', '\u3000x', '"q"\u00a0', '[a]\u2003', '{a\u00a0: b}'];
const safe = ['a', 'x', 'nginx:1.27', '100m', '8080', 'true', 'no', 'on', '~', '"q"', "'s'", '[a, 1]', '{k: v}', 'e1', 'e', '0', '07', 'a #c'];
const scalar = fc.oneof({ weight: 1, arbitrary: fc.constantFrom(...tricky) }, { weight: 3, arbitrary: fc.constantFrom(...safe) });
export const keyArb = fc.constantFrom('a', 'b', 'c', 'd', 'e0', 'E1', 'name', '"q"', "'s'", 'true', 'y', '1', 'x.y/z', 'ünï', 'k-1', 'image');
export type Node = { t: 'map'; e: [string, Node][] } | { t: 'seq'; e: Node[] } | { t: 's'; v: string };
export const node = fc.letrec((tie) => ({
  n: fc.oneof({ depthSize: 'small' }, fc.record({ t: fc.constant('s' as const), v: scalar }), fc.record({ t: fc.constant('map' as const), e: fc.array(fc.tuple(keyArb, tie('n') as fc.Arbitrary<Node>), { minLength: 1, maxLength: 3 }) }), fc.record({ t: fc.constant('seq' as const), e: fc.array(tie('n') as fc.Arbitrary<Node>, { minLength: 1, maxLength: 3 }) })),
})).n as fc.Arbitrary<Node>;
export function render(n: Node, indent: number, compactSeq: boolean): string[] {
  const pad = ' '.repeat(indent);
  if (n.t === 'map') return n.e.flatMap(([k, v]) => (v.t === 's' ? [`${pad}${k}: ${v.v}`] : [`${pad}${k}:`, ...render(v, v.t === 'seq' && compactSeq ? indent : indent + 2, compactSeq)]));
  if (n.t === 'seq') return n.e.flatMap((v) => {
    if (v.t === 's') return [`${pad}- ${v.v}`];
    const inner = render(v, indent + 2, compactSeq);
    return [`${pad}- ${inner[0]!.trimStart()}`, ...inner.slice(1)];
  });
  return [`${pad}${n.v}`];
}

/**
 * Documents of `key: form` entries (or `key:` and a one-item sequence `- form`, at the key's
 * column when compact, then a key read after it), under a root key or not; the keys `args` and
 * `env` written once each (a duplicate is not looked for in what is skipped), for the readers'
 * tests with those keys skipped.
 */
export function skippedFormDocuments(seed: number, numRuns: number): string[] {
  const entry = fc.tuple(fc.constantFrom('a', 'args', 'env'), form, fc.boolean());
  const texts: string[] = [];
  fc.assert(
    fc.property(fc.array(entry, { minLength: 1, maxLength: 4 }), fc.constantFrom(0, 2), fc.boolean(), (entries, base, compact) => {
      const lines = entries.map(([key, f, inSequence], i) => {
        const pad = ' '.repeat(base);
        const name = key === 'a' ? `a${i}` : i === entries.findIndex(([other]) => other === key) ? key : `${key}${i}`;
        if (!inSequence) return `${pad}${name}:${renderForm(f, base + 2)}`;
        const dash = base + (compact ? 0 : 2);
        return `${pad}${name}:\n${' '.repeat(dash)}-${renderForm(f, dash + 2)}\n${pad}after${i}: x`;
      });
      texts.push(`${base > 0 ? 'root:\n' : ''}${lines.join('\n')}\nlast: 1\n`);
    }),
    { seed, numRuns },
  );
  return texts;
}
